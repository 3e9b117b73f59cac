//! The two rule sets of `docs/rules-reference.md` and the constants that differ between them.
//!
//! - **Traditional** (the default; the seeds' rules): 12 discs a side, the round's winner
//!   scores the difference, the game ends after the round in which a side reaches 100.
//! - **Tournament** (NCA / World Crokinole Championship): 8 discs each in singles, 6 in
//!   doubles; a round is worth 2 points to the winner (1 each for a tie); a game is 4 rounds.
//!
//! Where they also differ shot by shot (placement, the opening and must-hit removals) the
//! code matches on the rule set at the point of use: see [`crate::placement`] and
//! [`crate::verdict`].

use std::fmt;
use std::str::FromStr;

/// Which rules a game is played under.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ruleset {
    /// The seeds' rules: 12 discs a side, differential scoring to 100.
    #[default]
    Traditional,
    /// NCA / WCC rules: 8 discs each (6 in doubles), 2/1/0 points a round, 4 rounds.
    Tournament,
}

impl Ruleset {
    /// Both rule sets, traditional first.
    pub const ALL: [Ruleset; 2] = [Ruleset::Traditional, Ruleset::Tournament];

    /// Discs each player shoots in a round with `players` players (2 or 4): traditional
    /// 12 each with two players and 6 each with four (12 a side either way); tournament 8
    /// each in singles and 6 each in doubles. 0 for any other player count.
    pub fn discs_per_player(self, players: u8) -> u8 {
        match (self, players) {
            (Ruleset::Traditional, 2) => 12,
            (Ruleset::Traditional, 4) => 6,
            (Ruleset::Tournament, 2) => 8,
            (Ruleset::Tournament, 4) => 6,
            _ => 0,
        }
    }

    /// Rounds in a game: `Some(4)` in tournament play, `None` (play until a side reaches
    /// [`Ruleset::target`]) in traditional play.
    pub fn rounds(self) -> Option<u32> {
        match self {
            Ruleset::Traditional => None,
            Ruleset::Tournament => Some(4),
        }
    }

    /// Game score that ends a traditional game after the round that reaches it: `Some(100)`;
    /// `None` in tournament play.
    pub fn target(self) -> Option<u32> {
        match self {
            Ruleset::Traditional => Some(100),
            Ruleset::Tournament => None,
        }
    }

    /// The name used on the command line and in JSON: `traditional` or `tournament`.
    pub fn name(self) -> &'static str {
        match self {
            Ruleset::Traditional => "traditional",
            Ruleset::Tournament => "tournament",
        }
    }
}

impl fmt::Display for Ruleset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Ruleset {
    type Err = String;

    /// `traditional` or `tournament` (exactly, lower case).
    fn from_str(s: &str) -> Result<Ruleset, String> {
        match s {
            "traditional" => Ok(Ruleset::Traditional),
            "tournament" => Ok(Ruleset::Tournament),
            _ => Err(format!(
                "unknown rule set `{s}`: expected `traditional` or `tournament`"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_discs_a_side_traditional_eight_or_six_each_in_tournaments() {
        assert_eq!(Ruleset::Traditional.discs_per_player(2), 12);
        assert_eq!(Ruleset::Traditional.discs_per_player(4), 6);
        assert_eq!(Ruleset::Tournament.discs_per_player(2), 8);
        assert_eq!(Ruleset::Tournament.discs_per_player(4), 6);
        assert_eq!(Ruleset::Tournament.discs_per_player(3), 0);
    }

    #[test]
    fn names_round_trip() {
        for r in Ruleset::ALL {
            assert_eq!(r.name().parse::<Ruleset>(), Ok(r));
        }
        assert!("Tournament".parse::<Ruleset>().is_err());
    }
}
