//! Scoring: zone points of the discs on the board, a round's totals, and the game points a
//! round is worth under each rule set.
//!
//! - A disc on the board scores by its zone ([`Board::zone`]): 15 wholly inside the 15 line,
//!   10 wholly inside the 10 line, 5 inside the shooting line; a disc touching a line
//!   (line width included) scores the lower value. A hanger (a disc overhanging the 20 hole
//!   without falling in, its centre at least `Board::support_window` from the hole's
//!   centre) is a disc on the board like any other: 15 on a tournament board.
//! - Each disc set aside in the 20 hole during the round scores 20.
//! - Traditional: the round's winner scores the difference of the totals (60 against 35
//!   scores 25); an equal round scores nothing.
//! - Tournament: the round's winner scores 2 and the loser 0; a tie scores 1 each.

use crate::ruleset::Ruleset;
use crokinole_core::board::Board;
use crokinole_core::shot::Placed;

/// Points a disc of radius `disc_radius` resting at `pos` scores: 15, 10, 5, or 0 if it
/// touches or lies beyond the shooting line.
pub fn disc_points(board: &Board, pos: glam::DVec2, disc_radius: f64) -> u32 {
    board.zone(pos, disc_radius).points()
}

/// Zone points of the discs on the board, per team (index = team; discs of other teams
/// are ignored).
pub fn board_score(board: &Board, disc_radius: f64, discs: &[Placed]) -> [u32; 2] {
    let mut score = [0; 2];
    for d in discs {
        if let Some(s) = score.get_mut(usize::from(d.team)) {
            *s += disc_points(board, d.pos, disc_radius);
        }
    }
    score
}

/// The score difference `own - other` of `team`'s side: zone points `board` plus 20 for
/// each of `twenties` (both per team, `[team 0, team 1]`). The strategies and the planner
/// value a shot by how it changes this for the shooter's side.
pub fn score_difference(team: u8, board: [u32; 2], twenties: [u32; 2]) -> i64 {
    let total = |t: usize| i64::from(board[t]) + 20 * i64::from(twenties[t]);
    let own = usize::from(team.min(1));
    total(own) - total(1 - own)
}

/// A round's total per team: 20 for each disc set aside plus the zone points on the board.
pub fn round_totals(twenties: [u32; 2], board: [u32; 2]) -> [u32; 2] {
    [20 * twenties[0] + board[0], 20 * twenties[1] + board[1]]
}

/// Game points each team earns for a round with these totals. Traditional: the winner gets
/// the difference, the loser 0 (`[60, 35] -> [25, 0]`; equal totals give `[0, 0]`).
/// Tournament: `[2, 0]`, `[0, 2]` or `[1, 1]`.
pub fn round_points(ruleset: Ruleset, totals: [u32; 2]) -> [u32; 2] {
    let [a, b] = totals;
    match ruleset {
        Ruleset::Traditional => [a.saturating_sub(b), b.saturating_sub(a)],
        Ruleset::Tournament => match a.cmp(&b) {
            std::cmp::Ordering::Greater => [2, 0],
            std::cmp::Ordering::Less => [0, 2],
            std::cmp::Ordering::Equal => [1, 1],
        },
    }
}
