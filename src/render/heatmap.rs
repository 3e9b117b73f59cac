//! A planner result's picture (`crokinole suggest`): the heat map of expected value over aim
//! (x) and speed (y) for its fixed offset and spin, with ticked axes, a colour scale, null
//! cells (no value) hatched, and the best cell outlined. User units are pixels.

use super::shot::fmt_g;
use super::svg::{Svg, num};
use crate::plan::Grid;

const STYLE: &str = "\
.title{font:bold 16px sans-serif;fill:#111}.note{font:12px sans-serif;fill:#222}\
.tick{font:11px sans-serif;fill:#222}.axis{stroke:#222;stroke-width:1}\
.cell,.band{stroke:none;shape-rendering:crispEdges}.null{fill:url(#hatch)}.frame{fill:none;stroke:#222;stroke-width:1}\
.best{fill:none;stroke:#fff;stroke-width:2.5}.best-inner{fill:none;stroke:#000;stroke-width:1}\
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

/// The heat map of `grid` (checked by the reader: sizes agree, axes ascending and finite).
/// `title` is escaped here.
pub fn heatmap_svg(grid: &Grid, title: &str) -> String {
    let (left, top, pw, ph) = (80.0, 64.0, 660.0, 460.0);
    let (w, h) = (left + pw + 150.0, top + ph + 70.0);
    let mut svg = Svg::new((0.0, 0.0, w, h), w, STYLE);
    svg.raw(
        "<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" \
         patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#dddddd\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#999999\" stroke-width=\"2\"/>\
         </pattern></defs>",
    );
    svg.text(left, 24.0, "title", "start", title);
    svg.text(
        left,
        44.0,
        "note",
        "start",
        &format!(
            "expected {} over aim and speed; offset {} m, spin {} rad/s, {} samples a cell",
            grid.objective,
            fmt_g(grid.offset),
            fmt_g(grid.spin),
            grid.samples
        ),
    );

    let ea = edges(&grid.aim, 0.01);
    let es = edges(&grid.speed, 0.01);
    let (a0, a1) = (ea[0], ea[ea.len() - 1]);
    let (s0, s1) = (es[0], es[es.len() - 1]);
    let x_of = |a: f64| left + (a - a0) / (a1 - a0) * pw;
    let y_of = |s: f64| top + ph - (s - s0) / (s1 - s0) * ph;
    let values = grid.value.iter().flatten().filter_map(|v| *v);
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), v| {
        (l.min(v), h.max(v))
    });
    let scale = |v: f64| if hi > lo { (v - lo) / (hi - lo) } else { 0.5 };

    // Cells, one per (speed, aim), row by row from the slowest speed.
    let mut best: Option<(usize, usize, f64)> = None;
    svg.group("cells");
    for (si, row) in grid.value.iter().enumerate() {
        for (ai, v) in row.iter().enumerate() {
            let (x, x2) = (x_of(ea[ai]), x_of(ea[ai + 1]));
            let (y, y2) = (y_of(es[si + 1]), y_of(es[si]));
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
                            ("width", num(x2 - x)),
                            ("height", num(y2 - y)),
                            ("fill", colour(scale(*v))),
                        ],
                    );
                    svg.text_element("title", &[], &format!("{at}{}", fmt_g(*v)));
                    svg.close("rect");
                }
                None => svg.rect(x, y, x2 - x, y2 - y, "cell null", &format!("{at}no value")),
            }
        }
    }
    svg.close("g");
    if let Some((si, ai, v)) = best {
        let (x, x2) = (x_of(ea[ai]), x_of(ea[ai + 1]));
        let (y, y2) = (y_of(es[si + 1]), y_of(es[si]));
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
        svg.rect(x, y, x2 - x, y2 - y, "best", "");
        svg.rect(x, y, x2 - x, y2 - y, "best-inner", "");
        svg.close("g");
    }
    svg.rect(left, top, pw, ph, "frame", "");

    // Axes.
    svg.group("axes");
    for a in ticks(a0, a1, 8) {
        let x = x_of(a);
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
        let y = y_of(s);
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

    // Colour scale: 64 bands from the lowest value (bottom) to the highest (top).
    let (cx, cw) = (left + pw + 30.0, 22.0);
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
    svg.finish()
}
