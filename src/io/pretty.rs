//! A `serde_json` formatter for human-read output: like `to_string_pretty` (two-space
//! indent), except that an array inside an array stays on one line, so a peg or a point
//! reads `[0.0939, 0.0389]`.

use serde::Serialize;
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// One open container: whether it is an inline array, and whether it holds anything yet.
struct Open {
    inline: bool,
    array: bool,
    used: bool,
}

#[derive(Default)]
struct Pretty {
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
    fn begin_array_value<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
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
    fn begin_object_key<W: ?Sized + Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + Write>(&mut self, _: &mut W) -> io::Result<()> {
        Ok(())
    }
}

/// `value` as indented JSON with inner arrays on one line (no trailing newline).
pub(crate) fn to_string<T: Serialize>(value: &T) -> String {
    let mut out = Vec::new();
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Pretty::default());
    value
        .serialize(&mut ser)
        .expect("plain data always serializes");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    #[test]
    fn inner_arrays_stay_on_one_line() {
        let v = serde_json::json!({"a": {"b": [[1, 2], [3, 4]], "c": [], "d": {}}, "e": 1.5});
        assert_eq!(
            super::to_string(&v),
            "{\n  \"a\": {\n    \"b\": [\n      [1, 2],\n      [3, 4]\n    ],\n    \"c\": [],\n    \"d\": {}\n  },\n  \"e\": 1.5\n}"
        );
    }
}
