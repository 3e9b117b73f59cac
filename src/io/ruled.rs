//! The `--rules` form of the outcome file (`crokinole simulate --rules`): every shot of a
//! shot file judged by the rules layer, each outcome carrying a `rules` object (the
//! [`ShotVerdict`]) and its `discs` showing the position after the rules.
//!
//! The rules run in the rules layer ([`crate::rules::judge`]: the up-front checks and the
//! verdicts); this file only writes the verdicts out.
//!
//! In the `--rules` outcome every disc keeps its place in `discs` (its id), with the
//! engine's `team` and `pos`, and a `state` after the rules: `board` (still on the board:
//! it is in the verdict's `position`), `hole` (set aside as a 20: in `twenties`), `ditch`
//! (went over the edge: removed with reason `ditch`) or `removed` (taken off by a rule or
//! for resting on or beyond the shooting line: removed with reason `opening_rule`,
//! `must_hit` or `on_or_beyond_shooting_line`). `pos` stays where the engine left the
//! disc (for `hole` and `ditch`, where it left the surface). The keys `events`, `steps`,
//! `time` and `cut_off` are exactly those of the plain outcome, followed by `rules`.

use super::outcome_file::{EventJson, Seq};
use super::trace_json::TraceJson;
use crate::disc::Disc;
use crate::limits::Limit;
use crate::rules::ShotVerdict;
use crate::shot::Outcome;
use crate::trace::Trace;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use std::io::Write;

/// `{"team", "pos", "state"}` with the state after the rules.
struct RuledDisc<'a>(&'a Disc, &'static str);

impl Serialize for RuledDisc<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Disc", 3)?;
        m.serialize_field("team", &self.0.team)?;
        m.serialize_field("pos", &self.0.pos.to_array())?;
        m.serialize_field("state", self.1)?;
        m.end()
    }
}

/// The discs of an outcome with their states after the rules.
struct RuledDiscs<'a>(&'a Outcome, &'a ShotVerdict);

impl Serialize for RuledDiscs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .discs
                .iter()
                .enumerate()
                .map(|(id, d)| RuledDisc(d, self.1.fate_of(id).name())),
        )
    }
}

/// `{"discs", "events", "steps", "time"[, "cut_off": true, "limit"][, "capped_steps"], "rules"[, "trace"]}`.
struct RuledOutcomeJson<'a>(&'a Outcome, &'a ShotVerdict, Option<&'a Trace>);

impl Serialize for RuledOutcomeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let fields = 5
            + 2 * usize::from(o.cut_off)
            + usize::from(o.capped_steps > 0)
            + usize::from(self.2.is_some());
        let mut m = s.serialize_struct("Outcome", fields)?;
        m.serialize_field("discs", &RuledDiscs(o, self.1))?;
        m.serialize_field("events", &Seq(&o.events, EventJson))?;
        m.serialize_field("steps", &o.steps)?;
        m.serialize_field("time", &o.time)?;
        if o.cut_off {
            m.serialize_field("cut_off", &true)?;
            m.serialize_field("limit", o.limit.map_or("max_time", Limit::name))?;
        }
        if o.capped_steps > 0 {
            m.serialize_field("capped_steps", &o.capped_steps)?;
        }
        m.serialize_field("rules", self.1)?;
        if let Some(trace) = self.2 {
            m.serialize_field("trace", &TraceJson(trace))?;
        }
        m.end()
    }
}

/// `{"outcomes": [...]}` with rules (and traces, if given: one per outcome).
struct RuledFileJson<'a>(&'a [Outcome], &'a [ShotVerdict], Option<&'a [Trace]>);

impl Serialize for RuledFileJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("OutcomeFile", 1)?;
        m.serialize_field("outcomes", &Outcomes(self.0, self.1, self.2))?;
        m.end()
    }
}

/// The outcomes paired with their verdicts (and traces).
struct Outcomes<'a>(&'a [Outcome], &'a [ShotVerdict], Option<&'a [Trace]>);

impl Serialize for Outcomes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .iter()
                .zip(self.1)
                .enumerate()
                .map(|(k, (o, v))| RuledOutcomeJson(o, v, self.2.map(|t| &t[k]))),
        )
    }
}

/// Writes the `--rules` outcome file (`outcomes[k]` judged by `verdicts[k]`) to `w` as
/// compact JSON followed by a newline. Wrap `w` in a `BufWriter`.
pub fn write_ruled_outcomes<W: Write>(
    mut w: W,
    outcomes: &[Outcome],
    verdicts: &[ShotVerdict],
) -> std::io::Result<()> {
    serde_json::to_writer(&mut w, &RuledFileJson(outcomes, verdicts, None))?;
    w.write_all(b"\n")
}

/// [`write_ruled_outcomes`] for `crokinole simulate --rules --trace`: outcome `k` is
/// `traces[k].outcome` judged by `verdicts[k]`, with a last member `trace`.
pub fn write_ruled_traced_outcomes<W: Write>(
    mut w: W,
    traces: &[Trace],
    verdicts: &[ShotVerdict],
) -> std::io::Result<()> {
    let outcomes: Vec<Outcome> = traces.iter().map(|t| t.outcome.clone()).collect();
    serde_json::to_writer(&mut w, &RuledFileJson(&outcomes, verdicts, Some(traces)))?;
    w.write_all(b"\n")
}
