//! The serialiser of every JSON text the crate writes ([`Laid`]): a `serde` serialiser
//! that writes JSON straight into a buffer while the value is serialised, laid out as a
//! [`Style`] says (`io/format.rs`: which containers break one item a line) or compact,
//! and hands the buffer to its writer in blocks of [`FLUSH_AT`] bytes.
//!
//! The bytes are `serde_json`'s for the same value (its compact text, plus the layout's
//! line breaks, indents and spaces): numbers by its own formatter (shortest round-trip
//! floats, non-finite floats `null`), strings escaped as it escapes them, map keys
//! (strings, or integers and booleans quoted) as it writes them, enums externally tagged,
//! raw fragments (`serde_json::value::RawValue`) copied as they are. The tests of
//! `io/format.rs` compare the two.
//!
//! Why not `serde_json::Serializer` with a custom `Formatter`, as before: through it every
//! key is scanned for escapes and written in four pieces, each a call into the writer,
//! which made the laying out of an outcome file cost more than parsing its shot file.
//! Here a key or a separator is one copy into the buffer.

use super::style::{Rows, Style};
use serde::Serialize;
use serde::ser;
use serde_json::ser::{CompactFormatter, Formatter};
use std::io::Write;

#[macro_use]
mod special;

use special::{MapKey, RawText, Text};

type Error = serde_json::Error;
type Result<T> = std::result::Result<T, Error>;

/// The buffer goes to the writer when it holds this many bytes (checked after each
/// element of an array), so a long file is written in bounded memory.
pub(crate) const FLUSH_AT: usize = 1 << 16;

/// The name `serde_json` serialises a `RawValue` under (a struct of one field of that
/// name holding the raw text).
const RAW_VALUE_TOKEN: &str = "$serde_json::private::RawValue";

/// A line break and 64 spaces: an indent of up to 32 levels in one copy.
const NEWLINE: [u8; 65] = {
    let mut line = [b' '; 65];
    line[0] = b'\n';
    line
};

/// One open container.
#[derive(Clone, Copy)]
struct Open {
    /// An array (else an object).
    array: bool,
    /// Goes one item a line.
    broken: bool,
    /// An array that may still break: its first element decides.
    undecided: bool,
    /// Holds an item.
    used: bool,
}

/// The kind of a value about to be written, for [`Rows`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Scalar,
    Array,
    Object,
}

/// The serialiser: JSON of one value into `out`, laid out in `style` (or compact), handed
/// to `w` in blocks. Call [`Laid::finish`] after serialising to write the rest.
pub(crate) struct Laid<W: Write> {
    w: W,
    out: Vec<u8>,
    style: Style,
    /// All on one line, without spaces (`--compact`).
    compact: bool,
    /// The open containers, outermost first.
    stack: Vec<Open>,
    /// How many open containers are broken: the indent of their items.
    indent: usize,
    /// The first element of an undecided array is about to begin.
    pending: bool,
}

impl<W: Write> Laid<W> {
    /// A serialiser writing to `w` in `style`, or compact (then `style` is not used).
    pub(crate) fn new(w: W, style: Style, compact: bool) -> Laid<W> {
        Laid {
            w,
            out: Vec::with_capacity(4096),
            style,
            compact,
            stack: Vec::with_capacity(8),
            indent: 0,
            pending: false,
        }
    }

    /// Writes what is left in the buffer, then `tail`; gives the writer back.
    pub(crate) fn finish(mut self, tail: &[u8]) -> Result<W> {
        self.out.extend_from_slice(tail);
        self.w.write_all(&self.out).map_err(Error::io)?;
        Ok(self.w)
    }

    /// Hands a full buffer to the writer.
    #[inline]
    fn maybe_flush(&mut self) -> Result<()> {
        if self.out.len() >= FLUSH_AT {
            self.w.write_all(&self.out).map_err(Error::io)?;
            self.out.clear();
        }
        Ok(())
    }

    /// A line break and the current indent.
    #[inline]
    fn newline(&mut self) {
        match NEWLINE.get(..1 + 2 * self.indent) {
            Some(line) => self.out.extend_from_slice(line),
            None => {
                self.out.push(b'\n');
                for _ in 0..self.indent {
                    self.out.extend_from_slice(b"  ");
                }
            }
        }
    }

    /// A value of `kind` begins: if it is the first element of an undecided array, that
    /// array breaks or not by its kind, and a broken one starts its first line.
    #[inline]
    fn value(&mut self, kind: Kind) {
        if !self.pending {
            return;
        }
        self.pending = false;
        let rows = self.style.rows;
        let open = self.stack.last_mut().expect("an array is open");
        open.undecided = false;
        open.broken = match rows {
            Rows::Objects => kind == Kind::Object,
            Rows::Containers => kind != Kind::Scalar,
            Rows::OutsideArrays => true,
        };
        if open.broken {
            self.indent += 1;
            self.newline();
        }
    }

    /// Opens an array.
    fn begin_array(&mut self) {
        self.value(Kind::Array);
        let depth = self.stack.len();
        let in_array = self.stack.last().is_some_and(|o| o.array);
        let undecided = !self.compact
            && depth < self.style.arrays
            && !(self.style.rows == Rows::OutsideArrays && in_array);
        self.stack.push(Open {
            array: true,
            broken: false,
            undecided,
            used: false,
        });
        self.out.push(b'[');
    }

    /// Opens an object.
    fn begin_object(&mut self) {
        self.value(Kind::Object);
        let broken = !self.compact && self.stack.len() < self.style.objects;
        if broken {
            self.indent += 1;
        }
        self.stack.push(Open {
            array: false,
            broken,
            undecided: false,
            used: false,
        });
        self.out.push(b'{');
    }

    /// Ends the innermost container: a broken one that holds something closes on a line
    /// of its own.
    fn close(&mut self, end: u8) {
        let open = self.stack.pop().expect("balanced containers");
        if open.broken {
            self.indent -= 1;
            if open.used {
                self.newline();
            }
        }
        self.out.push(end);
    }

    /// An item (an element or a key) of the innermost container begins: its separator.
    #[inline]
    fn item(&mut self, first: bool) {
        let open = self.stack.last_mut().expect("inside a container");
        open.used = true;
        let broken = open.broken;
        if first {
            if open.undecided {
                self.pending = true;
            } else if broken {
                self.newline();
            }
        } else if broken {
            self.out.push(b',');
            self.newline();
        } else if self.compact {
            self.out.push(b',');
        } else {
            self.out.extend_from_slice(b", ");
        }
    }

    /// Between a key and its value.
    #[inline]
    fn colon(&mut self) {
        if self.compact {
            self.out.push(b':');
        } else {
            self.out.extend_from_slice(b": ");
        }
    }

    /// A quoted, escaped string (a value or a key).
    #[inline]
    fn string(&mut self, s: &str) {
        self.value(Kind::Scalar);
        self.quoted(s);
    }

    /// `"s"`, escaped as `serde_json` escapes: `"`, `\` and the control characters.
    #[inline]
    fn quoted(&mut self, s: &str) {
        let bytes = s.as_bytes();
        self.out.push(b'"');
        if bytes.iter().all(|&b| b >= 0x20 && b != b'"' && b != b'\\') {
            self.out.extend_from_slice(bytes);
        } else {
            self.escaped(bytes);
        }
        self.out.push(b'"');
    }

    /// The contents of a string that needs escapes.
    #[cold]
    fn escaped(&mut self, bytes: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        for &b in bytes {
            match b {
                b'"' => self.out.extend_from_slice(b"\\\""),
                b'\\' => self.out.extend_from_slice(b"\\\\"),
                0x08 => self.out.extend_from_slice(b"\\b"),
                0x09 => self.out.extend_from_slice(b"\\t"),
                0x0A => self.out.extend_from_slice(b"\\n"),
                0x0C => self.out.extend_from_slice(b"\\f"),
                0x0D => self.out.extend_from_slice(b"\\r"),
                0x00..=0x1F => self.out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xF)],
                ]),
                _ => self.out.push(b),
            }
        }
    }

    /// A number (or `null`, `true`, `false`) written by `serde_json`'s formatter.
    #[inline]
    fn scalar(&mut self, write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<()> {
        self.value(Kind::Scalar);
        write(&mut self.out).map_err(Error::io)
    }

    /// `{"variant": ` of an externally tagged enum's variant holding data.
    fn begin_variant(&mut self, variant: &str) {
        self.begin_object();
        self.item(true);
        self.quoted(variant);
        self.colon();
    }
}

impl<W: Write> Text for Laid<W> {
    fn buffer(&mut self) -> &mut Vec<u8> {
        &mut self.out
    }
    fn quoted(&mut self, s: &str) {
        Laid::quoted(self, s);
    }
    fn scalar_begins(&mut self) {
        self.value(Kind::Scalar);
    }
}

impl<'a, W: Write> ser::Serializer for &'a mut Laid<W> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = Compound<'a, W>;
    type SerializeTuple = Compound<'a, W>;
    type SerializeTupleStruct = Compound<'a, W>;
    type SerializeTupleVariant = Compound<'a, W>;
    type SerializeMap = Compound<'a, W>;
    type SerializeStruct = Compound<'a, W>;
    type SerializeStructVariant = Compound<'a, W>;

    formatted! { scalar }
    fn serialize_f32(self, v: f32) -> Result<()> {
        if v.is_finite() {
            self.scalar(|o| CompactFormatter.write_f32(o, v))
        } else {
            self.serialize_unit()
        }
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        if v.is_finite() {
            self.scalar(|o| CompactFormatter.write_f64(o, v))
        } else {
            self.serialize_unit()
        }
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.string(v.encode_utf8(&mut [0; 4]));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<()> {
        self.string(v);
        Ok(())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for b in v {
            seq.serialize_element(b)?;
        }
        seq.end()
    }
    fn serialize_none(self) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        self.scalar(|o| CompactFormatter.write_null(o))
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<()> {
        self.serialize_unit()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Result<()> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.begin_variant(variant);
        value.serialize(&mut *self)?;
        self.close(b'}');
        Ok(())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Compound<'a, W>> {
        self.begin_array();
        Ok(Compound::new(self, Closing::Array))
    }
    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _: &'static str, len: usize) -> Result<Compound<'a, W>> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, W>> {
        self.begin_variant(variant);
        self.begin_array();
        Ok(Compound::new(self, Closing::ArrayInVariant))
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Compound<'a, W>> {
        self.begin_object();
        Ok(Compound::new(self, Closing::Object))
    }
    fn serialize_struct(self, name: &'static str, _: usize) -> Result<Compound<'a, W>> {
        if name == RAW_VALUE_TOKEN {
            return Ok(Compound::new(self, Closing::Raw));
        }
        self.begin_object();
        Ok(Compound::new(self, Closing::Object))
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        _: usize,
    ) -> Result<Compound<'a, W>> {
        self.begin_variant(variant);
        self.begin_object();
        Ok(Compound::new(self, Closing::ObjectInVariant))
    }
}

/// What ends a [`Compound`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Closing {
    Array,
    Object,
    /// The array of a tuple variant, then the variant's object.
    ArrayInVariant,
    /// The object of a struct variant, then the variant's object.
    ObjectInVariant,
    /// A `RawValue`: nothing was opened.
    Raw,
}

/// An open array or object of [`Laid`].
pub(crate) struct Compound<'a, W: Write> {
    ser: &'a mut Laid<W>,
    closing: Closing,
    first: bool,
}

impl<'a, W: Write> Compound<'a, W> {
    fn new(ser: &'a mut Laid<W>, closing: Closing) -> Compound<'a, W> {
        Compound {
            ser,
            closing,
            first: true,
        }
    }

    /// The next element of an array.
    #[inline]
    fn element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        self.ser.item(std::mem::take(&mut self.first));
        value.serialize(&mut *self.ser)?;
        self.ser.maybe_flush()
    }

    /// The next key of an object (a struct's field name or a map's key).
    #[inline]
    fn key(&mut self, key: &str) {
        self.ser.item(std::mem::take(&mut self.first));
        self.ser.quoted(key);
        self.ser.colon();
    }

    fn end(self) -> Result<()> {
        match self.closing {
            Closing::Array => self.ser.close(b']'),
            Closing::Object => self.ser.close(b'}'),
            Closing::ArrayInVariant => {
                self.ser.close(b']');
                self.ser.close(b'}');
            }
            Closing::ObjectInVariant => {
                self.ser.close(b'}');
                self.ser.close(b'}');
            }
            Closing::Raw => {}
        }
        Ok(())
    }
}

/// The array-like compounds: each element through [`Compound::element`].
macro_rules! array_like {
    ($($serialize:ident :: $method:ident),* $(,)?) => {
        $(
            impl<W: Write> ser::$serialize for Compound<'_, W> {
                type Ok = ();
                type Error = Error;
                fn $method<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
                    self.element(value)
                }
                fn end(self) -> Result<()> {
                    Compound::end(self)
                }
            }
        )*
    };
}

array_like! {
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field,
}

impl<W: Write> ser::SerializeMap for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<()> {
        self.ser.item(std::mem::take(&mut self.first));
        key.serialize(MapKey(&mut *self.ser))?;
        self.ser.colon();
        Ok(())
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<()> {
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}

impl<W: Write> ser::SerializeStruct for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    #[inline]
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        if self.closing == Closing::Raw {
            return value.serialize(RawText(&mut *self.ser));
        }
        self.key(key);
        value.serialize(&mut *self.ser)
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}

impl<W: Write> ser::SerializeStructVariant for Compound<'_, W> {
    type Ok = ();
    type Error = Error;
    fn serialize_field<T: ?Sized + Serialize>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    fn end(self) -> Result<()> {
        Compound::end(self)
    }
}

impl<W: Write> Laid<W> {
    /// `{"key": [`: a top-level object and the array under its first key, as serialising
    /// a struct with that field writes them. [`lay_elements`] and [`write_laid_array`]
    /// both start here, so an element laid out apart is laid out where it will stand.
    fn open_keyed_array(&mut self, key: &str) {
        self.begin_object();
        self.item(true);
        self.quoted(key);
        self.colon();
        self.begin_array();
    }
}

/// Objects laid out ahead of their file (`lay_elements`): `text` holds their texts one
/// after the other, object `k` ending at `ends[k]`.
#[derive(Clone, Debug, Default)]
pub struct LaidElements {
    /// The texts, back to back.
    pub(crate) text: Vec<u8>,
    /// Where each text ends in `text`.
    pub(crate) ends: Vec<usize>,
}

/// Lays out `objects` as elements of the array under `key` of a top-level object (the
/// outcome file's `outcomes`), in `style` or compact, apart from the file: each text is
/// exactly what serialising the object there writes after its separator, whatever its
/// place, since a layout decides by depth and by the array's first element (an object:
/// every element must be one). The file is then written by [`write_laid_array`], which
/// puts the separators between them, so the objects of a long array can be laid out on
/// many threads and the bytes stay those of one serialiser.
pub(crate) fn lay_elements<T: Serialize>(
    objects: impl IntoIterator<Item = T>,
    key: &str,
    style: Style,
    compact: bool,
) -> Result<LaidElements> {
    let mut laid = Laid::new(Vec::new(), style, compact);
    // The state after `{"key": [` and the start of a first object element (the array
    // decided by it): what follows is an element's text.
    laid.open_keyed_array(key);
    laid.item(true);
    laid.value(Kind::Object);
    laid.out.clear();
    let mut ends = Vec::new();
    for object in objects {
        object.serialize(&mut laid)?;
        ends.push(laid.w.len() + laid.out.len());
    }
    let text = laid.finish(b"")?;
    Ok(LaidElements { text, ends })
}

/// Writes `{"key": [...]}` to `w` in `style` or compact (a trailing newline as
/// [`super::format::try_write_laid_out`] puts one), the array's elements the objects laid
/// out by [`lay_elements`] with the same key and layout, in the order `chunks` yields them:
/// the bytes of serialising the objects in one array. An error from `chunks` ends the
/// writing (the text so far is unfinished) and is returned as the inner error.
pub(crate) fn write_laid_array<W: Write, E>(
    w: W,
    key: &str,
    style: Style,
    compact: bool,
    chunks: impl Iterator<Item = std::result::Result<LaidElements, E>>,
) -> Result<std::result::Result<(), E>> {
    let mut laid = Laid::new(w, style, compact);
    laid.open_keyed_array(key);
    let mut first = true;
    for chunk in chunks {
        let chunk = match chunk {
            Ok(chunk) => chunk,
            Err(e) => {
                laid.finish(b"")?;
                return Ok(Err(e));
            }
        };
        let mut start = 0;
        for &end in &chunk.ends {
            laid.item(std::mem::take(&mut first));
            laid.value(Kind::Object);
            laid.out.extend_from_slice(&chunk.text[start..end]);
            start = end;
            laid.maybe_flush()?;
        }
    }
    laid.close(b']');
    laid.close(b'}');
    let tail: &[u8] = if compact || style.newline { b"\n" } else { b"" };
    laid.finish(tail)?;
    Ok(Ok(()))
}
