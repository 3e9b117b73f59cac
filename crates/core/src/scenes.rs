//! Named scenes shared by the tests, the benchmarks and the examples, so that the scene a
//! figure is measured on is the scene a property is tested on.

use crate::board::Board;
use crate::params::Physics;
use crate::shot::{Flick, Placed, Shot};
use glam::DVec2;

/// A dense cluster: `n` touching discs of team 1 packed in a hexagonal pattern (rings
/// around a centre disc, each ring filled in order until `n` are placed), struck along +y
/// from below at `speed` m/s by a shooter aimed at the centre disc, on a board with no
/// pegs and a surface of 1 m radius, the cluster's centre at (0, 0.45) (clear of the
/// hole). Neighbours touch exactly (centres `2R` apart, to rounding), the hardest case
/// for simultaneous contacts.
pub fn hex_cluster(n: usize, speed: f64) -> (Board, Physics, Shot) {
    let physics = Physics::default();
    let board = Board {
        surface_radius: 1.0,
        shooting_line_radius: 0.95,
        pegs: vec![],
        ..Board::tournament()
    };
    let r = physics.disc_radius;
    let centre = DVec2::new(0.0, 0.45);
    // Hex lattice vectors e1, e2 (60 degrees apart, length 2R) and the six sides of a ring.
    let d = 2.0 * r;
    let (e1, e2) = (DVec2::new(d, 0.0), DVec2::new(0.5 * d, 0.75f64.sqrt() * d));
    let dirs = [e2 - e1, -e1, -e2, e1 - e2, e1, e2];
    let mut discs = vec![Placed {
        team: 1,
        pos: centre,
    }];
    let mut ring = 1;
    while discs.len() < n {
        // A ring of radius k walks from corner k e1 to k e2, k (e2 - e1), -k e1, -k e2,
        // k (e1 - e2) and back, k steps along each side.
        let mut p = centre + e1 * f64::from(ring);
        for dir in dirs {
            for _ in 0..ring {
                if discs.len() < n {
                    discs.push(Placed { team: 1, pos: p });
                }
                p += dir;
            }
        }
        ring += 1;
    }
    // The shooter, 5 cm below the lowest disc, aimed at the centre.
    let lowest = discs.iter().map(|p| p.pos.y).fold(f64::INFINITY, f64::min);
    let shot = Shot {
        discs,
        shooter: Flick {
            team: 0,
            pos: DVec2::new(centre.x, lowest - 2.0 * r - 0.05),
            vel: DVec2::new(0.0, speed),
            spin: 0.0,
        },
    };
    (board, physics, shot)
}
