//! The picture of a fit (`crokinole fit --svg`): the board to scale, every tracked shot's
//! observed centres as dots and its discs' paths simulated with the fitted coefficients and
//! the shot's fitted launch as lines, each disc in its team's colour; the discs where they
//! started dashed; a held-out shot's paths dashed. One user unit is one millimetre.

use super::board::{MM, STYLE, at, draw_board, outer_radius};
use super::svg::Svg;
use crokinole_core::error::InputError;
use crokinole_fit::model::{all_paths, position_at, trace_of};
use crokinole_fit::{Fit, Tracks};

/// The styles of the fit's own marks, added to the board's.
const FIT_STYLE: &str = "\
.observed{stroke:#111;stroke-width:0.3;opacity:0.8}.observed.team0{fill:#e0a030}.observed.team1{fill:#30b0c0}\
.fitted{fill:none;stroke-width:1.2;stroke-linejoin:round;stroke-linecap:round}\
.fitted.team0{stroke:#8f1d16}.fitted.team1{stroke:#123f86}\
.fitted.held-out{stroke-dasharray:4 2}\
.shot-label{font:bold 11px sans-serif;fill:#111;stroke:#fff;stroke-width:2.5;paint-order:stroke}\
";

/// Radius of an observation's dot, mm.
const DOT: f64 = 2.0;

/// The picture of `fit` over `tracks` (the tracks it was fitted to), with a `title` line
/// (escaped here). Errors are the engine's refusals of a shot with its fitted launch
/// (none for a fit made from these tracks).
pub fn fit_svg(tracks: &Tracks, fit: &Fit, title: &str) -> Result<String, InputError> {
    let board = &tracks.board;
    let r = outer_radius(board) + 8.0;
    let mut svg = Svg::new(
        (-r, -r - 44.0, 2.0 * r, 2.0 * r + 44.0),
        800.0,
        &format!("{STYLE}{FIT_STYLE}"),
    );
    svg.text(-r + 4.0, -r - 24.0, "title", "start", title);
    let identified = fit
        .coefficients
        .iter()
        .filter(|c| matches!(c.estimate, crokinole_fit::Estimate::Fitted { .. }))
        .count();
    svg.text(
        -r + 4.0,
        -r - 6.0,
        "note",
        "start",
        &format!(
            "{} shots, {} observed positions (dots); lines: paths with the fitted \
             coefficients ({identified} of {} identified), dashed when held out",
            tracks.shots.len(),
            tracks.observations(),
            fit.coefficients.len()
        ),
    );
    draw_board(&mut svg, board);
    for (k, (shot, result)) in tracks.shots.iter().zip(&fit.shots).enumerate() {
        let trace = trace_of(board, &fit.physics, shot, result.launch).map_err(|e| e.in_shot(k))?;
        let paths = all_paths(&trace);
        svg.open(
            "g",
            &[("class", "shot".to_string()), ("id", format!("shot-{k}"))],
        );
        let team = |id: usize| {
            if id < shot.discs.len() {
                shot.discs[id].team.min(1)
            } else {
                shot.shooter.team.min(1)
            }
        };
        for track in &shot.tracks {
            let start = trace.start[track.disc].pos;
            let (x, y) = at(start);
            let t = team(track.disc);
            svg.circle(
                x,
                y,
                trace.start[track.disc].radius * MM,
                &format!("start team{t}"),
                &format!("shot {k}, disc {} at the start", track.disc),
            );
        }
        for track in &shot.tracks {
            let t = team(track.disc);
            let last = track.points.last().map_or(0.0, |p| p.t);
            let path = &paths[track.disc];
            // The path to the last observation, a point at least every 0.5 mm (the path is
            // straight between its points; the thinning only drops points on a line).
            let mut pts: Vec<(f64, f64)> = Vec::new();
            for &(_, p) in path.iter().filter(|&&(tp, _)| tp < last) {
                let (x, y) = at(p);
                if pts.last().is_none_or(|&(px, py): &(f64, f64)| {
                    (x - px) * (x - px) + (y - py) * (y - py) >= 0.25
                }) {
                    pts.push((x, y));
                }
            }
            pts.push(at(position_at(path, last)));
            let class = if result.held_out {
                format!("fitted team{t} held-out")
            } else {
                format!("fitted team{t}")
            };
            svg.polyline(
                &pts,
                &class,
                &format!("shot {k}, disc {}: fitted path", track.disc),
            );
            svg.group(&format!("observed team{t}"));
            for p in &track.points {
                let (x, y) = at(p.pos);
                svg.circle(x, y, DOT, "", "");
            }
            svg.close("g");
        }
        let (x, y) = at(shot.shooter.pos);
        // Below the shooter's start, shots from nearby starts one under the other.
        let below = 26.0 + 13.0 * (k % 4) as f64;
        svg.text(x, y + below, "shot-label", "middle", &format!("shot {k}"));
        svg.close("g");
    }
    Ok(svg.finish())
}
