//! What several commands share on their command lines, declared once and flattened into
//! each command's `Args`: `-j/--threads` ([`Threads`], and the pool of workers it asks
//! for), `-o/--output` ([`Output`]), `--compact` ([`LayoutArg`]); and the parsers of
//! counts, budgets and rule sets.

use super::failure::Failure;
use clap::builder::{PossibleValuesParser, TypedValueParser};
use crokinole::io::Layout;
use crokinole::rules::Ruleset;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// `-j/--threads N`, on every command that runs in parallel.
#[derive(clap::Args, Clone, Copy)]
pub struct Threads {
    /// Worker threads (default: all cores). The output does not depend on it.
    #[arg(long, short = 'j', value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    threads: Option<u32>,
}

/// `-o/--output PATH`, on every command that prints a file. The help names what is
/// written: each command words it with `#[command(mut_arg("output", ...))]` on its `Args`.
#[derive(clap::Args)]
pub struct Output {
    /// Write the output here instead of standard output.
    #[arg(long, short, value_name = "PATH")]
    output: Option<PathBuf>,
}

impl Output {
    /// The file to write, or `None` for standard output.
    pub fn path(&self) -> Option<&Path> {
        self.output.as_deref()
    }
}

/// `--compact`, on every command that prints JSON.
#[derive(clap::Args, Clone, Copy)]
pub struct LayoutArg {
    /// Print the JSON on one line, without spaces, instead of the readable layout.
    #[arg(long)]
    compact: bool,
}

impl LayoutArg {
    pub fn layout(self) -> Layout {
        if self.compact {
            Layout::Compact
        } else {
            Layout::Readable
        }
    }
}

/// A count (`--samples`, `--games`, `--budget`): a positive integer, written plainly
/// (`20000`, `20_000`) or in scientific notation (`2e4`, `1.5e6`) as long as the value is a
/// whole number. A fraction is refused with the integer to write instead.
pub fn count_parser(text: &str) -> Result<u64, String> {
    match whole_number(text)? {
        0 => Err(format!("`{text}` must be at least 1")),
        n => Ok(n),
    }
}

/// A whole number, 0 included, in the notations [`count_parser`] takes.
fn whole_number(text: &str) -> Result<u64, String> {
    let t = text.trim().replace('_', "");
    let (mantissa, exp) = match t.find(['e', 'E']) {
        Some(k) => (&t[..k], &t[k + 1..]),
        None => (t.as_str(), "0"),
    };
    let exp: i32 = exp.strip_prefix('+').unwrap_or(exp).parse().map_err(|_| {
        format!("`{text}` is not a count: write a whole number such as 20000 or 2e4")
    })?;
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() && frac.is_empty()
        || !int.chars().chain(frac.chars()).all(|c| c.is_ascii_digit())
    {
        return Err(format!(
            "`{text}` is not a count: write a whole number such as 20000 or 2e4"
        ));
    }
    // value = digits * 10^(exp - frac.len()), exactly, in integers.
    let digits = format!("{int}{frac}");
    let digits = digits.trim_start_matches('0');
    let shift = exp - frac.len() as i32;
    let (digits, shift) = {
        let trimmed = digits.trim_end_matches('0');
        let zeros = (digits.len() - trimmed.len()) as i32;
        (trimmed, shift + zeros)
    };
    let value: Option<u64> = if digits.is_empty() {
        Some(0)
    } else if shift < 0 {
        None
    } else {
        digits.parse::<u64>().ok().and_then(|d| {
            10u64
                .checked_pow(shift as u32)
                .and_then(|p| d.checked_mul(p))
        })
    };
    match value {
        Some(v) => Ok(v),
        None if shift < 0 => {
            let approx: f64 = t.parse().unwrap_or(0.0);
            Err(format!(
                "`{text}` is not a whole number: a count is an integer; write {} or {} \
                 (scientific notation is fine when the value is whole: 1e6, 2.5e4)",
                approx.floor().max(1.0),
                approx.ceil().max(1.0)
            ))
        }
        None => Err(format!("`{text}` is too large (at most {})", u64::MAX)),
    }
}

/// `--budget`: `Ts` (seconds) as the planner reads it, or a count as [`count_parser`].
pub fn budget_parser(text: &str) -> Result<crokinole::plan::Budget, String> {
    if text.trim().ends_with('s') {
        return text.parse();
    }
    // The planner's own checks (its minimum budget) judge the number.
    whole_number(text)?.to_string().parse()
}

/// A flag taking one of a type's values by name: `names` are listed as the possible values
/// in `--help` (anything else is refused with them), and each is read by the type's own
/// `FromStr`, whose error goes through.
pub fn named<T>(names: impl IntoIterator<Item = &'static str>) -> impl TypedValueParser<Value = T>
where
    T: FromStr<Err = String> + Clone + Send + Sync + 'static,
{
    PossibleValuesParser::new(names).try_map(|s| s.parse::<T>())
}

/// The `--ruleset` values: every rule set by its name (`traditional`, `tournament`).
pub fn ruleset_parser() -> impl TypedValueParser<Value = Ruleset> {
    named(Ruleset::ALL.map(Ruleset::name))
}

/// Most worker threads any command starts: far more than any machine has cores (the
/// output does not depend on the count), few enough that a typo like `--threads 100000`
/// cannot exhaust memory or hang the start.
const MAX_THREADS: u32 = 256;

impl Threads {
    /// A pool of `--threads` workers (all cores if not given), at most [`MAX_THREADS`]
    /// (with a note on standard error when the request was larger).
    pub fn pool(self) -> Result<rayon::ThreadPool, Failure> {
        build(self.builder())
    }

    /// [`Threads::pool`], except that `--threads 1` makes the calling thread the pool's
    /// only worker, starting no thread: for a job that, on one thread, uses the pool only
    /// from the calling thread (`simulate`; a job that called it from another thread
    /// would wait forever, as nothing would run it).
    pub fn pool_here(self) -> Result<rayon::ThreadPool, Failure> {
        let builder = self.builder();
        build(if self.threads == Some(1) {
            builder.use_current_thread()
        } else {
            builder
        })
    }

    /// The pool's builder: `--threads` workers, capped at [`MAX_THREADS`].
    fn builder(self) -> rayon::ThreadPoolBuilder {
        let threads = self.threads.map(|n| {
            if n > MAX_THREADS {
                eprintln!("note: --threads {n} capped at {MAX_THREADS}; the output is the same");
            }
            n.min(MAX_THREADS)
        });
        rayon::ThreadPoolBuilder::new().num_threads(threads.map_or(0, |n| n as usize))
    }
}

/// The pool `builder` describes, or why its threads could not start.
fn build(builder: rayon::ThreadPoolBuilder) -> Result<rayon::ThreadPool, Failure> {
    builder
        .build()
        .map_err(|e| Failure::Io(format!("cannot start worker threads: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_whole_numbers_in_any_notation() {
        for (text, n) in [
            ("1", 1),
            ("20000", 20_000),
            ("20_000", 20_000),
            ("1e6", 1_000_000),
            ("1E6", 1_000_000),
            ("1e+6", 1_000_000),
            ("2.5e4", 25_000),
            ("0.25e2", 25),
            ("120e-1", 12),
            ("1.000", 1),
            ("18446744073709551615", u64::MAX),
        ] {
            assert_eq!(count_parser(text), Ok(n), "{text}");
        }
        for (text, says) in [
            ("2.5", "write 2 or 3"),
            ("1.5e-3", "not a whole number"),
            ("0", "at least 1"),
            ("0e9", "at least 1"),
            ("1e20", "too large"),
            ("abc", "not a count"),
            ("1e", "not a count"),
            ("-5", "not a count"),
            ("", "not a count"),
            (".", "not a count"),
        ] {
            let e = count_parser(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
        assert_eq!(
            budget_parser("2e4"),
            Ok(crokinole::plan::Budget::Samples(20_000))
        );
        assert_eq!(
            budget_parser("1.5s"),
            Ok(crokinole::plan::Budget::Seconds(1.5))
        );
    }

    /// `--name VALUE` parsed by `parser` on a one-flag command: the value, or clap's error.
    fn parse_flag<T: Clone + Send + Sync + 'static>(
        parser: impl TypedValueParser<Value = T>,
        value: &str,
    ) -> Result<T, String> {
        let cmd = clap::Command::new("t").arg(clap::Arg::new("x").long("x").value_parser(parser));
        cmd.try_get_matches_from(["t", "--x", value])
            .map(|m| m.get_one::<T>("x").cloned().unwrap())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn named_values_are_read_by_the_types_own_parser() {
        for r in Ruleset::ALL {
            assert_eq!(parse_flag(ruleset_parser(), r.name()), Ok(r));
        }
        let e = parse_flag(ruleset_parser(), "Tournament").unwrap_err();
        assert!(
            e.contains("[possible values: traditional, tournament]"),
            "{e}"
        );
        // A listed name the type refuses is refused with the type's own message, never
        // replaced by a default.
        let e = parse_flag(named::<Ruleset>(["traditional", "doubles"]), "doubles").unwrap_err();
        assert!(e.contains("unknown rule set `doubles`"), "{e}");
    }
}
