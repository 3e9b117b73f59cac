// crokinole serve: the page's replay of a game log or a match log: every shot rebuilt by
// the server (/api/replay, /api/match/replay), simulated again and animated, with step,
// play/pause and a scrub bar. Loaded before app.js, whose board and helpers it uses
// (docs/serve.md); watch.js adds a match's own account of each shot.
"use strict";

// ---------- replay ----------
async function loadLog(text) {
  try {
    const log = JSON.parse(text);
    const r = await post("/api/replay", text);
    await startReplay(r, log, `game log: ${r.shots.length} shots`, 0);
  } catch (e) {
    S.replay = null;
    fail("rp-info", e);
  }
}

// Shows the replay `r` (the server's shot files) of `log` (each shot as logged) at shot
// `k`; a match's view (`r.kind === "match"`) brings its own log. `opts`: `after` (called
// when a shot is shown), `speed` (the animation's).
async function startReplay(r, log, note, k, opts) {
  S.replay = Object.assign({ log, files: r.shots, ruleset: r.ruleset, k: 0, playing: false, match: r.kind === "match" ? r : null }, opts || {});
  // The planner's and the study's panels were about another position.
  $("layer-cloud").textContent = "";
  clearPanels("result", "events", "mc-result", "pl-result");
  $("rp-scrub").max = String(r.shots.length - 1);
  $("rp-scrub").disabled = false;
  $("rp-play").disabled = false;
  S.players = r.players;
  S.ruleset = r.ruleset;
  $("players").value = S.players;
  $("ruleset").value = S.ruleset;
  fillSeats();
  $("sec-replay").open = true;
  $("sec-mc").open = false;
  $("sec-plan").open = false;
  $("sec-replay").scrollIntoView({ block: "nearest" });
  status(note);
  await replayShot(k);
}

// Play/pause: each shot's animation, when it ends, starts the next.
function replayPlay() {
  const R = S.replay;
  if (!R) return;
  R.playing = !R.playing;
  $("rp-play").textContent = R.playing ? "pause" : "play";
  if (R.playing && !S.anim) replayShot(R.k + 1 < R.files.length ? R.k + 1 : 0);
}

async function replayShot(k) {
  const R = S.replay;
  if (!R || k < 0 || k >= R.files.length) return;
  R.k = k;
  const file = R.files[k];
  const logged = R.log.shots[k];
  $("rp-scrub").value = String(k);
  $("rp-pos").textContent = `${k + 1} / ${R.files.length}`;
  $("rp-prev").disabled = k === 0;
  $("rp-next").disabled = k === R.files.length - 1;
  // A forfeited shot of a match: nothing was flicked, nothing to animate.
  if (!file) return forfeitedShot(R, k);
  const entry = file.shots[0];
  S.seat = entry.seat;
  S.discs = entry.discs.map((d) => ({ team: d.team, pos: d.pos }));
  $("seat").value = S.seat;
  // The flick fields show this shot's flick (its start read back as a flick).
  const sh = entry.shooter, sp = Math.hypot(sh.vel[0], sh.vel[1]);
  const dir = boardToSeat(S.seat, [sh.vel[0] / sp, sh.vel[1] / sp]);
  S.flick = { offset: boardToSeat(S.seat, sh.pos)[0], aim: Math.atan2(-dir[0], dir[1]), speed: sp, spin: sh.spin || 0 };
  syncInputs();
  $("layer-cloud").textContent = "";
  $("layer-heat").textContent = "";
  drawBoard();
  setState("busy");
  try {
    const out = await post(`/api/simulate?rules=${R.ruleset}&trace=5`, file);
    const o = out.outcomes[0];
    const same = JSON.stringify(o.discs.map((d) => d.pos)) === JSON.stringify(logged.outcome.discs.map((d) => d.pos));
    const seatLog = (R.log.seats || []).find((s) => s.seat === entry.seat);
    show("rp-info",
      h("div", { class: "big" }, `Shot ${k + 1} of ${R.files.length}: round ${logged.round}, seat ${logged.seat} (team ${logged.team}` +
        `${seatLog ? ", " + seatLog.strategy : ""})`),
      h("div", {}, `Round totals ${[].concat(logged.round_totals).join(" : ")}, game score ${[].concat(logged.score).join(" : ")}. Simulated again: `,
        h("span", { id: "rp-match", class: same ? "ok" : "bad" }, same ? "the same final positions as the log" : "differs from the log")),
      R.match ? matchShotInfo(R, k) : "");
    $("rp-info").scrollIntoView({ block: "nearest" });
    S.last = null;
    animate(entry, o, () => {
      show("result", verdictNode(o.rules));
      replayNext(R);
    }, R.speed);
  } catch (e) {
    fail("rp-info", e);
  }
}


// After shot `R.k` was shown: the watcher's callback, and the next shot when playing.
function replayNext(R) {
  if (R.after) R.after();
  if (R.playing && S.replay === R) {
    if (R.k + 1 < R.files.length) setTimeout(() => { if (R.playing) replayShot(R.k + 1); }, 400);
    else replayPlay();
  }
}
