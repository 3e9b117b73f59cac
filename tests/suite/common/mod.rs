//! Shared scene builders for the `physics_*` integration tests.
#![allow(dead_code)]

use crokinole::{Board, Disc, DiscState, Physics, World};
use glam::DVec2;

/// Tournament disc radius, m.
pub const R: f64 = 0.015_875;
/// Tournament disc mass, kg.
pub const M: f64 = 0.0055;

/// A board without pegs, with the playing surface `surface` m in radius and the lines
/// scaled to fit inside it; the 20 hole keeps its tournament size at the origin.
pub fn open_board(surface: f64) -> Board {
    Board {
        surface_radius: surface,
        shooting_line_radius: 0.9 * surface,
        ten_line_radius: 0.6 * surface,
        fifteen_line_radius: 0.3 * surface,
        pegs: vec![],
        ..Board::tournament()
    }
}

/// [`open_board`] with the given pegs.
pub fn board_with_pegs(surface: f64, pegs: Vec<DVec2>) -> Board {
    Board {
        pegs,
        ..open_board(surface)
    }
}

/// Default physics with the fixed step `dt`.
pub fn physics_dt(dt: f64) -> Physics {
    let p = Physics::default();
    Physics {
        dt,
        // Within the engine's bound of 1e7 steps a shot (crokinole::limits::MAX_STEPS).
        max_time: p.max_time.min(dt * 1e7),
        ..p
    }
}

/// No friction anywhere and perfectly elastic impacts.
pub fn ideal_physics() -> Physics {
    Physics {
        board_friction: 0.0,
        disc_friction: 0.0,
        peg_friction: 0.0,
        disc_restitution: 1.0,
        peg_restitution: 1.0,
        ..Physics::default()
    }
}

/// A tournament disc of team 0 at `pos`, flicked with `vel` and `spin`.
pub fn disc(pos: DVec2, vel: DVec2, spin: f64) -> Disc {
    Disc::at_rest(0, pos, R, M).flicked(vel, spin)
}

/// A tournament disc of team 0 resting at `pos`.
pub fn resting(pos: DVec2) -> Disc {
    Disc::at_rest(0, pos, R, M)
}

/// A world holding `discs` (in id order); panics if the engine refuses any input.
pub fn world(board: Board, physics: Physics, discs: &[Disc]) -> World {
    let mut w = World::new(board, physics).expect("valid board and physics");
    for d in discs {
        w.add_disc(*d).expect("valid disc");
    }
    w
}

/// Deepest overlap between any two discs on the board, or a disc and a peg, m
/// (negative when nothing touches).
pub fn max_overlap(w: &World) -> f64 {
    let mut worst = f64::NEG_INFINITY;
    let discs = w.discs();
    let board = w.board();
    for (i, a) in discs.iter().enumerate() {
        if !a.on_board() {
            continue;
        }
        for c in &board.pegs {
            worst = worst.max(a.radius + board.peg_radius - (a.pos - *c).length());
        }
        for b in &discs[i + 1..] {
            if b.on_board() {
                worst = worst.max(a.radius + b.radius - (a.pos - b.pos).length());
            }
        }
    }
    worst
}

/// Steps `w` until everything rests or `max_steps` steps were taken; returns the deepest
/// overlap seen at any step end.
pub fn run_watching_overlap(w: &mut World, max_steps: u64) -> f64 {
    let mut worst = max_overlap(w);
    let mut n = 0;
    while !w.is_at_rest() && n < max_steps {
        w.step();
        worst = worst.max(max_overlap(w));
        n += 1;
    }
    worst
}

/// Whether every disc is at rest, in the hole or in the ditch.
pub fn all_settled(w: &World) -> bool {
    w.discs().iter().all(|d| d.state != DiscState::Moving)
}

/// A small deterministic linear congruential generator (Knuth's MMIX constants).
pub struct Lcg(pub u64);

impl Lcg {
    /// Next value, uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Next value, uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }

    /// A unit vector with a uniformly drawn direction (no trigonometry: rejection).
    pub fn unit(&mut self) -> DVec2 {
        loop {
            let v = DVec2::new(self.range(-1.0, 1.0), self.range(-1.0, 1.0));
            let l = v.length();
            if l > 0.1 && l <= 1.0 {
                return v / l;
            }
        }
    }
}
