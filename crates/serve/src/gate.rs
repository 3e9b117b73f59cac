//! The gate of the heavy endpoints (simulate, shot, montecarlo, suggest, game, the match
//! endpoints): at most a configured number run at once, the others wait for a place
//! within their request's time budget ([`Gate::enter_until`]).

use crokinole_core::cancel::Cancel;
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// The places of heavy requests: at most `max` run at once; a [`Slot`] holds one and
/// gives it back when dropped.
#[derive(Debug, Default)]
pub struct Gate {
    busy: Mutex<usize>,
    freed: Condvar,
    max: usize,
}

/// One heavy request's place at the [`Gate`].
pub struct Slot<'a>(&'a Gate);

impl Gate {
    /// A gate letting `max` heavy requests through at once.
    pub fn new(max: usize) -> Gate {
        Gate {
            busy: Mutex::new(0),
            freed: Condvar::new(),
            max: max.max(1),
        }
    }

    /// A place, if fewer than `max` are taken.
    pub fn enter(&self) -> Option<Slot<'_>> {
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        (*busy < self.max).then(|| {
            *busy += 1;
            Slot(self)
        })
    }

    /// A place, waiting for one until `cancel` is cancelled (then `None`).
    pub fn enter_until(&self, cancel: &Cancel) -> Option<Slot<'_>> {
        let mut busy = self.busy.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if *busy < self.max {
                *busy += 1;
                return Some(Slot(self));
            }
            if cancel.is_cancelled() {
                return None;
            }
            busy = self
                .freed
                .wait_timeout(busy, Duration::from_millis(20))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let mut busy = self.0.busy.lock().unwrap_or_else(|e| e.into_inner());
        *busy -= 1;
        self.0.freed.notify_one();
    }
}
