//! `crokinole._crokinole`: the Python extension module of the crokinole engine (pyo3).
//!
//! A binding layer above the library's `io` and `render` layers: it parses what Python
//! hands it (numpy arrays, or JSON text of dicts and files, read by the same `io` readers as
//! the CLI so the checks and messages are the CLI's), calls the library with the GIL
//! released, and hands back numpy arrays or JSON text that the Python package
//! (`python/crokinole/__init__.py`) turns into dicts. The core crate knows nothing of it.
//!
//! - [`errors`]: `CrokinoleError` and the CLI's file reading and messages.
//! - [`engine`]: `Engine` (board and physics) and shot batches as arrays.
//! - [`library`]: shot files, flicks in player terms, studies, the planner, pictures.
//! - [`games`]: games between strategies, strategies written in Python.
//! - [`legality`]: whether a flick is legal for a seat, why not, and the legal offsets.
//! - [`env`]: `GameBatch`, the native core of the Gymnasium environments.
//! - [`raster`]: a position as pixels (resvg), for the environments' `rgb_array` render.
//! - [`shards`]: study shards and their exact merge, games in ranges of indices: the
//!   distributed runs' tasks.
//! - [`table`]: `Table`, a game played a shot at a time from Python: the PettingZoo
//!   environment's core.

// The modules are private (Python sees the module `_crokinole` only); the links above are
// for `cargo doc --document-private-items`.
#![allow(rustdoc::private_intra_doc_links)]

mod engine;
mod env;
mod errors;
mod games;
mod legality;
mod library;
mod raster;
mod shards;
mod table;

use pyo3::prelude::*;

/// The extension module.
#[pymodule]
fn _crokinole(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::loaded();
    m.add(
        "CrokinoleError",
        m.py().get_type::<errors::CrokinoleError>(),
    )?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("DEFAULT_NOISE", crokinole_play::DEFAULT_NOISE)?;
    m.add_function(wrap_pyfunction!(table::team_of_seat_py, m)?)?;
    m.add_class::<engine::Engine>()?;
    m.add_class::<env::GameBatch>()?;
    m.add_class::<table::Table>()?;
    m.add_function(wrap_pyfunction!(errors::read_text, m)?)?;
    library::register(m)?;
    games::register(m)?;
    legality::register(m)?;
    shards::register(m)?;
    Ok(())
}
