//! The tracks file (docs/tracks.md), read into [`Tracks`], and the report of
//! `crokinole fit` written as JSON or as readable text; the fitted physics is written as
//! the `board` and `physics` blocks of a shot file ([`crate::params_json`]).
//!
//! Conventions are those of the shot file: unknown keys and `null` refused, a structure
//! only as an object, errors naming the field (`shots[3].tracks[1].points[4].t`) and the
//! shot, JSON errors the line and column too. The `board` and `physics` blocks are read by
//! the shot file's own reader, at their place in the file (as a study file's are).

use crate::format::{Style, to_json};
use crate::shot_file::DiscJson;
use crate::situation::{from_json, read_block};
use crate::strict::{Obj, present};
use crate::{Layout, laid_out, parse_shot_file};
use crokinole_core::error::InputError;
use crokinole_core::params::Physics;
use crokinole_core::shot::Placed;
use crokinole_fit::{Estimate, Fit, Observation, Track, TrackedShot, Tracks};
use glam::DVec2;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// The whole file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a tracks file object")]
struct TracksFileJson<'a> {
    #[serde(default, deserialize_with = "present")]
    #[allow(dead_code)]
    description: Option<String>,
    #[serde(default, borrow, deserialize_with = "present")]
    board: Option<&'a RawValue>,
    #[serde(default, borrow, deserialize_with = "present")]
    physics: Option<&'a RawValue>,
    shots: Vec<Obj<TrackedShotJson>>,
}

/// One tracked shot.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a tracked shot object {discs, shooter, sigma, tracks}"
)]
struct TrackedShotJson {
    discs: Vec<Obj<DiscJson>>,
    shooter: Obj<DiscJson>,
    #[serde(default, deserialize_with = "present")]
    sigma: Option<f64>,
    tracks: Vec<Obj<TrackJson>>,
}

/// One disc's track.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a track object {disc, sigma, points}"
)]
struct TrackJson {
    disc: usize,
    #[serde(default, deserialize_with = "present")]
    sigma: Option<f64>,
    points: Vec<Obj<PointJson>>,
}

/// One observation.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an observation object {t, pos}")]
struct PointJson {
    t: f64,
    pos: [f64; 2],
}

/// `e` attributed to its shot when its field lies under `shots[K]`.
fn with_shot(mut e: InputError) -> InputError {
    if e.shot.is_none()
        && let Some(rest) = e.field.strip_prefix("shots[")
        && let Some(end) = rest.find(']')
        && let Ok(k) = rest[..end].parse()
    {
        e.shot = Some(k);
    }
    e
}

/// Parses and checks a tracks file: the JSON (unknown keys, wrong types, `null`, numbers
/// out of range), the `board` and `physics` blocks (as a shot file's), every shot's
/// position, each track's uncertainty (the track's `sigma`, else its shot's) and points,
/// and the bounds of docs/limits.md ([`Tracks::check`]). Errors name the shot and the
/// field.
pub fn parse_tracks_file(text: &str) -> Result<Tracks, InputError> {
    let file: Obj<TracksFileJson> = from_json(text).map_err(with_shot)?;
    let file = file.0;
    let mut tracks = Tracks {
        board: crokinole_core::board::Board::tournament(),
        physics: Physics::default(),
        shots: Vec::with_capacity(file.shots.len()),
    };
    if let Some(raw) = file.board {
        tracks.board = parse_shot_file(&read_block(text, "board", raw))?.0;
    }
    if let Some(raw) = file.physics {
        tracks.physics = parse_shot_file(&read_block(text, "physics", raw))?.1;
    }
    for (k, Obj(shot)) in file.shots.into_iter().enumerate() {
        let in_shot = |field: String, problem: String| InputError::new(field, problem).in_shot(k);
        if let Some(s) = shot.sigma
            && (s.is_nan() || s <= 0.0)
        {
            return Err(in_shot(
                "sigma".into(),
                format!(
                    "the position uncertainty must be a positive number of metres, got {}",
                    crokinole_core::error::num(s)
                ),
            ));
        }
        let mut out = Vec::with_capacity(shot.tracks.len());
        for (j, Obj(track)) in shot.tracks.into_iter().enumerate() {
            let sigma = match (track.sigma, shot.sigma) {
                (Some(s), _) | (None, Some(s)) => s,
                (None, None) => {
                    return Err(in_shot(
                        format!("tracks[{j}].sigma"),
                        "no position uncertainty: give `sigma` (m) on the track or on its shot"
                            .into(),
                    ));
                }
            };
            out.push(Track {
                disc: track.disc,
                sigma,
                points: track
                    .points
                    .into_iter()
                    .map(|Obj(p)| Observation {
                        t: p.t,
                        pos: DVec2::from(p.pos),
                    })
                    .collect(),
            });
        }
        let placed = |d: DiscJson| Placed {
            team: d.team,
            pos: DVec2::from(d.pos),
        };
        tracks.shots.push(TrackedShot {
            discs: shot.discs.into_iter().map(|Obj(d)| placed(d)).collect(),
            shooter: placed(shot.shooter.0),
            tracks: out,
        });
    }
    tracks.check()?;
    Ok(tracks)
}

/// A coefficient in the JSON report.
#[derive(Serialize)]
struct CoefficientOut {
    name: &'static str,
    start: f64,
    identified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sigma: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// A shot's residuals in the JSON report.
#[derive(Serialize)]
struct ShotOut {
    shot: usize,
    held_out: bool,
    points: usize,
    rms: f64,
    max: f64,
    vel: [f64; 2],
    spin: f64,
}

/// The held-out shots in the JSON report.
#[derive(Serialize)]
struct HoldoutOut {
    shots: Vec<usize>,
    points: usize,
    median: f64,
    p90: f64,
}

/// The contacts in the JSON report.
#[derive(Serialize)]
struct ContactsOut {
    disc: usize,
    peg: usize,
}

/// The JSON report.
#[derive(Serialize)]
struct ReportOut {
    shots: usize,
    observations: usize,
    iterations: u32,
    converged: bool,
    chi2: f64,
    dof: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    reduced_chi2: Option<f64>,
    contacts: ContactsOut,
    max_relative_uncertainty: f64,
    coefficients: Vec<CoefficientOut>,
    residuals: Vec<ShotOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    holdout: Option<HoldoutOut>,
}

/// The fit's report as JSON (docs/tracks.md, "The report"), in `layout`: the top object
/// one key a line, each coefficient and each shot's residuals one a line. Distances in m.
pub fn fit_report_json(fit: &Fit, layout: Layout) -> String {
    let report = ReportOut {
        shots: fit.shots.len(),
        observations: fit.observations,
        iterations: fit.iterations,
        converged: fit.converged,
        chi2: fit.chi2,
        dof: fit.dof,
        reduced_chi2: (fit.dof > 0).then(|| fit.reduced_chi2()),
        contacts: ContactsOut {
            disc: fit.contacts.0,
            peg: fit.contacts.1,
        },
        max_relative_uncertainty: crokinole_fit::MAX_RELATIVE_UNCERTAINTY,
        coefficients: fit
            .coefficients
            .iter()
            .map(|c| {
                let (value, sigma, reason) = match &c.estimate {
                    Estimate::Fitted { value, sigma } => (Some(*value), Some(*sigma), None),
                    Estimate::NotIdentified { reason } => (None, None, Some(reason.clone())),
                };
                CoefficientOut {
                    name: c.coefficient.name(),
                    start: c.start,
                    identified: value.is_some(),
                    value,
                    sigma,
                    reason,
                }
            })
            .collect(),
        residuals: fit
            .shots
            .iter()
            .map(|s| ShotOut {
                shot: s.shot,
                held_out: s.held_out,
                points: s.points,
                rms: s.rms,
                max: s.max,
                vel: s.launch.vel.to_array(),
                spin: s.launch.spin,
            })
            .collect(),
        holdout: fit.holdout.as_ref().map(|h| HoldoutOut {
            shots: h.shots.clone(),
            points: h.points,
            median: h.median,
            p90: h.p90,
        }),
    };
    laid_out(to_json(&report, Style::ROWS), layout)
}

/// `x` with `digits` significant digits, shortest form (`0.1504`, `7.438e-4` as
/// `0.0007438`).
fn sig(x: f64, digits: usize) -> String {
    if !x.is_finite() {
        return format!("{x}");
    }
    let s = format!("{x:.*e}", digits.saturating_sub(1));
    // Beyond 1e9 (or below 1e-9) the plain form runs to tens of digits (a chi2 of 1.19e19
    // printed as `11931200000000000000`): scientific notation there.
    s.parse::<f64>().map_or(s, |v| {
        if v != 0.0 && !(1e-9..1e9).contains(&v.abs()) {
            format!("{v:e}")
        } else {
            format!("{v}")
        }
    })
}

/// Millimetres with two decimals.
fn mm(x: f64) -> String {
    format!("{:.2}", x * 1000.0)
}

/// The fit's report as readable text (docs/tracks.md): the fit's size and cost, each
/// coefficient fitted with its uncertainty or not identified with the reason, each shot's
/// residuals and launch, the held-out errors, and the fitted `board` and `physics` blocks
/// (`params`, what `--physics-out` writes).
pub fn fit_report_text(fit: &Fit, params: &str) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let held: Vec<usize> = fit.holdout.as_ref().map_or(Vec::new(), |h| h.shots.clone());
    let fitted = fit.shots.len() - held.len();
    let _ = writeln!(
        out,
        "Fitted {fitted} of {} shots ({} observed positions){}.",
        fit.shots.len(),
        fit.observations,
        if held.is_empty() {
            String::new()
        } else {
            format!(
                "; held out: shot{} {}",
                if held.len() == 1 { "" } else { "s" },
                held.iter()
                    .map(|k| k.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        }
    );
    let _ = writeln!(
        out,
        "chi2 {} over {} degrees of freedom (reduced {}); {} iteration{}, {}.",
        sig(fit.chi2, 6),
        fit.dof,
        sig(fit.reduced_chi2(), 4),
        fit.iterations,
        if fit.iterations == 1 { "" } else { "s" },
        if fit.converged {
            "converged"
        } else {
            "NOT converged (raise --max-iterations)"
        }
    );
    let _ = writeln!(
        out,
        "Contacts in the fitted shots: {} disc-disc, {} disc-peg.",
        fit.contacts.0, fit.contacts.1
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<18}{:>8}  {:>10}  {:>12}",
        "coefficient", "start", "fitted", "+/- 1 sigma"
    );
    for c in &fit.coefficients {
        match &c.estimate {
            Estimate::Fitted { value, sigma } => {
                let _ = writeln!(
                    out,
                    "{:<18}{:>8}  {:>10}  {:>12}",
                    c.coefficient.name(),
                    sig(c.start, 4),
                    sig(*value, 5),
                    sig(*sigma, 2)
                );
            }
            Estimate::NotIdentified { reason } => {
                let _ = writeln!(
                    out,
                    "{:<18}{:>8}  not identified by these shots: {reason}; kept at {}",
                    c.coefficient.name(),
                    sig(c.start, 4),
                    sig(c.start, 4)
                );
            }
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:>4}  {:<8}  {:>6}  {:>8}  {:>8}  {:>18}  {:>8}",
        "shot", "", "points", "rms mm", "max mm", "launch vel m/s", "spin"
    );
    for s in &fit.shots {
        let _ = writeln!(
            out,
            "{:>4}  {:<8}  {:>6}  {:>8}  {:>8}  {:>18}  {:>8}",
            s.shot,
            if s.held_out { "held out" } else { "fitted" },
            s.points,
            mm(s.rms),
            mm(s.max),
            format!("[{:.4}, {:.4}]", s.launch.vel.x, s.launch.vel.y),
            format!("{:.2}", s.launch.spin)
        );
    }
    if let Some(h) = &fit.holdout {
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Held-out shots ({} observed positions, launch fitted alone, coefficients frozen): \
             median error {} mm, 90th percentile {} mm.",
            h.points,
            mm(h.median),
            mm(h.p90)
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Fitted physics (the board and physics blocks of a shot file; --physics-out writes them):"
    );
    out.push_str(params);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::sig;

    /// Issue #42, item 8: the report printed a chi2 of 1.19e19 as `11931200000000000000`.
    #[test]
    fn report_numbers_stay_short_at_any_size() {
        assert_eq!(sig(1.19312e19, 6), "1.19312e19");
        assert_eq!(sig(3.2e-12, 4), "3.2e-12");
        assert_eq!(sig(0.0007438, 4), "0.0007438");
        assert_eq!(sig(123.456789, 6), "123.457");
        assert_eq!(sig(0.0, 6), "0");
    }
}
