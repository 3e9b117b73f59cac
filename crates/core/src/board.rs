//! The board: radii of the playing surface and its lines, the 20 hole, the pegs; and the
//! scoring zones that follow from them.
//!
//! Frame: metres, origin at the centre of the 20 hole, seat 0 at negative y (see
//! `docs/shot-file.md`). Defaults are the tournament board of `docs/board.md`.

use glam::DVec2;

/// Geometry of a Crokinole board. Every field may be overridden (shot file `board` block).
#[derive(Debug, PartialEq)]
pub struct Board {
    /// Radius of the playing surface; a disc whose centre passes it falls into the ditch.
    /// 26 in diameter (NCA): 0.3302 m.
    pub surface_radius: f64,
    /// Radius of the shooting line, also the out-of-play line. 12 in (NCA): 0.3048 m.
    pub shooting_line_radius: f64,
    /// Radius of the 10 line. 8 in (NCA): 0.2032 m.
    pub ten_line_radius: f64,
    /// Radius of the 15 line, on which the pegs stand. 4 in (NCA): 0.1016 m.
    pub fifteen_line_radius: f64,
    /// Radius of the sunken 20 hole. 1 3/8 in diameter (NCA): 0.0174625 m.
    pub hole_radius: f64,
    /// Width of every drawn line. 1/16 in (board makers): 0.0015875 m.
    pub line_width: f64,
    /// Radius of a peg with its rubber sleeve. 3/8 in diameter (board makers): 0.0047625 m.
    pub peg_radius: f64,
    /// Peg centres. Default: eight on the 15 line at polar angles 22.5 deg + k 45 deg.
    pub pegs: Vec<DVec2>,
}

impl Default for Board {
    fn default() -> Self {
        Board::tournament()
    }
}

/// cos and sin of 22.5 degrees, written out so no trigonometry runs anywhere.
const COS_22_5: f64 = 0.923_879_532_511_286_7;
const SIN_22_5: f64 = 0.382_683_432_365_089_8;

// Written out so that `clone_from` reuses the peg list (a study copies its position's
// world for every sample: `World::copy_from`). Every other field is `Copy`: a new field
// that is not fails to compile here rather than being left out.
impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            pegs: self.pegs.clone(),
            ..*self
        }
    }

    fn clone_from(&mut self, source: &Board) {
        let mut pegs = std::mem::take(&mut self.pegs);
        pegs.clone_from(&source.pegs);
        *self = Board { pegs, ..*source };
    }
}

impl Board {
    /// The NCA tournament board (`docs/board.md`).
    pub fn tournament() -> Board {
        let r = 0.1016;
        let (c, s) = (r * COS_22_5, r * SIN_22_5);
        Board {
            surface_radius: 0.3302,
            shooting_line_radius: 0.3048,
            ten_line_radius: 0.2032,
            fifteen_line_radius: r,
            hole_radius: 0.017_462_5,
            line_width: 0.001_587_5,
            peg_radius: 0.004_762_5,
            // Polar angles 22.5, 67.5, ..., 337.5 degrees, counter-clockwise from +x.
            pegs: vec![
                DVec2::new(c, s),
                DVec2::new(s, c),
                DVec2::new(-s, c),
                DVec2::new(-c, s),
                DVec2::new(-c, -s),
                DVec2::new(-s, -c),
                DVec2::new(s, -c),
                DVec2::new(c, -s),
            ],
        }
    }

    /// Scoring zone of a disc of radius `disc_radius` resting with its centre at `pos`.
    /// A disc touching a line scores the lower value (line width included).
    pub fn zone(&self, pos: DVec2, disc_radius: f64) -> Zone {
        let outer = pos.length() + disc_radius;
        let half_w = 0.5 * self.line_width;
        if outer <= self.fifteen_line_radius - half_w {
            Zone::Fifteen
        } else if outer <= self.ten_line_radius - half_w {
            Zone::Ten
        } else if outer <= self.shooting_line_radius - half_w {
            Zone::Five
        } else {
            Zone::Out
        }
    }

    /// Radius of the support window of a disc of radius `disc_radius`,
    /// `sqrt(hole_radius^2 - disc_radius^2)` (7.27 mm for a tournament disc): a disc at
    /// rest with its centre closer than this to the hole's centre tips in; farther, it
    /// stays on the board even while overhanging the hole (a hanger). 0 if the disc is at
    /// least as wide as the hole. See docs/hole.md.
    pub fn support_window(&self, disc_radius: f64) -> f64 {
        support_window(self.hole_radius, disc_radius)
    }

    /// Whether a disc at `pos` touches the 15 line or lies inside it (the opening rule's
    /// test): `r - R <= fifteen_line_radius + w/2`.
    pub fn touches_fifteen_line(&self, pos: DVec2, disc_radius: f64) -> bool {
        pos.length() - disc_radius <= self.fifteen_line_radius + 0.5 * self.line_width
    }
}

/// The support window of a disc of radius `disc_radius` in a hole of radius
/// `hole_radius`: `sqrt(r_h^2 - R^2)`, or 0 if the disc is at least as wide as the hole.
pub fn support_window(hole_radius: f64, disc_radius: f64) -> f64 {
    let s = hole_radius * hole_radius - disc_radius * disc_radius;
    if s > 0.0 { s.sqrt() } else { 0.0 }
}

/// Where a disc at rest scores. A disc in the 20 hole is not on the board and has no zone;
/// the rules layer counts it as a 20.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Zone {
    /// Wholly inside the 15 line: 15 points.
    Fifteen,
    /// Wholly inside the 10 line, not in the 15 zone: 10 points.
    Ten,
    /// Wholly inside the shooting line, not in the 10 zone: 5 points.
    Five,
    /// Touching or beyond the shooting line: out of play.
    Out,
}

impl Zone {
    /// Points a disc resting in this zone scores.
    pub fn points(self) -> u32 {
        match self {
            Zone::Fifteen => 15,
            Zone::Ten => 10,
            Zone::Five => 5,
            Zone::Out => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pegs_sit_on_the_fifteen_line_77_8_mm_apart() {
        let b = Board::tournament();
        for p in &b.pegs {
            assert!((p.length() - b.fifteen_line_radius).abs() < 1e-15);
        }
        let gap = (b.pegs[5] - b.pegs[6]).length();
        assert!((gap - 0.0778).abs() < 5e-5, "gap {gap}");
    }

    #[test]
    fn a_disc_on_a_line_scores_the_lower_value() {
        let b = Board::tournament();
        let r = 0.015875;
        let w2 = 0.5 * b.line_width;
        let inside = b.fifteen_line_radius - w2 - r;
        assert_eq!(b.zone(DVec2::new(inside, 0.0), r), Zone::Fifteen);
        assert_eq!(b.zone(DVec2::new(inside + 1e-6, 0.0), r), Zone::Ten);
        let five = b.shooting_line_radius - w2 - r;
        assert_eq!(b.zone(DVec2::new(0.0, -five), r), Zone::Five);
        assert_eq!(b.zone(DVec2::new(0.0, -five - 1e-6), r), Zone::Out);
        assert!(b.touches_fifteen_line(DVec2::new(b.fifteen_line_radius + w2 + r, 0.0), r));
        assert!(!b.touches_fifteen_line(DVec2::new(b.fifteen_line_radius + w2 + r + 1e-6, 0.0), r));
    }
}
