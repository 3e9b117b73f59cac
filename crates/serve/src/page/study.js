// crokinole serve: the page's Monte Carlo study and planner panels (the cloud, the class
// table and its legend, the plan table and the heat map with its colour bar). Loaded
// before app.js, whose board and helpers it uses (docs/serve.md).
"use strict";

// ---------- Monte Carlo ----------
function classOf(p) {
  const b = S.board, R = discRadius();
  const r = Math.hypot(p[0], p[1]);
  const win = Math.sqrt(Math.max(b.hole_radius * b.hole_radius - R * R, 0));
  if (r < win) return "twenty";
  if (r >= b.surface_radius - 1e-9) return "ditch";
  const outer = r + R, w = b.line_width / 2;
  if (outer <= b.fifteen_line_radius - w) return "fifteen";
  if (outer <= b.ten_line_radius - w) return "ten";
  if (outer <= b.shooting_line_radius - w) return "five";
  return "out";
}

async function runMonteCarlo() {
  readInputs();
  const samples = Math.floor(Number($("mc-samples").value));
  const seed = Math.floor(Number($("mc-seed").value)) || 0;
  if (!positionOk("mc-result")) return;
  setState("busy");
  status(`playing the shot ${samples} times...`);
  try {
    const t0 = performance.now();
    const r = await post(`/api/montecarlo?samples=${samples}&seed=${seed}`, study(true));
    const secs = (performance.now() - t0) / 1000;
    status(`${r.samples} samples in ${fmt(secs, 2)} s`);
    // The cloud belongs to the position before the shot: show that, not a shot's end.
    redraw();
    const g = $("layer-cloud");
    g.textContent = "";
    for (const p of r.shooter_positions.first) {
      el("circle", { class: `sample cls-${classOf(p)}`, cx: X(p), cy: Y(p), r: 2.2 }, g);
    }
    const rows = [];
    for (const c of CLASSES) {
      const k = r.shooter[c];
      if (!k) continue;
      const dot = el("svg", { width: 10, height: 10 });
      el("circle", { class: `cls-${c}`, cx: 5, cy: 5, r: 5 }, dot);
      rows.push(h("tr", { class: "mc-row", "data-class": c },
        h("td", {}, dot, ` ${c}`),
        h("td", { class: "num" }, k.count), h("td", { class: "num" }, `${fmt(100 * k.p, 1)} %`),
        h("td", { class: "num" }, `${fmt(100 * k.ci95[0], 1)}-${fmt(100 * k.ci95[1], 1)} %`),
        h("td", {}, h("span", { class: "bar", style: `width:${Math.round(120 * k.p)}px` }))));
    }
    const sc = r.score_change;
    const head = h("tr", {}, ["shot disc", "count", "p", "95 % interval", ""].map((t) => h("th", {}, t)));
    show("mc-result",
      h("table", { id: "mc-table" }, head, rows),
      h("div", {}, skillNote(r), "Score change: mean ", h("b", { id: "mc-mean" }, fmt(sc.mean, 2)),
        `, median ${sc.quantiles.p50}, 5-95 %: ${sc.quantiles.p05} to ${sc.quantiles.p95}. ` +
        `Hit an opponent: ${fmt(100 * r.opponent_hits.any.p, 1)} %. ` +
        `${r.shooter_positions.first.length} of ${r.samples} final positions drawn.`),
      legend());
    setState("mc-done");
    $("mc-result").scrollIntoView({ block: "nearest" });
  } catch (e) {
    $("layer-cloud").textContent = "";
    fail("mc-result", e);
  }
}

// The classes' colours, as `crokinole render` draws a cloud (crates/render/src/cloud.rs): the
// same legend on the page.
function legend() {
  const words = { twenty: "20 (in the hole)", fifteen: "15", ten: "10", five: "5", out: "0 (on or past the shooting line)", ditch: "ditch", removed: "removed by the rules" };
  return h("div", { class: "legend", id: "cloud-legend" }, "Cloud: where the shot disc ended, by class: ",
    CLASSES.map((c) => {
      const dot = el("svg", { width: 10, height: 10 });
      el("circle", { class: `cls-${c}`, cx: 5, cy: 5, r: 5 }, dot);
      return h("span", { class: "legend-item" }, dot, ` ${words[c]} `);
    }));
}

// ---------- the planner ----------
function suggestFile() {
  const s = { players: S.players, seat: S.seat, discs: S.discs.map((d) => ({ team: d.team, pos: d.pos })), noise: noise() };
  s.ruleset = S.ruleset || "traditional";
  return s;
}

async function runSuggest() {
  const budget = encodeURIComponent($("pl-budget").value.trim());
  const objective = $("pl-objective").value;
  if (!positionOk("pl-result")) return;
  setState("busy");
  status("searching for the best flick...");
  try {
    const t0 = performance.now();
    const plan = await post(`/api/suggest?budget=${budget}&objective=${objective}&top=5`, suggestFile());
    // The suggestion replaces the flick: the old flick's cloud, verdict, events and
    // Monte Carlo table would mislead.
    $("layer-cloud").textContent = "";
    S.last = null;
    $("keep").disabled = true;
    clearPanels("result", "events", "mc-result");
    redraw();
    status(`planner: ${plan.samples_used} simulated shots in ${fmt((performance.now() - t0) / 1000, 2)} s`);
    const rows = plan.top.map((s, i) => {
      const f = s.flick;
      const p20 = s.classes.twenty ? fmt(100 * s.classes.twenty.p, 0) : "-";
      return h("tr", { class: "plan-row" }, h("td", {}, s.rank), h("td", { class: "num" }, fmt(f.offset, 3)),
        h("td", { class: "num" }, fmt(f.aim, 3)), h("td", { class: "num" }, fmt(f.speed, 2)),
        h("td", { class: "num" }, fmt(f.spin, 1)),
        h("td", { class: "num" }, `${fmt(s.value.mean, 2)} `,
          h("span", { class: "note" }, `[${fmt(s.value.ci95[0], 1)}, ${fmt(s.value.ci95[1], 1)}]`)),
        h("td", { class: "num" }, `${p20} %`),
        h("td", {}, h("button", { class: "play-suggestion", "data-k": i }, "Play")));
    });
    const head = h("tr", {}, ["#", "offset", "aim", "speed", "spin", plan.objective, "P(20)", ""].map((t) => h("th", {}, t)));
    show("pl-result", plan.skill ? h("div", {}, skillNote(plan)) : null,
      h("table", { id: "plan-table" }, head, rows));
    for (const b of document.querySelectorAll(".play-suggestion")) {
      b.addEventListener("click", () => {
        const f = plan.top[Number(b.dataset.k)].flick;
        S.flick = { offset: f.offset, aim: f.aim, speed: f.speed, spin: f.spin };
        if (f.target) S.flick.target = f.target;
        syncInputs();
        shoot();
      });
    }
    drawHeatmap(plan.grid, plan.top[0]);
    setState("plan-done");
    $("pl-result").scrollIntoView({ block: "nearest" });
  } catch (e) {
    clearPanels("pl-result");
    fail("pl-result", e);
  }
}

function viridis(u) {
  const stops = [[68, 1, 84], [59, 82, 139], [33, 145, 140], [94, 201, 98], [253, 231, 37]];
  const x = Math.max(0, Math.min(1, u)) * (stops.length - 1);
  const i = Math.min(Math.floor(x), stops.length - 2), f = x - i;
  const c = stops[i].map((v, k) => Math.round(v + (stops[i + 1][k] - v) * f));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

function drawHeatmap(grid, best) {
  const svg = $("heatmap");
  svg.hidden = false;
  svg.textContent = "";
  if (!grid) return;
  const L = 50, T = 10, W = 350, H = 250;
  const na = grid.aim.length, ns = grid.speed.length;
  let lo = Infinity, hi = -Infinity;
  for (const row of grid.value) for (const v of row) if (v !== null) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const cw = W / na, ch = H / ns;
  let bestCell = null;
  grid.value.forEach((row, j) => row.forEach((v, i) => {
    const x = L + i * cw, y = T + (ns - 1 - j) * ch;
    const r = el("rect", { class: "cell" + (v === null ? " null" : ""), x, y, width: cw, height: ch }, svg);
    if (v !== null) r.setAttribute("fill", viridis(hi > lo ? (v - lo) / (hi - lo) : 1));
    el("title", {}, r, `aim ${fmt(grid.aim[i])} rad, speed ${fmt(grid.speed[j], 2)} m/s: ${v === null ? "illegal" : fmt(v, 2)}`);
    if (v !== null && v === hi && !bestCell) bestCell = r;
    r.addEventListener("click", () => {
      S.flick = { offset: grid.offset, aim: grid.aim[i], speed: grid.speed[j], spin: grid.spin };
      syncInputs();
      drawFlick();
    });
  }));
  if (bestCell) bestCell.classList.add("best");
  el("text", { class: "axis", x: L + W / 2, y: T + H + 28, "text-anchor": "middle" }, svg, "aim, rad (click a cell to take its flick)");
  el("text", { class: "axis", x: 12, y: T + H / 2, transform: `rotate(-90 12 ${T + H / 2})`, "text-anchor": "middle" }, svg, "speed, m/s");
  for (const i of [0, Math.floor(na / 2), na - 1]) {
    el("text", { class: "axis", x: L + (i + 0.5) * cw, y: T + H + 13, "text-anchor": "middle" }, svg, fmt(grid.aim[i], 2));
  }
  for (const j of [0, Math.floor(ns / 2), ns - 1]) {
    el("text", { class: "axis", x: L - 4, y: T + (ns - 1 - j + 0.5) * ch, "text-anchor": "end", "dominant-baseline": "central" }, svg, fmt(grid.speed[j], 2));
  }
  // The colour bar: the objective's value from the lowest (bottom) to the highest (top).
  const bars = 24, bx = L + W + 8;
  for (let k = 0; k < bars; k++) {
    el("rect", { class: "colour-bar", x: bx, y: T + (H * (bars - 1 - k)) / bars, width: 12, height: H / bars + 0.5, fill: viridis((k + 0.5) / bars) }, svg);
  }
  el("text", { class: "axis", x: bx + 16, y: T + 8 }, svg, fmt(hi, 1));
  el("text", { class: "axis", x: bx + 16, y: T + H }, svg, fmt(lo, 1));
  el("text", { class: "axis", x: bx + 16, y: T + H / 2, "dominant-baseline": "central" }, svg, "value");
  if (best) {
    const f = best.flick;
    const p = startPos(f.offset);
    S.flick = { offset: f.offset, aim: f.aim, speed: f.speed, spin: f.spin };
    if (f.target) S.flick.target = f.target;
    syncInputs();
    drawFlick();
    void p;
  }
}

