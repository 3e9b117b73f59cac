"""Studies, the rules' verdict, the planner and pictures: the same as the CLI's output."""

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import crokinole as ck
from conftest import FIXTURES

TAKEOUT = FIXTURES / "montecarlo" / "takeout.json"
TRACKS = FIXTURES / "tracks" / "example.json"


def test_study_summary_is_the_cli_summary(cli_json):
    expected = cli_json("montecarlo", TAKEOUT, "--samples", "2000", "--seed", "7", "--positions")
    one = ck.study(TAKEOUT, samples=2000, seed=7, threads=1)
    two = ck.study(json.loads(TAKEOUT.read_text()), samples=2000, seed=7, threads=2, per_sample=True)
    assert one.summary == expected
    assert two.summary == expected
    # The per-sample arrays agree with the summary they were folded into.
    s = two.samples
    assert len(s["class"]) == 2000
    for k, name in enumerate(s["classes"]):
        assert int((s["class"] == k).sum()) == expected["shooter"][name]["count"]
    assert np.mean(s["score_change"]) == pytest.approx(expected["score_change"]["mean"])
    assert int(s["opponents_moved"].sum()) == expected["opponents_moved"]["count"]
    table = two.samples_table()
    assert set(table["class"]) <= set(s["classes"])
    assert two.probabilities()["fifteen"] == expected["shooter"]["fifteen"]["p"]
    # The executed flicks are the player's draws around the intended flick.
    flicks = ck.study_flicks(TAKEOUT, 2000, seed=7)
    assert np.array_equal(flicks["aim"], s["aim"]) and np.array_equal(flicks["speed"], s["speed"])
    assert "<svg" in two.svg()[:200] and two._repr_svg_() == two.svg()


@pytest.mark.parametrize(
    "call",
    [
        f"ck.study({str(TAKEOUT)!r}, samples=10**9)",
        f"ck.study({str(TAKEOUT)!r}, samples=10**9, threads=2)",
        "ck.play(['random', 'random'], games=10**6)",
        # 200 tracked shots: a fit of seconds.
        f"d = json.load(open({str(TRACKS)!r})); d['shots'] = (d['shots'] * 67)[:200]; ck.fit(d)",
    ],
)
def test_ctrl_c_interrupts_a_long_study_run_of_games_or_fit(call):
    # A study of 10^9 samples or a run of 10^6 games would take hours: Ctrl-C (here a
    # SIGINT sent by a timer once the call has started) must raise KeyboardInterrupt
    # within a chunk, on the global pool and on a pool of its own. In a child process,
    # with a watchdog.
    script = textwrap.dedent(
        f"""
        import json, os, signal, threading, time
        import crokinole as ck
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as conftest.py says
        threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            {call}
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - start, 1), "s")
        """
    )
    child = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=120
    )
    assert child.returncode == 0, child.stderr
    assert child.stdout.startswith("interrupted after"), child.stdout + child.stderr


def test_study_picture_is_the_cli_picture(cli, tmp_path):
    result = ck.study(TAKEOUT, samples=300)
    summary = tmp_path / "summary.json"
    summary.write_text(json.dumps(result.summary))
    p = cli("render", "montecarlo", summary, "--study", TAKEOUT, "--title", "T")
    assert p.returncode == 0, p.stderr
    assert result.svg(title="T") == p.stdout


def test_verdict_is_the_cli_rules_object(cli_json):
    file = json.loads((FIXTURES / "example.json").read_text())
    expected = cli_json("simulate", FIXTURES / "example.json", "--rules")["outcomes"]
    for k, shot in enumerate(file["shots"]):
        v = ck.judge(shot["discs"], shot["shooter"], seat=shot["seat"], players=shot.get("players", 2))
        assert v == expected[k]["rules"]
    takeout = file["shots"][1]
    v = ck.judge(takeout["discs"], takeout["shooter"], seat=0)
    assert v["rule"] == "must_hit" and v["hit_opponent"]
    # A shooter placed off its seat's quadrant is refused with the reason.
    with pytest.raises(ck.CrokinoleError, match="seat"):
        ck.judge([], {"team": 0, "pos": [0.3048, 0.0], "vel": [-0.85, 0.0]}, seat=0)


def test_plan_is_the_cli_plan(cli_json):
    path = FIXTURES / "suggest" / "takeout.json"
    expected = cli_json("suggest", path, "--budget", "3000", "--top", "2", "--seed", "1")
    plan = ck.suggest(path, budget=3000, top=2, seed=1, threads=1)
    assert plan.plan == expected
    assert plan.top == expected["top"]
    assert "<svg" in plan.svg()[:200]


def test_shot_picture_is_the_cli_picture(cli):
    path = "fixtures/example.json"
    p = cli("render", "shot", path, "--shot", "1")
    assert p.returncode == 0, p.stderr
    from conftest import ROOT
    import os

    old = os.getcwd()
    os.chdir(ROOT)
    try:
        svg = ck.render_shot(path, 1)
    finally:
        os.chdir(old)
    assert svg == p.stdout and svg._repr_svg_() == p.stdout
    with pytest.raises(ck.CrokinoleError, match="no shot 9"):
        ck.render_shot(ROOT / path, 9)


def test_params_are_the_cli_params(cli_json):
    assert ck.params() == cli_json("params")


def test_fit_is_the_cli_fit(cli, cli_json, tmp_path):
    expected = cli_json("fit", TRACKS, "--json", "--holdout", "0.3", "--seed", "2")
    params = tmp_path / "params.json"
    svg = tmp_path / "fit.svg"
    p = cli("fit", TRACKS, "--holdout", "0.3", "--seed", "2", "--physics-out", params, "--svg", svg)
    assert p.returncode == 0, p.stderr
    one = ck.fit(TRACKS, holdout=0.3, seed=2, threads=1)
    two = ck.fit(json.loads(TRACKS.read_text()), holdout=0.3, seed=2, threads=2, title=f"fit of {TRACKS}")
    assert one.report == expected and two.report == expected
    assert one.params == json.loads(params.read_text())
    assert one.svg() == svg.read_text() == two.svg()
    assert one.physics == one.params["physics"]
    # The fitted physics simulates: an Engine on the file's board with it.
    assert one.engine().physics["disc_restitution"] == one.physics["disc_restitution"]
    # Coefficients by name, as a list or as the command line's list.
    sub = cli_json("fit", TRACKS, "--json", "--fit", "board_friction,disc_restitution")
    assert ck.fit(TRACKS, coefficients="board_friction,disc_restitution").report == sub
    assert ck.fit(TRACKS, coefficients=["board_friction", "disc_restitution"]).report == sub


@pytest.mark.parametrize(
    "kwargs, words",
    [
        ({"coefficients": ["hole_speed"]}, ["coefficients[0]", "unknown coefficient"]),
        ({"coefficients": []}, ["coefficients", "at least one"]),
        ({"holdout": 1.0}, ["holdout", "[0, 1)"]),
        ({"max_iterations": 501}, ["max_iterations", "1..=500"]),
    ],
)
def test_a_bad_fit_request_names_the_field(kwargs, words):
    with pytest.raises(ck.CrokinoleError) as e:
        ck.fit(TRACKS, **kwargs)
    for w in words:
        assert w in str(e.value), str(e.value)
