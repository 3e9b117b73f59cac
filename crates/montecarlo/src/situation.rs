//! [`Situation`]: a seat about to shoot, as given (by a study file, a suggest file or a
//! caller): the board, the physics, the table, the discs at rest and the player's error.
//! A study ([`StudySpec`](super::StudySpec)) adds the flick and the rule set to it; the
//! JSON readers (`io/situation.rs`) produce it.

use super::noise::Noise;
use crokinole_core::board::Board;
use crokinole_core::params::Physics;
use crokinole_core::shot::Placed;

/// A seat about to shoot, unchecked: [`Study::new`](super::Study::new) checks it for a
/// study, `crokinole_plan::Setup::new` for the planner and the game
/// strategies (which build one from the game's position).
#[derive(Clone, Debug, PartialEq)]
pub struct Situation {
    /// Board geometry.
    pub board: Board,
    /// Physical parameters.
    pub physics: Physics,
    /// Players at the table, 2 or 4 (decides the shooter's team).
    pub players: u8,
    /// The shooter's seat, 0-3.
    pub seat: u8,
    /// Discs at rest before the shot (ids `0..n`; the shooter is id `n`).
    pub discs: Vec<Placed>,
    /// The player's error.
    pub noise: Noise,
}

impl Situation {
    /// `seat` of a two-player table on the tournament board with the default physics, no
    /// discs and no error: the defaults of a study or suggest file that gives only `seat`.
    pub fn at_seat(seat: u8) -> Situation {
        Situation {
            board: Board::tournament(),
            physics: Physics::default(),
            players: 2,
            seat,
            discs: Vec::new(),
            noise: Noise::NONE,
        }
    }
}
