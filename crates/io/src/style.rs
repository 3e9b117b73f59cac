//! The readable layouts' description ([`Style`]): which containers of a JSON text break
//! one item a line. The serialiser that follows it is `io/laid.rs`; the layouts in use
//! and the entry points are `io/format.rs`.

/// Which arrays within [`Style::arrays`] go one element a line, by the kind of their
/// first element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rows {
    /// Arrays of objects.
    Objects,
    /// Arrays of objects or arrays.
    Containers,
    /// Every non-empty array that is not itself an element of an array.
    OutsideArrays,
}

/// A readable layout: which containers break one item a line (the layouts in use are
/// described in `io/format.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Style {
    /// Objects nested less than this deep go one key a line (0: none; the top value is at
    /// depth 0).
    pub(crate) objects: usize,
    /// Arrays nested less than this deep go one element a line if [`Style::rows`] says so.
    pub(crate) arrays: usize,
    /// Which of those arrays break.
    pub(crate) rows: Rows,
    /// Whether the text ends with a newline.
    pub(crate) newline: bool,
}

impl Style {
    /// Indented, inner arrays on one line; no trailing newline.
    pub(crate) const PRETTY: Style = Style {
        objects: usize::MAX,
        arrays: usize::MAX,
        rows: Rows::OutsideArrays,
        newline: false,
    };
    /// Two levels of objects indented, the rest on one line.
    pub(crate) const TWO_LEVELS: Style = Style {
        objects: 2,
        arrays: 0,
        rows: Rows::Objects,
        newline: true,
    };
    /// The top object one key a line, arrays of objects one object a line.
    pub(crate) const ROWS: Style = Style {
        objects: 1,
        arrays: usize::MAX,
        rows: Rows::Objects,
        newline: true,
    };
    /// The outcome file: objects to depth 2 (the outcomes) one key a line, arrays of
    /// containers to depth 3 (`outcomes`, `discs`, `events`) one element a line.
    pub(crate) const OUTCOMES: Style = Style {
        objects: 3,
        arrays: 4,
        rows: Rows::Containers,
        newline: true,
    };
    /// The game log: the top object one key a line, its arrays of containers one element
    /// a line.
    pub(crate) const GAME_LOG: Style = Style {
        objects: 1,
        arrays: 2,
        rows: Rows::Containers,
        newline: true,
    };
}
