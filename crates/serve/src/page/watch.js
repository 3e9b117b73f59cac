// crokinole serve: matches on the page. A `crokinole match` log loaded in the replay view
// (/api/match/replay: each shot's seat, flicks, forfeit, round end, the result and
// whether the log verified), and a match between built-in strategies started here and
// watched live (/api/match/watch?shots=N: the server plays the match again from its seed
// up to one shot more each time, deciding only the new shot; the page animates it). Loaded before app.js,
// whose board and helpers it uses, and after replay.js (docs/serve.md, docs/match.md).
"use strict";

// The watched match: its request, the shots shown (their shot files and logged shots), its
// log once over, whether it runs.
const W = { req: null, shots: 0, files: [], logged: [], log: "", running: false, over: false };

// Whether `text` is a match log: its first line is `{"type": "match", ...}`.
function isMatchLog(text) {
  const first = text.split("\n", 1)[0];
  try { return JSON.parse(first).type === "match"; } catch (e) { return false; }
}

async function loadMatchLog(text, name) {
  // A log loaded replaces the match being watched.
  Object.assign(W, { req: null, running: false });
  $("w-status").textContent = "";
  watchButtons();
  try {
    const r = await post("/api/match/replay", text);
    await startReplay(r, r.log, `${name}: a match log of ${r.shots.length} shots, ${r.verified ? "verified" : "NOT verified"}`, 0);
    showVerdict(r);
  } catch (e) {
    S.replay = null;
    fail("rp-info", e);
  }
}

// The match's heading: players, verification, and the result once known.
function showVerdict(r, live) {
  const names = r.seats.map((s) => h("span", { class: `team${s.team}-label` }, `seat ${s.seat}: ${s.name}`));
  const verified = r.verified
    ? h("span", { id: "w-verified", class: "ok" }, "the log verified: every flick, outcome and score follows from the seed and the engine")
    : h("span", { id: "w-verified", class: "bad" }, `the log did NOT verify: line ${r.problem.line}: ${r.problem.problem}`);
  show("w-match", h("div", {}, ...names.flatMap((n) => [n, " "])), h("div", {}, verified),
    h("div", { id: "w-result" }, resultText(r, live)));
}

function resultText(r, live) {
  const e = r.end;
  if (!e) return r.stopped ? (live ? "under way" : "the match was stopped before its end") : "no result in the log";
  const who = e.winner === null || e.winner === undefined
    ? (e.reason === "rounds" ? "undecided at the round cap" : "a draw") : `team ${e.winner} wins`;
  const why = e.reason === "forfeit" ? `seat ${e.forfeit.seat} forfeited: ${e.forfeit.why}` : `by ${e.reason}`;
  return `Result: ${who}, ${e.scores.join(" : ")} (${why})`;
}

function flickText(f) {
  if (!f) return "none";
  return `offset ${f.offset.toFixed(4)} m, aim ${f.aim.toFixed(4)} rad, speed ${f.speed.toFixed(3)} m/s, spin ${f.spin.toFixed(2)} rad/s`;
}

// A match shot's own account: who shot, the flicks, the round's end.
function matchShotInfo(R, k) {
  const s = R.log.shots[k];
  const seat = R.match.seats.find((x) => x.seat === s.seat);
  const rows = [
    h("div", { class: "w-shot", "data-line": String(s.line) }, `Seat ${s.seat} (${seat ? seat.name : "?"}), log line ${s.line}`),
    h("div", {}, `intended: ${flickText(s.intended)}`),
    h("div", {}, `executed: ${flickText(s.executed)}`),
  ];
  if (s.forfeit) rows.push(h("div", { class: "bad" }, `forfeited: ${s.forfeit}`));
  const p = R.match.problem;
  if (p && s.lines && p.line >= s.lines[0] && p.line <= s.lines[1]) {
    rows.push(h("div", { id: "rp-bad-line", class: "bad" }, `line ${p.line}, of this shot, did not verify: ${p.problem}`));
  }
  if (s.round_end) rows.push(h("div", { class: "big" }, `Round ${s.round_end.round} ends: ${s.round_end.round_points.join(" : ")}, game ${s.round_end.scores.join(" : ")}`));
  return h("div", { id: "rp-shot" }, ...rows);
}

// A forfeited shot: nothing was flicked; said, not animated.
function forfeitedShot(R, k) {
  const s = R.log.shots[k];
  show("rp-info",
    h("div", { class: "big" }, `Shot ${k + 1} of ${R.files.length}: round ${s.round}, seat ${s.seat} (team ${s.team}) forfeited its shot`),
    h("div", {}, `Round totals ${s.round_totals.join(" : ")}, game score ${s.scores.join(" : ")}.`),
    matchShotInfo(R, k));
  $("result").textContent = "";
  setState("done");
  replayNext(R);
}

// ---------- watching a match live ----------
function watchSeatRows() {
  const players = Number($("w-players").value);
  const seats = players === 4 ? [0, 1, 2, 3] : [0, 2];
  const box = $("w-seats");
  box.textContent = "";
  seats.forEach((s, k) => {
    const team = players === 4 ? s % 2 : (s === 0 ? 0 : 1);
    const player = h("input", { class: "w-player", type: "text", size: "14", value: k % 2 === 0 ? "greedy" : "random", "aria-label": `seat ${s} strategy` });
    const skill = h("select", { class: "w-skill", "aria-label": `seat ${s} skill` },
      h("option", { value: "" }, "exact (no error)"),
      Object.keys(SKILLS).map((n) => h("option", { value: n }, n)));
    skill.value = Object.keys(SKILLS).includes("club") ? "club" : "";
    box.appendChild(h("div", { class: "row w-seat" }, h("span", { class: `team${team}-label` }, `seat ${s}`), "builtin:", player, skill));
  });
}

function watchRequest() {
  const seats = [...document.querySelectorAll("#w-seats .w-seat")].map((row) => {
    const skill = row.querySelector(".w-skill").value;
    const seat = { player: `builtin:${row.querySelector(".w-player").value.trim()}` };
    if (skill) seat.skill = skill;
    return seat;
  });
  return {
    players: Number($("w-players").value),
    ruleset: $("w-ruleset").value,
    seed: Math.max(0, Math.floor(Number($("w-seed").value)) || 0),
    max_rounds: Math.max(1, Math.floor(Number($("w-rounds").value)) || 1),
    seats,
  };
}

function watchButtons() {
  $("w-start").disabled = W.running;
  $("w-stop").disabled = !W.running;
  $("w-log").disabled = !W.req || !W.shots;
}

// The log of the match as far as it was watched: the server's answer once the game is
// over, else the match played again to the shots shown, ended as stopped.
async function watchLog() {
  try {
    let text = W.log;
    if (!text) text = (await post(`/api/match/watch?shots=${W.shots}&seen=${W.shots}&log`, W.req)).log;
    download("crokinole-match.jsonl", text);
    return text;
  } catch (e) {
    fail("w-status", e);
  }
}

async function watchStart() {
  W.req = watchRequest();
  Object.assign(W, { shots: 0, files: [], logged: [], log: "", running: true, over: false });
  $("w-match").textContent = "";
  watchButtons();
  const req = W.req;
  try {
    while (W.running && W.req === req && !W.over) {
      // The server sends the shots from `seen` on; the page keeps the earlier ones.
      const r = await post(`/api/match/watch?shots=${W.shots + 1}&seen=${W.shots}`, req);
      if (W.req !== req) return;
      W.log = r.log || "";
      W.over = r.over;
      const v = r.view;
      W.files = W.files.slice(0, v.from).concat(v.shots);
      W.logged = W.logged.slice(0, v.from).concat(v.log.shots);
      v.shots = W.files;
      v.log.shots = W.logged;
      const n = W.logged.length;
      if (n > W.shots) {
        W.shots = n;
        const speed = Number($("w-speed").value) || 1;
        await new Promise((resolve) => {
          startReplay(v, v.log, `watching: shot ${n}`, n - 1, { after: resolve, speed });
        });
      }
      showVerdict(v, !W.over);
      $("w-status").textContent = W.over ? `the match is over after ${n} shots` : `shot ${n}`;
      watchButtons();
    }
  } catch (e) {
    fail("w-status", e);
  }
  if (W.req === req) W.running = false;
  watchButtons();
}

function watchStop() {
  W.running = false;
  watchButtons();
}

function startWatchUi() {
  watchSeatRows();
  $("w-players").addEventListener("change", watchSeatRows);
  $("w-start").addEventListener("click", watchStart);
  $("w-stop").addEventListener("click", watchStop);
  $("w-log").addEventListener("click", watchLog);
  window.crokinole.watch = { W, watchStart, watchStop, watchLog };
}
