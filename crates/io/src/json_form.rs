//! The JSON form of a value of another crate: the wrapper [`Json`] (and [`FromJson`] to
//! read), and the traits [`ToJson`] and [`ReadJson`] behind them.
//!
//! The library's types belong to the crates below this one, which know nothing of serde,
//! and a crate may implement serde's traits only for its own types. So each library type
//! implements this crate's [`ToJson`] (and [`ReadJson`] where it is read back), in
//! `model_json.rs` through its mirror, and a writer serialises `Json(&value)`.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A library value in its JSON form: the library's types belong to the crates below this
/// one, which know nothing of serde, so their `Serialize` implementations are on this
/// wrapper (`serde_json::to_string(&Json(&summary))`), each through its mirror below.
#[derive(Clone, Copy, Debug)]
pub struct Json<'a, T: ?Sized>(pub &'a T);

/// A library value read from its JSON form: the `Deserialize` counterpart of [`Json`]
/// (`serde_json::from_str::<FromJson<StudySummary>>(text)?.0`).
#[derive(Clone, Debug)]
pub struct FromJson<T>(pub T);

/// A library type with a JSON form (implemented here, through its mirror, for each type
/// this file mirrors, and for vectors, slices and options of them).
pub trait ToJson {
    /// Writes the value's JSON form.
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error>;
}

/// A library type that reads from its JSON form (the files the library writes and reads
/// back).
pub trait ReadJson: Sized {
    /// Reads the value from its JSON form.
    fn read_json<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error>;
}

impl<T: ToJson + ?Sized> Serialize for Json<'_, T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.to_json(s)
    }
}

impl<'de, T: ReadJson> Deserialize<'de> for FromJson<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::read_json(d).map(FromJson)
    }
}

/// The `with` module of a mirror's field whose type is another library type (or a vector
/// or option of one): it goes through [`ToJson`] and [`ReadJson`] as a whole value does.
pub(crate) mod json {
    use super::{ReadJson, ToJson};
    use serde::{Deserializer, Serializer};

    pub fn serialize<T: ToJson, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        v.to_json(s)
    }

    pub fn deserialize<'de, T: ReadJson, D: Deserializer<'de>>(d: D) -> Result<T, D::Error> {
        T::read_json(d)
    }
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).to_json(s)
    }
}

impl<T: ToJson> ToJson for [T] {
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter().map(Json))
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_slice().to_json(s)
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn to_json<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Some(v) => s.serialize_some(&Json(v)),
            None => s.serialize_none(),
        }
    }
}

impl<T: ReadJson> ReadJson for Vec<T> {
    fn read_json<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Vec::<FromJson<T>>::deserialize(d)?;
        Ok(v.into_iter().map(|x| x.0).collect())
    }
}

impl<T: ReadJson> ReadJson for Option<T> {
    fn read_json<'de, D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Option::<FromJson<T>>::deserialize(d)?.map(|x| x.0))
    }
}
