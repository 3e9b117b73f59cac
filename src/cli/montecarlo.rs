//! `crokinole montecarlo`: run a study (one shot played many times with a player's error)
//! and print its summary, or with `--shard K/N` one shard's state for `merge`; the samples
//! streamed to a file as they finish; Ctrl-C stops between chunks and summarises what
//! finished. [`Summarised`] is shared with `merge`.

use super::args::{LayoutArg, Output, Threads, count_parser};
use super::failure::Failure;
use super::output::{distinct_paths, laid_out, read_input_of, write_output};
use super::progress::{Progress, count_of, human_duration};
use super::signals::StopSignals;
use crokinole::InputError;
use crokinole::io::{
    Layout, SAMPLE_CSV_HEADER, SampleParquet, SampleRow, sample_csv_row, sample_line, state_json,
};
use crokinole::jobs;
use crokinole::montecarlo::{CHUNK, Sampling, Shard, Tally};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The flags of `crokinole montecarlo`.
#[derive(clap::Args)]
#[command(mut_arg("output", |a| {
    a.help("Write the summary (or the shard state) here instead of standard output")
}))]
pub struct Args {
    /// Study file to read, or `-` for standard input.
    file: PathBuf,
    /// Samples in the study: an integer, also in scientific notation (`1e6`).
    #[arg(long, value_name = "N", default_value = "10000", value_parser = count_parser)]
    samples: u64,
    /// Seed of the player's error: same seed, same samples.
    #[arg(long, value_name = "S", default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    threads: Threads,
    /// Stream every sample's outcome to PATH as JSON lines, in sample order, written
    /// as it goes (a run stopped by Ctrl-C keeps every finished chunk); as CSV
    /// (one row per sample, columns in docs/output.md) when PATH ends in `.csv`; as
    /// Parquet (the CSV's columns, typed; a row group each 65,536 samples) when it ends
    /// in `.parquet`.
    #[arg(long, value_name = "PATH")]
    samples_out: Option<PathBuf>,
    /// Include the shot disc's final position and class for the first 10,000
    /// samples (`shooter_positions`, what `render montecarlo` draws) in the summary.
    #[arg(long)]
    positions: bool,
    #[command(flatten)]
    layout: LayoutArg,
    /// Run only the K-th of N equal slices of the samples (1-based) and print the
    /// shard's state for `crokinole merge` instead of the summary.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    #[command(flatten)]
    output: Output,
}

/// What a summary (`montecarlo`, `merge`) prints: with the positions or not, in which
/// layout.
#[derive(Clone, Copy)]
pub struct Summarised {
    pub positions: bool,
    pub layout: Layout,
}

impl Summarised {
    pub fn text(self, summary: crokinole::montecarlo::StudySummary) -> String {
        jobs::study::summary_text(summary, self.positions, self.layout)
    }
}

/// `crokinole montecarlo`: read and check the study and the plan, then (only then) create
/// the samples file, run the samples in order on `threads` workers, streaming each chunk's
/// lines (JSON, or CSV for a `.csv` path) to the samples file as it completes, and print
/// the summary, or the shard's state with `--shard`.
pub fn run(a: Args) -> Result<(), Failure> {
    let (file, threads, output) = (&a.file, a.threads, a.output.path());
    let plan: Result<Sampling, InputError> = Sampling::new(a.seed, a.samples, a.shard);
    let sharded = a.shard.is_some();
    let samples_out = a.samples_out.as_deref();
    let summarised = Summarised {
        positions: a.positions,
        layout: a.layout.layout(),
    };
    distinct_paths(
        &[("the study file", file)],
        &[("--samples-out", samples_out), ("--output", output)],
    )?;
    let text = read_input_of(file, crokinole::io::FileKind::Study)?;
    let study = jobs::study::read(&text).map_err(Failure::Input)?;
    let plan = plan.map_err(Failure::Input)?;
    let pool = threads.pool()?;
    let ext = |x: &str| {
        samples_out.is_some_and(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case(x)))
    };
    let (csv, parquet) = (ext("csv"), ext("parquet"));
    let mut lines = match samples_out {
        Some(path) if parquet => Some(SamplesFile::Parquet(Box::new(ParquetFile::create(path)?))),
        Some(path) => Some(SamplesFile::Lines(SampleLines::create(
            path,
            csv.then_some(SAMPLE_CSV_HEADER),
        )?)),
        None => None,
    };
    let count = plan.range.end - plan.range.start;
    let progress = Progress::bar(count, "samples");
    let write_lines = lines.is_some();
    let signals = StopSignals::watch()?;
    let tally = pool.install(|| {
        study.run_until(
            &plan,
            CHUNK,
            |s| {
                write_lines.then(|| {
                    if parquet {
                        SampleOut::Row(SampleRow::of(s))
                    } else if csv {
                        SampleOut::Line(sample_csv_row(s))
                    } else {
                        SampleOut::Line(sample_line(s))
                    }
                })
            },
            |out| {
                progress.inc(1);
                match (&mut lines, out) {
                    (Some(SamplesFile::Lines(f)), Some(SampleOut::Line(line))) => f.push(&line),
                    (Some(SamplesFile::Parquet(f)), Some(SampleOut::Row(row))) => f.push(row),
                    _ => Ok(()),
                }
            },
            signals.cancel(),
        )
    });
    let tally = match tally {
        Ok(t) => t,
        Err(e) => {
            progress.abandon();
            return Err(e);
        }
    };
    if let Some(out) = lines {
        out.finish()?;
    }
    if !tally.is_complete() {
        progress.abandon();
        return stopped_study(&tally, &signals, sharded, samples_out, summarised, output);
    }
    progress.finish(|took| {
        format!(
            "{} in {} ({:.0} samples/s)",
            count_of(count, "sample", "samples"),
            human_duration(took),
            count as f64 / took.as_secs_f64().max(1e-9)
        )
    });
    let text = if sharded {
        laid_out(state_json(&tally, study.spec()), summarised.layout)
    } else {
        summarised.text(tally.summary().map_err(Failure::Input)?)
    };
    write_output(output, |w| w.write_all(text.as_bytes()))
}

/// The end of a `montecarlo` run a signal stopped: the samples file already
/// holds every finished sample; print the summary of the finished samples (the study of
/// that many samples, marked `stopped`) and say so. A shard prints no state: a state must
/// cover its shard's whole range for `merge`, so the shard has to run again.
fn stopped_study(
    tally: &Tally,
    signals: &StopSignals,
    sharded: bool,
    samples_out: Option<&Path>,
    summarised: Summarised,
    output: Option<&Path>,
) -> Result<(), Failure> {
    let count = tally.range.end - tally.range.start;
    let mut message = format!("{} of {count} samples", tally.done);
    if let Some(path) = samples_out {
        message += &format!(" (`{}` holds every finished one)", path.display());
    }
    match tally.summary_of_finished() {
        Some(summary) if !sharded => {
            write_output(output, |w| w.write_all(summarised.text(summary).as_bytes()))?;
            message += &format!(
                "; the summary is that of the finished samples, the same study with --samples {}",
                tally.done
            );
        }
        None if !sharded => message += "; no sample finished, so there is no summary",
        _ => {
            message += "; a shard's state must cover its whole range, so none is written: run the shard again"
        }
    }
    Err(signals.stopped(message))
}

/// What one sample gives the samples file: a line (JSON or CSV) or a Parquet row.
enum SampleOut {
    Line(String),
    Row(SampleRow),
}

/// The samples file, as lines or as Parquet.
enum SamplesFile {
    Lines(SampleLines),
    Parquet(Box<ParquetFile>),
}

impl SamplesFile {
    fn finish(self) -> Result<(), Failure> {
        match self {
            SamplesFile::Lines(f) => f.finish(),
            SamplesFile::Parquet(f) => f.finish(),
        }
    }
}

/// The samples file as Parquet: rows held until a row group is full
/// (`io::ROW_GROUP`), the footer written at the end, also when Ctrl-C stopped the run
/// (the file then holds every finished sample, as the lines do).
struct ParquetFile {
    path: PathBuf,
    writer: SampleParquet<std::io::BufWriter<std::fs::File>>,
}

impl ParquetFile {
    fn create(path: &Path) -> Result<ParquetFile, Failure> {
        let cannot =
            |e: std::io::Error| Failure::Io(format!("cannot write `{}`: {e}", path.display()));
        let file = std::fs::File::create(path).map_err(cannot)?;
        let writer = SampleParquet::new(std::io::BufWriter::new(file)).map_err(cannot)?;
        Ok(ParquetFile {
            path: path.to_path_buf(),
            writer,
        })
    }

    fn push(&mut self, row: SampleRow) -> Result<(), Failure> {
        self.writer
            .push(row)
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", self.path.display())))
    }

    fn finish(self) -> Result<(), Failure> {
        let path = self.path;
        self.writer
            .finish()
            .and_then(|mut w| w.flush())
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))
    }
}

/// The samples file: lines collect in memory and go to the file a chunk at a time, so a
/// run stopped by a signal ([`StopSignals`]) leaves whole lines of finished samples. A
/// process killed outright (`kill -9`) can be cut inside a chunk's write (the kernel
/// copies a large write page by page and gives up at a fatal signal): every line ending in
/// a newline is then a whole finished sample, and the last, cut one has no newline.
pub struct SampleLines {
    path: PathBuf,
    file: std::fs::File,
    buf: Vec<u8>,
    pending: usize,
}

impl SampleLines {
    /// Creates the file at `path`, starting with `header` (the CSV's) if any.
    fn create(path: &Path, header: Option<&str>) -> Result<SampleLines, Failure> {
        let file = std::fs::File::create(path)
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", path.display())))?;
        Ok(SampleLines {
            path: path.to_path_buf(),
            file,
            buf: header.unwrap_or("").as_bytes().to_vec(),
            pending: 0,
        })
    }

    fn push(&mut self, line: &str) -> Result<(), Failure> {
        self.buf.extend_from_slice(line.as_bytes());
        self.pending += 1;
        if self.pending == CHUNK {
            self.write()?;
        }
        Ok(())
    }

    fn write(&mut self) -> Result<(), Failure> {
        self.file
            .write_all(&self.buf)
            .and_then(|()| self.file.flush())
            .map_err(|e| Failure::Io(format!("cannot write `{}`: {e}", self.path.display())))?;
        self.buf.clear();
        self.pending = 0;
        Ok(())
    }

    fn finish(mut self) -> Result<(), Failure> {
        self.write()
    }
}
