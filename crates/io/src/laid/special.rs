//! The two serialisers [`Laid`] hands special values to: a map's key ([`MapKey`]: a
//! string, or an integer, a boolean or a unit variant quoted, as `serde_json` writes keys)
//! and the text of a `serde_json::value::RawValue` ([`RawText`], copied as it is).

use serde::Serialize;
use serde::ser::{self, Error as _};
use serde_json::ser::{CompactFormatter, Formatter};

/// A serialiser's methods for booleans and integers, each writing `v` with `serde_json`'s
/// formatter through the serialiser's method `$via` (which takes the writing as a
/// closure): the one list of them, for [`super::Laid`] and [`MapKey`].
macro_rules! formatted {
    ($via:ident) => {
        formatted! { $via;
            serialize_bool(bool) => write_bool, serialize_i8(i8) => write_i8,
            serialize_i16(i16) => write_i16, serialize_i32(i32) => write_i32,
            serialize_i64(i64) => write_i64, serialize_i128(i128) => write_i128,
            serialize_u8(u8) => write_u8, serialize_u16(u16) => write_u16,
            serialize_u32(u32) => write_u32, serialize_u64(u64) => write_u64,
            serialize_u128(u128) => write_u128,
        }
    };
    ($via:ident; $($method:ident($ty:ty) => $write:ident),* $(,)?) => {
        $(
            fn $method(self, v: $ty) -> Result<()> {
                self.$via(|o| CompactFormatter.$write(o, v))
            }
        )*
    };
}

type Error = serde_json::Error;
type Result<T> = std::result::Result<T, Error>;

/// What these serialisers write into: the text being made.
pub(super) trait Text {
    /// The bytes written so far.
    fn buffer(&mut self) -> &mut Vec<u8>;
    /// Writes `"s"`, escaped.
    fn quoted(&mut self, s: &str);
    /// A value that is not a container begins here (the layout of an array may depend on
    /// its first element).
    fn scalar_begins(&mut self);
}

/// The error of a map key `serde_json` would refuse.
fn key_must_be_a_string() -> Error {
    Error::custom("key must be a string")
}

/// Serialises a map's key as `serde_json` does: a string, or an integer, a boolean or a
/// unit variant quoted.
pub(super) struct MapKey<'a, X: Text>(pub(super) &'a mut X);

impl<X: Text> MapKey<'_, X> {
    /// `"` + what `write` writes + `"`.
    fn quoted_with(self, write: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>) -> Result<()> {
        let out = self.0.buffer();
        out.push(b'"');
        write(out).map_err(Error::io)?;
        out.push(b'"');
        Ok(())
    }
}

/// The methods of a serialiser that refuse with `$error`.
macro_rules! refuse {
    ($error:expr; $($method:ident($($arg:ty),*) -> $ok:ty),* $(,)?) => {
        $(
            fn $method(self, $(_: $arg),*) -> Result<$ok> {
                Err($error)
            }
        )*
    };
}

impl<X: Text> ser::Serializer for MapKey<'_, X> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.quoted(v);
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
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
    formatted! { quoted_with }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(key_must_be_a_string())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(key_must_be_a_string())
    }
    refuse! { key_must_be_a_string();
        serialize_f32(f32) -> (),
        serialize_f64(f64) -> (),
        serialize_bytes(&[u8]) -> (),
        serialize_none() -> (),
        serialize_unit() -> (),
        serialize_unit_struct(&'static str) -> (),
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
    }
}

/// The text of a `RawValue`, copied as it is.
pub(super) struct RawText<'a, X: Text>(pub(super) &'a mut X);

impl<X: Text> ser::Serializer for RawText<'_, X> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ser::Impossible<(), Error>;
    type SerializeTuple = ser::Impossible<(), Error>;
    type SerializeTupleStruct = ser::Impossible<(), Error>;
    type SerializeTupleVariant = ser::Impossible<(), Error>;
    type SerializeMap = ser::Impossible<(), Error>;
    type SerializeStruct = ser::Impossible<(), Error>;
    type SerializeStructVariant = ser::Impossible<(), Error>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.0.scalar_begins();
        self.0.buffer().extend_from_slice(v.as_bytes());
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, _: &T) -> Result<()> {
        Err(not_raw())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, _: &T) -> Result<()> {
        Err(not_raw())
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<()> {
        Err(not_raw())
    }
    refuse! { not_raw();
        serialize_bool(bool) -> (),
        serialize_i8(i8) -> (),
        serialize_i16(i16) -> (),
        serialize_i32(i32) -> (),
        serialize_i64(i64) -> (),
        serialize_u8(u8) -> (),
        serialize_u16(u16) -> (),
        serialize_u32(u32) -> (),
        serialize_u64(u64) -> (),
        serialize_f32(f32) -> (),
        serialize_f64(f64) -> (),
        serialize_char(char) -> (),
        serialize_bytes(&[u8]) -> (),
        serialize_none() -> (),
        serialize_unit() -> (),
        serialize_unit_struct(&'static str) -> (),
        serialize_unit_variant(&'static str, u32, &'static str) -> (),
        serialize_seq(Option<usize>) -> Self::SerializeSeq,
        serialize_tuple(usize) -> Self::SerializeTuple,
        serialize_tuple_struct(&'static str, usize) -> Self::SerializeTupleStruct,
        serialize_tuple_variant(&'static str, u32, &'static str, usize) -> Self::SerializeTupleVariant,
        serialize_map(Option<usize>) -> Self::SerializeMap,
        serialize_struct(&'static str, usize) -> Self::SerializeStruct,
        serialize_struct_variant(&'static str, u32, &'static str, usize) -> Self::SerializeStructVariant,
    }
}

/// A `RawValue` that does not hold text.
fn not_raw() -> Error {
    Error::custom("expected RawValue")
}
