//! Contacts that happen at the same instant, resolved together.
//!
//! Discs often rest touching each other, so one impact can meet several contacts at once: a
//! shot into the middle of a touching pair, a disc struck while pressed against a peg. Taken
//! one after another, such contacts give an answer that depends on which goes first, that is
//! on the order of the discs in the file. Here they form a **group**, solved as one system.
//!
//! **A round.** When the event search finds an impact, every contact in the world that is
//! touching (gap within `CONTACT_SKIN`) and approaching (faster than `APPROACH_EPS`) at that
//! instant is resolved in one round. The round splits into **groups**, the sets of contacts
//! linked through shared discs; groups share no disc, so they do not interact, and each is
//! solved as one system. Contacts touching but not approaching stay out: they are the next
//! round, found by the event search at the same instant once this round's impulses have
//! made them approach. That passes the velocity down a row of touching discs one disc at a
//! time, as Newton's cradle requires (a solve over every touching contact would move the
//! row as one rigid body). Taking every approaching contact at once, rather than the one
//! the search happened to name first, is what keeps the sequence of rounds the same
//! whatever the order of the discs.
//!
//! **The solve** (Moreau's compression-restitution scheme with Poisson's hypothesis; see
//! Moreau, "Unilateral contact and dry friction in finite freedom dynamics", 1988, and
//! Stewart, SIAM Review 42, 2000, for the impulse LCP). With `v0` the velocities before
//! and `M` the masses:
//!
//! ```text
//! 1. compression: v_c = argmin (v - v0)^T M (v - v0) / 2   subject to  v_n >= 0 at every
//!    contact of the group; its multipliers are the normal impulses lambda_c >= 0.
//! 2. restitution: each contact adds e lambda_c along its normal (Poisson), so the total
//!    normal impulse is J_n = (1 + e) lambda_c.
//! 3. friction: J_t = argmin KE(v + impulses) subject to |J_t| <= mu J_n at each contact,
//!    which sticks a contact (slip 0) when friction suffices and slides it at the bound
//!    otherwise.
//! ```
//!
//! - Order-free: `v_c` is the projection of `v0` onto a convex cone, unique whatever order
//!   the contacts are listed in, and step 3 is a strictly convex problem; both are solved by
//!   projected Gauss-Seidel sweeps iterated until no velocity changes by more than
//!   `SWEEP_TOL` in a sweep, so the order of the sweep matters only to that tolerance (and
//!   the sweep follows place order anyway, below).
//! - Energy: with one restitution `e` for the group, `v = v0 + (1 + e)(v_c - v0)` and, from
//!   the complementarity of step 1, `KE - KE0 = (e^2 - 1) |v_c - v0|_M^2 / 2 <= 0` (equality
//!   at `e = 1`); step 3 only removes energy. If the contacts' restitutions differ (a peg
//!   and a disc, or a slow pressed contact beside a fast one) and Poisson's rule would add
//!   energy, the group uses its smallest restitution instead.
//! - Momentum: every impulse acts equally and oppositely on two discs (or on a peg), along
//!   the normal and tangent at the contact point: linear momentum of disc pairs and each
//!   disc's angular momentum about its contact points are kept as for a single impact.
//! - One contact alone is exactly the two-body impulse of `response.rs`, bit for bit.
//!
//! **Closure.** In a dense cluster struck hard (dozens of discs packed touching), rounds go
//! on by the thousand within one step: each round's restitution makes neighbouring
//! contacts approach, waves cross and recross the cluster, discs part by a hair and meet
//! again microseconds later (the inelastic collapse of event-driven granular dynamics).
//! After `CLOSURE_ROUNDS` rounds of two or more contacts in one step, the step is
//! *closed* and treated as time-stepping contact dynamics treats dense packs (Moreau's
//! sweeping process; M. Jean, "The non-smooth contact dynamics method", Comput. Methods
//! Appl. Mech. Engrg. 177, 1999: plastic contacts solved together at velocity level):
//! - every further round is a closure: its contacts are found by walking, from the moving
//!   discs, every contact touching or able to close before the step ends (resting discs
//!   included), and solved as one system with restitution 0 (`close_group`);
//! - a contact still a gap `g` apart gets a speculative bound: its normal velocity may
//!   close the gap by the step's end (`v_n >= -g / rem`) but not sooner;
//! - normal and tangential impulses are found in the same projected Gauss-Seidel sweeps,
//!   so friction cannot leave a contact approaching again; the sweeps stop at
//!   `CONTACT_SKIN / dt`, the approach that sinks a contact by at most the skin by the end
//!   of the step;
//! - a pair touching or meeting slower than `press_speed` is a pressed contact for the
//!   rest of the step, not an event ([`World::approach_threshold`]); its overlap (a few
//!   micrometres at most) is pushed apart at the step's end. This ends the cascade of a
//!   disc stopping in the pack, its neighbours pressing into it, the closure pushing it
//!   off, and it stopping again;
//! - the step right after a closed step starts closed (its first round is a closure).
//!
//! The constraint set is convex and contains "all at rest", so its projection never raises
//! the kinetic energy; every impulse is internal, so momentum is kept. Ordinary shots never
//! reach 64 such rounds in a step; lone contacts (Galperin's billiard) do not count. (The
//! TC model of Luding & McNamara, Granular Matter 1, 1998, the usual cure in event-driven
//! codes, instead makes closely following collisions elastic; a plastic projection cannot
//! add energy.)

use crate::disc::{Disc, DiscId, DiscState};
use crate::step::event::EventKind;
use crate::step::response::{resolve_disc_disc, resolve_disc_peg};
use crate::step::state::{APPROACH_EPS, CONTACT_SKIN, Contact, GroupScratch, StepEvent};
use crate::world::World;
use glam::DVec2;

/// Sweeps stop when no contact's velocity changed by more than this in the last sweep,
/// m/s: well below `APPROACH_EPS`, so the event search sees a converged group as settled.
const SWEEP_TOL: f64 = 0.01 * APPROACH_EPS;

/// At most this many projected Gauss-Seidel sweeps per phase (a bound on the work of any
/// group, whatever the input; pairs and triples converge in a few dozen). A group cut
/// short leaves contacts approaching by a hair, which the next round takes up.
const MAX_SWEEPS: u32 = 500;

/// Rounds of two or more contacts in one step after which the step's further rounds are
/// closures (module doc, "Closure"). Far more than a row of touching discs on a board needs
/// (Newton's cradle of `n` discs takes `n - 1` rounds).
pub(crate) const CLOSURE_ROUNDS: u32 = 64;

impl World {
    /// Resolves the impact `first` (found by the event search at absolute time `now`; it was
    /// `touching` already if found at zero distance) in one round with every other contact
    /// touching and approaching at this instant (module doc); `rem` is what is left of the
    /// step.
    pub(crate) fn resolve_contacts(
        &mut self,
        first: StepEvent,
        touching: bool,
        now: f64,
        rem: f64,
    ) {
        let mut g = std::mem::take(&mut self.group);
        if g.round_step != self.steps {
            // A step right after a closed one starts closed: the pack is still pressed.
            let follows_closed = g.closed && g.round_step + 1 == self.steps;
            let rounds = if follows_closed { CLOSURE_ROUNDS } else { 0 };
            (g.round_step, g.rounds, g.closed) = (self.steps, rounds, false);
        }
        let closing = g.rounds >= CLOSURE_ROUNDS;
        if closing {
            g.closed = true;
            self.gather_cluster(first, rem, &mut g);
        } else {
            self.gather(first, &mut g);
        }
        // Only rounds of two or more contacts count towards the closure: a lone contact
        // at a time (Galperin's billiard, a disc rattling between two pegs) is exact and
        // cheap, and its events are bounded per step and per shot.
        if g.contacts.len() > 1 {
            g.rounds += 1;
        }
        self.split_into_groups(&mut g);
        g.before.clear();
        g.before.extend(
            g.discs
                .iter()
                .map(|&i| (self.discs[i].vel, self.discs[i].spin)),
        );
        let mut start = 0;
        for k in 0..g.ends.len() {
            let end = g.ends[k];
            if closing {
                self.close_group(&mut g.contacts[start..end]);
            } else if end - start == 1 {
                let c = &mut g.contacts[start];
                c.lam = self.resolve_single(c.ev);
            } else {
                self.solve_group(&mut g, start, end);
            }
            start = end;
        }
        // The log, in place order: impacts that pushed, except pressed contacts (slower
        // than `press_speed` between bodies that were already touching).
        let press = self.physics.press_speed();
        for k in 0..g.contacts.len() {
            let c = g.contacts[k];
            self.touching.push(c.ev);
            let fresh = c.ev == first && !touching;
            if c.lam > 0.0 && c.bias == 0.0 && (c.approach >= press || fresh) {
                let kind = match c.ev {
                    StepEvent::Disc(a, b) => EventKind::Disc { a, b },
                    StepEvent::Peg(a, peg) => EventKind::Peg { a, peg },
                    _ => unreachable!("contacts are impacts"),
                };
                self.log(now, kind);
            }
        }
        for (k, &i) in g.discs.iter().enumerate() {
            if (self.discs[i].vel, self.discs[i].spin) != g.before[k] {
                self.after_impact(i, rem);
            }
        }
        self.group = g;
    }

    /// One contact alone: the two-body impulse of `response.rs` (plastic below
    /// `press_speed`). Returns the normal impulse's size, N s.
    fn resolve_single(&mut self, ev: StepEvent) -> f64 {
        let p = &self.physics;
        let press = p.press_speed();
        let approach = match ev {
            StepEvent::Disc(i, j) => {
                let n = (self.discs[j].pos - self.discs[i].pos).normalize();
                let (lo, hi) = self.discs.split_at_mut(j);
                let (a, b) = (&mut lo[i], &mut hi[0]);
                let approach = -(b.vel - a.vel).dot(n);
                let e = if approach < press {
                    0.0
                } else {
                    p.disc_restitution
                };
                resolve_disc_disc(a, b, n, e, p.disc_friction)
            }
            StepEvent::Peg(i, k) => {
                let n = (self.board.pegs[k] - self.discs[i].pos).normalize();
                let a = &mut self.discs[i];
                let approach = a.vel.dot(n);
                let e = if approach < press {
                    0.0
                } else {
                    p.peg_restitution
                };
                resolve_disc_peg(a, n, e, p.peg_friction)
            }
            _ => unreachable!("resolve_single takes impacts only"),
        };
        approach.max(0.0)
    }

    /// Collects the round: every contact of a moving disc that is touching and approaching
    /// now, plus `first` (the search found it approaching). Contacts and discs end up in
    /// place order, which does not depend on disc ids.
    fn gather(&self, first: StepEvent, g: &mut GroupScratch) {
        g.contacts.clear();
        g.discs.clear();
        let skin = CONTACT_SKIN;
        for &i in &self.moving {
            let d = &self.discs[i];
            for (p, &c) in self.board.pegs.iter().enumerate() {
                if touching_and_approaching(d, c, self.board.peg_radius, DVec2::ZERO, skin) {
                    g.contacts.push(self.contact(StepEvent::Peg(i, p)));
                }
            }
            for (j, o) in self.discs.iter().enumerate() {
                let counted = o.state == DiscState::Moving && j <= i;
                if !counted
                    && o.on_board()
                    && touching_and_approaching(d, o.pos, o.radius, o.vel, skin)
                {
                    g.contacts
                        .push(self.contact(StepEvent::Disc(i.min(j), i.max(j))));
                }
            }
        }
        self.finish_round(first, g);
    }

    /// Completes a gathered round: adds `first` if the gather did not meet it, lists the
    /// discs that have a contact, and puts contacts and discs in place order (which does
    /// not depend on disc ids).
    fn finish_round(&self, first: StepEvent, g: &mut GroupScratch) {
        if !g.contacts.iter().any(|c| c.ev == first) {
            g.contacts.push(self.contact(first));
        }
        g.discs.clear();
        for c in &g.contacts {
            let (a, b) = c.ev.discs();
            g.discs.push(a);
            g.discs.extend(b);
        }
        g.discs.sort_unstable();
        g.discs.dedup();
        g.contacts
            .sort_by(|x, y| self.place_key(x.ev).cmp_key(self.place_key(y.ev)));
        g.discs
            .sort_by(|&x, &y| Key(self.discs[x].pos).cmp_key(Key(self.discs[y].pos)));
    }

    /// Collects the closure's round (module doc, "Closure"): from the moving discs, walking
    /// contacts that are touching or can close within the rest of the step (`rem`), every
    /// such contact among the discs reached (resting discs included), plus `first`. A
    /// contact with a gap gets the speculative `bias` `gap / rem`. Orders as
    /// [`World::gather`] does.
    fn gather_cluster(&self, first: StepEvent, rem: f64, g: &mut GroupScratch) {
        g.contacts.clear();
        g.discs.clear();
        g.reached.clear();
        g.reached.resize(self.discs.len(), false);
        // `g.discs` doubles as the walk's queue: discs are appended as they are reached,
        // and a disc's index in it below `next` means it has been walked from.
        for &i in &self.moving {
            g.reached[i] = true;
            g.discs.push(i);
        }
        let mut next = 0;
        while next < g.discs.len() {
            let i = g.discs[next];
            next += 1;
            let d = self.discs[i];
            let reach_i = d.vel.length() * rem;
            for (p, &c) in self.board.pegs.iter().enumerate() {
                if let Some(bias) = closing_bias(&d, c, self.board.peg_radius, reach_i, rem) {
                    let mut contact = self.contact(StepEvent::Peg(i, p));
                    contact.bias = bias;
                    g.contacts.push(contact);
                }
            }
            for j in 0..self.discs.len() {
                let o = &self.discs[j];
                if j == i || !o.on_board() {
                    continue;
                }
                let reach = reach_i + o.vel.length() * rem;
                let Some(bias) = closing_bias(&d, o.pos, o.radius, reach, rem) else {
                    continue;
                };
                // Each pair once: when walking from the first of the two to be walked from.
                let fresh = !g.reached[j];
                if fresh {
                    g.reached[j] = true;
                    g.discs.push(j);
                }
                if fresh || g.discs[next..].contains(&j) {
                    let mut contact = self.contact(StepEvent::Disc(i.min(j), i.max(j)));
                    contact.bias = bias;
                    g.contacts.push(contact);
                }
            }
        }
        self.finish_round(first, g);
    }

    /// Orders the round's contacts by group (groups in the place order of their first
    /// contact, contacts in place order within) and records where each group ends.
    fn split_into_groups(&self, g: &mut GroupScratch) {
        g.parent.clear();
        g.parent.extend(0..self.discs.len());
        for c in &g.contacts {
            if let (a, Some(b)) = c.ev.discs() {
                let (ra, rb) = (root(&mut g.parent, a), root(&mut g.parent, b));
                g.parent[ra.max(rb)] = ra.min(rb);
            }
        }
        // Rank each group by its first contact in place order; a stable sort keeps place
        // order within each group.
        let mut ranks: Vec<(DiscId, usize)> = Vec::new();
        for k in 0..g.contacts.len() {
            let r = root(&mut g.parent, g.contacts[k].ev.discs().0);
            let rank = match ranks.iter().position(|&(x, _)| x == r) {
                Some(at) => at,
                None => {
                    ranks.push((r, 0));
                    ranks.len() - 1
                }
            };
            g.contacts[k].group = rank;
            ranks[rank].1 += 1;
        }
        g.contacts.sort_by_key(|c| c.group);
        g.ends.clear();
        let mut end = 0;
        for &(_, count) in &ranks {
            end += count;
            g.ends.push(end);
        }
    }

    /// The contact `ev` as it stands now: its normal, approach speed and coefficients.
    fn contact(&self, ev: StepEvent) -> Contact {
        let p = &self.physics;
        let (n, approach, e, mu) = match ev {
            StepEvent::Disc(i, j) => {
                let (a, b) = (&self.discs[i], &self.discs[j]);
                let n = (b.pos - a.pos).normalize();
                let approach = -(b.vel - a.vel).dot(n);
                (n, approach, p.disc_restitution, p.disc_friction)
            }
            StepEvent::Peg(i, k) => {
                let a = &self.discs[i];
                let n = (self.board.pegs[k] - a.pos).normalize();
                (n, a.vel.dot(n), p.peg_restitution, p.peg_friction)
            }
            _ => unreachable!("contacts are impacts"),
        };
        let e = if approach < p.press_speed() { 0.0 } else { e };
        Contact {
            ev,
            n,
            approach,
            e,
            mu,
            lam: 0.0,
            jt: 0.0,
            group: 0,
            bias: 0.0,
        }
    }

    /// A group of two or more contacts (`g.contacts[start..end]`): compression, restitution
    /// and friction as in the module doc.
    fn solve_group(&mut self, g: &mut GroupScratch, start: usize, end: usize) {
        let contacts = &mut g.contacts[start..end];
        // The group's discs, in the round's place order, and their energy before.
        g.v_c.clear();
        let mut energy_before = 0.0;
        let in_group = |i: DiscId, cs: &[Contact]| {
            cs.iter().any(|c| {
                let (a, b) = c.ev.discs();
                a == i || b == Some(i)
            })
        };
        for (k, &i) in g.discs.iter().enumerate() {
            if in_group(i, contacts) {
                let (vel, spin) = g.before[k];
                energy_before += Disc {
                    vel,
                    spin,
                    ..self.discs[i]
                }
                .kinetic_energy();
            }
        }
        self.compress(contacts);
        let e_min = contacts.iter().map(|c| c.e).fold(f64::INFINITY, f64::min);
        let uniform = contacts.iter().all(|c| c.e == e_min);
        if !uniform {
            g.v_c.extend(g.discs.iter().map(|&i| self.discs[i].vel));
        }
        for c in contacts.iter() {
            self.push_normal(c, c.e * c.lam);
        }
        if !uniform {
            let energy: f64 = g
                .discs
                .iter()
                .filter(|&&i| in_group(i, contacts))
                .map(|&i| self.discs[i].kinetic_energy())
                .sum();
            if energy > energy_before * (1.0 + 1e-12) {
                // Poisson's rule with unequal restitutions would add energy: use the least.
                for (k, &i) in g.discs.iter().enumerate() {
                    self.discs[i].vel = g.v_c[k];
                }
                for c in contacts.iter_mut() {
                    c.e = e_min;
                    self.push_normal(c, c.e * c.lam);
                }
            }
        }
        self.rub(contacts);
    }

    /// A closure's group: restitution 0, and the normal and tangential impulses found in the
    /// same projected Gauss-Seidel sweeps (each contact's normal impulse, then its
    /// friction within `mu lam`), so that friction's turn cannot leave a contact
    /// approaching again after the sweeps settle: the closure ends the step's cascade.
    /// Energy: each normal update is a projection and each tangential one lowers the
    /// kinetic energy within its bound, so the energy only falls.
    fn close_group(&mut self, contacts: &mut [Contact]) {
        for c in contacts.iter_mut() {
            c.e = 0.0;
        }
        // A contact left approaching at `tol` sinks by at most the skin before the step
        // ends; the separation stage takes up the rest.
        let tol = SWEEP_TOL.max(CONTACT_SKIN / self.physics.dt);
        for _ in 0..MAX_SWEEPS {
            let mut change = 0.0f64;
            for c in contacts.iter_mut() {
                change = change.max(self.normal_step(c));
                change = change.max(self.tangential_step(c, c.mu * c.lam));
            }
            if change <= tol {
                return;
            }
        }
    }

    /// One projected Gauss-Seidel update of `c`'s normal impulse: the impulse that brings
    /// its normal velocity to `-bias` (0 for a touching contact), never pulling. Returns
    /// the change, in velocity units.
    fn normal_step(&mut self, c: &mut Contact) -> f64 {
        let (v_n, k) = self.normal_velocity(c);
        let lam = (c.lam - (v_n + c.bias) / k).max(0.0);
        let d = lam - c.lam;
        if d != 0.0 {
            self.push_normal(c, d);
            c.lam = lam;
        }
        d.abs() * k
    }

    /// One projected Gauss-Seidel update of `c`'s tangential impulse: the one that stops
    /// the slip, kept within `[-bound, bound]`. Returns the change, in velocity units.
    fn tangential_step(&mut self, c: &mut Contact, bound: f64) -> f64 {
        let (slip, k) = self.slip(c);
        let jt = (c.jt - slip / k).clamp(-bound, bound);
        let d = jt - c.jt;
        if d != 0.0 {
            self.push_tangential(c, d);
            c.jt = jt;
        }
        d.abs() * k
    }

    /// Phase 1: the normal impulses `lam >= 0` that leave no contact approaching, by
    /// projected Gauss-Seidel sweeps (each contact in turn takes the impulse that zeroes its
    /// normal velocity, never pulling) until they settle.
    fn compress(&mut self, contacts: &mut [Contact]) {
        for _ in 0..MAX_SWEEPS {
            let mut change = 0.0f64;
            for c in contacts.iter_mut() {
                change = change.max(self.normal_step(c));
            }
            if change <= SWEEP_TOL {
                return;
            }
        }
    }

    /// Phase 3: tangential impulses within the Coulomb bound `mu (1 + e) lam` that bring the
    /// slip at each contact as close to zero as the bound allows, by projected Gauss-Seidel.
    fn rub(&mut self, contacts: &mut [Contact]) {
        if contacts.iter().all(|c| c.mu == 0.0 || c.lam == 0.0) {
            return;
        }
        for _ in 0..MAX_SWEEPS {
            let mut change = 0.0f64;
            for c in contacts.iter_mut() {
                let bound = c.mu * (1.0 + c.e) * c.lam;
                if bound == 0.0 {
                    continue;
                }
                change = change.max(self.tangential_step(c, bound));
            }
            if change <= SWEEP_TOL {
                return;
            }
        }
    }

    /// Normal relative velocity `v_n` at a contact (negative approaching) and the inverse
    /// effective mass `1/m_a + 1/m_b` along the normal (`1/m_a` against a peg).
    fn normal_velocity(&self, c: &Contact) -> (f64, f64) {
        match c.ev {
            StepEvent::Disc(i, j) => {
                let (a, b) = (&self.discs[i], &self.discs[j]);
                ((b.vel - a.vel).dot(c.n), 1.0 / a.mass + 1.0 / b.mass)
            }
            StepEvent::Peg(i, _) => {
                let a = &self.discs[i];
                (-a.vel.dot(c.n), 1.0 / a.mass)
            }
            _ => unreachable!(),
        }
    }

    /// Slip at a contact, `(v_b - v_a).t - (w_a R_a + w_b R_b)` with `t = perp(n)`, and the
    /// inverse effective mass `k_t` along the tangent (`response.rs`).
    fn slip(&self, c: &Contact) -> (f64, f64) {
        let t = c.n.perp();
        match c.ev {
            StepEvent::Disc(i, j) => {
                let (a, b) = (&self.discs[i], &self.discs[j]);
                let slip = (b.vel - a.vel).dot(t) - (a.spin * a.radius + b.spin * b.radius);
                let k = 1.0 / a.mass
                    + 1.0 / b.mass
                    + a.radius * a.radius / a.inertia()
                    + b.radius * b.radius / b.inertia();
                (slip, k)
            }
            StepEvent::Peg(i, _) => {
                let a = &self.discs[i];
                let slip = -a.vel.dot(t) - a.spin * a.radius;
                (slip, 1.0 / a.mass + a.radius * a.radius / a.inertia())
            }
            _ => unreachable!(),
        }
    }

    /// Applies a normal impulse `j` at a contact: `a` is pushed back, `b` forward.
    fn push_normal(&mut self, c: &Contact, j: f64) {
        match c.ev {
            StepEvent::Disc(i, k) => {
                let (ma, mb) = (self.discs[i].mass, self.discs[k].mass);
                self.discs[i].vel -= c.n * (j / ma);
                self.discs[k].vel += c.n * (j / mb);
            }
            StepEvent::Peg(i, _) => {
                let ma = self.discs[i].mass;
                self.discs[i].vel -= c.n * (j / ma);
            }
            _ => unreachable!(),
        }
    }

    /// Applies a tangential impulse `j` at a contact (along `perp(n)` on `b`, opposite on
    /// `a`), with the torques it gives both discs.
    fn push_tangential(&mut self, c: &Contact, j: f64) {
        let t = c.n.perp();
        let turn = |d: &mut Disc, j: f64| d.spin -= j * d.radius / d.inertia();
        match c.ev {
            StepEvent::Disc(i, k) => {
                let ma = self.discs[i].mass;
                self.discs[i].vel -= t * (j / ma);
                turn(&mut self.discs[i], j);
                let mb = self.discs[k].mass;
                self.discs[k].vel += t * (j / mb);
                turn(&mut self.discs[k], j);
            }
            StepEvent::Peg(i, _) => {
                let ma = self.discs[i].mass;
                self.discs[i].vel -= t * (j / ma);
                turn(&mut self.discs[i], j);
            }
            _ => unreachable!(),
        }
    }
}

impl World {
    /// How fast a pair must approach, when it touches or meets, to be an impact:
    /// `APPROACH_EPS` (rounding), or `press_speed` once a closure has run in this step
    /// (module doc, "Closure"): slower, it is a pressed contact, left to the separation at
    /// the step's end.
    pub(crate) fn approach_threshold(&self) -> f64 {
        if self.group.round_step == self.steps && self.group.closed {
            self.physics.press_speed().max(APPROACH_EPS)
        } else {
            APPROACH_EPS
        }
    }

    /// Where contact `ev` is, as a key that does not depend on disc ids: the midpoint of the
    /// two centres (a sum, so the same bits whichever disc is named first).
    pub(crate) fn place_key(&self, ev: StepEvent) -> Key {
        let (a, b) = match ev {
            StepEvent::Disc(i, j) => (self.discs[i].pos, self.discs[j].pos),
            StepEvent::Peg(i, k) => (self.discs[i].pos, self.board.pegs[k]),
            _ => unreachable!("contacts are impacts"),
        };
        Key((a + b) * 0.5)
    }
}

/// A point ordered by `x`, then `y`: a total order on places, independent of disc ids.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key(pub DVec2);

impl Key {
    pub(crate) fn cmp_key(self, other: Key) -> std::cmp::Ordering {
        self.0
            .x
            .total_cmp(&other.0.x)
            .then(self.0.y.total_cmp(&other.0.y))
    }
}

/// Whether disc `d` and a circle (centre `c`, radius `r`, velocity `v`) touch within the
/// skin and approach faster than rounding: the same test the event search uses.
fn touching_and_approaching(d: &Disc, c: DVec2, r: f64, v: DVec2, skin: f64) -> bool {
    let p = c - d.pos;
    let reach = d.radius + r + skin;
    let dist2 = p.length_squared();
    if dist2 > reach * reach {
        return false;
    }
    let dist = dist2.sqrt();
    dist - d.radius - r <= skin && (v - d.vel).dot(p) < -APPROACH_EPS * dist
}

/// For disc `d` and a circle (centre `c`, radius `r`) whose gap can shrink by at most
/// `reach` in the rest of the step (`rem`): `Some(0)` if they touch within the skin,
/// `Some(gap / rem)` if the gap could close before the step ends, `None` otherwise.
fn closing_bias(d: &Disc, c: DVec2, r: f64, reach: f64, rem: f64) -> Option<f64> {
    let sigma = d.radius + r;
    let near = sigma + CONTACT_SKIN + reach;
    let dist2 = (c - d.pos).length_squared();
    if dist2 > near * near {
        return None;
    }
    let gap = dist2.sqrt() - sigma;
    if gap <= CONTACT_SKIN {
        Some(0.0)
    } else if rem > 0.0 {
        Some(gap / rem)
    } else {
        None
    }
}

/// The root of `i`'s set in a union-find forest (with path halving).
fn root(parent: &mut [DiscId], mut i: DiscId) -> DiscId {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}
