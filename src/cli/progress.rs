//! The progress of a long command (`montecarlo`, `play`, `suggest`) on standard error, and
//! the words its summary lines use: [`human_duration`] (`1.2 s`), [`count_of`] (`3 games`).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::fmt;
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Progress of a long command (`montecarlo`, `play`, `suggest`) on standard error, drawn
/// only when standard error is a terminal (logs and pipes stay clean; standard output is
/// never touched): a bar with the count, the elapsed time, the rate and, once some work is
/// done, the time left; or, when the amount of work is not known ahead, a spinner with the
/// elapsed time. [`Progress::finish`] clears it and leaves one summary line.
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
}

/// The time left is shown once this share of the work is done and this much time has
/// passed: an estimate from the first instants (thread start-up, a slow first chunk) would
/// say hours.
const ETA_AFTER_SHARE: f64 = 0.02;
const ETA_AFTER: Duration = Duration::from_secs(2);

/// `d` for a person: `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`.
pub fn human_duration(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1.0 {
        format!("{:.0} ms", s * 1e3)
    } else if s < 60.0 {
        format!("{s:.1} s")
    } else if s < 3600.0 {
        format!("{} min {:02} s", (s / 60.0) as u64, (s % 60.0) as u64)
    } else {
        format!(
            "{} h {:02} min",
            (s / 3600.0) as u64,
            ((s % 3600.0) / 60.0) as u64
        )
    }
}

impl Progress {
    /// Whether progress is drawn: standard error is a terminal.
    fn wanted() -> bool {
        std::io::stderr().is_terminal()
    }

    /// A bar over `len` things called `unit` (plural).
    pub fn bar(len: u64, unit: &str) -> Progress {
        let start = Instant::now();
        if !Progress::wanted() {
            return Progress { bar: None, start };
        }
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{wide_bar}} {{human_pos}}/{{human_len}} {unit} | {{took}} | {{rate}} {unit}/s{{left}}"
        )) {
            let style = style
                .with_key(
                    "rate",
                    |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                        let _ = write!(w, "{:.0}", state.per_sec());
                    },
                )
                .with_key(
                    "took",
                    |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                        let _ = write!(w, "{}", human_duration(state.elapsed()));
                    },
                )
                .with_key(
                    "left",
                    |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                        let done = state.fraction() as f64;
                        if done >= ETA_AFTER_SHARE && state.elapsed() >= ETA_AFTER && done < 1.0 {
                            let left = state.elapsed().as_secs_f64() * (1.0 - done) / done;
                            let _ = write!(
                                w,
                                " | {} left",
                                human_duration(Duration::from_secs_f64(left))
                            );
                        }
                    },
                );
            bar.set_style(style);
        }
        Progress {
            bar: Some(bar),
            start,
        }
    }

    /// A spinner saying `what` with the elapsed time, for work of unknown length.
    pub fn spinner(what: &str) -> Progress {
        let start = Instant::now();
        if !Progress::wanted() {
            return Progress { bar: None, start };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} | {took}") {
            bar.set_style(style.with_key(
                "took",
                |state: &indicatif::ProgressState, w: &mut dyn fmt::Write| {
                    let _ = write!(w, "{}", human_duration(state.elapsed()));
                },
            ));
        }
        bar.set_message(what.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress {
            bar: Some(bar),
            start,
        }
    }

    /// `n` more things done.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(n);
        }
    }

    /// Clears the bar and, if it was drawn, leaves `summary` and the time taken on one
    /// line (`10000 samples in 1.2 s`).
    pub fn finish(self, summary: impl FnOnce(Duration) -> String) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
            eprintln!("{}", summary(self.start.elapsed()));
        }
    }

    /// Clears the bar without a summary (the command failed).
    pub fn abandon(self) {
        if let Some(bar) = self.bar {
            bar.finish_and_clear();
        }
    }
}

/// `n` and the noun, singular for 1: `1 game`, `3 games`.
pub fn count_of(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_a_person_says_them() {
        let d = Duration::from_secs_f64;
        assert_eq!(human_duration(d(0.0123)), "12 ms");
        assert_eq!(human_duration(d(1.25)), "1.2 s");
        assert_eq!(human_duration(d(65.0)), "1 min 05 s");
        assert_eq!(human_duration(d(7380.0)), "2 h 03 min");
        assert_eq!(count_of(1, "game", "games"), "1 game");
        assert_eq!(count_of(2, "game", "games"), "2 games");
    }
}
