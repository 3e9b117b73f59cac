//! CSV for spreadsheets and data frames: the Monte Carlo samples file
//! (`crokinole montecarlo --samples-out FILE.csv`) and the outcome file
//! (`crokinole simulate --csv`). One header line, then one row a line; numbers in Rust's
//! shortest round-trip form (the same digits as the JSON files), booleans `true`/`false`,
//! no quoting (no field holds a comma). Columns are listed in docs/montecarlo.md and
//! docs/shot-file.md.

use crate::state_name;
use crokinole_core::shot::Outcome;
use crokinole_montecarlo::study::Sample;
use crokinole_rules::ShotVerdict;
use std::fmt::Write as _;

/// The header of the samples CSV.
pub const SAMPLE_CSV_HEADER: &str = "sample,offset,aim,speed,spin,class,score_change,\
opponent_hits,opponents_moved,cut_off,x,y,state\n";

/// One row of the samples CSV: the sample number, the flick as played, the class, the
/// score change, the hits, whether an opponent moved, whether cut off, and the shot
/// disc's final position and engine state (`board`, `hole`, `ditch`).
pub fn sample_csv_row(s: &Sample) -> String {
    let f = &s.flick;
    let r = &s.result;
    let shooter = s.outcome.discs.last();
    let (x, y, state) = shooter.map_or((f64::NAN, f64::NAN, ""), |d| {
        (d.pos.x, d.pos.y, state_name(d.state))
    });
    format!(
        "{},{:?},{:?},{:?},{:?},{},{},{},{},{},{:?},{:?},{}\n",
        s.index,
        f.offset,
        f.aim,
        f.speed,
        f.spin,
        r.class.name(),
        r.score_change,
        r.opponent_hits,
        r.opponents_moved,
        r.cut_off,
        x,
        y,
        state
    )
}

/// The outcome file as CSV: one row per disc per shot, in shot and id order:
/// `shot,disc,team,x,y,state,time,steps,cut_off`, and with `verdicts` (`--rules`) a last
/// column `after_rules` (`board`, `hole`, `ditch` or `removed`, as in the JSON).
pub fn outcomes_csv(outcomes: &[Outcome], verdicts: Option<&[ShotVerdict]>) -> String {
    let mut out = String::from(outcomes_csv_header(verdicts.is_some()));
    outcomes_csv_rows(&mut out, 0, outcomes, verdicts);
    out
}

/// The header line of [`outcomes_csv`] (with `after_rules` if `rules`), newline included.
pub fn outcomes_csv_header(rules: bool) -> &'static str {
    if rules {
        "shot,disc,team,x,y,state,time,steps,cut_off,after_rules\n"
    } else {
        "shot,disc,team,x,y,state,time,steps,cut_off\n"
    }
}

/// Appends to `out` the rows of [`outcomes_csv`] for `outcomes`, the first being shot
/// `first` of the file: a streamed CSV is the header and the rows of each chunk in turn.
pub fn outcomes_csv_rows(
    out: &mut String,
    first: usize,
    outcomes: &[Outcome],
    verdicts: Option<&[ShotVerdict]>,
) {
    for (k, o) in outcomes.iter().enumerate() {
        for (id, d) in o.discs.iter().enumerate() {
            let _ = write!(
                out,
                "{},{id},{},{:?},{:?},{},{:?},{},{}",
                first + k,
                d.team,
                d.pos.x,
                d.pos.y,
                state_name(d.state),
                o.time,
                o.steps,
                o.cut_off
            );
            if let Some(v) = verdicts {
                let _ = write!(out, ",{}", v[k].fate_of(id).name());
            }
            out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crokinole_core::disc::{Disc, DiscState};
    use glam::DVec2;

    #[test]
    fn outcome_rows_hold_every_disc_with_exact_numbers() {
        let mut d = Disc::at_rest(1, DVec2::new(0.1, -1.0 / 3.0), 0.0159, 0.0065);
        d.state = DiscState::Ditch;
        let o = Outcome {
            discs: vec![d],
            events: vec![],
            steps: 12,
            time: 0.5,
            cut_off: false,
            limit: None,
            capped_steps: 0,
        };
        let csv = outcomes_csv(&[o], None);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines[0], "shot,disc,team,x,y,state,time,steps,cut_off");
        assert_eq!(lines[1], "0,0,1,0.1,-0.3333333333333333,ditch,0.5,12,false");
        let y: f64 = lines[1].split(',').nth(4).unwrap().parse().unwrap();
        assert_eq!(y, -1.0 / 3.0);
    }
}
