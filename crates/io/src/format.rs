//! The one JSON layout mechanism of the crate's output: a serialiser
//! ([`Laid`], `io/laid.rs`) that writes the readable text straight to its writer while
//! the value is serialised, deciding each line break from a [`Style`], a description of
//! which containers break one item a line. Every writer of `crate` lays its text out through
//! [`to_json`] or [`write_json`]; a new layout goes here as a new [`Style`] constant, never
//! as a private formatter next to its writer.
//!
//! A `Style` says which objects break one key a line (those nested less than
//! [`Style::objects`] deep; depth 0 is the top value) and which arrays break one element a
//! line (those nested less than [`Style::arrays`] deep whose elements are of the kind
//! [`Style::rows`] names, decided on the first element). Everything else goes on one line
//! (`{"k": v, ...}`, `[a, b]`), containers nest their indent by two spaces, and an empty
//! container is `{}` or `[]`. The layouts in use:
//!
//! - [`Style::PRETTY`]: like `serde_json::to_string_pretty` (two-space indent), except
//!   that an array inside an array stays on one line, so a peg or a point reads
//!   `[0.0939, 0.0389]`. The `params` block of `crokinole params` and of the shot file
//!   defaults. No trailing newline (an embedded block).
//! - [`Style::TWO_LEVELS`]: the top object and the objects directly in it one key a line;
//!   deeper objects and every array on one line
//!   (`"twenty": {"count": 9, "p": 0.9, "ci95": [0.6, 0.98]}`). The Monte Carlo summary
//!   and the shard state.
//! - [`Style::ROWS`]: the top object one key a line, arrays of objects one object a line,
//!   everything else on one line. The games summary of `crokinole play`, the planner's
//!   output and the shot file of `flick --shot-out`.
//! - [`Style::OUTCOMES`]: the top object and each outcome one key a line, `outcomes` and
//!   each outcome's `discs` and `events` one element a line, everything deeper (a disc,
//!   an event, the `rules` object, the `trace`) on one line. The outcome file of
//!   `simulate` and `flick`.
//! - [`Style::GAME_LOG`]: the top object one key a line, its arrays of objects or arrays
//!   one element a line. The game log of `crokinole play --games 1`.
//!
//! All but `PRETTY` end with a newline. The bytes depend on the value and the style only;
//! keys keep their order and numbers their shortest round-trip digits.
//!
//! Every command prints its readable layout by default; `--compact` gives the same JSON on
//! one line ([`Layout::Compact`]: the same serialiser without breaks or spaces, or
//! [`compact_json`] of a readable text).

use super::laid::Laid;
pub(crate) use super::style::Style;
use serde::Serialize;
use std::io::{self, Write};

/// How a command prints its JSON: `--compact` or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// The command's readable layout (one of the `Style`s of `io/format.rs`): the default.
    #[default]
    Readable,
    /// All on one line, no spaces (`--compact`), and a trailing newline.
    Compact,
}

/// `text` (JSON the crate wrote in its readable layout) as `layout` asks: as it is, or
/// [`compact_json`] for `--compact`. For the outputs written whole (a summary, a plan, a
/// shard state, the games summary, `params`); the outcome file is laid out as it is
/// written.
pub fn laid_out(text: String, layout: Layout) -> String {
    match layout {
        Layout::Readable => text,
        Layout::Compact => compact_json(&text),
    }
}

/// `text` (JSON) with every space and line break outside strings removed, plus a trailing
/// newline: the compact form of any of the crate's outputs.
pub fn compact_json(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_ascii_whitespace() {
            out.push(c);
        }
    }
    out.push('\n');
    out
}

/// `value` as JSON laid out in `style`.
pub(crate) fn to_json<T: Serialize + ?Sized>(value: &T, style: Style) -> String {
    let mut out = Vec::new();
    write_json(&mut out, value, style).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the serialiser writes UTF-8")
}

/// Writes `value` to `w` as JSON in `layout`: readable in `style` as it is serialised,
/// or compact with a trailing newline. It reaches `w` in blocks of 64 KiB
/// ([`super::laid::FLUSH_AT`]) and a last one.
pub(crate) fn write_laid_out<W: Write, T: Serialize + ?Sized>(
    w: W,
    value: &T,
    layout: Layout,
    style: Style,
) -> io::Result<()> {
    try_write_laid_out(w, value, layout, style).map_err(|e| {
        assert!(e.is_io(), "plain data always serializes: {e}");
        io::Error::from(e)
    })
}

/// Writes `value` to `w` as JSON laid out in `style`, straight from the serialiser.
pub(crate) fn write_json<W: Write, T: Serialize + ?Sized>(
    w: W,
    value: &T,
    style: Style,
) -> io::Result<()> {
    write_laid_out(w, value, Layout::Readable, style)
}

/// [`write_laid_out`] for a value whose serialisation can fail on its own (one that
/// computes what it writes as it goes, like a streamed outcome file): its error is
/// returned as it was made, beside the writer's. What was serialised before the error
/// is written (unfinished JSON).
pub(crate) fn try_write_laid_out<W: Write, T: Serialize + ?Sized>(
    w: W,
    value: &T,
    layout: Layout,
    style: Style,
) -> Result<(), serde_json::Error> {
    let compact = layout == Layout::Compact;
    let mut ser = Laid::new(w, style, compact);
    match value.serialize(&mut ser) {
        Ok(()) => {
            let tail: &[u8] = if compact || style.newline { b"\n" } else { b"" };
            ser.finish(tail).map(drop)
        }
        Err(e) => {
            // The value's own error comes first; the writer's, if any, is secondary.
            let _ = ser.finish(b"");
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_break_two_levels_of_objects_and_three_of_arrays_of_containers() {
        #[derive(Serialize)]
        struct Disc {
            team: u8,
            pos: [f64; 2],
            state: &'static str,
        }
        #[derive(Serialize)]
        struct Outcome {
            discs: Vec<Disc>,
            events: Vec<Disc>,
            steps: u32,
            time: f64,
            rules: serde_json::Value,
        }
        #[derive(Serialize)]
        struct File {
            outcomes: Vec<Outcome>,
        }
        let file = File {
            outcomes: vec![Outcome {
                discs: vec![Disc {
                    team: 0,
                    pos: [0.1, -0.30000000000000004],
                    state: "hole",
                }],
                events: vec![],
                steps: 3,
                time: 1e-7,
                rules: serde_json::json!({"s": "a \"q\" b", "x": [1, 2], "y": [{"z": []}]}),
            }],
        };
        let text = to_json(&file, Style::OUTCOMES);
        assert_eq!(
            text,
            concat!(
                "{\n  \"outcomes\": [\n    {\n      \"discs\": [\n",
                "        {\"team\": 0, \"pos\": [0.1, -0.30000000000000004], \"state\": \"hole\"}\n",
                "      ],\n      \"events\": [],\n      \"steps\": 3,\n      \"time\": 1e-7,\n",
                "      \"rules\": {\"s\": \"a \\\"q\\\" b\", \"x\": [1, 2], \"y\": [{\"z\": []}]}\n",
                "    }\n  ]\n}\n"
            )
        );
        // The compact layout is the same JSON on one line; spaces inside strings survive.
        let mut compact = Vec::new();
        write_laid_out(&mut compact, &file, Layout::Compact, Style::OUTCOMES).unwrap();
        let compact = String::from_utf8(compact).unwrap();
        assert_eq!(compact, serde_json::to_string(&file).unwrap() + "\n");
        assert_eq!(compact_json(&text), compact);
    }

    #[test]
    fn the_game_log_breaks_the_top_arrays_of_containers_only() {
        let v =
            serde_json::json!({"a": [[1, 2], [3]], "b": [1, 2], "c": [{"d": [{"e": 1}]}], "f": []});
        assert_eq!(
            to_json(&v, Style::GAME_LOG),
            "{\n  \"a\": [\n    [1, 2],\n    [3]\n  ],\n  \"b\": [1, 2],\n  \"c\": [\n    {\"d\": [{\"e\": 1}]}\n  ],\n  \"f\": []\n}\n"
        );
    }

    #[test]
    fn deep_indents_and_raw_fragments_are_written_whole() {
        let mut v = serde_json::json!(1);
        for _ in 0..40 {
            v = serde_json::json!({ "k": v });
        }
        let text = to_json(&v, Style::PRETTY);
        assert_eq!(text.lines().count(), 81);
        assert!(text.contains(&format!("\n{}\"k\": 1\n", "  ".repeat(40))));
        // A raw fragment (the positions of a state file) is copied as it is.
        #[derive(Serialize)]
        struct R<'a> {
            p: Vec<&'a serde_json::value::RawValue>,
            q: &'a serde_json::value::RawValue,
        }
        let raw = serde_json::value::RawValue::from_string("[[1,2],[3,4]]".into()).unwrap();
        let r = R {
            p: vec![&raw],
            q: &raw,
        };
        assert_eq!(
            to_json(&r, Style::ROWS),
            "{\n  \"p\": [[[1,2],[3,4]]],\n  \"q\": [[1,2],[3,4]]\n}\n"
        );
    }

    #[test]
    fn pretty_keeps_inner_arrays_on_one_line() {
        let v = serde_json::json!({"a": {"b": [[1, 2], [3, 4]], "c": [], "d": {}}, "e": 1.5});
        assert_eq!(
            to_json(&v, Style::PRETTY),
            "{\n  \"a\": {\n    \"b\": [\n      [1, 2],\n      [3, 4]\n    ],\n    \"c\": [],\n    \"d\": {}\n  },\n  \"e\": 1.5\n}"
        );
    }

    #[test]
    fn rows_break_only_the_top_object_and_arrays_of_objects() {
        #[derive(Serialize)]
        struct T {
            a: u8,
            b: Vec<f64>,
            c: Vec<serde_json::Value>,
            d: serde_json::Value,
            e: Option<u8>,
            f: Vec<Vec<i32>>,
        }
        let t = T {
            a: 1,
            b: vec![0.5, 2.0],
            c: vec![
                serde_json::json!({"x": [1, 2], "y": "s"}),
                serde_json::json!({"x": []}),
            ],
            d: serde_json::json!({"p": {"q": 1}}),
            e: None,
            f: vec![vec![1, 2], vec![]],
        };
        let text = to_json(&t, Style::ROWS);
        assert_eq!(
            text,
            "{\n  \"a\": 1,\n  \"b\": [0.5, 2.0],\n  \"c\": [\n    {\"x\": [1, 2], \"y\": \"s\"},\n    {\"x\": []}\n  ],\n  \"d\": {\"p\": {\"q\": 1}},\n  \"e\": null,\n  \"f\": [[1, 2], []]\n}\n"
        );
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["c"][0]["y"], "s");
    }

    #[test]
    fn two_levels_indent_objects_and_keeps_arrays_on_one_line() {
        let v = serde_json::json!({"a": {"b": [[1, 2], [3, 4]], "c": {"x": 1, "y": [2]}}, "d": 1.5, "e": {}});
        assert_eq!(
            to_json(&v, Style::TWO_LEVELS),
            "{\n  \"a\": {\n    \"b\": [[1, 2], [3, 4]],\n    \"c\": {\"x\": 1, \"y\": [2]}\n  },\n  \"d\": 1.5,\n  \"e\": {}\n}\n"
        );
    }

    /// The serialiser writes `serde_json`'s bytes for every kind of value serde has:
    /// compact, its text is `serde_json::to_string`'s; readable, the same once the layout's
    /// spaces and breaks are taken out. Strings with every ASCII control character,
    /// quotes, backslashes and non-ASCII text; each kind of enum variant; integer, boolean
    /// and unit-variant map keys; options, units, bytes, tuples, non-finite floats.
    #[test]
    fn the_serialiser_writes_serde_json_bytes() {
        use std::collections::BTreeMap;
        #[derive(Serialize, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
        enum Key {
            Alpha,
        }
        #[derive(Serialize)]
        enum E {
            Unit,
            New(u8),
            Tuple(i32, f64),
            Struct { x: i8, y: Option<u16> },
        }
        #[derive(Serialize)]
        struct Unit;
        #[derive(Serialize)]
        struct Newtype(u64);
        #[derive(Serialize)]
        struct TupleStruct(bool, char);
        #[derive(Serialize)]
        struct All<'a> {
            text: String,
            unicode: &'a str,
            enums: Vec<E>,
            by_int: BTreeMap<i64, u8>,
            by_bool: BTreeMap<bool, u8>,
            by_variant: BTreeMap<Key, u8>,
            by_str: BTreeMap<&'a str, Vec<u8>>,
            none: Option<u8>,
            some: Option<f32>,
            unit: (),
            unit_struct: Unit,
            newtype: Newtype,
            tuple_struct: TupleStruct,
            tuple: (u128, i128, f32),
            #[serde(with = "serde_bytes_like")]
            bytes: Vec<u8>,
            floats: [f64; 6],
            empty: (Vec<u8>, BTreeMap<String, u8>),
            value: serde_json::Value,
        }
        mod serde_bytes_like {
            pub fn serialize<S: serde::Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
                s.serialize_bytes(v)
            }
        }
        let all = All {
            text: (0u8..0x80).map(char::from).collect(),
            unicode: "é ü 🥌 \u{2028}",
            enums: vec![
                E::Unit,
                E::New(7),
                E::Tuple(-3, 0.1),
                E::Struct { x: -1, y: None },
                E::Struct { x: 2, y: Some(9) },
            ],
            by_int: [(-5, 1), (12, 2)].into(),
            by_bool: [(false, 1), (true, 2)].into(),
            by_variant: [(Key::Alpha, 3)].into(),
            by_str: [("a\"b", vec![1]), ("", vec![])].into(),
            none: None,
            some: Some(1.5),
            unit: (),
            unit_struct: Unit,
            newtype: Newtype(u64::MAX),
            tuple_struct: TupleStruct(true, '"'),
            tuple: (u128::MAX, i128::MIN, f32::NAN),
            bytes: vec![0, 255, 10],
            floats: [
                1e-7,
                -0.0,
                1e300,
                f64::INFINITY,
                f64::NAN,
                0.30000000000000004,
            ],
            empty: (vec![], BTreeMap::new()),
            value: serde_json::json!({"k": [{"z": null}, [], {}], "s": "\t"}),
        };
        let expected = serde_json::to_string(&all).unwrap();
        let mut compact = Vec::new();
        write_laid_out(&mut compact, &all, Layout::Compact, Style::PRETTY).unwrap();
        assert_eq!(String::from_utf8(compact).unwrap(), expected.clone() + "\n");
        for style in [
            Style::PRETTY,
            Style::TWO_LEVELS,
            Style::ROWS,
            Style::OUTCOMES,
            Style::GAME_LOG,
        ] {
            let text = to_json(&all, style);
            assert_eq!(compact_json(&text), expected.clone() + "\n", "{style:?}");
        }
        // A key serde_json refuses is refused.
        let floats: BTreeMap<Vec<u8>, u8> = [(vec![1], 1)].into();
        assert!(serde_json::to_string(&floats).is_err());
        let mut out = Vec::new();
        assert!(try_write_laid_out(&mut out, &floats, Layout::Compact, Style::ROWS).is_err());
    }
}
