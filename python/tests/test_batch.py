"""Shot batches as arrays: bit-identical to `crokinole simulate` on the same shots, for
every thread count; outcomes as dicts equal to the outcome file's."""

import json
from pathlib import Path

import numpy as np
import pytest

import crokinole as ck
from conftest import FIXTURES

STATE = {"board": 0, "hole": 1, "ditch": 2}


def arrays_of(shots):
    """A shot file's shots as the arrays of Engine.simulate."""
    n = len(shots)
    m = max(len(s["discs"]) for s in shots)
    discs = np.zeros((n, m, 2))
    teams = np.zeros((n, m), dtype=np.int64)
    counts = np.array([len(s["discs"]) for s in shots])
    for k, s in enumerate(shots):
        for j, d in enumerate(s["discs"]):
            discs[k, j] = d["pos"]
            teams[k, j] = d["team"]
    pos = np.array([s["shooter"]["pos"] for s in shots])
    vel = np.array([s["shooter"]["vel"] for s in shots])
    spin = np.array([s["shooter"].get("spin", 0.0) for s in shots])
    team = np.array([s["shooter"]["team"] for s in shots])
    return discs, teams, counts, pos, vel, spin, team


@pytest.mark.parametrize("name", ["crowded.json", "opening.json", "example.json"])
def test_arrays_are_bit_identical_to_the_cli(cli_json, name):
    path = FIXTURES / name
    file = json.loads(path.read_text())
    expected = cli_json("simulate", path, "--threads", "1")["outcomes"]
    engine = ck.Engine.from_file(path)
    batch = engine.simulate(*arrays_of(file["shots"]), threads=2, outcomes=True)
    assert batch.outcomes == expected
    for k, out in enumerate(expected):
        n = len(out["discs"])
        for j, d in enumerate(out["discs"]):
            # Exact: the JSON holds the shortest decimal that round-trips each f64.
            assert batch.pos[k, j].tolist() == d["pos"]
            assert batch.state[k, j] == STATE[d["state"]]
        assert np.isnan(batch.pos[k, n:]).all() and (batch.state[k, n:] == -1).all()
        assert batch.events[k] == len(out["events"])
        assert batch.steps[k] == out["steps"]
        assert batch.time[k] == out["time"]
        assert not batch.cut_off[k]


def test_thread_counts_give_the_same_bits():
    file = json.loads((FIXTURES / "crowded.json").read_text())
    engine = ck.Engine()
    a = engine.simulate(*arrays_of(file["shots"][:60]), threads=1)
    b = engine.simulate(*arrays_of(file["shots"][:60]), threads=2)
    c = engine.simulate(*arrays_of(file["shots"][:60]))
    for x, y in [(a, b), (a, c)]:
        assert np.array_equal(x.pos, y.pos, equal_nan=True)
        assert np.array_equal(x.state, y.state)
        assert np.array_equal(x.time, y.time)
        assert np.array_equal(x.steps, y.steps)


def test_simulate_file_gives_the_cli_bytes(cli):
    """The package, the command line and the server (tests/serve_api.rs) run one job,
    `crokinole::jobs::simulate`: the outcome file's bytes are the same, with and without
    rules and traces."""
    from crokinole import _crokinole

    for name in ["example.json", "crowded.json"]:
        path = FIXTURES / name
        text = path.read_text()
        for args, rules, trace in [
            ([], None, None),
            (["--rules"], "traditional", None),
            (["--trace", "7"], None, 7),
            (["--rules", "--ruleset", "tournament", "--trace", "3"], "tournament", 3),
        ]:
            if name == "crowded.json" and rules is not None:
                continue  # its shots have no seats
            p = cli("simulate", path, "--compact", *args)
            assert p.returncode == 0, p.stderr
            assert _crokinole.simulate_file(text, rules, trace, None) == p.stdout, (name, args)


def test_simulate_file_is_the_cli_output(cli):
    path = FIXTURES / "example.json"
    for args, kwargs in [
        ([], {}),
        (["--rules"], {"rules": "traditional"}),
        (["--rules", "--ruleset", "tournament"], {"rules": "tournament"}),
        (["--trace", "5"], {"trace": 5}),
    ]:
        p = cli("simulate", path, *args)
        assert p.returncode == 0, p.stderr
        assert ck.simulate_file(path, **kwargs) == json.loads(p.stdout)
        assert ck.simulate_file(json.loads(path.read_text()), **kwargs) == json.loads(p.stdout)


def test_simulate_shots_and_flicks_agree_with_the_shot_file():
    file = json.loads((FIXTURES / "example.json").read_text())
    engine = ck.Engine()
    a = engine.simulate_shots(file["shots"])
    b = engine.simulate(*arrays_of(file["shots"]))
    assert np.array_equal(a.pos, b.pos, equal_nan=True)
    # A flick straight ahead from the middle of seat 0's line: the shot file's first shot.
    pos, vel, spin = engine.flicks(0, offset=0.0, aim=0.0, speed=0.85)
    assert pos.tolist() == [[0.0, -0.3048]] and vel.tolist() == [[0.0, 0.85]]
    assert spin.tolist() == [0.0]
    # Seat 2 sits opposite: the same flick mirrored, team 1 with two players.
    pos, vel, _ = engine.flicks(2, offset=0.0, aim=0.0, speed=0.85)
    assert pos.tolist() == [[0.0, 0.3048]] and vel.tolist() == [[0.0, -0.85]]
    out = engine.simulate(np.zeros((1, 0, 2)), np.zeros((1, 0)), [0], pos, vel, team=1)
    assert ck.STATES[out.state[0, 0]] == "hole"


def test_custom_physics_changes_the_outcome_and_is_checked():
    slow = ck.Engine(physics={"board_friction": 0.3})
    assert slow.physics["board_friction"] == 0.3
    assert slow.board == ck.params()["board"]
    fast = ck.Engine()
    args = (np.zeros((1, 0, 2)), np.zeros((1, 0)), [0], [[0.0, -0.3048]], [[0.0, 0.85]])
    assert slow.simulate(*args).time[0] < fast.simulate(*args).time[0]
    with pytest.raises(ck.CrokinoleError, match=r"physics\.dt"):
        ck.Engine(physics={"dt": -1.0})


def test_batches_past_a_chunk_are_the_cli_outcomes_and_name_late_shots(cli_json, tmp_path):
    # Engine.simulate runs 4,096 shots at a time (issue #23, item 8): chunk boundaries
    # change nothing, and an error in a late chunk still names its shot.
    file = json.loads((FIXTURES / "crowded.json").read_text())
    shots = (file["shots"] * 45)[:9000]
    path = tmp_path / "many.json"
    path.write_text(json.dumps({**file, "shots": shots}))
    expected = cli_json("simulate", path, "--compact")["outcomes"]
    engine = ck.Engine.from_file(path)
    arrays = arrays_of(shots)
    batch = engine.simulate(*arrays, threads=2, outcomes=True)
    assert batch.outcomes == expected
    assert batch.steps.tolist() == [o["steps"] for o in expected]
    discs, teams, counts, pos, vel, spin, team = arrays
    team = team.copy()
    team[8500] = 7
    with pytest.raises(ck.CrokinoleError, match=r"shot 8500: field `shots\[8500\].shooter.team`"):
        engine.simulate(discs, teams, counts, pos, vel, spin, team)


def test_a_million_shot_batch_runs_in_bounded_memory(tmp_path):
    # Issue #23, item 8: the shots and outcomes are held a chunk at a time, so beyond the
    # arrays themselves (about 100 bytes a shot in and out) memory does not grow with N.
    # Held whole, 500,000 shots at rest peaked above 300 MB.
    import subprocess
    import sys

    # VmHWM: the child's own peak since its exec (ru_maxrss would count this process's
    # peak too: a child started with vfork carries it through exec).
    script = """
import numpy as np, crokinole as ck
n = 500_000
pos = np.tile([0.0, -0.3048], (n, 1))
ck.Engine().simulate(np.zeros((n, 0, 2)), np.zeros((n, 0), dtype=np.int64),
                     np.zeros(n, dtype=np.int64), pos, np.zeros((n, 2)), threads=2)
status = open("/proc/self/status").read()
print(next(l.split()[1] for l in status.splitlines() if l.startswith("VmHWM:")))
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    peak_kb = int(out.stdout.strip())
    assert peak_kb < 150_000, f"peaked at {peak_kb} kB"
