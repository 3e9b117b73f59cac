//! The one JSON formatter of the crate's output, in the three layouts the output files
//! use. Every writer of `crate::io` lays its text out through [`to_json`]; a new layout
//! goes here as a new [`Style`], never as a private formatter next to its writer.
//!
//! - [`Style::Pretty`]: like `serde_json::to_string_pretty` (two-space indent), except
//!   that an array inside an array stays on one line, so a peg or a point reads
//!   `[0.0939, 0.0389]`. The `params` block of `crokinole params` and of the shot file
//!   defaults. No trailing newline (an embedded block).
//! - [`Style::TwoLevels`]: the top object and the objects directly in it indented, one
//!   key a line; deeper objects and every array on one line
//!   (`"twenty": {"count": 9, "p": 0.9, "ci95": [0.6, 0.98]}`). The Monte Carlo summary
//!   and the shard state. A trailing newline.
//! - [`Style::Rows`]: the top object one key a line, arrays of objects one object a
//!   line, everything else on one line. The games summary of `crokinole play` and the
//!   planner's output. A trailing newline.
//!
//! The bytes depend on the value and the style only.
//!
//! Every command prints its readable layout by default; `--compact` gives the same JSON on
//! one line ([`Layout::Compact`], [`compact_json`]). [`outline_json`] lays out a compact
//! outcome file readably (keys keep their order, numbers their exact text).

use serde::Serialize;
use serde_json::ser::Formatter;

/// A layout of [`to_json`] (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Indented, inner arrays on one line; no trailing newline.
    Pretty,
    /// Two levels of objects indented, the rest on one line; a trailing newline.
    TwoLevels,
    /// The top object one key a line, arrays of objects one object a line; a trailing
    /// newline.
    Rows,
}

/// How a command prints its JSON: `--compact` or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Layout {
    /// The command's readable layout (one of the [`Style`]s): the default.
    #[default]
    Readable,
    /// All on one line, no spaces (`--compact`), and a trailing newline.
    Compact,
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

/// `text` (a compact outcome file) in the readable layout of `simulate` and `flick`: the
/// top object and each outcome one key a line, each outcome's `discs` and `events` one
/// element a line, everything deeper (a disc, an event, the `rules` object, the `trace`)
/// on one line; a trailing newline. Keys keep their order, numbers their digits.
pub fn outline_json(text: &str) -> String {
    outline(text, 2, 3)
}

/// `text` (JSON the crate wrote) with objects nested at most `objects` deep broken one key
/// a line, arrays of objects or arrays nested at most `arrays` deep one element a line,
/// and everything else on one line; a trailing newline. Depth 0 is the top value.
pub(crate) fn outline(text: &str, objects: usize, arrays: usize) -> String {
    let tree: tree::Json = serde_json::from_str(text).expect("the crate writes valid JSON");
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    tree::outline(&tree, 0, (objects, arrays), &mut out);
    out.push('\n');
    out
}

/// An order-keeping JSON tree, for [`outline_json`].
mod tree {
    use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};
    use std::fmt;

    /// A JSON value whose objects keep their keys in file order.
    pub(crate) enum Json {
        Null,
        Bool(bool),
        U(u64),
        I(i64),
        F(f64),
        Str(String),
        Arr(Vec<Json>),
        Obj(Vec<(String, Json)>),
    }

    impl Serialize for Json {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Json::Null => s.serialize_unit(),
                Json::Bool(b) => s.serialize_bool(*b),
                Json::U(u) => s.serialize_u64(*u),
                Json::I(i) => s.serialize_i64(*i),
                Json::F(f) => s.serialize_f64(*f),
                Json::Str(t) => s.serialize_str(t),
                Json::Arr(v) => {
                    let mut seq = s.serialize_seq(Some(v.len()))?;
                    for x in v {
                        seq.serialize_element(x)?;
                    }
                    seq.end()
                }
                Json::Obj(m) => {
                    let mut map = s.serialize_map(Some(m.len()))?;
                    for (k, v) in m {
                        map.serialize_entry(k, v)?;
                    }
                    map.end()
                }
            }
        }
    }

    /// `v` (at nesting `depth`, 0 for the top) in the outline layout of
    /// [`outline`](super::outline): objects at depth <= `breaks.0` one key a line, arrays
    /// of containers at depth <= `breaks.1` one element a line.
    pub(crate) fn outline(v: &Json, depth: usize, breaks: (usize, usize), out: &mut String) {
        let (objects, arrays) = breaks;
        let indent = |out: &mut String, d: usize| {
            out.push('\n');
            (0..d).for_each(|_| out.push_str("  "));
        };
        match v {
            Json::Obj(m) if depth <= objects && !m.is_empty() => {
                out.push('{');
                for (k, (key, x)) in m.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    indent(out, depth + 1);
                    out.push_str(&serde_json::to_string(key).expect("a string"));
                    out.push_str(": ");
                    outline(x, depth + 1, breaks, out);
                }
                indent(out, depth);
                out.push('}');
            }
            Json::Arr(a)
                if depth <= arrays
                    && !a.is_empty()
                    && a.iter().all(|x| matches!(x, Json::Obj(_) | Json::Arr(_))) =>
            {
                out.push('[');
                for (k, x) in a.iter().enumerate() {
                    if k > 0 {
                        out.push(',');
                    }
                    indent(out, depth + 1);
                    outline(x, depth + 1, breaks, out);
                }
                indent(out, depth);
                out.push(']');
            }
            _ => inline(v, out),
        }
    }

    /// `v` on one line: `{"k": v, ...}`, `[a, b]`.
    fn inline(v: &Json, out: &mut String) {
        match v {
            Json::Obj(m) => {
                out.push('{');
                for (k, (key, x)) in m.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&serde_json::to_string(key).expect("a string"));
                    out.push_str(": ");
                    inline(x, out);
                }
                out.push('}');
            }
            Json::Arr(a) => {
                out.push('[');
                for (k, x) in a.iter().enumerate() {
                    if k > 0 {
                        out.push_str(", ");
                    }
                    inline(x, out);
                }
                out.push(']');
            }
            scalar => out.push_str(&serde_json::to_string(scalar).expect("a scalar")),
        }
    }

    impl<'de> Deserialize<'de> for Json {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Json, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Json;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str("JSON")
                }
                fn visit_unit<E>(self) -> Result<Json, E> {
                    Ok(Json::Null)
                }
                fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                    Ok(Json::Bool(b))
                }
                fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
                    Ok(Json::U(u))
                }
                fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
                    Ok(Json::I(i))
                }
                fn visit_f64<E>(self, f: f64) -> Result<Json, E> {
                    Ok(Json::F(f))
                }
                fn visit_str<E>(self, t: &str) -> Result<Json, E> {
                    Ok(Json::Str(t.to_string()))
                }
                fn visit_string<E>(self, t: String) -> Result<Json, E> {
                    Ok(Json::Str(t))
                }
                fn visit_seq<A: SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                    let mut v = Vec::new();
                    while let Some(x) = a.next_element()? {
                        v.push(x);
                    }
                    Ok(Json::Arr(v))
                }
                fn visit_map<A: MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                    let mut m = Vec::new();
                    while let Some((k, v)) = a.next_entry()? {
                        m.push((k, v));
                    }
                    Ok(Json::Obj(m))
                }
            }
            d.deserialize_any(V)
        }
    }
}

/// `value` as JSON laid out in `style`.
pub(crate) fn to_json<T: Serialize>(value: &T, style: Style) -> String {
    fn write<T: Serialize, F: Formatter>(value: &T, formatter: F) -> Vec<u8> {
        let mut out = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut out, formatter);
        value
            .serialize(&mut ser)
            .expect("plain data always serializes");
        out
    }
    let mut out = match style {
        Style::Pretty => write(value, pretty::Pretty::default()),
        Style::TwoLevels => write(value, two_levels::Layout::default()),
        Style::Rows => write(value, rows::Layout::default()),
    };
    if style != Style::Pretty {
        out.push(b'\n');
    }
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

mod pretty {
    use serde_json::ser::Formatter;
    use std::io::{self, Write};

    /// One open container: whether it is an inline array, and whether it holds anything yet.
    struct Open {
        inline: bool,
        array: bool,
        used: bool,
    }

    /// The formatter of [`Style::Pretty`](super::Style::Pretty).
    #[derive(Default)]
    pub(super) struct Pretty {
        stack: Vec<Open>,
    }

    /// A line break and `depth` levels of indent.
    fn newline<W: ?Sized + Write>(w: &mut W, depth: usize) -> io::Result<()> {
        w.write_all(b"\n")?;
        (0..depth).try_for_each(|_| w.write_all(b"  "))
    }

    impl Pretty {
        fn open<W: ?Sized + Write>(&mut self, w: &mut W, array: bool) -> io::Result<()> {
            let inline = array && self.stack.last().is_some_and(|o| o.array);
            self.stack.push(Open {
                inline,
                array,
                used: false,
            });
            w.write_all(if array { b"[" } else { b"{" })
        }

        fn close<W: ?Sized + Write>(&mut self, w: &mut W, array: bool) -> io::Result<()> {
            let open = self.stack.pop().expect("balanced containers");
            if open.used && !open.inline {
                newline(w, self.stack.len())?;
            }
            w.write_all(if array { b"]" } else { b"}" })
        }

        fn item<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
            let depth = self.stack.len();
            let open = self.stack.last_mut().expect("inside a container");
            open.used = true;
            if open.inline {
                if !first {
                    w.write_all(b", ")?;
                }
                Ok(())
            } else {
                if !first {
                    w.write_all(b",")?;
                }
                newline(w, depth)
            }
        }
    }

    impl Formatter for Pretty {
        fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.open(w, true)
        }
        fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.close(w, true)
        }
        fn begin_array_value<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            self.item(w, first)
        }
        fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
            Ok(())
        }
        fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.open(w, false)
        }
        fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.close(w, false)
        }
        fn begin_object_key<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            self.item(w, first)
        }
        fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(b": ")
        }
        fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
            Ok(())
        }
    }
}

mod two_levels {
    use serde_json::ser::Formatter;
    use std::io::{self, Write};

    /// A formatter for the summary and the state: the top object and the objects directly in
    /// it indented by two spaces, one key a line; deeper objects and every array on one line
    /// (`"twenty": {"count": 9, "p": 0.9, "ci95": [0.6, 0.98]}`, `[[15, 142], [20, 1858]]`).
    #[derive(Default)]
    pub(super) struct Layout {
        /// Open containers: (array or inline, holds something yet).
        stack: Vec<(bool, bool)>,
    }

    impl Layout {
        fn indent<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
            let depth = self.stack.iter().filter(|(inline, _)| !inline).count();
            w.write_all(b"\n")?;
            (0..depth).try_for_each(|_| w.write_all(b"  "))
        }

        fn inline(&self) -> bool {
            self.stack.last().is_some_and(|&(inline, _)| inline)
        }
    }

    impl Formatter for Layout {
        fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.stack.push((true, false));
            w.write_all(b"[")
        }
        fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.stack.pop();
            w.write_all(b"]")
        }
        fn begin_array_value<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            if !first {
                w.write_all(b", ")?;
            }
            Ok(())
        }
        fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
            Ok(())
        }
        fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            let inline = self.inline() || self.stack.len() >= 2;
            self.stack.push((inline, false));
            w.write_all(b"{")
        }
        fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            let (inline, used) = self.stack.pop().expect("balanced");
            if used && !inline {
                self.indent(w)?;
            }
            w.write_all(b"}")
        }
        fn begin_object_key<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            if let Some(top) = self.stack.last_mut() {
                top.1 = true;
            }
            if self.inline() {
                return w.write_all(if first { b"" } else { b", " });
            }
            if !first {
                w.write_all(b",")?;
            }
            self.indent(w)
        }
        fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(b": ")
        }
        fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
            Ok(())
        }
    }
}

mod rows {
    use serde_json::ser::Formatter;
    use std::io::{self, Write};

    /// An open container of [`Layout`].
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum Open {
        /// The top object: one key a line.
        Block { used: bool },
        /// Any other object: on one line.
        Inline,
        /// An array; `broken` once an object in it went on its own line.
        Array { broken: bool },
    }

    /// The formatter of [`Style::Rows`](super::Style::Rows).
    #[derive(Default)]
    pub(super) struct Layout {
        stack: Vec<Open>,
        /// An array value has begun and its separator (`" "` or a line break) is owed.
        pending: Option<bool>,
    }

    impl Layout {
        fn newline<W: ?Sized + Write>(&self, w: &mut W) -> io::Result<()> {
            let depth = self
                .stack
                .iter()
                .filter(|o| matches!(o, Open::Block { .. } | Open::Array { broken: true }))
                .count();
            w.write_all(b"\n")?;
            (0..depth).try_for_each(|_| w.write_all(b"  "))
        }

        /// Pays an owed separator before a scalar or an array: a space after a comma.
        fn scalar<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            match self.pending.take() {
                Some(false) => w.write_all(b" "),
                _ => Ok(()),
            }
        }
    }

    macro_rules! scalars {
        ($($method:ident($ty:ty)),* $(,)?) => {
            $(
                fn $method<W: ?Sized + Write>(&mut self, w: &mut W, value: $ty) -> io::Result<()> {
                    self.scalar(w)?;
                    serde_json::ser::CompactFormatter.$method(w, value)
                }
            )*
        };
    }

    impl Formatter for Layout {
        scalars! {
            write_bool(bool), write_i8(i8), write_i16(i16), write_i32(i32), write_i64(i64),
            write_i128(i128), write_u8(u8), write_u16(u16), write_u32(u32), write_u64(u64),
            write_u128(u128), write_f32(f32), write_f64(f64), write_number_str(&str),
        }

        fn write_null<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.scalar(w)?;
            w.write_all(b"null")
        }

        fn begin_string<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.scalar(w)?;
            w.write_all(b"\"")
        }

        fn begin_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            self.scalar(w)?;
            self.stack.push(Open::Array { broken: false });
            w.write_all(b"[")
        }

        fn end_array<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            let open = self.stack.pop();
            if open == Some(Open::Array { broken: true }) {
                self.newline(w)?;
            }
            w.write_all(b"]")
        }

        fn begin_array_value<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            if !first {
                w.write_all(b",")?;
            }
            self.pending = Some(first);
            Ok(())
        }

        fn end_array_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
            Ok(())
        }

        fn begin_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            if self.stack.is_empty() {
                self.stack.push(Open::Block { used: false });
            } else {
                if self.pending.take().is_some()
                    && let Some(top) = self.stack.last_mut()
                {
                    *top = Open::Array { broken: true };
                    self.newline(w)?;
                }
                self.stack.push(Open::Inline);
            }
            w.write_all(b"{")
        }

        fn end_object<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            if let Some(Open::Block { used: true }) = self.stack.pop() {
                self.newline(w)?;
            }
            w.write_all(b"}")
        }

        fn begin_object_key<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            first: bool,
        ) -> io::Result<()> {
            match self.stack.last_mut() {
                Some(Open::Block { used }) => {
                    *used = true;
                    if !first {
                        w.write_all(b",")?;
                    }
                    self.newline(w)
                }
                _ => w.write_all(if first { b"" } else { b", " }),
            }
        }

        fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
            w.write_all(b": ")
        }

        fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_and_outline_keep_the_value_order_and_digits() {
        let compact = concat!(
            r#"{"outcomes":[{"discs":[{"team":0,"pos":[0.1,-0.30000000000000004],"state":"hole"}],"#,
            r#""events":[],"steps":3,"time":1e-7,"rules":{"s":"a \"q\" b","x":[1,2]}}]}"#,
            "\n"
        );
        let outlined = outline_json(compact);
        assert_eq!(
            outlined,
            concat!(
                "{\n  \"outcomes\": [\n    {\n      \"discs\": [\n",
                "        {\"team\": 0, \"pos\": [0.1, -0.30000000000000004], \"state\": \"hole\"}\n",
                "      ],\n      \"events\": [],\n      \"steps\": 3,\n      \"time\": 1e-7,\n",
                "      \"rules\": {\"s\": \"a \\\"q\\\" b\", \"x\": [1, 2]}\n    }\n  ]\n}\n"
            )
        );
        // Back to the same compact bytes; spaces inside strings survive.
        assert_eq!(compact_json(&outlined), compact);
        let a: serde_json::Value = serde_json::from_str(&outlined).unwrap();
        let b: serde_json::Value = serde_json::from_str(compact).unwrap();
        assert_eq!(a, b);
    }

    #[test]
    fn pretty_keeps_inner_arrays_on_one_line() {
        let v = serde_json::json!({"a": {"b": [[1, 2], [3, 4]], "c": [], "d": {}}, "e": 1.5});
        assert_eq!(
            to_json(&v, Style::Pretty),
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
        let text = to_json(&t, Style::Rows);
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
            to_json(&v, Style::TwoLevels),
            "{\n  \"a\": {\n    \"b\": [[1, 2], [3, 4]],\n    \"c\": {\"x\": 1, \"y\": [2]}\n  },\n  \"d\": 1.5,\n  \"e\": {}\n}\n"
        );
    }
}
