// crokinole serve: the game against the computer (docs/play-on-the-page.md). Loaded after
// app.js, whose board, animation and helpers it uses. The page keeps the game file (the
// seats, each a human or a strategy with its noise, the rules, the seed, and the intended
// flick of every shot so far); every step posts it to /api/game, which plays it again from
// the start and then lets the computer seats play, one shot per request, until it is a
// human's turn or the game is over. Nothing of the game lives on the server.
"use strict";

const G = {
  config: null,   // the game file without its shots
  shots: [],      // the decisions so far: {offset, aim, target?, speed, spin, value, candidates}
  log: null,      // the game log as the server last sent it
  state: null,    // {turn, human, over, capped, round, discs_left, board_score, score, winner, position}
  busy: false,
  hint: null,
  gen: 0,         // bumped by a new game, a load or leaving: an older step's answer is dropped
};
const STRATEGIES = ["human", "greedy", "montecarlo", "random", "planner"];

function gameActive() { return G.config !== null; }
function humanTurn() { return gameActive() && G.state && G.state.human && !G.busy; }

// ---------- the new-game form ----------
function seatRows() {
  const players = Number($("g-players").value);
  const seats = players === 4 ? [0, 1, 2, 3] : [0, 2];
  const box = $("g-seats");
  box.textContent = "";
  seats.forEach((s, k) => {
    const team = players === 4 ? s % 2 : (s === 0 ? 0 : 1);
    const player = h("select", { class: "g-player", "data-seat": s, "aria-label": `seat ${s} player` },
      STRATEGIES.map((n) => h("option", { value: n }, n === "human" ? "you (human)" : n)));
    player.value = k === 0 ? "human" : "greedy";
    const budget = h("input", { class: "g-budget", type: "number", min: "1000", step: "1000", value: "2000", title: "planner budget, samples", "aria-label": `seat ${s} planner budget` });
    const noise = h("select", { class: "g-noise", "aria-label": `seat ${s} noise` },
      h("option", { value: "" }, "exact (no error)"),
      Object.keys(SKILLS).map((n) => h("option", { value: n }, n)),
      h("option", { value: "custom" }, "the widths of Monte Carlo"));
    noise.value = Object.keys(SKILLS).includes("competitive") ? "competitive" : "";
    const row = h("div", { class: "row g-seat" }, h("span", { class: `team${team}-label` }, `seat ${s} (team ${team})`), player, budget, noise);
    const sync = () => { budget.hidden = player.value !== "planner"; };
    player.addEventListener("change", sync);
    sync();
    box.appendChild(row);
  });
}

function readConfig() {
  const players = Number($("g-players").value);
  const seats = [...document.querySelectorAll("#g-seats .g-seat")].map((row) => {
    const p = row.querySelector(".g-player").value;
    const budget = Math.floor(Number(row.querySelector(".g-budget").value)) || 2000;
    const n = row.querySelector(".g-noise").value;
    // "custom": the four widths of the Monte Carlo section, as a study file's noise.
    const noise = n === "custom" ? Object.fromEntries(NOISE_KEYS.map((k) => [k, Number($(`n-${k}`).value) || 0])) : n || {};
    return { player: p === "planner" ? `planner:budget=${budget}` : p, noise };
  });
  return {
    players,
    ruleset: $("g-ruleset").value,
    seed: Math.max(0, Math.floor(Number($("g-seed").value)) || 0),
    max_rounds: Math.max(1, Math.floor(Number($("g-rounds").value)) || 100),
    seats,
  };
}

function writeConfig(c) {
  $("g-players").value = String(c.players);
  seatRows();
  const rows = [...document.querySelectorAll("#g-seats .g-seat")];
  (c.seats || []).forEach((s, k) => {
    if (!rows[k]) return;
    const name = String(s.player || "").split(":")[0];
    const sel = rows[k].querySelector(".g-player");
    sel.value = STRATEGIES.includes(name) ? name : "greedy";
    const m = /budget=(\d+)/.exec(String(s.player || ""));
    if (m) rows[k].querySelector(".g-budget").value = m[1];
    rows[k].querySelector(".g-budget").hidden = sel.value !== "planner";
    const widths = s.noise && typeof s.noise === "object" && Object.keys(s.noise).length > 0;
    rows[k].querySelector(".g-noise").value = typeof s.noise === "string" ? s.noise : widths ? "custom" : "";
    if (widths) for (const key of NOISE_KEYS) $(`n-${key}`).value = s.noise[key] || 0;
  });
  $("g-ruleset").value = c.ruleset || "traditional";
  $("g-seed").value = c.seed || 0;
  $("g-rounds").value = c.max_rounds || 100;
}

// The game file: the configuration and the decisions so far.
function gameFile(shots) { return Object.assign({}, G.config, { shots }); }

function noiseWords(noise) {
  if (typeof noise === "string" && noise) {
    const r = SKILLS[noise];
    return r ? `as a ${noise} player (offset ±${fmt(r.noise.offset, 4)} m, aim ±${fmt(r.noise.aim, 4)} rad, speed ±${fmt(100 * r.noise.speed, 1)} %, spin ±${fmt(r.noise.spin, 2)} rad/s)` : `as a ${noise} player`;
  }
  if (noise && typeof noise === "object" && Object.keys(noise).length > 0) {
    return `with errors of offset ±${fmt(noise.offset || 0, 4)} m, aim ±${fmt(noise.aim || 0, 4)} rad, speed ±${fmt(100 * (noise.speed || 0), 1)} %, spin ±${fmt(noise.spin || 0, 2)} rad/s`;
  }
  return "exactly as you aim it (no error: practice)";
}

// ---------- talking to the server ----------
function gameError(msg) {
  G.busy = false;
  show("g-error", msg ? h("span", { class: "bad" }, msg) : "");
  if (msg) setState("error");
}

// The server's messages name the game file's fields; on the page, say what the player did.
function playerWords(message) {
  return String(message)
    .replace(/^game file: field `shots\[\d+\]`: /, "That flick cannot be played: ")
    .replace(/^game file: field `seats\[(\d+)\]\.player`: /, (m, k) => `Seat row ${Number(k) + 1}: `)
    .replace(/^game file: /, "");
}

async function advance(shots, opts) {
  const q = new URLSearchParams({ moves: String(opts.moves ?? 1), trace: "10" });
  if (opts.seen !== undefined) q.set("seen", String(opts.seen));
  if (opts.hint) q.set("hint", String(opts.hint));
  return post(`/api/game?${q}`, gameFile(shots));
}

function decisionOf(s) {
  const f = { offset: s.intended.offset, aim: s.intended.aim, speed: s.intended.speed, spin: s.intended.spin };
  if (s.intended.target) f.target = s.intended.target;
  f.value = s.value;
  f.candidates = s.candidates;
  return f;
}

function tempo() { return Number($("g-speed").value) || 1; }

// Plays the answer's new shots one after the other, then shows the state; goes on while
// it is a computer's turn.
function animateAll(r) {
  return new Promise((resolve) => {
    const entries = r.shot_file ? r.shot_file.shots : [];
    let k = 0;
    const next = () => {
      if (k >= entries.length) { resolve(); return; }
      const e = entries[k], o = r.outcomes[k];
      const logged = r.log.shots[r.from + k];
      S.seat = e.seat; S.players = G.config.players;
      drawBoard();
      showTurn(`Seat ${e.seat} shoots (${seatName(e.seat)})`, logged);
      k++;
      if (tempo() >= 1000) { drawShotEnd(e, o); next(); return; }
      animate(e, o, next, tempo());
    };
    next();
  });
}

// A shot's end without its animation: its path whole, the discs where they stopped.
function drawShotEnd(entry, outcome) {
  clearShotLayers();
  const teams = entry.discs.map((d) => d.team).concat([entry.shooter.team]);
  for (const p of outcome.trace.paths) {
    el("polyline", { class: `path team${teams[p.id]}`, points: p.points.map((q) => `${X([q[1], q[2]])},${Y([q[1], q[2]])}`).join(" ") }, $("layer-paths"));
  }
  drawDiscs(outcome.discs.map((d, id) => ({ id, team: d.team, pos: d.pos, state: d.state })));
}

async function step(shots, opts) {
  const gen = G.gen;
  G.busy = true;
  gameError("");
  setState("game-busy");
  if (G.state && !G.state.over && G.state.turn !== null && !G.state.human) status(`seat ${G.state.turn} (${seatName(G.state.turn)}) is thinking...`);
  let r;
  try {
    r = await advance(shots, opts);
  } catch (e) {
    if (gen === G.gen) gameError(playerWords(e.message));
    return;
  }
  if (gen !== G.gen) return;
  G.shots = r.log.shots.map(decisionOf);
  G.log = r.log;
  G.state = r.state;
  G.hint = null;
  await animateAll(r);
  if (gen !== G.gen) return;
  showState();
  if (!r.state.over && !r.state.human) {
    return step(G.shots, { moves: 1, seen: G.shots.length });
  }
  G.busy = false;
  showPosition();
  setState(r.state.over ? "game-over" : "your-turn");
}

// ---------- what the page shows ----------
function seatIndex(seat) { return (G.config.players === 4 ? [0, 1, 2, 3] : [0, 2]).indexOf(seat); }
function seatConfig(seat) { return G.config.seats[seatIndex(seat)] || {}; }
function seatName(seat) {
  const s = seatConfig(seat);
  return s.player === "human" ? "you" : `computer: ${String(s.player).split(":")[0]}`;
}

function showTurn(text, logged) {
  const kids = [h("div", { class: "big" }, text)];
  if (logged) kids.push(h("div", { class: "note" }, `round ${logged.round + 1}, shot ${logged.shot + 1}`));
  show("g-turn", kids);
}

// The discs at rest now, the human's shooting arc, and (if any) the hint; the last shot's
// path stays until the next shot.
function showPosition() {
  S.players = G.config.players;
  S.discs = G.state.position.map((d) => ({ team: d.team, pos: d.pos }));
  if (G.state.turn !== null) S.seat = G.state.turn;
  drawBoard();
  // At the game's end the board keeps the last shot's discs (the round's final position).
  if (!G.state.over) drawDiscs();
  $("layer-cloud").textContent = "";
  $("layer-heat").textContent = "";
  if (G.state.over) {
    $("layer-flick").textContent = "";
    for (const arc of document.querySelectorAll("#layer-board .seat-arc")) arc.remove();
  }
  else drawFlick();
}

function showState() {
  const st = G.state, c = G.config;
  const seats = c.players === 4 ? [0, 1, 2, 3] : [0, 2];
  const line = `team 0 ${st.score[0]} : ${st.score[1]} team 1 (on the board ${st.board_score[0]} : ${st.board_score[1]})`;
  status(st.over ? `game over: ${line}` : st.human ? `your turn, seat ${st.turn}: ${line}` : `seat ${st.turn} to play: ${line}`);
  if (st.over) {
    const w = st.winner;
    const msg = st.capped ? `Game stopped after ${c.max_rounds} round(s): ${st.score[0]} to ${st.score[1]}.`
      : w === null ? `Game over: a draw, ${st.score[0]} to ${st.score[1]}.`
        : `Game over: team ${w} wins, ${st.score[w]} to ${st.score[1 - w]}.`;
    show("g-turn", h("div", { class: "big", id: "g-over" }, msg));
  } else if (st.human) {
    const s = seatConfig(st.turn);
    show("g-turn", h("div", { class: "big" }, `Your turn: seat ${st.turn} (team ${c.players === 4 ? st.turn % 2 : (st.turn === 0 ? 0 : 1)}).`),
      h("div", { id: "g-noise-note" }, `Press on the dashed arc and pull back; your flick is executed ${noiseWords(s.noise)}.`));
  }
  const total = (t) => h("td", { class: "num" }, st.score[t]);
  const rows = [0, 1].map((t) => h("tr", {}, h("td", { class: `team${t}-label` }, `team ${t}`), total(t),
    h("td", { class: "num g-board-score" }, st.board_score[t]),
    h("td", {}, st.over ? "-" : seats.filter((s) => (c.players === 4 ? s % 2 : (s === 0 ? 0 : 1)) === t).map((s) => `seat ${s}: ${st.discs_left[s]}`).join(", "))));
  const pair = (p) => (Array.isArray(p) ? `${p[0]} : ${p[1]}` : "");
  const rounds = (G.log.rounds || []).map((r, k) => h("tr", { class: "g-round" }, h("td", {}, k + 1),
    h("td", { class: "num" }, pair(r.totals)), h("td", { class: "num" }, pair(r.points)),
    h("td", { class: "num" }, pair(r.score))));
  show("g-score",
    h("table", {}, h("tr", {}, ["", "game", "on the board", "discs left"].map((t) => h("th", {}, t))), rows),
    rounds.length ? h("table", { id: "g-rounds-table" }, h("tr", {}, ["round", "20s and board (team 0 : 1)", "points", "score after"].map((t) => h("th", {}, t))), rounds) : null);
  $("g-undo").disabled = !G.log.shots.some((s) => seatConfig(s.seat).player === "human");
  $("g-hint").disabled = !st.human;
  $("g-log").disabled = G.log.shots.length === 0;
  $("g-save").disabled = false;
  $("g-end").disabled = false;
}

// ---------- the buttons ----------
// Back to the analysis board (the game's position stays on it to study).
function leaveGame() {
  G.gen++;
  G.busy = false;
  stopAnimation();
  G.config = null;
  G.state = null;
  G.log = null;
  document.body.classList.remove("in-game");
  show("g-turn", "");
  show("g-score", "");
  show("g-hint-note", "");
  gameError("");
  for (const id of ["g-undo", "g-hint", "g-save", "g-log"]) $(id).disabled = true;
  $("g-end").disabled = true;
  $("sec-position").open = true;
  afterPositionChange();
  status("ready: place discs, then flick from the dashed arc");
  setState("ready");
}

async function newGame() {
  G.gen++;
  stopAnimation();
  G.config = readConfig();
  document.body.classList.add("in-game");
  G.shots = [];
  G.log = null;
  G.state = null;
  clearShotLayers();
  show("g-hint-note", "");
  $("sec-position").open = false;
  $("sec-mc").open = false;
  $("sec-plan").open = false;
  await step([], { moves: 1, seen: 0 });
}

// The human's flick: the page's flick (the drag or the fields), played at the human's turn.
async function gameFlick() {
  if (!humanTurn()) return;
  readInputs();
  const f = { offset: S.flick.offset, aim: S.flick.aim, speed: S.flick.speed, spin: S.flick.spin };
  if (S.flick.target) f.target = S.flick.target;
  show("g-hint-note", "");
  await step(G.shots.concat([f]), { moves: 1, seen: G.shots.length });
}

async function undo() {
  if (!gameActive() || G.busy || !G.log) return;
  let k = G.log.shots.length - 1;
  while (k >= 0 && seatConfig(G.log.shots[k].seat).player !== "human") k--;
  if (k < 0) return;
  stopAnimation();
  clearShotLayers();
  await step(G.shots.slice(0, k), { moves: 0 });
}

async function hint() {
  if (!humanTurn()) return;
  G.busy = true;
  setState("game-busy");
  show("g-hint-note", "the planner is looking for your best flick...");
  try {
    const budget = Math.floor(Number($("g-hint-budget").value)) || 2000;
    const r = await advance(G.shots, { moves: 0, hint: budget });
    const f = r.hint.flick;
    S.flick = { offset: f.offset, aim: f.aim, speed: f.speed, spin: f.spin };
    if (f.target) S.flick.target = f.target;
    G.hint = r.hint;
    syncInputs();
    drawFlick();
    show("g-hint-note", h("span", { id: "g-hint-text" }, `Hint (the planner, ${budget} samples): offset ${fmt(f.offset, 3)} m, aim ${fmt(f.aim, 3)} rad, speed ${fmt(f.speed, 2)} m/s, worth ${fmt(r.hint.value, 1)} points on average. Drawn on the board; press Shoot to play it.`));
    G.busy = false;
    setState("your-turn");
  } catch (e) {
    G.busy = false;
    show("g-hint-note", "");
    gameError(playerWords(e.message));
  }
}

function saveGame() {
  if (!gameActive()) return;
  download("crokinole-game.json", JSON.stringify(gameFile(G.shots), null, 1) + "\n");
}

async function loadGame(text, name) {
  let data;
  try { data = JSON.parse(text); } catch (e) { gameError(`${name} is not a saved game (not JSON: ${e.message})`); return; }
  if (!data || !Array.isArray(data.seats)) { gameError(`${name} is not a saved game (no seats)`); return; }
  G.gen++;
  stopAnimation();
  const shots = Array.isArray(data.shots) ? data.shots : [];
  delete data.shots;
  G.config = data;
  document.body.classList.add("in-game");
  writeConfig(data);
  clearShotLayers();
  await step(shots, { moves: 1, seen: shots.length });
}

async function downloadLog() {
  if (!gameActive()) return;
  try {
    const r = await fetch("/api/game?moves=0&log", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(gameFile(G.shots)) });
    const text = await r.text();
    if (!r.ok) throw new Error(JSON.parse(text).error);
    G.logText = text;
    download("crokinole-game-log.json", text);
  } catch (e) {
    gameError(playerWords(e.message));
  }
}

function startGameUi() {
  seatRows();
  $("g-players").addEventListener("change", seatRows);
  $("g-new").addEventListener("click", newGame);
  $("g-end").addEventListener("click", leaveGame);
  $("g-undo").addEventListener("click", undo);
  $("g-hint").addEventListener("click", hint);
  $("g-save").addEventListener("click", saveGame);
  $("g-log").addEventListener("click", downloadLog);
  $("g-load").addEventListener("change", async () => {
    const f = $("g-load").files[0];
    if (f) await loadGame(await f.text(), f.name);
    $("g-load").value = "";
  });
  window.crokinole.game = { G, newGame, gameFlick, undo, hint, gameFile };
}
