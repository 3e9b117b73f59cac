"""`crokinole montecarlo --samples-out FILE.parquet`: pandas reads the samples directly,
typed, and they equal the CSV's (docs/montecarlo.md)."""

import pandas as pd

from conftest import FIXTURES


def test_pandas_reads_the_parquet_samples_as_the_csv(cli, tmp_path):
    study = FIXTURES / "montecarlo" / "takeout.json"
    pq, csv = tmp_path / "s.parquet", tmp_path / "s.csv"
    for out in (pq, csv):
        r = cli("montecarlo", study, "--samples", "3000", "--samples-out", out)
        assert r.returncode == 0, r.stderr
    a = pd.read_parquet(pq)
    b = pd.read_csv(csv, float_precision="round_trip", keep_default_na=False)
    assert list(a.columns) == list(b.columns)
    assert len(a) == 3000
    assert a["sample"].dtype == "int64" and a["opponents_moved"].dtype == "bool"
    assert a["opponent_hits"].dtype == "int32"
    for c in ("offset", "aim", "speed", "spin", "x", "y"):
        assert (a[c].to_numpy() == b[c].to_numpy()).all(), c  # bit for bit (no NaN here)
    for c in ("sample", "score_change", "opponent_hits"):
        assert (a[c].to_numpy() == b[c].to_numpy()).all(), c
    for c in ("class", "state"):
        assert (a[c].astype(str) == b[c].astype(str)).all(), c
    for c in ("opponents_moved", "cut_off"):
        assert (a[c] == b[c]).all(), c
