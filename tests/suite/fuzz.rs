//! A fuzzing harness kept in the repo and run for a fixed number of cases on every
//! `cargo test`: every kind of input file (shot, study, suggest, shard state, noise), mutated
//! at random from the bundled fixtures, is read by the library's readers and, when
//! accepted, run within small budgets. The properties: nothing panics, every refusal is one
//! clear line naming a field, and every accepted input runs to an end (the work bounds of
//! `crokinole::limits` make that certain; a watchdog reports the case that would hang
//! instead of letting the suite hang). Each case is a function of its index alone
//! (seeded ChaCha), so a failure prints the case to reproduce.
//!
//! The mutations are those that found bugs before: numbers replaced by extremes (0, -1,
//! 1e308, 5e-324, 1e-200, huge integers), keys dropped, duplicated or renamed, values
//! swapped for other types, arrays emptied or repeated, truncation, deep nesting.

use crokinole::io::{
    parse_noise_json, parse_shot_file, parse_state, parse_study_file, parse_suggest_file,
    state_json,
};
use crokinole::montecarlo::Sampling;
use crokinole::run_shot;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::time::Duration;

use crate::fixture;

/// Cases per input kind on every `cargo test` (about a second in all in release).
const CASES: u64 = 400;

/// Seconds after which a case counts as hung. Not a speed requirement: ordinary cases take
/// milliseconds; this only turns a hang into a failure that names the case.
const WATCHDOG_SECONDS: u64 = 300;

/// Extreme values a number may be replaced with.
const EXTREMES: &[&str] = &[
    "0",
    "-1",
    "1e308",
    "-1e308",
    "5e-324",
    "1e-200",
    "1e300",
    "18446744073709551615",
    "18446744073709551616",
    "4294967296",
    "0.5",
    "100",
    "-0.0",
    "1e9",
    "3",
];

/// Replacement values of another type.
const OTHERS: &[&str] = &["null", "true", "\"x\"", "[]", "{}", "[1,2]", "[[0,0]]"];

/// A random mutation of `text`: one to three edits.
fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut s = text.to_string();
    for _ in 0..=(rng.next_u32() % 3) {
        s = edit(&s, rng);
    }
    s
}

fn pick<'a>(rng: &mut ChaCha8Rng, xs: &[&'a str]) -> &'a str {
    xs[rng.next_u32() as usize % xs.len()]
}

/// Byte ranges of the numbers in `s`.
fn numbers(s: &str) -> Vec<(usize, usize)> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts =
            b[i].is_ascii_digit() || (b[i] == b'-' && b.get(i + 1).is_some_and(u8::is_ascii_digit));
        let in_word =
            i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.');
        if starts && !in_word {
            let j = i
                + 1
                + b[i + 1..]
                    .iter()
                    .take_while(|c| {
                        c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'-' | b'+')
                    })
                    .count();
            out.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// Byte ranges of the quoted keys (`"key":`) in `s`.
fn keys(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(k) = s[from..].find("\":") {
        let end = from + k + 1;
        if let Some(start) = s[..end - 1].rfind('"') {
            out.push((start, end));
        }
        from = end + 1;
    }
    out
}

fn edit(s: &str, rng: &mut ChaCha8Rng) -> String {
    let r = rng.next_u32();
    match r % 9 {
        // A number replaced by an extreme or a value of another type.
        0..=2 => {
            let nums = numbers(s);
            if nums.is_empty() {
                return s.to_string();
            }
            let (a, b) = nums[rng.next_u32() as usize % nums.len()];
            let with = if r % 9 == 2 {
                pick(rng, OTHERS)
            } else {
                pick(rng, EXTREMES)
            };
            format!("{}{with}{}", &s[..a], &s[b..])
        }
        // A key renamed (unknown key) or duplicated.
        3 => {
            let ks = keys(s);
            if ks.is_empty() {
                return s.to_string();
            }
            let (a, b) = ks[rng.next_u32() as usize % ks.len()];
            if rng.next_u32().is_multiple_of(2) {
                format!("{}\"zz{}{}", &s[..a], &s[a + 1..b], &s[b..])
            } else {
                let key = &s[a..b];
                format!("{}{key}: 1, {}", &s[..a], &s[a..])
            }
        }
        // Truncated.
        4 => {
            let cut = rng.next_u32() as usize % (s.len() + 1);
            s.get(..cut).unwrap_or(s).to_string()
        }
        // An array emptied, or its first element repeated many times.
        5 => match s.find("[[") {
            Some(a) => match s[a..].find("]]") {
                Some(len) if rng.next_u32().is_multiple_of(2) => {
                    format!("{}[]{}", &s[..a], &s[a + len + 2..])
                }
                Some(_) => {
                    let first_end = a + s[a..].find(']').unwrap_or(0) + 1;
                    let first = &s[a + 1..first_end];
                    let n = 1 + rng.next_u32() as usize % 300;
                    let many = vec![first; n].join(",");
                    format!("{}[{many},{}", &s[..a], &s[a + 1..])
                }
                None => s.to_string(),
            },
            None => s.to_string(),
        },
        // Deep nesting somewhere.
        6 => {
            let depth = 1 + rng.next_u32() as usize % 2000;
            let at = rng.next_u32() as usize % (s.len() + 1);
            let at = (0..=at).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
            format!(
                "{}{}{}{}",
                &s[..at],
                "[".repeat(depth),
                "]".repeat(depth),
                &s[at..]
            )
        }
        // A byte flipped to a structural character.
        7 => {
            let at = rng.next_u32() as usize % s.len().max(1);
            let at = (0..=at).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
            let c = pick(rng, &["{", "}", "[", "]", ",", ":", "\"", "\\", "e", "-"]);
            let next = s[at..].chars().next().map_or(0, char::len_utf8);
            format!("{}{c}{}", &s[..at], &s[at + next..])
        }
        // A huge string value as a key.
        _ => {
            let n = 1 + rng.next_u32() as usize % 200_000;
            match s.find('{') {
                Some(a) => format!("{}{{\"{}\": 1, {}", &s[..a], "k".repeat(n), &s[a + 1..]),
                None => s.to_string(),
            }
        }
    }
}

/// A refusal must be one short line naming a field.
fn check_message(kind: &str, case: u64, message: &str) {
    assert!(
        !message.contains('\n') && message.len() <= 700 && message.contains("field `"),
        "{kind} case {case}: unclear refusal ({} chars): {}",
        message.len(),
        &message[..message.len().min(700)]
    );
}

/// Runs `f` on a worker thread; fails naming the case if it panics or outlives the watchdog.
fn guarded(kind: &str, case: u64, input: &str, f: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let r = catch_unwind(AssertUnwindSafe(f));
            let _ = tx.send(r.is_ok());
        })
        .expect("thread");
    match rx.recv_timeout(Duration::from_secs(WATCHDOG_SECONDS)) {
        Ok(true) => {}
        Ok(false) => panic!(
            "{kind} case {case} panicked on input (first 2000 chars):\n{}",
            &input[..input.len().min(2000)]
        ),
        Err(_) => panic!(
            "{kind} case {case} did not finish in {WATCHDOG_SECONDS} s (first 2000 chars):\n{}",
            &input[..input.len().min(2000)]
        ),
    }
}

/// Mutates `seed_text` CASES times and hands each to `body` under the guard.
fn fuzz(kind: &'static str, salt: u64, seed_texts: &[String], body: fn(u64, &str)) {
    for case in 0..CASES {
        let mut rng = ChaCha8Rng::seed_from_u64(salt.wrapping_mul(1_000_003) ^ case);
        let base = &seed_texts[case as usize % seed_texts.len()];
        let input = mutate(base, &mut rng);
        let owned = input.clone();
        guarded(kind, case, &input, move || body(case, &owned));
    }
    println!("{kind}: {CASES} cases, none panicked or hung");
}

#[test]
fn mutated_shot_files_are_run_or_refused_clearly() {
    let seeds = vec![fixture::text("example.json"), fixture::text("crowded.json")];
    fuzz("shot", 1, &seeds, |case, text| {
        match parse_shot_file(text) {
            Err(e) => check_message("shot", case, &e.to_string()),
            Ok((board, physics, entries)) => {
                for (k, entry) in entries.iter().enumerate().take(20) {
                    match run_shot(&board, &physics, &entry.shot) {
                        Ok(o) => {
                            assert!(
                                o.discs.iter().all(|d| d.pos.is_finite()),
                                "case {case} shot {k}: non-finite position"
                            );
                            assert!(o.events.len() <= crokinole::limits::MAX_EVENTS_PER_SHOT);
                        }
                        Err(e) => check_message("shot", case, &e.in_shot(k).to_string()),
                    }
                }
            }
        }
    });
}

#[test]
fn mutated_study_files_are_run_or_refused_clearly() {
    let seeds = vec![
        fixture::text("montecarlo/takeout.json"),
        fixture::text("montecarlo/takeout-ruled.json"),
        fixture::text("montecarlo/opening.json"),
    ];
    fuzz("study", 2, &seeds, |case, text| {
        match parse_study_file(text) {
            Err(e) => check_message("study", case, &e.to_string()),
            Ok(study) => {
                let plan = Sampling::new(case, 8, None).expect("8 samples");
                let tally = study.tally(&plan);
                assert_eq!(tally.done, 8, "case {case}");
                // Its state reads back (the tool never refuses its own output).
                let state = state_json(&tally, study.spec());
                assert_eq!(
                    parse_state(&state).expect("own state"),
                    tally,
                    "case {case}"
                );
            }
        }
    });
}

#[test]
fn mutated_suggest_files_are_checked_or_refused_clearly() {
    let seeds = vec![
        fixture::text("suggest/takeout.json"),
        fixture::text("suggest/opening.json"),
    ];
    fuzz(
        "suggest",
        3,
        &seeds,
        |case, text| match parse_suggest_file(text) {
            Err(e) => check_message("suggest", case, &e.to_string()),
            Ok(request) => {
                if let Err(e) = request.setup() {
                    check_message("suggest", case, &e.to_string());
                }
            }
        },
    );
}

#[test]
fn mutated_shard_states_are_refused_unless_untouched() {
    let study = parse_study_file(&fixture::text("montecarlo/takeout.json")).unwrap();
    let tally = study.tally(&Sampling::new(5, 40, None).unwrap());
    let state = state_json(&tally, study.spec());
    let seeds = vec![state.clone()];
    fuzz("state", 4, &seeds, |case, text| match parse_state(text) {
        Err(e) => check_message("state", case, &e.to_string()),
        // Only an edit that leaves the content unchanged (whitespace, a key order the
        // reader normalises) may be accepted: the checksum covers everything else.
        Ok(t) => assert!(t.check().is_ok(), "case {case}"),
    });
}

#[test]
fn mutated_noise_blocks_are_read_or_refused_clearly() {
    let seeds = vec![
        r#"{"offset": 0.002, "aim": 0.01, "speed": 0.03, "spin": 1.0}"#.to_string(),
        r#"{"speed": 0.05}"#.to_string(),
    ];
    fuzz("noise", 5, &seeds, |case, text| {
        if let Err(e) = parse_noise_json(text) {
            check_message("noise", case, &e.to_string());
        }
    });
}
