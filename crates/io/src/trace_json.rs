//! The `trace` member that `crokinole simulate --trace` adds to each outcome
//! ([`crokinole_core::trace::Trace`]; format in docs/render.md):
//!
//! ```json
//! "trace": {
//!   "every": 10, "dt": 0.001,
//!   "paths": [ {"id": 1, "points": [[0.0, 0.0, -0.3048], [0.01, 0.0, -0.2963], ...]} ],
//!   "events": [ {"point": [0.01, 0.05], "pos_a": [...], "pos_b": [...]} ]
//! }
//! ```
//!
//! `paths`: one per disc that moved, in id order, points `[t, x, y]` (s, m) from
//! [`Trace::paths`]; `events`: one per event of the outcome's `events`, same order, with the
//! contact point and the discs' centres at the event (`pos_b` for `disc` events only).

use crokinole_core::trace::{PathPoint, Trace, TracedEvent};
use serde::Serialize;
use serde::ser::{SerializeStruct, Serializer};

/// A trace in its JSON form.
pub(crate) struct TraceJson<'a>(pub(crate) &'a Trace);

impl Serialize for TraceJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let t = self.0;
        let paths = t.paths();
        let mut m = s.serialize_struct("Trace", 4)?;
        m.serialize_field("every", &t.every)?;
        m.serialize_field("dt", &t.dt)?;
        m.serialize_field(
            "paths",
            &paths
                .iter()
                .map(|(id, points)| PathJson(*id, points))
                .collect::<Vec<_>>(),
        )?;
        m.serialize_field(
            "events",
            &t.events.iter().map(EventPlaceJson).collect::<Vec<_>>(),
        )?;
        m.end()
    }
}

/// `{"id", "points": [[t, x, y], ...]}`.
struct PathJson<'a>(usize, &'a [PathPoint]);

impl Serialize for PathJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_struct("Path", 2)?;
        m.serialize_field("id", &self.0)?;
        let points: Vec<[f64; 3]> = self.1.iter().map(|&(t, p)| [t, p.x, p.y]).collect();
        m.serialize_field("points", &points)?;
        m.end()
    }
}

/// `{"point", "pos_a"[, "pos_b"]}`.
struct EventPlaceJson<'a>(&'a TracedEvent);

impl Serialize for EventPlaceJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let e = self.0;
        let mut m = s.serialize_struct("EventPlace", 2 + usize::from(e.pos_b.is_some()))?;
        m.serialize_field("point", &e.point.to_array())?;
        m.serialize_field("pos_a", &e.pos_a.to_array())?;
        if let Some(b) = e.pos_b {
            m.serialize_field("pos_b", &b.to_array())?;
        }
        m.end()
    }
}
