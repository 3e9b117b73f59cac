//! The Monte Carlo samples file as Parquet (`crokinole montecarlo --samples-out
//! FILE.parquet`, docs/montecarlo.md): the CSV's columns, typed, in a columnar file that
//! pandas, polars, DuckDB and Arrow read directly, written a row group at a time so that
//! the memory is bounded by [`ROW_GROUP`] rows whatever the number of samples.
//!
//! Columns (all required, in this order): `sample` INT64; `offset`, `aim`, `speed`,
//! `spin` DOUBLE (the flick as played); `class` STRING; `score_change` INT64;
//! `opponent_hits` INT32; `opponents_moved`, `cut_off` BOOLEAN; `x`, `y` DOUBLE (the shot
//! disc's final position, NaN if there is none); `state` STRING (`board`, `hole`,
//! `ditch`). Pages are Snappy-compressed. The file depends on the samples only (the
//! writer's `created_by` names this program, not its version).

use crate::outcome_file::state_name;
use crokinole_montecarlo::Sample;
use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::io::{self, Write};
use std::sync::Arc;

/// Rows of a row group: 65,536 samples, about 4 MB held before they are written.
pub const ROW_GROUP: usize = 1 << 16;

/// The schema, in Parquet's message syntax.
const SCHEMA: &str = "message sample {
    REQUIRED INT64 sample;
    REQUIRED DOUBLE offset;
    REQUIRED DOUBLE aim;
    REQUIRED DOUBLE speed;
    REQUIRED DOUBLE spin;
    REQUIRED BYTE_ARRAY class (STRING);
    REQUIRED INT64 score_change;
    REQUIRED INT32 opponent_hits;
    REQUIRED BOOLEAN opponents_moved;
    REQUIRED BOOLEAN cut_off;
    REQUIRED DOUBLE x;
    REQUIRED DOUBLE y;
    REQUIRED BYTE_ARRAY state (STRING);
}";

/// One sample's row: made from a [`Sample`] on the worker that ran it ([`SampleRow::of`]),
/// kept until its row group is written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleRow {
    sample: u64,
    flick: [f64; 4],
    class: &'static str,
    score_change: i64,
    opponent_hits: u32,
    opponents_moved: bool,
    cut_off: bool,
    pos: [f64; 2],
    state: &'static str,
}

impl SampleRow {
    /// The row of `s`: the CSV's values ([`crate::sample_csv_row`]).
    pub fn of(s: &Sample) -> SampleRow {
        let f = &s.flick;
        let r = &s.result;
        let (pos, state) = s.outcome.discs.last().map_or(([f64::NAN; 2], ""), |d| {
            ([d.pos.x, d.pos.y], state_name(d.state))
        });
        SampleRow {
            sample: s.index,
            flick: [f.offset, f.aim, f.speed, f.spin],
            class: r.class.name(),
            score_change: r.score_change,
            opponent_hits: r.opponent_hits,
            opponents_moved: r.opponents_moved,
            cut_off: r.cut_off,
            pos,
            state,
        }
    }
}

/// A samples file being written as Parquet: rows go in with [`SampleParquet::push`], a
/// row group is written each [`ROW_GROUP`] rows, and [`SampleParquet::finish`] writes the
/// last one and the footer. A file whose writing stopped before `finish` has no footer
/// and is not a Parquet file.
pub struct SampleParquet<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    rows: Vec<SampleRow>,
}

fn parquet_error(e: parquet::errors::ParquetError) -> io::Error {
    match e {
        parquet::errors::ParquetError::External(e) => io::Error::other(e),
        e => io::Error::other(e.to_string()),
    }
}

impl<W: Write + Send> SampleParquet<W> {
    /// Starts the file on `w`.
    pub fn new(w: W) -> io::Result<SampleParquet<W>> {
        let schema = Arc::new(parse_message_type(SCHEMA).expect("the schema parses"));
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by("crokinole".to_string())
            .set_max_row_group_row_count(Some(ROW_GROUP))
            .build();
        let writer =
            SerializedFileWriter::new(w, schema, Arc::new(props)).map_err(parquet_error)?;
        Ok(SampleParquet {
            writer,
            rows: Vec::with_capacity(ROW_GROUP),
        })
    }

    /// Adds one row, writing a row group when [`ROW_GROUP`] rows are held.
    pub fn push(&mut self, row: SampleRow) -> io::Result<()> {
        self.rows.push(row);
        if self.rows.len() >= ROW_GROUP {
            self.flush_group()?;
        }
        Ok(())
    }

    /// Writes the rows held as a row group (none: nothing).
    fn flush_group(&mut self) -> io::Result<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows);
        let mut group = self.writer.next_row_group().map_err(parquet_error)?;
        let mut k = 0;
        while let Some(mut col) = group.next_column().map_err(parquet_error)? {
            let w = &mut col;
            match k {
                0 => write::<Int64Type>(w, rows.iter().map(|r| r.sample as i64)),
                1..=4 => write::<DoubleType>(w, rows.iter().map(|r| r.flick[k - 1])),
                5 => write::<ByteArrayType>(w, rows.iter().map(|r| ByteArray::from(r.class))),
                6 => write::<Int64Type>(w, rows.iter().map(|r| r.score_change)),
                7 => write::<Int32Type>(w, rows.iter().map(|r| r.opponent_hits as i32)),
                8 => write::<BoolType>(w, rows.iter().map(|r| r.opponents_moved)),
                9 => write::<BoolType>(w, rows.iter().map(|r| r.cut_off)),
                10 | 11 => write::<DoubleType>(w, rows.iter().map(|r| r.pos[k - 10])),
                _ => write::<ByteArrayType>(w, rows.iter().map(|r| ByteArray::from(r.state))),
            }?;
            col.close().map_err(parquet_error)?;
            k += 1;
        }
        group.close().map_err(parquet_error)?;
        self.rows = rows;
        self.rows.clear();
        Ok(())
    }

    /// Writes the last row group and the footer, and hands back the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.flush_group()?;
        self.writer.into_inner().map_err(parquet_error)
    }
}

/// Writes one column's values.
fn write<T: parquet::data_type::DataType>(
    col: &mut parquet::file::writer::SerializedColumnWriter<'_>,
    values: impl Iterator<Item = T::T>,
) -> io::Result<()> {
    let values: Vec<T::T> = values.collect();
    col.typed::<T>()
        .write_batch(&values, None, None)
        .map(drop)
        .map_err(parquet_error)
}
