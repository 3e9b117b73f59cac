//! Stage 5 of the step: pressed contacts. Discs that push each other (or a disc pressed
//! against a peg) can sink into each other within a step by rounding; the pairs the event
//! search saw touching are pushed apart along their line of centres before the step ends,
//! so no state between steps has bodies sunk into each other (ARCHITECTURE.md, "Pressed
//! contacts"). Deterministic whatever the discs' order: every push of a pass is computed
//! from one set of positions, and the pushes are applied in an order set by the pairs'
//! places.

use crate::disc::{DiscId, DiscState};
use crate::step::state::{CONTACT_SKIN, StepEvent};
use crate::world::World;
use glam::DVec2;

/// Most passes of the pressed-contact separation in one step (each pass computes every push
/// from one set of positions; a row pressed from both ends needs several).
const SEPARATION_PASSES: u32 = 64;

impl World {
    /// A capped step advanced without looking for contacts: every moving disc becomes a
    /// pressed-contact candidate against every peg and disc.
    pub(super) fn touch_everything(&mut self) {
        for k in 0..self.moving.len() {
            let i = self.moving[k];
            for p in 0..self.board.pegs.len() {
                self.touching.push(StepEvent::Peg(i, p));
            }
            for j in 0..self.discs.len() {
                if j != i && self.discs[j].on_board() {
                    self.touching.push(StepEvent::Disc(i.min(j), i.max(j)));
                }
            }
        }
    }

    /// Stage 5: pushes apart overlaps deeper than the skin that pressing left behind.
    /// Bodies can only sink into each other while touching, so only the pairs the event
    /// search saw touching during the step (`self.touching`) are looked at. In each pass
    /// every push is computed from the positions before any is applied, and the pushes are
    /// added in an order set by where the pairs are, not by disc ids: the result is the
    /// same whatever order the discs were given in. A disc pressed from two sides is pushed
    /// back into one of them, so passes repeat until none pushes (at most
    /// `SEPARATION_PASSES`).
    pub(super) fn separate_pressed(&mut self) {
        if self.touching.is_empty() {
            return;
        }
        let mut pairs = std::mem::take(&mut self.touching);
        pairs.sort_unstable();
        pairs.dedup();
        pairs.sort_by(|&x, &y| self.place_key(x).cmp_key(self.place_key(y)));
        let mut pushes = std::mem::take(&mut self.pushes);
        for _ in 0..SEPARATION_PASSES {
            for &ev in &pairs {
                match ev {
                    StepEvent::Peg(i, p) => {
                        let sigma = self.discs[i].radius + self.board.peg_radius;
                        if self.discs[i].on_board()
                            && let Some(d) = push_out(self.discs[i].pos, self.board.pegs[p], sigma)
                        {
                            pushes.push((i, d));
                        }
                    }
                    StepEvent::Disc(i, j) => self.separate_discs(i, j, &mut pushes),
                    _ => {}
                }
            }
            if pushes.is_empty() {
                break;
            }
            for &(i, d) in &pushes {
                self.discs[i].pos += d;
                self.motion[i].clearance = f64::NEG_INFINITY;
            }
            pushes.clear();
        }
        self.pushes = pushes;
        pairs.clear();
        self.touching = pairs;
    }

    /// The pushes that part discs `i` and `j` along their line of centres if they overlap by
    /// more than the skin. If only one of them is moving, it alone moves; otherwise the
    /// shares are mass-weighted so their centre of mass stays put.
    fn separate_discs(&self, i: DiscId, j: DiscId, pushes: &mut Vec<(DiscId, DVec2)>) {
        let (a, b) = (self.discs[i], self.discs[j]);
        if !a.on_board() || !b.on_board() {
            return;
        }
        let p = b.pos - a.pos;
        let dist = p.length();
        let depth = a.radius + b.radius - dist;
        if depth <= CONTACT_SKIN || dist == 0.0 {
            return;
        }
        let n = p / dist;
        let (am, bm) = (a.state == DiscState::Moving, b.state == DiscState::Moving);
        let share = match (am, bm) {
            (true, false) => 1.0,
            (false, true) => 0.0,
            _ => b.mass / (a.mass + b.mass),
        };
        pushes.push((i, -(n * (depth * share))));
        pushes.push((j, n * (depth * (1.0 - share))));
    }
}

/// The push that moves a point at `pos` out of a circle (`c`, `sigma`) it overlaps by more
/// than the skin, if it does.
fn push_out(pos: DVec2, c: DVec2, sigma: f64) -> Option<DVec2> {
    let off = pos - c;
    let dist = off.length();
    if sigma - dist > CONTACT_SKIN && dist > 0.0 {
        Some(off * ((sigma - dist) / dist))
    } else {
        None
    }
}
