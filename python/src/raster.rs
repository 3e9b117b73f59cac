//! Pictures as pixels, for the environments' `rgb_array` render mode: a position drawn by
//! the library's render module ([`position_svg`]: the board to scale, its zones and lines,
//! the discs by team) and rasterised by resvg (tiny-skia), cropped to the board itself.
//! Text is not drawn (resvg is built without fonts): the board and the discs are.

use crate::errors::error;
use crokinole_core::{Board, Physics, Placed};
use crokinole_render::board::outer_radius;
use crokinole_render::position_svg;
use numpy::ndarray::Array3;
use pyo3::PyResult;
use resvg::{tiny_skia, usvg};

/// Largest side of a picture, px.
pub const MAX_SIZE: u32 = 4096;

/// The SVG's margin above the board (the title lines) and the side panel's width, in the
/// picture's units ([`position_svg`]'s layout).
const TOP: f64 = 44.0;
const PANEL: f64 = 300.0;

/// The board with `discs` at rest as an RGB image `[size, size, 3]` (u8): the square
/// around the board (rail included) of [`position_svg`]'s picture, on white.
pub fn position_rgb(
    board: &Board,
    physics: &Physics,
    discs: &[Placed],
    size: u32,
) -> PyResult<Array3<u8>> {
    if !(16..=MAX_SIZE).contains(&size) {
        return Err(error(format!(
            "field `size`: must be between 16 and {MAX_SIZE} px, got {size}"
        )));
    }
    let svg = position_svg(board, physics, discs, "");
    let tree = usvg::Tree::from_str(&svg, &usvg::Options::default())
        .map_err(|e| error(format!("the position's picture could not be read: {e}")))?;
    // The picture's units: `2 r` across the board square, whose top left is at (0, TOP)
    // of the view box (the view box starts at -r); `tree.size()` is in px, the SVG's
    // width attribute, for the whole view box of `2 r + PANEL` units.
    let r = outer_radius(board) + 8.0;
    let units_per_px = (2.0 * r + PANEL) / f64::from(tree.size().width());
    let scale = f64::from(size) / (2.0 * r) * units_per_px;
    let mut pixmap = tiny_skia::Pixmap::new(size, size)
        .ok_or_else(|| error(format!("field `size`: cannot allocate {size} x {size} px")))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    let shift = -TOP / units_per_px * scale;
    let transform =
        tiny_skia::Transform::from_row(scale as f32, 0.0, 0.0, scale as f32, 0.0, shift as f32);
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    // Opaque everywhere (drawn on white), so the premultiplied RGBA is the RGB itself.
    let side = size as usize;
    let rgb: Vec<u8> = pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect();
    Array3::from_shape_vec((side, side, 3), rgb)
        .map_err(|e| error(format!("the picture's pixels: {e}")))
}
