// crokinole serve: the page's replay of a game log: every shot rebuilt by the server
// (/api/replay), simulated again and animated, with step, play/pause and a scrub bar.
// Loaded before app.js, whose board and helpers it uses (docs/serve.md).
"use strict";

// ---------- replay ----------
async function loadLog(text) {
  try {
    const log = JSON.parse(text);
    const r = await post("/api/replay", text);
    S.replay = { log, files: r.shots, ruleset: r.ruleset, k: 0, playing: false };
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
    status(`game log: ${r.shots.length} shots`);
    await replayShot(0);
  } catch (e) {
    S.replay = null;
    fail("rp-info", e);
  }
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
  const entry = file.shots[0];
  const logged = R.log.shots[k];
  S.seat = entry.seat;
  S.discs = entry.discs.map((d) => ({ team: d.team, pos: d.pos }));
  $("seat").value = S.seat;
  // The flick fields show this shot's flick (its start read back as a flick).
  const sh = entry.shooter, sp = Math.hypot(sh.vel[0], sh.vel[1]);
  const dir = boardToSeat(S.seat, [sh.vel[0] / sp, sh.vel[1] / sp]);
  S.flick = { offset: boardToSeat(S.seat, sh.pos)[0], aim: Math.atan2(-dir[0], dir[1]), speed: sp, spin: sh.spin || 0 };
  syncInputs();
  $("rp-scrub").value = String(k);
  $("rp-pos").textContent = `${k + 1} / ${R.files.length}`;
  $("layer-cloud").textContent = "";
  $("layer-heat").textContent = "";
  drawBoard();
  $("rp-prev").disabled = k === 0;
  $("rp-next").disabled = k === R.files.length - 1;
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
        h("span", { id: "rp-match", class: same ? "ok" : "bad" }, same ? "the same final positions as the log" : "differs from the log")));
    $("rp-info").scrollIntoView({ block: "nearest" });
    S.last = null;
    animate(entry, o, () => {
      show("result", verdictNode(o.rules));
      if (R.playing && S.replay === R) {
        if (R.k + 1 < R.files.length) setTimeout(() => { if (R.playing) replayShot(R.k + 1); }, 400);
        else replayPlay();
      }
    });
  } catch (e) {
    fail("rp-info", e);
  }
}

