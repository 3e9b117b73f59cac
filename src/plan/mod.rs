//! The shot planner (`docs/suggest.md`).

pub mod setup;

pub use setup::Setup;
