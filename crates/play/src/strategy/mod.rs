//! Strategies: how a player picks the flick it means to play.
//!
//! A strategy is a plain value implementing [`Strategy`]: given the [`Turn`] (the game, the
//! board, the physics, the seat to play and a seed) it returns a [`Decision`], an intended
//! [`PlayerFlick`](crokinole_montecarlo::PlayerFlick) that is legal where it stands (placement checked by
//! [`check_placement`](crokinole_rules::check_placement), no overlap with a disc, speed
//! within `max_speed`). Four are built in ([`AnyStrategy`] parses them from `random`,
//! `greedy:k=16`, `montecarlo:k=8:m=8`, `planner:budget=2000`):
//!
//! - [`RandomFlick`]: one random legal flick: a random place on the shooting line, aimed at
//!   a random point inside the 10 line, at a random speed around the speed that stops
//!   there. It knows nothing of the rules.
//! - [`Greedy`]: `k` candidate flicks ([`candidate`]), all run through the batch API
//!   ([`crokinole_core::batch::run_batch`]) and judged by [`apply_rules`](crokinole_rules::apply_rules); it keeps the one with the
//!   best immediate change in score difference ([`Turn::change`]). It plays as if it had
//!   no error.
//! - [`MonteCarlo`]: the same `k` candidates, each judged by the mean change over `m`
//!   noisy executions under its noise model ([`Noise`](crokinole_montecarlo::Noise), drawn by
//!   [`FlickSampler::sample`](crokinole_montecarlo::FlickSampler::sample) from the per-sample streams of [`crokinole_montecarlo::noise`]);
//!   all `k m` shots go through the batch API at once.
//! - [`Planner`]: the shot planner of [`crokinole_plan`] (coarse sweep, refinement, final
//!   evaluation under the noise model, common random numbers) with a sample budget per
//!   decision.
//!
//! Determinism: every random number comes from a counter-based stream ([`Stream`],
//! ChaCha8 keyed by the turn's seed, numbered by the candidate) or from the Monte Carlo
//! module's [`crokinole_montecarlo::noise::Draws`], so a decision depends on the turn and its
//! seed only. Batches come back in input order; values are integers (multiples of 5)
//! folded serially; ties go to the lowest candidate index. Nothing depends on the thread
//! count.
//!
//! **Candidates.** Candidate `c` of a turn reads [`Stream`]`(seed, c)`. With an opponent
//! disc on the board, candidates with `c % 4 != 3` are takeouts: a random opponent disc,
//! hit up to `0.8 R` off centre, at a speed that would carry the disc 1.5 to 6 times the
//! distance (at most [`TAKEOUT_SPEED_CAP`]); the others are draws into the 15 zone.
//! Without one, `c % 3 == 0` aims at the 20 hole (1.00-1.12 times the speed that stops at
//! its centre) and the others draw to a random point of the 15 zone (0.95-1.05 times the
//! stopping speed). The place on the shooting line is uniform over 90 % of the quadrant's
//! half width on each side; the spin is uniform in `[-spin, spin]` (0 by default). A
//! proposal that is not legal is drawn again, up to [`TRIES`] times; a candidate with no
//! legal proposal is left out. The stopping speed over a distance `d` is
//! `sqrt(2 mu g d)` (the sliding deceleration of a disc without spin).
//!
//! Files: [`turn`] ([`Turn`], [`Decision`], the [`Strategy`] trait), [`candidates`]
//! ([`Stream`], [`candidate`]), one file per strategy ([`random`], [`greedy`],
//! [`montecarlo`], [`planner`]) and [`parse`] ([`AnyStrategy`]).

pub mod candidates;
pub mod greedy;
pub mod montecarlo;
pub mod parse;
pub mod planner;
pub mod random;
pub mod turn;

pub use candidates::{KEY_TAG, MIN_SPEED, Stream, TAKEOUT_SPEED_CAP, TRIES, candidate};
pub use greedy::{GREEDY_K, Greedy};
pub use montecarlo::{MAX_MONTECARLO_SAMPLES, MONTECARLO_K, MONTECARLO_M, MonteCarlo};
pub use parse::AnyStrategy;
pub use planner::{MAX_PLANNER_BUDGET, PLANNER_BUDGET, Planner};
pub use random::RandomFlick;
pub use turn::{Decision, MAX_CANDIDATES, NoLegalFlick, Strategy, Turn};

#[cfg(test)]
mod tests {
    use super::turn::best;
    use super::*;

    #[test]
    fn streams_depend_on_seed_and_number_only() {
        let draw = |seed, n| {
            let mut s = Stream::new(seed, n);
            (s.uniform(), s.uniform())
        };
        assert_eq!(draw(3, 7), draw(3, 7));
        assert_ne!(draw(3, 7), draw(3, 8));
        assert_ne!(draw(3, 7), draw(4, 7));
        let mut s = Stream::new(1, 1);
        for _ in 0..1000 {
            assert!(s.below(3) < 3);
            assert!(s.in_disc(0.1).length() <= 0.1);
        }
    }

    #[test]
    fn strategies_parse_with_defaults_and_refuse_bad_keys() {
        assert_eq!(
            "greedy".parse::<AnyStrategy>(),
            Ok(AnyStrategy::Greedy(Greedy::default()))
        );
        let mc: AnyStrategy = "mc:m=3:k=2:spin=1.5".parse().unwrap();
        assert_eq!(mc.name(), "montecarlo:k=2:m=3:spin=1.5");
        assert_eq!(mc.name().parse::<AnyStrategy>(), Ok(mc));
        assert_eq!(
            "random".parse::<AnyStrategy>().unwrap().name(),
            "random:spin=0"
        );
        let p: AnyStrategy = "planner:budget=3000".parse().unwrap();
        assert_eq!(p.name(), "planner:budget=3000:spin=0");
        assert_eq!(p.name().parse::<AnyStrategy>(), Ok(p));
        for bad in [
            "greedy:k=0",
            "greedy:m=3",
            "nope",
            "random:spin=-1",
            "greedy:k",
            "planner:budget=10",
            "planner:k=3",
        ] {
            assert!(bad.parse::<AnyStrategy>().is_err(), "{bad}");
        }
    }

    #[test]
    fn ties_go_to_the_lowest_index() {
        assert_eq!(best(&[None, Some(5), Some(10), Some(10)]), Some(2));
        assert_eq!(best(&[None, None]), None);
        assert_eq!(
            crokinole_rules::score_difference(1, [10, 15], [1, 0]),
            15 - 30
        );
    }
}
