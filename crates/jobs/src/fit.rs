//! Fit the physics to tracked shots (docs/tracks.md): read a tracks file, fit the chosen
//! coefficients ([`crokinole_fit::fit`]), write the report (text or JSON), the fitted
//! `board` and `physics` blocks and the picture. `crokinole fit` is this job.

use crokinole_core::cancel::Cancel;
use crokinole_core::error::InputError;
use crokinole_fit::{Fit, FitConfig, Tracks};
use crokinole_io::{
    FileKind, Layout, fit_report_json, fit_report_text, params_json, parse_tracks_file,
};

/// Reads a tracks file's text into checked [`Tracks`]; a file that looks like another kind
/// of file is named in the error.
pub fn read(text: &str) -> Result<Tracks, InputError> {
    parse_tracks_file(text).map_err(|e| super::of_kind(e, text, FileKind::Tracks))
}

/// A fit and the tracks it was made from.
pub struct Fitted<'a> {
    /// The tracks.
    pub tracks: &'a Tracks,
    /// The fit.
    pub fit: Fit,
}

/// Fits `config`'s coefficients to `tracks` on the current rayon pool (the result does not
/// depend on its thread count).
pub fn fit<'a>(tracks: &'a Tracks, config: &FitConfig) -> Result<Fitted<'a>, InputError> {
    Ok(Fitted {
        tracks,
        fit: crokinole_fit::fit(tracks, config)?,
    })
}

/// [`fit`], stopped by `cancel` within a simulation: `None` once stopped.
pub fn fit_until<'a>(
    tracks: &'a Tracks,
    config: &FitConfig,
    cancel: &Cancel,
) -> Result<Option<Fitted<'a>>, InputError> {
    Ok(crokinole_fit::fit_until(tracks, config, cancel)?.map(|fit| Fitted { tracks, fit }))
}

impl Fitted<'_> {
    /// The tracks file's board and the fitted physics as the `board` and `physics` blocks
    /// of a shot file (what `crokinole params` prints), with a trailing newline.
    pub fn params(&self) -> String {
        let mut text = params_json(&self.tracks.board, &self.fit.physics);
        text.push('\n');
        text
    }

    /// The readable report.
    pub fn text(&self) -> String {
        fit_report_text(&self.fit, &self.params())
    }

    /// The JSON report in `layout`.
    pub fn json(&self, layout: Layout) -> String {
        fit_report_json(&self.fit, layout)
    }

    /// The picture: observed centres against the fitted paths.
    pub fn svg(&self, title: &str) -> Result<String, InputError> {
        crokinole_render::fit_svg(self.tracks, &self.fit, title)
    }
}
