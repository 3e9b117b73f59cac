//! A planner result's picture (`crokinole suggest`): the heat map of expected value over aim
//! (x) and speed (y) for its fixed offset and spin, with ticked axes, a colour scale, null
//! cells (no value) hatched, the best cell outlined and the plan's best flick marked. When
//! the best cell or the best straight flick lies on the edge of the searched range (the
//! grid spans the suggest file's `search.aim` and `search.speed`), a warning line says so:
//! the optimum may lie outside the range. User units are pixels.

use super::shot::fmt_g;
use super::svg::{Svg, num};
use crokinole_plan::{AimAt, Grid, Suggestion};

const STYLE: &str = "\
.title{font:bold 16px sans-serif;fill:#111}.note{font:12px sans-serif;fill:#222}\
.tick{font:11px sans-serif;fill:#222}.axis{stroke:#222;stroke-width:1}\
.cell,.band{stroke:none;shape-rendering:crispEdges}.null{fill:url(#hatch)}.frame{fill:none;stroke:#222;stroke-width:1}\
.best{fill:none;stroke:#fff;stroke-width:2.5}.best-inner{fill:none;stroke:#000;stroke-width:1}\
.warning{font:bold 12px sans-serif;fill:#b00020}.edge{stroke:#ff1744;stroke-width:3}\
.plan-best{fill:none;stroke:#fff;stroke-width:2}.plan-best-inner{fill:#ff1744;stroke:#000;stroke-width:0.8}\
";

/// Viridis, 9 stops: perceptually even, readable in grey and by most colour-blind readers.
const VIRIDIS: [(f64, f64, f64); 9] = [
    (68.0, 1.0, 84.0),
    (71.0, 44.0, 122.0),
    (59.0, 81.0, 139.0),
    (44.0, 113.0, 142.0),
    (33.0, 144.0, 141.0),
    (39.0, 173.0, 129.0),
    (92.0, 200.0, 99.0),
    (170.0, 220.0, 50.0),
    (253.0, 231.0, 37.0),
];

/// The colour of `t` in [0, 1] on the scale, `#rrggbb`.
pub fn colour(t: f64) -> String {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let x = t * (VIRIDIS.len() - 1) as f64;
    let k = (x.floor() as usize).min(VIRIDIS.len() - 2);
    let f = x - k as f64;
    let (a, b) = (VIRIDIS[k], VIRIDIS[k + 1]);
    let mix = |u: f64, v: f64| (u + (v - u) * f).round() as u8;
    format!(
        "#{:02x}{:02x}{:02x}",
        mix(a.0, b.0),
        mix(a.1, b.1),
        mix(a.2, b.2)
    )
}

/// "Nice" tick values (steps of 1, 2, 2.5 or 5 times a power of ten) covering `[lo, hi]`.
pub fn ticks(lo: f64, hi: f64, target: usize) -> Vec<f64> {
    if hi.partial_cmp(&lo) != Some(std::cmp::Ordering::Greater) {
        return vec![lo];
    }
    let raw = (hi - lo) / target.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Cell edges around ascending centres: midpoints between neighbours, half a spacing
/// beyond the ends (`half` either side of a lone centre).
fn edges(c: &[f64], half: f64) -> Vec<f64> {
    if c.len() == 1 {
        return vec![c[0] - half, c[0] + half];
    }
    let mut e = Vec::with_capacity(c.len() + 1);
    e.push(c[0] - 0.5 * (c[1] - c[0]));
    for w in c.windows(2) {
        e.push(0.5 * (w[0] + w[1]));
    }
    let n = c.len();
    e.push(c[n - 1] + 0.5 * (c[n - 1] - c[n - 2]));
    e
}

/// Where the heat map is drawn: the plot area, the cell edges on both axes and the range
/// of the values, with the maps from aim, speed and value to the picture.
struct Plot {
    left: f64,
    top: f64,
    pw: f64,
    ph: f64,
    /// Cell edges over aim and over speed.
    ea: Vec<f64>,
    es: Vec<f64>,
    /// Lowest and highest value (infinite if every cell is null).
    lo: f64,
    hi: f64,
}

impl Plot {
    /// The layout of `grid`'s plot.
    fn new(grid: &Grid) -> Plot {
        let values = grid.value.iter().flatten().filter_map(|v| *v);
        let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
            (l.min(v), h.max(v))
        });
        Plot {
            left: 80.0,
            top: 84.0,
            pw: 660.0,
            ph: 460.0,
            ea: edges(&grid.aim, 0.01),
            es: edges(&grid.speed, 0.01),
            lo,
            hi,
        }
    }

    /// The aim range, edge to edge.
    fn aims(&self) -> (f64, f64) {
        (self.ea[0], self.ea[self.ea.len() - 1])
    }

    /// The speed range, edge to edge.
    fn speeds(&self) -> (f64, f64) {
        (self.es[0], self.es[self.es.len() - 1])
    }

    /// The x of aim `a`.
    fn x_of(&self, a: f64) -> f64 {
        let (a0, a1) = self.aims();
        self.left + (a - a0) / (a1 - a0) * self.pw
    }

    /// The y of speed `s` (faster higher).
    fn y_of(&self, s: f64) -> f64 {
        let (s0, s1) = self.speeds();
        self.top + self.ph - (s - s0) / (s1 - s0) * self.ph
    }

    /// Value `v` on the colour scale, in [0, 1] (0.5 if every value is the same).
    fn scale(&self, v: f64) -> f64 {
        if self.hi > self.lo {
            (v - self.lo) / (self.hi - self.lo)
        } else {
            0.5
        }
    }

    /// The rectangle `(x, y, width, height)` of cell (speed `si`, aim `ai`).
    fn cell(&self, si: usize, ai: usize) -> (f64, f64, f64, f64) {
        let (x, x2) = (self.x_of(self.ea[ai]), self.x_of(self.ea[ai + 1]));
        let (y, y2) = (self.y_of(self.es[si + 1]), self.y_of(self.es[si]));
        (x, y, x2 - x, y2 - y)
    }
}

/// The heat map of `grid` (checked by the reader: sizes agree, axes ascending and finite),
/// with the plan's best flick `best` marked when it is a straight flick (its aim is then on
/// the grid's axis). `title` is escaped here.
pub fn heatmap_svg(grid: &Grid, best: Option<&Suggestion>, title: &str) -> String {
    let plot = Plot::new(grid);
    let (w, h) = (plot.left + plot.pw + 150.0, plot.top + plot.ph + 70.0);
    let mut svg = Svg::new((0.0, 0.0, w, h), w, STYLE);
    header(&mut svg, grid, &plot, title);
    let best_cell_at = cells(&mut svg, grid, &plot);
    if let Some(b) = best_cell_at {
        best_cell(&mut svg, grid, &plot, b);
    }
    let straight = best.filter(|b| b.aim_at == AimAt::Straight);
    if let Some(b) = straight {
        plan_best(&mut svg, &plot, b);
    }
    svg.rect(plot.left, plot.top, plot.pw, plot.ph, "frame", "");
    axes(&mut svg, &plot);
    if let Some(warning) = edge_warning(grid, best_cell_at, straight) {
        svg.open("g", &[("class", "edge-warning".to_string())]);
        svg.text(plot.left, 64.0, "warning", "start", &warning);
        svg.close("g");
    }
    colour_scale(&mut svg, &plot);
    svg.finish()
}

/// Which ends of the searched range `(aim, speed)` lies on: `aim` at its lowest or highest
/// grid value, `speed` likewise (within a millionth of the axis's span).
fn on_edge(grid: &Grid, aim: f64, speed: f64) -> Vec<&'static str> {
    let at_end = |v: f64, axis: &[f64]| {
        let (lo, hi) = (axis[0], axis[axis.len() - 1]);
        let tol = 1e-6 * (hi - lo).abs().max(1e-9);
        axis.len() > 1 && ((v - lo).abs() <= tol || (v - hi).abs() <= tol)
    };
    let mut sides = Vec::new();
    if at_end(aim, &grid.aim) {
        sides.push("aim");
    }
    if at_end(speed, &grid.speed) {
        sides.push("speed");
    }
    sides
}

/// The warning when the best cell, or the plan's best straight flick, lies on the edge of
/// the searched range; `None` when the optimum is inside it.
pub fn edge_warning(
    grid: &Grid,
    best_cell: Option<(usize, usize, f64)>,
    best: Option<&Suggestion>,
) -> Option<String> {
    let (what, sides) = match best {
        Some(b) => ("the best flick", on_edge(grid, b.flick.aim, b.flick.speed)),
        None => {
            let (si, ai, _) = best_cell?;
            ("the best cell", on_edge(grid, grid.aim[ai], grid.speed[si]))
        }
    };
    let sides = match sides[..] {
        [] => {
            // The plan's flick is inside; the sweep's best cell may still be on an edge.
            let (si, ai, _) = best_cell?;
            let cell = on_edge(grid, grid.aim[ai], grid.speed[si]);
            if cell.is_empty() {
                return None;
            }
            return Some(format!(
                "\u{26a0} the best cell lies on the edge of the searched {} range: \
                 widen search.{} to look beyond it",
                cell.join(" and "),
                cell[0]
            ));
        }
        _ => sides,
    };
    Some(format!(
        "\u{26a0} {what} lies on the edge of the searched {} range: the optimum may lie \
         outside; widen search.{}",
        sides.join(" and "),
        sides[0]
    ))
}

/// The plan's best flick (rank 1, straight) as a marker at its aim and speed.
fn plan_best(svg: &mut Svg, plot: &Plot, b: &Suggestion) {
    let (x, y) = (plot.x_of(b.flick.aim), plot.y_of(b.flick.speed));
    svg.open("g", &[("class", "plan-best".to_string())]);
    svg.text_element(
        "title",
        &[],
        &format!(
            "the plan's best flick: aim {} rad, speed {} m/s, offset {} m: {} ({}-{})",
            fmt_g(b.flick.aim),
            fmt_g(b.flick.speed),
            fmt_g(b.flick.offset),
            fmt_g(b.value.mean),
            fmt_g(b.value.ci95[0]),
            fmt_g(b.value.ci95[1])
        ),
    );
    svg.circle(x, y, 7.0, "plan-best", "");
    svg.circle(x, y, 4.0, "plan-best-inner", "");
    svg.close("g");
}

/// The hatch pattern of null cells, the title and the note saying what is plotted.
fn header(svg: &mut Svg, grid: &Grid, plot: &Plot, title: &str) {
    svg.raw(
        "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#dddddd\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999999\" stroke-width=\"2\"/>\
         </pattern></defs>",
    );
    svg.text(plot.left, 24.0, "title", "start", title);
    svg.text(
        plot.left,
        44.0,
        "note",
        "start",
        &format!(
            "expected {} over aim and speed; offset {} m, spin {} rad/s, {} samples a cell{}",
            grid.objective,
            fmt_g(grid.offset),
            fmt_g(grid.spin),
            grid.samples,
            widest_spread(grid).map_or(String::new(), |h| format!(
                " (95 % half-widths up to {}: hover a cell for its own)",
                fmt_g((h * 100.0).round() / 100.0)
            ))
        ),
    );
}

/// The largest of the cells' 95 % half-widths, if the grid has them.
fn widest_spread(grid: &Grid) -> Option<f64> {
    grid.half_width95
        .iter()
        .flatten()
        .filter_map(|v| *v)
        .max_by(f64::total_cmp)
}

/// The cells, one per (speed, aim), row by row from the slowest speed; returns the best
/// cell `(si, ai, value)` (the first of the highest values), if any has a value.
fn cells(svg: &mut Svg, grid: &Grid, plot: &Plot) -> Option<(usize, usize, f64)> {
    let mut best: Option<(usize, usize, f64)> = None;
    svg.group("cells");
    for (si, row) in grid.value.iter().enumerate() {
        for (ai, v) in row.iter().enumerate() {
            let (x, y, cw, ch) = plot.cell(si, ai);
            let at = format!(
                "aim {} rad, speed {} m/s: ",
                fmt_g(grid.aim[ai]),
                fmt_g(grid.speed[si])
            );
            match v {
                Some(v) => {
                    if best.is_none_or(|(_, _, b)| *v > b) {
                        best = Some((si, ai, *v));
                    }
                    svg.open(
                        "rect",
                        &[
                            ("class", "cell".to_string()),
                            ("x", num(x)),
                            ("y", num(y)),
                            ("width", num(cw)),
                            ("height", num(ch)),
                            ("fill", colour(plot.scale(*v))),
                        ],
                    );
                    let spread = grid
                        .half_width95
                        .get(si)
                        .and_then(|row| row.get(ai))
                        .copied()
                        .flatten()
                        .map_or(String::new(), |h| {
                            format!(" \u{b1} {} (95 %, {} samples)", fmt_g(h), grid.samples)
                        });
                    svg.text_element("title", &[], &format!("{at}{}{spread}", fmt_g(*v)));
                    svg.close("rect");
                }
                None => svg.rect(x, y, cw, ch, "cell null", &format!("{at}no value")),
            }
        }
    }
    svg.close("g");
    best
}

/// The best cell outlined, with its aim, speed and value as a tooltip.
fn best_cell(svg: &mut Svg, grid: &Grid, plot: &Plot, (si, ai, v): (usize, usize, f64)) {
    let (x, y, cw, ch) = plot.cell(si, ai);
    svg.open("g", &[("class", "best-cell".to_string())]);
    svg.text_element(
        "title",
        &[],
        &format!(
            "best: aim {} rad, speed {} m/s, {}",
            fmt_g(grid.aim[ai]),
            fmt_g(grid.speed[si]),
            fmt_g(v)
        ),
    );
    svg.rect(x, y, cw, ch, "best", "");
    svg.rect(x, y, cw, ch, "best-inner", "");
    svg.close("g");
}

/// The aim axis (bottom) and the speed axis (left), ticked and labelled.
fn axes(svg: &mut Svg, plot: &Plot) {
    let (left, top, pw, ph) = (plot.left, plot.top, plot.pw, plot.ph);
    let ((a0, a1), (s0, s1)) = (plot.aims(), plot.speeds());
    svg.group("axes");
    for a in ticks(a0, a1, 8) {
        let x = plot.x_of(a);
        svg.line((x, top + ph), (x, top + ph + 5.0), "axis");
        svg.text(x, top + ph + 18.0, "tick", "middle", &fmt_g(a));
    }
    svg.text(
        left + 0.5 * pw,
        top + ph + 40.0,
        "note",
        "middle",
        "aim (rad, counter-clockwise from straight ahead)",
    );
    for s in ticks(s0, s1, 8) {
        let y = plot.y_of(s);
        svg.line((left - 5.0, y), (left, y), "axis");
        svg.text(left - 8.0, y + 4.0, "tick", "end", &fmt_g(s));
    }
    svg.text_element(
        "text",
        &[
            ("class", "note".to_string()),
            ("x", num(22.0)),
            ("y", num(top + 0.5 * ph)),
            ("text-anchor", "middle".to_string()),
            (
                "transform",
                format!("rotate(-90 22 {})", num(top + 0.5 * ph)),
            ),
        ],
        "speed (m/s)",
    );
    svg.close("g");
}

/// The colour scale right of the plot: 64 bands from the lowest value (bottom) to the
/// highest (top), ticked, with the key of null cells.
fn colour_scale(svg: &mut Svg, plot: &Plot) {
    let (top, ph, lo, hi) = (plot.top, plot.ph, plot.lo, plot.hi);
    let (cx, cw) = (plot.left + plot.pw + 30.0, 22.0);
    svg.group("colour-scale");
    let bands = 64;
    for k in 0..bands {
        let t = (k as f64 + 0.5) / bands as f64;
        let y = top + ph - (k + 1) as f64 * ph / bands as f64;
        svg.rect_filled(cx, y, cw, ph / bands as f64 + 0.5, "band", &colour(t));
    }
    svg.rect(cx, top, cw, ph, "frame", "");
    if lo.is_finite() {
        let span = if hi > lo { hi - lo } else { 1.0 };
        for v in ticks(lo, hi, 6) {
            let y = top + ph - (v - lo) / span * ph;
            svg.line((cx + cw, y), (cx + cw + 5.0, y), "axis");
            svg.text(cx + cw + 8.0, y + 4.0, "tick", "start", &fmt_g(v));
        }
        svg.text(
            cx,
            top - 8.0,
            "tick",
            "start",
            &format!("max {}", fmt_g(hi)),
        );
        svg.text(
            cx,
            top + ph + 18.0,
            "tick",
            "start",
            &format!("min {}", fmt_g(lo)),
        );
    }
    svg.rect(cx, top + ph + 30.0, cw, 14.0, "null key", "");
    svg.text(cx + cw + 6.0, top + ph + 41.0, "tick", "start", "no value");
    svg.close("g");
}
