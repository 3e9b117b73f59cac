//! Ctrl-C, SIGTERM and SIGHUP during a long run (`montecarlo`, `play`, `suggest`,
//! `simulate`): [`StopSignals`] notes the first and cancels the run's
//! [`Cancel`](crokinole::cancel::Cancel), which the engine checks within every shot, so
//! the run stops within a fraction of a second and reports what finished; a second ends
//! the process at once.

use super::failure::Failure;
use crokinole::cancel::Cancel;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Ctrl-C (SIGINT), SIGTERM (a scheduler's time limit) and SIGHUP (a closed terminal)
/// while a long command runs: the first cancels [`StopSignals::cancel`], which the run
/// watches ([`Study::run_until`](crokinole::montecarlo::Study::run_until) between and
/// within samples, `play` between and within shots, the planner between candidates, a
/// batch between and within shots), so it stops within a fraction of a second, the samples
/// file ends on a whole line and what finished is reported; a second ends the process at
/// once, as it would have without this. `kill -9` cannot be caught: see
/// [`SampleLines`](crate::montecarlo::SampleLines).
pub struct StopSignals {
    /// The number of the first signal caught, 0 while none.
    caught: Arc<AtomicUsize>,
    /// Cancelled by the first signal.
    cancel: Cancel,
}

/// The signals [`StopSignals`] watches, with their names.
#[cfg(unix)]
const STOP_SIGNALS: [(i32, &str); 3] = [
    (signal_hook::consts::SIGINT, "SIGINT"),
    (signal_hook::consts::SIGTERM, "SIGTERM"),
    (signal_hook::consts::SIGHUP, "SIGHUP"),
];
#[cfg(not(unix))]
const STOP_SIGNALS: [(i32, &str); 2] = [
    (signal_hook::consts::SIGINT, "SIGINT"),
    (signal_hook::consts::SIGTERM, "SIGTERM"),
];

impl StopSignals {
    /// Installs the handlers (for the rest of the process).
    pub fn watch() -> Result<StopSignals, Failure> {
        let caught = Arc::new(AtomicUsize::new(0));
        let again = Arc::new(AtomicBool::new(false));
        for (signal, _) in STOP_SIGNALS {
            let usize_signal = usize::try_from(signal).unwrap_or(0);
            // The order matters: the default action is checked before the flag is set,
            // so it applies from the second signal on.
            signal_hook::flag::register_conditional_default(signal, Arc::clone(&again))
                .and_then(|_| signal_hook::flag::register(signal, Arc::clone(&again)))
                .and_then(|_| {
                    signal_hook::flag::register_usize(signal, Arc::clone(&caught), usize_signal)
                })
                .map_err(|e| Failure::Io(format!("cannot watch for Ctrl-C: {e}")))?;
        }
        Ok(StopSignals {
            caught,
            cancel: Cancel::on_flag(again),
        })
    }

    /// The request the first signal makes: hand it (or a clone) to the run.
    pub fn cancel(&self) -> &Cancel {
        &self.cancel
    }

    /// The failure of a run this stopped after `what` (`8192 of 100000 samples...`):
    /// `stopped: SIGINT after WHAT`, exit code 128 + the signal.
    pub fn stopped(&self, what: String) -> Failure {
        let (signal, name) = self.caught().unwrap_or((0, "a signal"));
        Failure::Stopped {
            signal,
            message: format!("{name} after {what}"),
        }
    }

    /// The signal caught, with its name, if any.
    pub fn caught(&self) -> Option<(i32, &'static str)> {
        let n = self.caught.load(Ordering::Relaxed);
        STOP_SIGNALS
            .into_iter()
            .find(|&(signal, _)| usize::try_from(signal) == Ok(n))
    }
}
