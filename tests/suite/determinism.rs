//! Determinism: the same bits whatever the path taken. `World::run` (which glides through
//! quiet steps) equals `World::step` called by hand; `run_batch` equals running shots one by
//! one, on pools of 1, 2 and 3 threads; repeated runs are identical.

use crate::fixture;

use crokinole::{Outcome, World, run_batch, run_shot};

/// Everything observable about a world, bit for bit.
fn state(w: &World) -> String {
    format!(
        "{:?} {:?} {} {}",
        w.discs(),
        w.events(),
        w.steps(),
        w.settle_time()
    )
}

/// `run` glides through runs of quiet steps; it must land on exactly the state that
/// stepping by hand reaches, on every fixture shot.
#[test]
fn run_is_bit_identical_to_stepping_by_hand() {
    for name in ["example.json", "opening.json", "crowded.json"] {
        let (b, p, shots) = fixture::shots(name);
        let max_steps = (p.max_time / p.dt).ceil() as u64;
        for (k, shot) in shots.iter().enumerate().step_by(3) {
            let mut ran = shot.world(&b, &p).unwrap();
            ran.run();
            let mut stepped = shot.world(&b, &p).unwrap();
            while !stepped.is_at_rest() && stepped.steps() < max_steps {
                stepped.step();
            }
            assert_eq!(state(&ran), state(&stepped), "{name} shot {k}");
        }
    }
}

/// `run_batch` on 1, 2 and 3 threads returns exactly the serial outcomes, in input order.
#[test]
fn batches_match_serial_runs_for_every_thread_count() {
    let (b, p, shots) = fixture::shots("crowded.json");
    let serial: Vec<Outcome> = shots.iter().map(|s| run_shot(&b, &p, s).unwrap()).collect();
    for threads in [1, 2, 3] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let batch: Vec<Outcome> = pool
            .install(|| run_batch(&b, &p, &shots))
            .into_iter()
            .map(Result::unwrap)
            .collect();
        // Debug formatting shows every bit that matters (it tells -0.0 from 0.0).
        assert_eq!(
            format!("{batch:?}"),
            format!("{serial:?}"),
            "{threads} threads differ from the serial run"
        );
    }
}
