//! A request to stop long work early, shared between whoever may ask and the work that
//! answers it at its checkpoints.
//!
//! Who asks: the command line's signal handlers (Ctrl-C, SIGTERM, SIGHUP), the web
//! server (a client that went away, a request's time budget spent), Python
//! (`KeyboardInterrupt`). Who answers: long work, which calls [`Cancel::is_cancelled`]
//! between pieces small enough that a request is seen within a fraction of a second, and
//! then ends keeping what finished (a study summarises its finished samples, a batch its
//! finished shots, the planner returns its best so far, marked as stopped).
//!
//! A checkpoint only reads an atomic flag (and the clock when a deadline is set); nothing
//! about it enters the numbers, so work that is not cancelled gives the same bits with or
//! without a [`Cancel`] to watch.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A handle on one request to stop: cheap to clone (clones share the request) and to
/// check. [`Cancel::never`] is the handle of work nobody can stop.
#[derive(Clone, Debug, Default)]
pub struct Cancel {
    /// `None` for [`Cancel::never`].
    inner: Option<Arc<Inner>>,
}

#[derive(Debug)]
struct Inner {
    /// Set by [`Cancel::cancel`] (or by whoever shares the flag, such as a signal handler).
    flag: Arc<AtomicBool>,
    /// When the work's time budget ends, if it has one.
    deadline: Option<Instant>,
    /// The request this one is part of ([`Cancel::child`]): cancelled with it.
    parent: Option<Cancel>,
}

/// Why work was stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CancelReason {
    /// [`Cancel::cancel`] was called, or the shared flag set (a signal, a client gone).
    Requested,
    /// The time budget of [`Cancel::with_budget`] ran out.
    Deadline,
}

impl Cancel {
    /// A handle that is never cancelled (no allocation; checking it is one branch).
    pub fn never() -> Cancel {
        Cancel { inner: None }
    }

    /// A new request, not yet made: [`Cancel::cancel`] on this or a clone makes it.
    pub fn new() -> Cancel {
        Cancel::on_flag(Arc::new(AtomicBool::new(false)))
    }

    /// A request made by setting `flag` (to `true`), for example from a signal handler
    /// (`signal_hook::flag::register`).
    pub fn on_flag(flag: Arc<AtomicBool>) -> Cancel {
        Cancel {
            inner: Some(Arc::new(Inner {
                flag,
                deadline: None,
                parent: None,
            })),
        }
    }

    /// This request, made also once `budget` has passed from now. A handle that already
    /// has a deadline keeps the earlier of the two.
    pub fn with_budget(&self, budget: Duration) -> Cancel {
        let now = Instant::now();
        let end = now.checked_add(budget);
        let (flag, old, parent) = match &self.inner {
            Some(inner) => (
                Arc::clone(&inner.flag),
                inner.deadline,
                inner.parent.clone(),
            ),
            None => (Arc::new(AtomicBool::new(false)), None, None),
        };
        let deadline = match (old, end) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Cancel {
            inner: Some(Arc::new(Inner {
                flag,
                deadline,
                parent,
            })),
        }
    }

    /// A part of this request that can be stopped on its own: cancelled whenever this one
    /// is (with its reason), and by its own [`Cancel::cancel`], which leaves this one as it
    /// is (the page's watched match stops after the shots it asked for, its request goes
    /// on).
    pub fn child(&self) -> Cancel {
        Cancel {
            inner: Some(Arc::new(Inner {
                flag: Arc::new(AtomicBool::new(false)),
                deadline: None,
                parent: Some(self.clone()),
            })),
        }
    }

    /// Makes the request: every clone (and every handle made from this one) is cancelled
    /// from now on. Does nothing on [`Cancel::never`].
    pub fn cancel(&self) {
        if let Some(inner) = &self.inner {
            inner.flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the work should stop now, and why: `None` while it may go on.
    pub fn reason(&self) -> Option<CancelReason> {
        let inner = self.inner.as_ref()?;
        if inner.flag.load(Ordering::Relaxed) {
            return Some(CancelReason::Requested);
        }
        match inner.deadline {
            Some(d) if Instant::now() >= d => Some(CancelReason::Deadline),
            _ => inner.parent.as_ref().and_then(Cancel::reason),
        }
    }

    /// Whether the work should stop now.
    pub fn is_cancelled(&self) -> bool {
        self.reason().is_some()
    }

    /// `Err(Cancelled)` once the work should stop: a checkpoint written with `?`.
    pub fn check(&self) -> Result<(), Cancelled> {
        match self.reason() {
            None => Ok(()),
            Some(reason) => Err(Cancelled(reason)),
        }
    }
}

/// The error of work that a [`Cancel`] stopped before its end: nothing it had under way is
/// reported as finished (a shot stopped mid-way has no outcome). Says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cancelled(pub CancelReason);

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            CancelReason::Requested => f.write_str("stopped on request"),
            CancelReason::Deadline => f.write_str("stopped: the time budget ran out"),
        }
    }
}

impl std::error::Error for Cancelled {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_stops_with_its_parent_but_not_the_other_way() {
        let parent = Cancel::new();
        let child = parent.child();
        child.cancel();
        assert_eq!(child.reason(), Some(CancelReason::Requested));
        assert!(!parent.is_cancelled());
        let other = parent.child();
        let spent = Cancel::new().with_budget(Duration::ZERO).child();
        assert_eq!(spent.reason(), Some(CancelReason::Deadline));
        parent.cancel();
        assert!(other.is_cancelled());
    }

    #[test]
    fn never_is_never_cancelled() {
        let c = Cancel::never();
        c.cancel();
        assert_eq!(c.reason(), None);
    }

    #[test]
    fn a_clone_sees_the_request() {
        let c = Cancel::new();
        let d = c.clone();
        assert!(!d.is_cancelled());
        c.cancel();
        assert_eq!(d.reason(), Some(CancelReason::Requested));
    }

    #[test]
    fn a_shared_flag_makes_the_request() {
        let flag = Arc::new(AtomicBool::new(false));
        let c = Cancel::on_flag(Arc::clone(&flag));
        assert!(!c.is_cancelled());
        flag.store(true, Ordering::Relaxed);
        assert!(c.is_cancelled());
    }

    #[test]
    fn a_budget_ends_and_keeps_the_earlier_deadline() {
        let c = Cancel::new().with_budget(Duration::ZERO);
        assert_eq!(c.reason(), Some(CancelReason::Deadline));
        // A later budget does not lift an earlier deadline.
        assert_eq!(
            c.with_budget(Duration::from_secs(3600)).reason(),
            Some(CancelReason::Deadline)
        );
        let long = Cancel::never().with_budget(Duration::from_secs(3600));
        assert!(!long.is_cancelled());
        // The budgeted handle still shares the request of the one it came from.
        let base = Cancel::new();
        let budgeted = base.with_budget(Duration::from_secs(3600));
        base.cancel();
        assert_eq!(budgeted.reason(), Some(CancelReason::Requested));
    }
}
