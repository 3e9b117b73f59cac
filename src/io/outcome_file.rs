//! The outcome file (`docs/shot-file.md`): `{"outcomes": [...]}`, one outcome per
//! shot, floats in `serde_json`'s shortest round-trip form so the bytes depend only on the
//! outcomes.

use super::trace_json::TraceJson;
use crate::disc::{Disc, DiscState};
use crate::limits::Limit;
use crate::shot::Outcome;
use crate::step::event::{Event, EventKind};
use crate::trace::Trace;
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};
use std::io::Write;

/// The name of a disc state in the outcome file: `board` (at rest or, if cut off, still
/// moving), `hole` or `ditch`.
pub fn state_name(state: DiscState) -> &'static str {
    match state {
        DiscState::Rest | DiscState::Moving => "board",
        DiscState::Hole => "hole",
        DiscState::Ditch => "ditch",
    }
}

/// `{"team", "pos", "state"}`.
struct DiscJson<'a>(&'a Disc);

impl Serialize for DiscJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let d = self.0;
        let mut m = s.serialize_struct("Disc", 3)?;
        m.serialize_field("team", &d.team)?;
        m.serialize_field("pos", &d.pos.to_array())?;
        m.serialize_field("state", state_name(d.state))?;
        m.end()
    }
}

/// `{"t", "kind", "a"[, "b" | "peg"]}`.
pub(super) struct EventJson<'a>(pub(super) &'a Event);

impl Serialize for EventJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let (kind, a, other) = match e.kind {
            EventKind::Disc { a, b } => ("disc", a, Some(("b", b))),
            EventKind::Peg { a, peg } => ("peg", a, Some(("peg", peg))),
            EventKind::Hole { a } => ("hole", a, None),
            EventKind::Ditch { a } => ("ditch", a, None),
        };
        let mut m = s.serialize_struct("Event", 3 + usize::from(other.is_some()))?;
        m.serialize_field("t", &e.t)?;
        m.serialize_field("kind", kind)?;
        m.serialize_field("a", &a)?;
        if let Some((key, value)) = other {
            m.serialize_field(key, &value)?;
        }
        m.end()
    }
}

/// `{"discs", "events", "steps", "time"[, "cut_off": true, "limit"][, "capped_steps"][, "trace"]}`.
struct OutcomeJson<'a>(&'a Outcome, Option<&'a Trace>);

impl Serialize for OutcomeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.0;
        let fields = 4
            + 2 * usize::from(o.cut_off)
            + usize::from(o.capped_steps > 0)
            + usize::from(self.1.is_some());
        let mut m = s.serialize_struct("Outcome", fields)?;
        m.serialize_field("discs", &Seq(&o.discs, DiscJson))?;
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
        if let Some(trace) = self.1 {
            m.serialize_field("trace", &TraceJson(trace))?;
        }
        m.end()
    }
}

/// A slice serialized through a wrapper, without copying it.
pub(super) struct Seq<'a, T, W>(pub(super) &'a [T], pub(super) fn(&'a T) -> W);

impl<T, W: Serialize> Serialize for Seq<'_, T, W> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(self.1))
    }
}

/// Serializes one outcome exactly as in the outcome file (`{"discs", "events", "steps",
/// "time"[, "cut_off": true, "limit"][, "capped_steps"]}`), for other documents that embed outcomes (the game log of
/// `crokinole play`).
pub fn serialize_outcome<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
    OutcomeJson(o, None).serialize(s)
}

/// `{"outcomes": [...]}`.
struct OutcomeFileJson<'a>(&'a [Outcome]);

impl Serialize for OutcomeFileJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("OutcomeFile", 1)?;
        m.serialize_field("outcomes", &Seq(self.0, |o| OutcomeJson(o, None)))?;
        m.end()
    }
}

/// Writes the outcome file of `outcomes` (in shot order) to `w` as compact JSON followed
/// by a newline. Wrap `w` in a `BufWriter`: this makes many small writes.
pub fn write_outcomes<W: Write>(mut w: W, outcomes: &[Outcome]) -> std::io::Result<()> {
    serde_json::to_writer(&mut w, &OutcomeFileJson(outcomes))?;
    w.write_all(b"\n")
}

/// `{"outcomes": [...]}`, each outcome with its `trace`.
struct TracedFileJson<'a>(&'a [Trace]);

impl Serialize for TracedFileJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("OutcomeFile", 1)?;
        m.serialize_field(
            "outcomes",
            &Seq(self.0, |t| OutcomeJson(&t.outcome, Some(t))),
        )?;
        m.end()
    }
}

/// Writes the outcome file of `traces` (`crokinole simulate --trace`): each trace's
/// outcome exactly as [`write_outcomes`] writes it, plus a last member `trace`
/// (docs/render.md). Compact JSON and a newline; wrap `w` in a `BufWriter`.
pub fn write_traced_outcomes<W: Write>(mut w: W, traces: &[Trace]) -> std::io::Result<()> {
    serde_json::to_writer(&mut w, &TracedFileJson(traces))?;
    w.write_all(b"\n")
}

/// The outcome file of `outcomes` as a string (compact JSON, with a trailing newline).
pub fn outcomes_to_string(outcomes: &[Outcome]) -> String {
    let mut out = Vec::new();
    write_outcomes(&mut out, outcomes).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    #[test]
    fn outcomes_print_as_the_spec_says() {
        let mut rest = Disc::at_rest(1, DVec2::new(0.5, -0.25), 0.01, 0.005);
        let mut gone = rest;
        gone.state = DiscState::Hole;
        rest.team = 0;
        let o = Outcome {
            discs: vec![rest, gone],
            events: vec![
                Event {
                    t: 0.25,
                    kind: EventKind::Disc { a: 0, b: 1 },
                },
                Event {
                    t: 0.5,
                    kind: EventKind::Peg { a: 1, peg: 3 },
                },
                Event {
                    t: 0.75,
                    kind: EventKind::Hole { a: 1 },
                },
                Event {
                    t: 1.0,
                    kind: EventKind::Ditch { a: 0 },
                },
            ],
            steps: 7,
            time: 0.1,
            cut_off: false,
            limit: None,
            capped_steps: 0,
        };
        let cut = Outcome {
            discs: vec![],
            events: vec![],
            steps: 1,
            time: 20.0,
            cut_off: true,
            limit: Some(Limit::MaxTime),
            capped_steps: 0,
        };
        assert_eq!(
            outcomes_to_string(&[o, cut]),
            concat!(
                r#"{"outcomes":[{"discs":[{"team":0,"pos":[0.5,-0.25],"state":"board"},"#,
                r#"{"team":1,"pos":[0.5,-0.25],"state":"hole"}],"events":["#,
                r#"{"t":0.25,"kind":"disc","a":0,"b":1},{"t":0.5,"kind":"peg","a":1,"peg":3},"#,
                r#"{"t":0.75,"kind":"hole","a":1},{"t":1.0,"kind":"ditch","a":0}],"#,
                r#""steps":7,"time":0.1},"#,
                r#"{"discs":[],"events":[],"steps":1,"time":20.0,"cut_off":true,"limit":"max_time"}]}"#,
                "\n"
            )
        );
    }
}
