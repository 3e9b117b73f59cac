//! The outcome file (`docs/shot-file.md`): `{"outcomes": [...]}`, one outcome per
//! shot, floats in `serde_json`'s shortest round-trip form so the bytes depend only on the
//! outcomes. One schema ([`OutcomeJson`]) and one writer ([`write_outcome_file`]) for
//! every form: plain, judged by the rules (`--rules`) and traced (`--trace`), readable
//! ([`Style::OUTCOMES`], laid out as it is serialised) or compact.
//!
//! In the `--rules` form every disc keeps its place in `discs` (its id), with the
//! engine's `team` and `pos`, and a `state` after the rules: `board` (still on the board:
//! it is in the verdict's `position`), `hole` (set aside as a 20: in `twenties`), `ditch`
//! (went over the edge: removed with reason `ditch`) or `removed` (taken off by a rule or
//! for resting on or beyond the shooting line: removed with reason `opening_rule`,
//! `must_hit` or `on_or_beyond_shooting_line`). `pos` stays where the engine left the
//! disc (for `hole` and `ditch`, where it left the surface). The keys `events`, `steps`,
//! `time` and `cut_off` are exactly those of the plain outcome, followed by `rules` (the
//! verdict, judged in the rules layer by [`crokinole_rules::judge_outcomes`]).

use super::format::{Layout, Style, write_laid_out};
use super::laid::{LaidElements, lay_elements, write_laid_array};
use super::trace_json::TraceJson;
use crate::json_form::Json;
use crokinole_core::disc::{Disc, DiscState};
use crokinole_core::limits::Limit;
use crokinole_core::shot::Outcome;
use crokinole_core::step::event::{Event, EventKind};
use crokinole_core::trace::Trace;
use crokinole_montecarlo::SampleResult;
use crokinole_rules::ShotVerdict;
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

/// `{"team", "pos", "state"}` with the state after the rules (`--rules`).
struct RuledDiscJson<'a>(&'a Disc, &'static str);

impl Serialize for RuledDiscJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Disc", 3)?;
        m.serialize_field("team", &self.0.team)?;
        m.serialize_field("pos", &self.0.pos.to_array())?;
        m.serialize_field("state", self.1)?;
        m.end()
    }
}

/// The discs of a judged outcome with their states after the rules.
struct RuledDiscs<'a>(&'a Outcome, &'a ShotVerdict);

impl Serialize for RuledDiscs<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.0
                .discs
                .iter()
                .enumerate()
                .map(|(id, d)| RuledDiscJson(d, self.1.fate_of(id).name())),
        )
    }
}

/// One outcome, the only declaration of its schema: `{"discs", "events", "steps",
/// "time"[, "cut_off": true, "limit"][, "capped_steps"][, "rules"][, "trace"]}`. With a
/// verdict (`--rules`) the discs carry their states after the rules and `rules` is the
/// verdict; with a trace (`--trace`) `trace` comes last.
struct OutcomeJson<'a> {
    outcome: &'a Outcome,
    verdict: Option<&'a ShotVerdict>,
    trace: Option<&'a Trace>,
}

impl Serialize for OutcomeJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let o = self.outcome;
        let fields = 4
            + 2 * usize::from(o.cut_off)
            + usize::from(o.capped_steps > 0)
            + usize::from(self.verdict.is_some())
            + usize::from(self.trace.is_some());
        let mut m = s.serialize_struct("Outcome", fields)?;
        match self.verdict {
            Some(v) => m.serialize_field("discs", &RuledDiscs(o, v))?,
            None => m.serialize_field("discs", &Seq(&o.discs, DiscJson))?,
        }
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
        if let Some(v) = self.verdict {
            m.serialize_field("rules", &Json(v))?;
        }
        if let Some(trace) = self.trace {
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
/// "time"[, "cut_off": true, "limit"][, "capped_steps"]}`), for other documents that embed
/// outcomes (the game log of `crokinole play`, the samples of a study).
pub fn serialize_outcome<S: Serializer>(o: &Outcome, s: S) -> Result<S::Ok, S::Error> {
    OutcomeJson {
        outcome: o,
        verdict: None,
        trace: None,
    }
    .serialize(s)
}

/// What an outcome file holds: the outcomes in shot order and, as asked, each shot's
/// verdict by the rules (`--rules`) and its trace (`--trace`). The one writer,
/// [`write_outcome_file`], takes these options as values.
#[derive(Clone, Copy)]
pub struct OutcomeFile<'a> {
    /// The outcomes, in shot order.
    pub outcomes: &'a [Outcome],
    /// `verdicts[k]` judges `outcomes[k]` (`simulate --rules`).
    pub verdicts: Option<&'a [ShotVerdict]>,
    /// `traces[k]` is the trace of shot `k` (`simulate --trace`): its `outcome` is
    /// `outcomes[k]`.
    pub traces: Option<&'a [Trace]>,
}

impl<'a> OutcomeFile<'a> {
    /// The plain outcome file of `outcomes`: no rules, no traces.
    pub fn plain(outcomes: &'a [Outcome]) -> OutcomeFile<'a> {
        OutcomeFile {
            outcomes,
            verdicts: None,
            traces: None,
        }
    }
}

impl Serialize for OutcomeFile<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("OutcomeFile", 1)?;
        m.serialize_field("outcomes", &Outcomes(*self))?;
        m.end()
    }
}

/// The `outcomes` array of an [`OutcomeFile`].
struct Outcomes<'a>(OutcomeFile<'a>);

impl Serialize for Outcomes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let f = self.0;
        s.collect_seq(f.outcomes.iter().enumerate().map(|(k, o)| OutcomeJson {
            outcome: o,
            verdict: f.verdicts.map(|v| &v[k]),
            trace: f.traces.map(|t| &t[k]),
        }))
    }
}

/// Writes `file` to `w` in `layout`, followed by a newline: readable (the top object and
/// each outcome one key a line, `outcomes` and each outcome's `discs` and `events` one
/// element a line, everything deeper on one line: `Style::OUTCOMES`) or compact (what
/// `--compact` prints). The text is laid out as it is serialised, never held whole, and
/// reaches `w` in blocks of 64 KiB.
pub fn write_outcome_file<W: Write>(
    w: W,
    file: &OutcomeFile<'_>,
    layout: Layout,
) -> std::io::Result<()> {
    write_laid_out(w, file, layout, Style::OUTCOMES)
}

/// One outcome of a streamed outcome file ([`write_outcome_stream`]) with, as asked, its
/// verdict (`--rules`) and its trace (`--trace`, whose `outcome` is `outcome`).
#[derive(Clone, Debug)]
pub struct OutcomeItem {
    /// The outcome.
    pub outcome: Outcome,
    /// Its verdict by the rules.
    pub verdict: Option<ShotVerdict>,
    /// Its trace.
    pub trace: Option<Trace>,
}

/// Why [`write_outcome_stream`] stopped.
#[derive(Debug)]
pub enum StreamWriteError<E> {
    /// The items' own error (a shot that failed, say): nothing after it was written.
    Items(E),
    /// The writer's.
    Io(std::io::Error),
}

/// Writes the outcome file of the outcomes `items` yields, in order, to `w` in `layout`,
/// each as it comes and then dropped: the bytes [`write_outcome_file`] writes for the same
/// outcomes, verdicts and traces (tested), holding one item at a time. An error from
/// `items` ends the writing (the text written so far is then unfinished) and is returned.
/// The text reaches `w` in blocks of 64 KiB.
pub fn write_outcome_stream<W: Write, E>(
    w: W,
    items: impl Iterator<Item = Result<OutcomeItem, E>>,
    layout: Layout,
) -> Result<(), StreamWriteError<E>> {
    let file = StreamedFile {
        items: std::cell::RefCell::new(Some(items)),
        error: std::cell::RefCell::new(None),
    };
    let written = super::format::try_write_laid_out(w, &file, layout, Style::OUTCOMES);
    if let Some(e) = file.error.into_inner() {
        return Err(StreamWriteError::Items(e));
    }
    written.map_err(|e| {
        assert!(e.is_io(), "plain data always serializes: {e}");
        StreamWriteError::Io(e.into())
    })
}

/// The outcome file of [`write_outcome_stream`]: `{"outcomes": [...]}` with the items
/// pulled as the array is written.
struct StreamedFile<I, E> {
    items: std::cell::RefCell<Option<I>>,
    error: std::cell::RefCell<Option<E>>,
}

impl<I: Iterator<Item = Result<OutcomeItem, E>>, E> Serialize for StreamedFile<I, E> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("OutcomeFile", 1)?;
        m.serialize_field("outcomes", &StreamedOutcomes(self))?;
        m.end()
    }
}

/// The `outcomes` array of a [`StreamedFile`].
struct StreamedOutcomes<'a, I, E>(&'a StreamedFile<I, E>);

impl<I: Iterator<Item = Result<OutcomeItem, E>>, E> Serialize for StreamedOutcomes<'_, I, E> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::{Error, SerializeSeq};
        let items = self.0.items.borrow_mut().take();
        let mut seq = s.serialize_seq(None)?;
        for item in items.into_iter().flatten() {
            match item {
                Ok(item) => seq.serialize_element(&OutcomeJson {
                    outcome: &item.outcome,
                    verdict: item.verdict.as_ref(),
                    trace: item.trace.as_ref(),
                })?,
                Err(e) => {
                    *self.0.error.borrow_mut() = Some(e);
                    return Err(S::Error::custom("the outcomes stopped"));
                }
            }
        }
        seq.end()
    }
}

/// `items` laid out ahead of their outcome file in `layout`, each as the element of its
/// `outcomes` array that [`write_outcome_stream`] would write: a chunk of a streamed file
/// laid out on the thread that computed it, for [`write_laid_outcome_stream`].
pub fn lay_outcomes(items: &[OutcomeItem], layout: Layout) -> LaidElements {
    let objects = items.iter().map(|item| OutcomeJson {
        outcome: &item.outcome,
        verdict: item.verdict.as_ref(),
        trace: item.trace.as_ref(),
    });
    lay_elements(
        objects,
        "outcomes",
        Style::OUTCOMES,
        layout == Layout::Compact,
    )
    .expect("plain data always serializes")
}

/// [`write_outcome_stream`] of outcomes laid out ahead ([`lay_outcomes`], in the same
/// `layout`), chunk after chunk as `chunks` yields them: the same bytes, the writer only
/// putting separators between texts made elsewhere.
pub fn write_laid_outcome_stream<W: Write, E>(
    w: W,
    chunks: impl Iterator<Item = Result<LaidElements, E>>,
    layout: Layout,
) -> Result<(), StreamWriteError<E>> {
    let compact = layout == Layout::Compact;
    match write_laid_array(w, "outcomes", Style::OUTCOMES, compact, chunks) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(e)) => Err(StreamWriteError::Items(e)),
        Err(e) => {
            assert!(e.is_io(), "plain data always serializes: {e}");
            Err(StreamWriteError::Io(e.into()))
        }
    }
}

/// `file` as text in `layout`: what `/api/simulate` answers and what the Python
/// package's `simulate_file` returns ([`write_outcome_file`] into a string).
pub fn outcome_file_text(file: &OutcomeFile<'_>, layout: Layout) -> String {
    let mut bytes = Vec::new();
    write_outcome_file(&mut bytes, file, layout).expect("writing to memory cannot fail");
    String::from_utf8(bytes).expect("serde_json writes UTF-8")
}

/// Writes the plain outcome file of `outcomes` (in shot order) to `w` as compact JSON
/// followed by a newline: [`write_outcome_file`] without rules or traces.
pub fn write_outcomes<W: Write>(w: W, outcomes: &[Outcome]) -> std::io::Result<()> {
    write_outcome_file(w, &OutcomeFile::plain(outcomes), Layout::Compact)
}

/// The outcome file of `outcomes` as a string (compact JSON, with a trailing newline).
pub fn outcomes_to_string(outcomes: &[Outcome]) -> String {
    outcome_file_text(&OutcomeFile::plain(outcomes), Layout::Compact)
}

/// The answer of the page's flick (`POST /api/shot`): `{"shot_file", "outcomes",
/// "score"}` on one line and a newline: `shot_file` (text a shot-file writer made), the
/// `outcomes` member of `file` as [`write_outcome_file`] writes it, and `score`: `{"team",
/// "class", "change", "before"}`, the shooter's team, the shot disc's class and the change
/// in score difference as a Monte Carlo sample counts them, and the board score of both
/// teams before the shot.
pub fn flick_answer_json(
    shot_file: &str,
    file: &OutcomeFile<'_>,
    team: u8,
    result: &SampleResult,
    before: [i64; 2],
) -> String {
    #[derive(Serialize)]
    struct Score {
        team: u8,
        class: &'static str,
        change: i64,
        before: [i64; 2],
    }
    #[derive(Serialize)]
    struct Answer<'a> {
        shot_file: &'a serde_json::value::RawValue,
        outcomes: Outcomes<'a>,
        score: Score,
    }
    let shot_file = super::compact_json(shot_file);
    let shot_file: &serde_json::value::RawValue =
        serde_json::from_str(&shot_file).expect("a shot-file writer writes valid JSON");
    let answer = Answer {
        shot_file,
        outcomes: Outcomes(*file),
        score: Score {
            team,
            class: result.class.name(),
            change: result.score_change,
            before,
        },
    };
    let mut text = serde_json::to_string(&answer).expect("plain data always serializes");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DVec2;

    /// Two outcomes: one with discs and every kind of event, one cut off.
    fn two_outcomes() -> [Outcome; 2] {
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
        [o, cut]
    }

    #[test]
    fn outcomes_print_as_the_spec_says() {
        assert_eq!(
            outcomes_to_string(&two_outcomes()),
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

    /// Outcomes laid out ahead in groups of any size (none, empty groups, one, several)
    /// and written by `write_laid_outcome_stream` are the bytes `write_outcome_stream`
    /// writes for them at once, in both layouts; an error from the chunks stops the
    /// writing and comes back.
    #[test]
    fn outcomes_laid_out_ahead_are_the_streamed_bytes() {
        let [a, b] = two_outcomes();
        let items: Vec<OutcomeItem> = [&a, &b, &b, &a, &b]
            .into_iter()
            .map(|o| OutcomeItem {
                outcome: o.clone(),
                verdict: None,
                trace: None,
            })
            .collect();
        for layout in [Layout::Readable, Layout::Compact] {
            for n in 0..=items.len() {
                let mut whole = Vec::new();
                let all = items[..n].iter().cloned().map(Ok::<_, ()>);
                write_outcome_stream(&mut whole, all, layout).unwrap();
                for group in 1..=3 {
                    let mut chunks: Vec<Result<LaidElements, ()>> = items[..n]
                        .chunks(group)
                        .map(|g| Ok(lay_outcomes(g, layout)))
                        .collect();
                    chunks.insert(0, Ok(lay_outcomes(&[], layout)));
                    let mut laid = Vec::new();
                    write_laid_outcome_stream(&mut laid, chunks.into_iter(), layout).unwrap();
                    assert_eq!(
                        String::from_utf8(laid).unwrap(),
                        String::from_utf8(whole.clone()).unwrap(),
                        "{n} outcomes in groups of {group}, {layout:?}"
                    );
                }
            }
            let chunks = [Ok(lay_outcomes(&items[..2], layout)), Err("stopped")];
            let mut laid = Vec::new();
            let r = write_laid_outcome_stream(&mut laid, chunks.into_iter(), layout);
            assert!(matches!(r, Err(StreamWriteError::Items("stopped"))));
            assert!(
                laid.starts_with(b"{"),
                "what came before the error is written"
            );
        }
    }
}
