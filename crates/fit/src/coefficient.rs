//! The coefficients `crokinole fit` can fit, by the names of their `physics` keys, with
//! the range each may take (the ranges the shot file accepts) and the contacts that inform
//! them.

use crokinole_core::params::Physics;
use crokinole_core::validate::MAX_FRICTION;

/// A fittable coefficient of [`Physics`], named as its key in the `physics` block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Coefficient {
    /// `board_friction`: the sliding Coulomb coefficient disc-on-board.
    BoardFriction,
    /// `disc_restitution`: restitution of a disc-disc impact.
    DiscRestitution,
    /// `disc_friction`: Coulomb coefficient at a disc-disc contact.
    DiscFriction,
    /// `peg_restitution`: restitution of a disc-peg impact.
    PegRestitution,
    /// `peg_friction`: Coulomb coefficient at a disc-peg contact.
    PegFriction,
}

impl Coefficient {
    /// Every coefficient, in the order reports list them.
    pub const ALL: [Coefficient; 5] = [
        Coefficient::BoardFriction,
        Coefficient::DiscRestitution,
        Coefficient::DiscFriction,
        Coefficient::PegRestitution,
        Coefficient::PegFriction,
    ];

    /// Its key in the `physics` block.
    pub fn name(self) -> &'static str {
        match self {
            Coefficient::BoardFriction => "board_friction",
            Coefficient::DiscRestitution => "disc_restitution",
            Coefficient::DiscFriction => "disc_friction",
            Coefficient::PegRestitution => "peg_restitution",
            Coefficient::PegFriction => "peg_friction",
        }
    }

    /// Its value in `physics`.
    pub fn get(self, physics: &Physics) -> f64 {
        match self {
            Coefficient::BoardFriction => physics.board_friction,
            Coefficient::DiscRestitution => physics.disc_restitution,
            Coefficient::DiscFriction => physics.disc_friction,
            Coefficient::PegRestitution => physics.peg_restitution,
            Coefficient::PegFriction => physics.peg_friction,
        }
    }

    /// Sets its value in `physics`.
    pub fn set(self, physics: &mut Physics, value: f64) {
        match self {
            Coefficient::BoardFriction => physics.board_friction = value,
            Coefficient::DiscRestitution => physics.disc_restitution = value,
            Coefficient::DiscFriction => physics.disc_friction = value,
            Coefficient::PegRestitution => physics.peg_restitution = value,
            Coefficient::PegFriction => physics.peg_friction = value,
        }
    }

    /// The values it may take: `[0, 1]` for a restitution, `[0, 10]` for a friction
    /// coefficient (as `validate::check_physics` accepts).
    pub fn bounds(self) -> (f64, f64) {
        match self {
            Coefficient::DiscRestitution | Coefficient::PegRestitution => (0.0, 1.0),
            _ => (0.0, MAX_FRICTION),
        }
    }

    /// The kind of contact whose shots inform it: `None` for the board's friction (every
    /// moving disc), `Some(false)` for disc-disc, `Some(true)` for disc-peg.
    pub fn needs_peg_contact(self) -> Option<bool> {
        match self {
            Coefficient::BoardFriction => None,
            Coefficient::DiscRestitution | Coefficient::DiscFriction => Some(false),
            Coefficient::PegRestitution | Coefficient::PegFriction => Some(true),
        }
    }

    /// Whether it is a friction coefficient (else a restitution).
    pub fn is_friction(self) -> bool {
        matches!(
            self,
            Coefficient::BoardFriction | Coefficient::DiscFriction | Coefficient::PegFriction
        )
    }

    /// Every name, comma separated, for messages.
    pub fn names() -> String {
        Coefficient::ALL.map(Coefficient::name).join(", ")
    }
}

impl std::str::FromStr for Coefficient {
    type Err = String;

    fn from_str(s: &str) -> Result<Coefficient, String> {
        Coefficient::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown coefficient `{s}`: fittable are {} (the hole's critical speeds \
                     follow from its geometry and take no coefficient)",
                    Coefficient::names()
                )
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_set_what_they_get() {
        let mut p = Physics::default();
        for (k, c) in Coefficient::ALL.into_iter().enumerate() {
            assert_eq!(c.name().parse::<Coefficient>(), Ok(c));
            c.set(&mut p, 0.01 * (k + 1) as f64);
            assert_eq!(c.get(&p), 0.01 * (k + 1) as f64);
        }
        assert!(
            "hole"
                .parse::<Coefficient>()
                .unwrap_err()
                .contains("board_friction")
        );
    }
}
