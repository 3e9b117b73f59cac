// crokinole serve: the page's script. No framework, no build step, nothing fetched from
// elsewhere. The board is drawn in millimetres (1 SVG unit = 1 mm, board +y up) like
// `crokinole render`; every simulation is the engine's, asked from this server's JSON API
// (docs/serve.md). The state of the page is a study file (position, seat, flick, noise,
// rule set): what is saved, sent for a shot, a Monte Carlo study or a suggestion.
"use strict";

const NS = "http://www.w3.org/2000/svg";
const MM = 1000;
const DITCH = 0.0508, RAIL = 0.012;
const CLASSES = ["twenty", "fifteen", "ten", "five", "out", "ditch", "removed"];
const $ = (id) => document.getElementById(id);

const S = {
  board: null,          // the `board` block of /api/params
  physics: null,        // the `physics` block
  players: 2,
  seat: 0,
  ruleset: "traditional",
  discs: [],            // [{team, pos: [x, y]}]
  flick: { offset: 0, aim: 0, speed: 0.85, spin: 0 }, // + target: [x, y] when aimed at a point
  anim: null,           // the running animation
  last: null,           // the last shot: {start, outcome, verdictState}
  replay: null,         // {log, files, k}
};

// ---------- small helpers ----------
function el(name, attrs, parent, text) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (text !== undefined) e.textContent = text;
  if (parent) parent.appendChild(e);
  return e;
}
const X = (p) => p[0] * MM;
const Y = (p) => -p[1] * MM;
const fmt = (x, d = 3) => (x === null || x === undefined ? "-" : Number(x).toFixed(d));
function status(msg, error) {
  const s = $("status");
  s.textContent = msg;
  s.className = error ? "error" : "";
}
function setState(v) { document.body.dataset.state = v; }
// Every text from a file or an answer goes into the page as text, never as HTML: `h`
// builds an HTML element whose string children become text nodes, and `show` replaces
// an element's content with such nodes. (No `innerHTML` anywhere: a game log whose round
// is `<img src=x onerror=...>` shows those characters and runs nothing.)
function h(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
  append(e, kids);
  return e;
}
function append(e, kids) {
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false || kid === "") continue;
    e.appendChild(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
}
function show(id, ...kids) {
  const e = $(id);
  e.textContent = "";
  append(e, kids);
}

async function post(path, body) {
  const r = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await r.text();
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { error: text }; }
  if (!r.ok) throw new Error(data.error || `HTTP ${r.status}`);
  return data;
}

// Seat frames: seat s is seat 0's frame turned clockwise by s quarter turns (as
// crates/montecarlo/src/flick.rs).
function seatToBoard(seat, v) {
  switch (seat % 4) {
    case 0: return [v[0], v[1]];
    case 1: return [v[1], -v[0]];
    case 2: return [-v[0], -v[1]];
    default: return [-v[1], v[0]];
  }
}
function boardToSeat(seat, v) {
  switch (seat % 4) {
    case 0: return [v[0], v[1]];
    case 1: return [-v[1], v[0]];
    case 2: return [-v[0], -v[1]];
    default: return [v[1], -v[0]];
  }
}
function seatsInPlay() { return S.players === 4 ? [0, 1, 2, 3] : [0, 2]; }
function teamOfSeat(seat) { return S.players === 4 ? seat % 2 : (seat === 0 ? 0 : 1); }
function maxOffset() { return S.board.shooting_line_radius * Math.SQRT1_2; }
function startPos(offset) {
  const r = S.board.shooting_line_radius;
  return seatToBoard(S.seat, [offset, -Math.sqrt(r * r - offset * offset)]);
}
function direction(f, pos) {
  const s = Math.sin(f.aim), c = Math.cos(f.aim);
  if (!f.target) return seatToBoard(S.seat, [-s, c]);
  let d = [f.target[0] - pos[0], f.target[1] - pos[1]];
  const n = Math.hypot(d[0], d[1]);
  d = [d[0] / n, d[1] / n];
  return [d[0] * c - d[1] * s, d[0] * s + d[1] * c];
}

// The page's state as a study file (docs/montecarlo.md).
function study(withNoise) {
  const f = { offset: S.flick.offset, aim: S.flick.aim, speed: S.flick.speed, spin: S.flick.spin };
  if (S.flick.target) f.target = S.flick.target;
  const s = { players: S.players, seat: S.seat, discs: S.discs.map((d) => ({ team: d.team, pos: d.pos })), flick: f };
  if (withNoise) s.noise = noise();
  if (S.ruleset) s.ruleset = S.ruleset;
  return s;
}
// The player's error: a skill level's name when one is chosen (the server reads it as
// the level's widths, docs/skill.md), otherwise the four widths.
function noise() {
  const skill = $("n-skill").value;
  if (skill) return skill;
  const v = (id) => Number($(id).value) || 0;
  return { offset: v("n-offset"), aim: v("n-aim"), speed: v("n-speed"), spin: v("n-spin") };
}
const NOISE_KEYS = ["offset", "aim", "speed", "spin"];
// The levels of /api/skills, by name.
const SKILLS = {};
function fillSkills(table) {
  const sel = $("n-skill");
  for (const l of table.levels) {
    SKILLS[l.name] = l;
    const o = document.createElement("option");
    o.value = l.name;
    o.textContent = `${l.name} (${fmt(100 * l.target, 1)} % open 20s)`;
    sel.appendChild(o);
  }
}
// Chooses a level (or "" for custom widths): a level fills the four widths with its own.
function setSkill(name) {
  const l = SKILLS[name];
  $("n-skill").value = l ? name : "";
  if (l) for (const k of NOISE_KEYS) $(`n-${k}`).value = l.noise[k];
}
// How a summary or a plan names the player's error.
function skillNote(r) {
  const l = r.skill && SKILLS[r.skill];
  return l ? ["Player: ", h("b", { id: "skill-used" }, l.name), ` (${fmt(100 * l.target, 1)} % of open 20s). `] : [];
}

// ---------- the board ----------
function svgPoint(evt) {
  const svg = $("board");
  const p = svg.createSVGPoint();
  p.x = evt.clientX; p.y = evt.clientY;
  const q = p.matrixTransform(svg.getScreenCTM().inverse());
  return [q.x / MM, -q.y / MM];
}
// Client (viewport) pixel coordinates of a board point: used by the browser test.
function toScreen(x, y) {
  const svg = $("board");
  const p = svg.createSVGPoint();
  p.x = x * MM; p.y = -y * MM;
  const q = p.matrixTransform(svg.getScreenCTM());
  return [q.x, q.y];
}

function drawBoard() {
  const b = S.board, g = $("layer-board");
  g.textContent = "";
  el("circle", { class: "rail", r: (b.surface_radius + DITCH + RAIL) * MM }, g);
  el("circle", { class: "ditch", r: (b.surface_radius + DITCH) * MM }, g);
  el("circle", { class: "surface", r: b.surface_radius * MM, id: "surface" }, g);
  for (const r of [b.shooting_line_radius, b.ten_line_radius, b.fifteen_line_radius]) {
    el("circle", { class: "line", r: r * MM, "stroke-width": b.line_width * MM }, g);
  }
  const c = Math.SQRT1_2;
  for (const [sx, sy] of [[1, 1], [-1, 1], [-1, -1], [1, -1]]) {
    el("line", {
      class: "quadrant", "stroke-width": b.line_width * MM,
      x1: sx * c * b.ten_line_radius * MM, y1: -sy * c * b.ten_line_radius * MM,
      x2: sx * c * b.shooting_line_radius * MM, y2: -sy * c * b.shooting_line_radius * MM,
    }, g);
  }
  el("circle", { class: "hole", r: b.hole_radius * MM }, g);
  for (const p of b.pegs) {
    el("circle", { class: "peg", cx: X(p), cy: Y(p), r: b.peg_radius * MM }, g);
    el("circle", { class: "pin", cx: X(p), cy: Y(p), r: 0.45 * b.peg_radius * MM }, g);
  }
  // The scoring zones, named where no peg stands (between two pegs of the 15 line).
  const a0 = Math.PI / 2 - Math.PI / 8;
  const zones = [["20", 0], ["15", (b.hole_radius + b.fifteen_line_radius) / 2],
    ["10", (b.fifteen_line_radius + b.ten_line_radius) / 2], ["5", (b.ten_line_radius + b.shooting_line_radius) / 2]];
  for (const [name, r] of zones) {
    el("text", { class: "zone-label" + (r === 0 ? " twenty" : ""), x: r * Math.cos(a0) * MM, y: -r * Math.sin(a0) * MM }, g, name);
  }
  const dr = (b.surface_radius + DITCH / 2) * MM, da = (3 * Math.PI) / 4 - Math.PI / 16;
  el("text", { class: "ditch-label", x: dr * Math.cos(da), y: -dr * Math.sin(da), transform: `rotate(-56 ${dr * Math.cos(da)} ${-dr * Math.sin(da)})` }, g, "ditch");
  el("text", { class: "line-label", x: 0, y: -(b.shooting_line_radius + 0.011) * MM }, g, "shooting line");
  // The shooter's part of the shooting line, and the seat numbers in the ditch.
  const R = b.shooting_line_radius * MM, m = maxOffset();
  const a = startPos(-m), z = startPos(m);
  el("path", { class: "seat-arc", d: `M${X(a)},${Y(a)} A${R},${R} 0 0 0 ${X(z)},${Y(z)}` }, g);
  for (const s of seatsInPlay()) {
    const p = seatToBoard(s, [0, -(b.surface_radius + DITCH / 2)]);
    el("text", { class: "seat-label", x: X(p), y: Y(p) }, g, `seat ${s}`);
  }
}

function discRadius() { return S.physics.disc_radius; }

// Discs at rest (the position being set up), with ids; or `override` (an animation frame).
function drawDiscs(override) {
  const g = $("layer-discs");
  g.textContent = "";
  const list = override || S.discs.map((d, i) => ({ id: i, team: d.team, pos: d.pos, state: "board" }));
  for (const d of list) {
    const c = el("circle", {
      class: `disc team${d.team}` + (d.state === "hole" || d.state === "ditch" || d.state === "removed" ? " gone" : ""),
      cx: X(d.pos), cy: Y(d.pos), r: discRadius() * MM, "data-id": d.id,
    }, g);
    el("title", {}, c, `disc ${d.id}, team ${d.team}` + (d.state ? `, ${d.state}` : ""));
    el("text", { class: "disc-label", x: X(d.pos), y: Y(d.pos) }, g, String(d.id));
  }
  $("disc-count").textContent = `${S.discs.length} disc(s) on the board; seat ${S.seat} shoots for team ${teamOfSeat(S.seat)}.`;
  if (!override && !gameActive()) showPlacement();
}

function drawFlick(pull) {
  const g = $("layer-flick");
  g.textContent = "";
  if (S.anim) return;
  const f = S.flick;
  if (!(Math.abs(f.offset) <= S.board.shooting_line_radius)) return;
  const p = startPos(f.offset);
  const d = direction(f, p);
  const team = teamOfSeat(S.seat);
  el("circle", { class: `disc shooter-ghost team${team}`, cx: X(p), cy: Y(p), r: discRadius() * MM }, g);
  // The aim line: as long as the distance the disc would slide on a bare board.
  const mu = S.physics.board_friction * S.physics.gravity;
  const reach = Math.min((f.speed * f.speed) / (2 * mu), 2 * S.board.shooting_line_radius);
  const q = [p[0] + d[0] * reach, p[1] + d[1] * reach];
  el("line", { class: "aim-line", x1: X(p), y1: Y(p), x2: X(q), y2: Y(q) }, g);
  if (pull) el("line", { class: "pull-line", x1: X(p), y1: Y(p), x2: X(pull), y2: Y(pull) }, g);
  $("target-note").textContent = f.target ? `aimed at [${fmt(f.target[0])}, ${fmt(f.target[1])}], then turned by aim` : "aim from straight ahead";
}

function syncInputs() {
  $("f-offset").value = fmt(S.flick.offset, 4);
  $("f-aim").value = fmt(S.flick.aim, 4);
  $("f-speed").value = fmt(S.flick.speed, 3);
  $("f-spin").value = fmt(S.flick.spin, 2);
  $("spin-range").value = S.flick.spin;
}

// The fields into the flick. A field still showing the flick as syncInputs wrote it
// (rounded for the eye) keeps the flick's exact value: a planner's flick or a hint is
// played exactly, not as its rounded display.
function readInputs() {
  const v = (id, key, digits, def) => {
    if ($(id).value === fmt(S.flick[key], digits)) return S.flick[key];
    const x = Number($(id).value);
    return Number.isFinite(x) ? x : def;
  };
  S.flick.offset = v("f-offset", "offset", 4, 0);
  S.flick.aim = v("f-aim", "aim", 4, 0);
  S.flick.speed = v("f-speed", "speed", 3, 0.85);
  S.flick.spin = v("f-spin", "spin", 2, 0);
}

function redraw() {
  clearShotLayers();
  drawDiscs();
  drawFlick();
}
function clearShotLayers() {
  $("layer-paths").textContent = "";
  $("layer-marks").textContent = "";
}

function fillSeats() {
  const sel = $("seat");
  sel.textContent = "";
  for (const s of seatsInPlay()) {
    const o = document.createElement("option");
    o.value = s; o.textContent = `${s} (team ${teamOfSeat(s)})`;
    sel.appendChild(o);
  }
  if (!seatsInPlay().includes(S.seat)) S.seat = 0;
  sel.value = S.seat;
}

// ---------- what is wrong with the position, in a player's words ----------
// The checks of a shot file's discs (docs/shot-file.md): on the surface, not over the 20
// hole (closer to its centre than sqrt(hole_radius^2 - radius^2)), not on a peg, not on
// another disc (overlaps beyond 1e-9 m).
function placementProblems() {
  const b = S.board, R = discRadius(), tol = 1e-9, out = [];
  const win = Math.sqrt(Math.max(b.hole_radius * b.hole_radius - R * R, 0));
  S.discs.forEach((d, i) => {
    const r = Math.hypot(d.pos[0], d.pos[1]);
    if (r >= b.surface_radius) out.push({ i, text: `disc ${i} is off the board` });
    else if (r < win) out.push({ i, text: `disc ${i} is over the 20 hole: it would fall in` });
    else if (b.pegs.some((p) => R + b.peg_radius - Math.hypot(d.pos[0] - p[0], d.pos[1] - p[1]) > tol)) out.push({ i, text: `disc ${i} sits on a peg` });
    else {
      const j = S.discs.findIndex((o, k) => k !== i && 2 * R - Math.hypot(d.pos[0] - o.pos[0], d.pos[1] - o.pos[1]) > tol);
      if (j >= 0) out.push({ i, text: `disc ${i} overlaps disc ${j}` });
    }
  });
  return out;
}
function showPlacement() {
  const bad = placementProblems();
  for (const c of document.querySelectorAll("#layer-discs circle.disc")) {
    c.classList.toggle("illegal", bad.some((p) => String(p.i) === c.getAttribute("data-id")));
  }
  show("place-note", bad.length ? h("span", { class: "bad" }, `Not a legal position: ${bad.map((p) => p.text).join("; ")}. Move or remove the disc${bad.length > 1 ? "s" : ""} marked in red.`) : "");
  return bad.length === 0;
}
// Before a shot, a study or a plan: the position must be legal; if not, say so beside the
// section that asked.
function positionOk(id) {
  if (showPlacement()) return true;
  show(id, h("div", { class: "bad error-msg" }, "The position is not legal (see under the board): nothing was played."));
  setState("refused");
  return false;
}

// The server's words (`query parameter samples: 1000000 is outside 1..=100000`, `study
// file: field discs[0].pos: overlaps peg 0 by 2.1e-2 m`) as a person would say them.
function friendly(message) {
  const names = { samples: "samples", seed: "seed", budget: "budget", top: "top", trace: "trace" };
  let m = String(message)
    .replace(/query parameter `(\w+)`: (\d+) is outside (\d+)\.\.=(\d+)/, (x, k, v, lo, hi) => `${names[k] || k} must be from ${lo} to ${hi} (not ${v})`)
    .replace(/query parameter `(\w+)`: expected a whole number, got `([^`]*)`/, (x, k, v) => `${names[k] || k} must be a whole number (not "${v}")`)
    .replace(/query parameter `budget`: (\S+) samples is more than this server allows \((\d+)\)/, "the planner's budget can be at most $2 samples (not $1)")
    .replace(/query parameter `budget`: /, "budget: ")
    .replace(/^(study|suggest|shot) file: (shot \d+: )?/, "")
    .replace(/field `discs\[(\d+)\]\.pos`: /, "disc $1: ")
    .replace(/field `flick\.(\w+)`: /, "the flick's $1: ")
    .replace(/field `noise\.(\w+)`: /, "the noise's $1 width: ")
    .replace(/field `([^`]+)`: /, "$1: ")
    .replace(/overlaps (peg|disc) (\d+) by \S+ m/, "overlaps $1 $2")
    .replace(/ \(physics\.max_speed\)/, "");
  return m.charAt(0).toUpperCase() + m.slice(1);
}
// An error shown beside what caused it (the section's result), and in the header.
function fail(id, e) {
  const msg = friendly(e.message || e);
  show(id, h("div", { class: "bad error-msg" }, msg));
  status(msg, true);
  setState("error");
  $(id).scrollIntoView({ block: "nearest" });
}
// Everything that described the position before it changed.
function clearPanels(...ids) {
  for (const id of ids) $(id).textContent = "";
  if (ids.includes("pl-result")) { $("heatmap").textContent = ""; $("heatmap").hidden = true; }
}

// ---------- pointer: place, move, remove, flick ----------
let drag = null;

function discAt(p) {
  const r = discRadius();
  for (let i = S.discs.length - 1; i >= 0; i--) {
    const d = S.discs[i];
    if (Math.hypot(d.pos[0] - p[0], d.pos[1] - p[1]) <= r) return i;
  }
  return -1;
}
function onShootingLine(p) {
  const b = S.board;
  const r = Math.hypot(p[0], p[1]);
  if (Math.abs(r - b.shooting_line_radius) > 0.03) return false;
  const s = boardToSeat(S.seat, p);
  return s[1] < 0 && Math.abs(s[0]) <= -s[1] + 0.01;
}

function onDown(evt) {
  if (S.anim || evt.button !== 0) return;
  const p = svgPoint(evt);
  const i = discAt(p);
  // In a game, the board only takes the flick of a human at its turn.
  if (gameActive() && !(humanTurn() && onShootingLine(p))) return;
  $("board").setPointerCapture(evt.pointerId);
  if (i >= 0 && !gameActive()) {
    drag = { kind: "move", i };
  } else if (onShootingLine(p)) {
    const s = boardToSeat(S.seat, p);
    const m = maxOffset() - 1e-6;
    S.flick.offset = Math.max(-m, Math.min(m, s[0]));
    delete S.flick.target;
    drag = { kind: "flick" };
    syncInputs();
    drawFlick();
  } else if (Math.hypot(p[0], p[1]) < S.board.surface_radius - discRadius()) {
    const team = Number(document.querySelector("input[name=team]:checked").value);
    S.discs.push({ team, pos: round(p) });
    drag = { kind: "move", i: S.discs.length - 1 };
    afterPositionChange();
  }
  evt.preventDefault();
}
function round(p) { return [Math.round(p[0] * 1e5) / 1e5, Math.round(p[1] * 1e5) / 1e5]; }

function onMove(evt) {
  if (!drag) return;
  const p = svgPoint(evt);
  if (drag.kind === "move") {
    S.discs[drag.i].pos = round(p);
    drawDiscs();
  } else {
    const start = startPos(S.flick.offset);
    const pull = [p[0] - start[0], p[1] - start[1]];
    const len = Math.hypot(pull[0], pull[1]);
    if (len > 0.004) {
      drag.pulled = true;
      const d = boardToSeat(S.seat, [-pull[0] / len, -pull[1] / len]);
      S.flick.aim = Math.atan2(-d[0], d[1]);
      S.flick.speed = Math.min(len * 20, Math.min(S.physics.max_speed, 5));
      S.flick.speed = Math.round(S.flick.speed * 1000) / 1000;
      S.flick.aim = Math.round(S.flick.aim * 1e4) / 1e4;
      syncInputs();
    }
    drawFlick(p);
  }
}

function onUp(evt) {
  if (!drag) return;
  const d = drag;
  drag = null;
  if (d.kind === "move") {
    const p = S.discs[d.i].pos;
    if (Math.hypot(p[0], p[1]) > S.board.surface_radius) S.discs.splice(d.i, 1);
    afterPositionChange();
  } else {
    drawFlick();
    // A tap on the arc (no pull) only places the disc; a pull and release shoots.
    if (d.pulled && S.flick.speed >= 0.05) shoot();
  }
}

function onDouble(evt) {
  if (S.anim || gameActive()) return;
  const i = discAt(svgPoint(evt));
  if (i >= 0) {
    S.discs.splice(i, 1);
    afterPositionChange();
  }
}

function afterPositionChange() {
  S.last = null;
  $("keep").disabled = true;
  $("layer-cloud").textContent = "";
  $("layer-heat").textContent = "";
  clearPanels("result", "events", "mc-result", "pl-result");
  redraw();
}

// ---------- shooting and the animation ----------
async function shoot() {
  if (gameActive()) return gameFlick();
  readInputs();
  stopAnimation();
  if (!positionOk("result")) return;
  setState("busy");
  status("simulating...");
  const body = study(false);
  $("layer-cloud").textContent = "";
  try {
    const r = await post("/api/shot?trace=5", body);
    const outcome = r.outcomes[0];
    const shotFile = r.shot_file.shots[0];
    status(`shot simulated: ${outcome.steps} steps, ${fmt(outcome.time)} s`);
    S.last = { study: body, shotFile: r.shot_file, outcome, score: r.score };
    animate(shotFile, outcome, () => showResult(S.last));
  } catch (e) {
    // The last shot's result no longer belongs to the flick asked for.
    S.last = null;
    $("keep").disabled = true;
    clearShotLayers();
    drawDiscs();
    $("events").textContent = "";
    $("final").textContent = "";
    fail("result", e);
  }
}

// Positions of every disc at time t from the trace's paths (linear between samples: the
// path between samples is straight, only the speed along it changes).
function positionsAt(start, paths, t) {
  const out = start.map((p) => p.slice());
  for (const path of paths) {
    const pts = path.points;
    let k = 0;
    while (k + 1 < pts.length && pts[k + 1][0] <= t) k++;
    if (k + 1 < pts.length && pts[k][0] <= t) {
      const [t0, x0, y0] = pts[k], [t1, x1, y1] = pts[k + 1];
      const u = t1 > t0 ? (t - t0) / (t1 - t0) : 1;
      out[path.id] = [x0 + (x1 - x0) * u, y0 + (y1 - y0) * u];
    } else {
      const last = pts[t < pts[0][0] ? 0 : k];
      out[path.id] = [last[1], last[2]];
    }
  }
  return out;
}

function describeEvent(e) {
  switch (e.kind) {
    case "disc": return `disc ${e.a} hits disc ${e.b}`;
    case "peg": return `disc ${e.a} hits peg ${e.peg}`;
    case "hole": return `disc ${e.a} drops into the 20 hole`;
    case "ditch": return `disc ${e.a} goes into the ditch`;
    default: return `${e.kind} (disc ${e.a})`;
  }
}

function markEvent(e, te) {
  const g = $("layer-marks");
  const p = te.point;
  if (e.kind === "disc" || e.kind === "peg") {
    const c = el("circle", { class: "contact fresh", cx: X(p), cy: Y(p), r: 3.2 }, g);
    el("title", {}, c, `${describeEvent(e)} at ${fmt(e.t)} s`);
  } else {
    const s = 6;
    el("line", { class: "exit-cross", x1: X(p) - s, y1: Y(p) - s, x2: X(p) + s, y2: Y(p) + s }, g);
    el("line", { class: "exit-cross", x1: X(p) - s, y1: Y(p) + s, x2: X(p) + s, y2: Y(p) - s }, g);
    el("text", { class: "exit-label", x: X(p) + 8, y: Y(p) - 8 }, g, `${e.a}: ${e.kind === "hole" ? "20" : "ditch"}`);
  }
  const li = document.createElement("li");
  li.textContent = `${fmt(e.t)} s: ${describeEvent(e)}`;
  $("events").appendChild(li);
}

function stopAnimation() {
  if (S.anim) cancelAnimationFrame(S.anim.frame);
  S.anim = null;
}

// Animates `outcome` (with its trace) of the shot `shotFile` (a shot file's entry); calls
// `done` at the end. The clock runs at the chosen tempo.
function animate(shotEntry, outcome, done, speed) {
  stopAnimation();
  clearShotLayers();
  $("events").textContent = "";
  $("result").textContent = "";
  $("keep").disabled = true;
  $("layer-flick").textContent = "";
  const teams = shotEntry.discs.map((d) => d.team).concat([shotEntry.shooter.team]);
  const start = shotEntry.discs.map((d) => d.pos).concat([shotEntry.shooter.pos]);
  const trace = outcome.trace;
  const tempo = speed || Number(document.querySelector("input[name=tempo]:checked").value) || 1;
  const gone = {};
  for (const e of outcome.events) if (e.kind === "hole" || e.kind === "ditch") gone[e.a] = e;
  // The paths as drawn so far.
  const pathEls = {};
  for (const p of trace.paths) {
    pathEls[p.id] = el("polyline", { class: `path team${teams[p.id]}`, points: "" }, $("layer-paths"));
  }
  let next = 0;
  const t0 = performance.now();
  const end = outcome.time;
  S.anim = { frame: 0 };
  setState("animating");
  const frame = (now) => {
    const t = Math.min(((now - t0) / 1000) * tempo, end);
    while (next < outcome.events.length && outcome.events[next].t <= t) {
      markEvent(outcome.events[next], trace.events[next]);
      next++;
    }
    const pos = positionsAt(start, trace.paths, t);
    for (const p of trace.paths) {
      const pts = p.points.filter((q) => q[0] <= t).map((q) => `${X([q[1], q[2]])},${Y([q[1], q[2]])}`);
      pts.push(`${X(pos[p.id])},${Y(pos[p.id])}`);
      pathEls[p.id].setAttribute("points", pts.join(" "));
    }
    drawDiscs(pos.map((q, id) => ({ id, team: teams[id], pos: q, state: gone[id] && gone[id].t <= t ? gone[id].kind : "board" })));
    if (t < end) {
      S.anim.frame = requestAnimationFrame(frame);
    } else {
      S.anim = null;
      const final = outcome.discs.map((d, id) => ({ id, team: d.team, pos: d.pos, state: d.state }));
      drawDiscs(final);
      $("final").textContent = JSON.stringify({ discs: outcome.discs, shot: shotEntry });
      done();
      setState("done");
    }
  };
  S.anim.frame = requestAnimationFrame(frame);
}

function verdictNode(v) {
  if (!v) return null;
  const rule = v.rule === "opening" ? "opening rule" : "must-hit rule";
  const removed = v.removed.map((r) => `${r.id} (${String(r.reason).replace(/_/g, " ")})`).join(", ") || "none";
  const twenties = v.twenties.map((t) => `${t.id} (team ${t.team})`).join(", ") || "none";
  return h("div", {}, `Rules (${v.ruleset}): ${rule} `,
    h("span", { class: v.rule_met ? "ok" : "bad" }, v.rule_met ? "met" : "missed"),
    `; hit an opponent: ${v.hit_opponent ? "yes" : "no"}; removed: ${removed}; 20s: ${twenties}; board score after: team 0 `,
    h("b", {}, v.board_score[0]), ", team 1 ", h("b", {}, v.board_score[1]), ".");
}

function showResult(last) {
  const o = last.outcome, sc = last.score;
  const shooter = o.discs.length - 1;
  const sign = sc.change > 0 ? "+" : "";
  show("result",
    h("div", { class: "big" }, `Shot disc: ${sc.class}; score change for team ${sc.team}: `,
      h("span", { id: "score-change", class: sc.change >= 0 ? "ok" : "bad" }, `${sign}${sc.change}`)),
    h("div", {}, `${o.events.length} events, ${o.steps} steps, ${fmt(o.time)} s${o.cut_off ? " (cut off)" : ""}; ` +
      `shooter ${shooter} ends at [${fmt(o.discs[shooter].pos[0], 4)}, ${fmt(o.discs[shooter].pos[1], 4)}], ${o.discs[shooter].state}.`),
    verdictNode(o.rules));
  $("keep").disabled = false;
  $("result").scrollIntoView({ block: "nearest" });
}

function keep() {
  if (!S.last) return;
  S.discs = S.last.outcome.discs.filter((d) => d.state === "board").map((d) => ({ team: d.team, pos: d.pos }));
  const seats = seatsInPlay();
  S.seat = seats[(seats.indexOf(S.seat) + 1) % seats.length];
  $("seat").value = S.seat;
  drawBoard();
  afterPositionChange();
  $("events").textContent = "";
  $("result").textContent = "";
}

// ---------- files ----------
function download(name, text) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

async function saveShotFile() {
  readInputs();
  try {
    const file = await post("/api/shotfile", study(false));
    download("shot.json", JSON.stringify(file, null, 2) + "\n");
  } catch (e) {
    fail("result", e);
  }
}

function loadText(text, name) {
  if (isMatchLog(text)) return loadMatchLog(text, name);
  let data;
  try { data = JSON.parse(text); } catch (e) { status(`${name}: not JSON: ${e.message}`, true); return; }
  if (data && Array.isArray(data.shots) && "first_seat" in data) return loadLog(text);
  if (data && Array.isArray(data.shots)) {
    const s = data.shots[0];
    if (!s) { status(`${name}: no shots`, true); return; }
    S.players = s.players === 4 ? 4 : 2;
    S.seat = typeof s.seat === "number" ? s.seat : 0;
    S.discs = (s.discs || []).map((d) => ({ team: d.team, pos: d.pos }));
    const sh = s.shooter, v = sh.vel, sp = Math.hypot(v[0], v[1]);
    const d = boardToSeat(S.seat, [v[0] / sp, v[1] / sp]);
    S.flick = { offset: boardToSeat(S.seat, sh.pos)[0], aim: Math.atan2(-d[0], d[1]), speed: sp, spin: sh.spin || 0 };
    status(`${name}: shot 0 of a shot file (the shooter read as a flick from seat ${S.seat})`);
  } else if (data && typeof data.seat === "number") {
    S.players = data.players === 4 ? 4 : 2;
    S.seat = data.seat;
    S.discs = (data.discs || []).map((d) => ({ team: d.team, pos: d.pos }));
    if (data.flick) {
      const f = data.flick;
      S.flick = { offset: f.offset || 0, aim: f.aim || 0, speed: f.speed, spin: f.spin || 0 };
      if (f.target) S.flick.target = f.target;
    }
    if (typeof data.noise === "string") {
      setSkill(data.noise);
    } else if (data.noise) {
      setSkill("");
      for (const k of NOISE_KEYS) $(`n-${k}`).value = data.noise[k] || 0;
    }
    if (data.ruleset) S.ruleset = data.ruleset;
    status(`${name}: ${data.flick ? "a study file" : "a suggest file"}`);
  } else {
    status(`${name}: not a shot, study, suggest file or game log`, true);
    return;
  }
  $("players").value = S.players;
  $("ruleset").value = S.ruleset;
  fillSeats();
  syncInputs();
  drawBoard();
  afterPositionChange();
}

// ---------- start ----------
async function start() {
  try {
    const r = await fetch("/api/params");
    const p = await r.json();
    S.board = p.board;
    S.physics = p.physics;
  } catch (e) {
    status(`cannot load the board: ${e.message}`, true);
    return;
  }
  try {
    fillSkills(await (await fetch("/api/skills")).json());
  } catch (e) {
    status(`cannot load the skill levels: ${e.message}`, true);
  }
  fillSeats();
  startGameUi();
  startWatchUi();
  syncInputs();
  drawBoard();
  redraw();
  const svg = $("board");
  svg.addEventListener("pointerdown", onDown);
  svg.addEventListener("pointermove", onMove);
  svg.addEventListener("pointerup", onUp);
  svg.addEventListener("pointercancel", onUp);
  svg.addEventListener("dblclick", onDouble);
  svg.addEventListener("contextmenu", (e) => { e.preventDefault(); onDouble(e); });
  $("players").addEventListener("change", () => { S.players = Number($("players").value); fillSeats(); drawBoard(); redraw(); });
  $("seat").addEventListener("change", () => { S.seat = Number($("seat").value); delete S.flick.target; drawBoard(); redraw(); });
  $("ruleset").addEventListener("change", () => { S.ruleset = $("ruleset").value; });
  for (const id of ["f-offset", "f-aim", "f-speed", "f-spin"]) {
    $(id).addEventListener("change", () => { readInputs(); $("spin-range").value = S.flick.spin; drawFlick(); });
  }
  $("spin-range").addEventListener("input", () => { S.flick.spin = Number($("spin-range").value); syncInputs(); });
  $("shoot").addEventListener("click", shoot);
  $("replay-anim").addEventListener("click", () => {
    if (S.last) animate(S.last.shotFile.shots[0], S.last.outcome, () => showResult(S.last));
  });
  $("keep").addEventListener("click", keep);
  $("clear").addEventListener("click", () => { S.discs = []; afterPositionChange(); });
  $("n-skill").addEventListener("change", () => setSkill($("n-skill").value));
  for (const k of NOISE_KEYS) $(`n-${k}`).addEventListener("input", () => { $("n-skill").value = ""; });
  $("mc-run").addEventListener("click", runMonteCarlo);
  $("mc-clear").addEventListener("click", () => { $("layer-cloud").textContent = ""; });
  $("pl-run").addEventListener("click", runSuggest);
  $("save-study").addEventListener("click", () => { readInputs(); download("study.json", JSON.stringify(study(true), null, 2) + "\n"); });
  $("save-shot").addEventListener("click", saveShotFile);
  const reader = (input) => input.addEventListener("change", async () => {
    const f = input.files[0];
    if (f) loadText(await f.text(), f.name);
    input.value = "";
  });
  reader($("load"));
  reader($("log-file"));
  $("rp-prev").addEventListener("click", () => replayShot(S.replay.k - 1));
  $("rp-next").addEventListener("click", () => replayShot(S.replay.k + 1));
  $("rp-play").addEventListener("click", replayPlay);
  $("rp-scrub").addEventListener("change", () => replayShot(Number($("rp-scrub").value)));
  status("ready: place discs, then flick from the dashed arc");
  setState("ready");
}

window.crokinole = { state: S, toScreen, study, shoot, afterPositionChange };
start();
