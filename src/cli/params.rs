//! `crokinole params`: print the default board and physics, in the form a shot file's
//! `board` and `physics` blocks take; with `--skills`, the named skill levels
//! (docs/skill.md).

use super::args::LayoutArg;
use super::failure::Failure;
use super::output::{laid_out, write_output};
use crokinole::io::params_json;
use crokinole::{Board, Physics};

/// The flags of `crokinole params`.
#[derive(clap::Args)]
pub struct Args {
    /// Print the named skill levels instead (docs/skill.md).
    #[arg(long)]
    skills: bool,
    #[command(flatten)]
    layout: LayoutArg,
}

/// `crokinole params`: the defaults, in the form a shot file's blocks take; with
/// `--skills`, the skill levels' table.
pub fn run(a: Args) -> Result<(), Failure> {
    let layout = a.layout.layout();
    let text = if a.skills {
        crokinole::io::skills_json()
    } else {
        params_json(&Board::tournament(), &Physics::default()) + "\n"
    };
    let text = laid_out(text, layout);
    write_output(None, |w| w.write_all(text.as_bytes()))
}
