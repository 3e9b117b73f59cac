//! Strict reading of the JSON contract, shared by the shot file and the study file: a key
//! that is present must hold a value (`null` is refused), and a struct must be a JSON
//! object (serde's derive would also take an array of its fields).

use serde::de::Visitor;
use serde::{Deserialize, Deserializer};

/// An optional key that, when present, must hold a value: `null` is refused (a producer
/// that writes NaN as `null` must not get a default instead).
pub(crate) fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A struct read only from a JSON object: serde's derive would also take an array of the
/// field values in order, which the contract does not allow.
pub(crate) struct Obj<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Obj<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(MapOnly(d)).map(Obj)
    }
}

/// A deserializer that asks its inner one for a map whatever it is asked for.
pub(crate) struct MapOnly<D>(D);

impl<'de, D: Deserializer<'de>> Deserializer<'de> for MapOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum
        identifier ignored_any
    }
}
