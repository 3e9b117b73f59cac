"""Errors as Python exceptions with the CLI's messages: the same bad input refused by
`crokinole` and by the package gives `error: MESSAGE` there and CrokinoleError(MESSAGE)
here."""

import json

import numpy as np
import pytest

import crokinole as ck
from conftest import FIXTURES, cli_error

GOOD_SHOT = {"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 0.85]}}

BAD_SHOT_FILES = [
    # A disc overlapping another.
    {
        "shots": [
            GOOD_SHOT,
            {
                "discs": [{"team": 1, "pos": [0.1, 0.1]}, {"team": 0, "pos": [0.11, 0.1]}],
                "shooter": GOOD_SHOT["shooter"],
            },
        ]
    },
    # An unknown key, a bad physics value, a bad team, a speed over max_speed.
    {"shots": [], "physics": {"dtt": 0.001}},
    {"shots": [], "physics": {"dt": -0.001}},
    {"shots": [{"discs": [{"team": 3, "pos": [0.1, 0.1]}], "shooter": GOOD_SHOT["shooter"]}]},
    {"shots": [{"discs": [], "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.0, 11.0]}}]},
    # Not JSON at all.
    "{\"shots\": [",
]


def write(tmp_path, name, content):
    path = tmp_path / name
    path.write_text(content if isinstance(content, str) else json.dumps(content))
    return path


@pytest.mark.parametrize("k", range(len(BAD_SHOT_FILES)))
def test_shot_file_errors_are_the_cli_messages(cli, tmp_path, k):
    path = write(tmp_path, f"bad{k}.json", BAD_SHOT_FILES[k])
    message = cli_error(cli, "simulate", path)
    with pytest.raises(ck.CrokinoleError) as e:
        ck.simulate_file(path)
    assert str(e.value) == message
    assert isinstance(e.value, ValueError)


def test_rules_and_wrong_kind_messages(cli, tmp_path):
    # A shot judged by the rules needs a seat.
    path = write(tmp_path, "noseat.json", {"shots": [GOOD_SHOT]})
    message = cli_error(cli, "simulate", path, "--rules")
    with pytest.raises(ck.CrokinoleError) as e:
        ck.simulate_file(path, rules="traditional")
    assert str(e.value) == message
    # A study file given where a shot file is read says what it looks like.
    study = FIXTURES / "montecarlo" / "takeout.json"
    message = cli_error(cli, "simulate", study)
    assert "looks like" in message
    with pytest.raises(ck.CrokinoleError) as e:
        ck.simulate_file(study)
    assert str(e.value) == message


def test_study_and_suggest_messages(cli, tmp_path):
    study = json.loads((FIXTURES / "montecarlo" / "takeout.json").read_text())
    study["noise"]["aim"] = -1.0
    path = write(tmp_path, "study.json", study)
    message = cli_error(cli, "montecarlo", path, "--samples", "10")
    with pytest.raises(ck.CrokinoleError) as e:
        ck.study(path, samples=10)
    assert str(e.value) == message
    plan = json.loads((FIXTURES / "suggest" / "takeout.json").read_text())
    plan["seat"] = 1
    path = write(tmp_path, "plan.json", plan)
    message = cli_error(cli, "suggest", path, "--budget", "3000")
    with pytest.raises(ck.CrokinoleError) as e:
        ck.suggest(path, budget=3000)
    assert str(e.value) == message
    # A bad flag is refused by the command line's parser; a bad argument here gives the
    # same reason, naming the argument as a field.
    p = cli("suggest", FIXTURES / "suggest" / "takeout.json", "--budget", "10")
    assert p.returncode == 2
    assert "'--budget <N|Ts>': must be at least 1000 samples, got 10" in p.stderr
    with pytest.raises(ck.CrokinoleError) as e:
        ck.suggest(FIXTURES / "suggest" / "takeout.json", budget=10)
    assert str(e.value) == "field `budget`: must be at least 1000 samples, got 10"
    # `top` is checked by the planner itself, with its own bound.
    with pytest.raises(ck.CrokinoleError) as e:
        ck.suggest(FIXTURES / "suggest" / "takeout.json", budget=3000, top=0)
    assert str(e.value) == "field `top`: must be 1 to 50, got 0"


def test_play_messages(cli):
    for strategies, noise in [("greedy,nope", "none"), ("greedy:k=0,random", "none"),
                              ("greedy,random", "aim=-1"), ("greedy,random", "wobble=1")]:
        message = cli_error(cli, "play", "--strategies", strategies, "--noise", noise)
        with pytest.raises(ck.CrokinoleError) as e:
            ck.play(strategies.split(","), noise=noise)
        assert str(e.value) == message


def test_array_errors_name_the_shot_and_field():
    engine = ck.Engine()
    discs = np.array([[[0.1, 0.1]], [[0.1, 0.1]]])
    pos = [[0.0, -0.3048]] * 2
    vel = [[0.0, 0.85]] * 2
    with pytest.raises(ck.CrokinoleError, match=r"^shot 1: field `shots\[1\]\.discs\[0\]\.team`: must be 0 or 1, got 7$"):
        ck.Engine().simulate(discs, [[0], [7]], [1, 1], pos, vel)
    with pytest.raises(ck.CrokinoleError, match=r"^shot 0: field `shots\[0\]\.shooter\.vel`"):
        engine.simulate(discs, [[0], [1]], [1, 1], pos, [[0.0, 99.0], [0.0, 0.85]])
    with pytest.raises(ck.CrokinoleError, match=r"^field `teams`: must have shape"):
        engine.simulate(discs, [[0, 1], [1, 1]], [1, 1], pos, vel)
    with pytest.raises(ck.CrokinoleError, match=r"^field `discs`: must have shape \[N, M, 2\]"):
        engine.simulate(np.zeros((2, 2)), [[0], [1]], [1, 1], pos, vel)
    with pytest.raises(ck.CrokinoleError, match=r"^shot 1: field `shots\[1\]\.counts`"):
        engine.simulate(discs, [[0], [1]], [1, 2], pos, vel)
    with pytest.raises(ck.CrokinoleError, match=r"^field `flicks\[1\]\.speed`"):
        engine.flicks(0, offset=0.0, aim=0.0, speed=[1.0, -1.0])


def test_unreadable_files_raise_oserror(cli, tmp_path):
    missing = tmp_path / "no-such-file.json"
    p = cli("simulate", missing)
    assert p.returncode == 1
    with pytest.raises(OSError) as e:
        ck.simulate_file(missing)
    assert p.stderr.strip() == f"error: {e.value}"


def test_per_shot_values_broadcast_or_are_refused():
    engine = ck.Engine()
    args = (np.zeros((2, 0, 2)), np.zeros((2, 0)), [0, 0], [[0.0, -0.3048]] * 2, [[0.0, 0.85]] * 2)
    a = engine.simulate(*args, spin=[0.0, 0.0], team=[0, 0])
    b = engine.simulate(*args, spin=0.0, team=0)
    assert np.array_equal(a.pos, b.pos, equal_nan=True)
    with pytest.raises(ck.CrokinoleError, match=r"^field `spin`: must have shape \[2\]"):
        engine.simulate(*args, spin=[0.0, 0.0, 0.0])


def test_fractional_counts_and_teams_are_refused_not_truncated():
    # Issue #23, item 11: 0.99 became 0 and -0.5 became 0 without a word.
    engine = ck.Engine()
    discs = np.array([[[0.1, 0.1]]])
    pos, vel = np.array([[0.0, -0.3048]]), np.array([[0.0, 0.85]])
    with pytest.raises(ck.CrokinoleError, match=r"field `counts`: must hold whole numbers, got 0\.99"):
        engine.simulate(discs, [[0]], [0.99], pos, vel)
    for bad in (0.9, -0.5):
        with pytest.raises(ck.CrokinoleError, match="field `teams`: must hold whole numbers"):
            engine.simulate(discs, [[bad]], [1], pos, vel)
        with pytest.raises(ck.CrokinoleError, match="field `team`: must hold whole numbers"):
            engine.simulate(discs, [[0]], [1], pos, vel, team=bad)
    # Whole numbers written as floats are whole numbers.
    a = engine.simulate(discs, [[1.0]], [1.0], pos, vel, team=0.0)
    b = engine.simulate(discs, [[1]], [1], pos, vel, team=0)
    assert a.steps.tolist() == b.steps.tolist()


def test_numpy_scalars_in_a_study_dict_are_numbers():
    # Issue #23, item 11: numpy.int64 in a dict raised TypeError from json.
    study = json.loads((FIXTURES / "montecarlo" / "takeout.json").read_text())
    plain = ck.study(study, samples=20, seed=1).summary
    study["seat"] = np.int64(study["seat"])
    study["flick"]["speed"] = np.float64(study["flick"]["speed"])
    study["discs"][0]["pos"] = np.array(study["discs"][0]["pos"])
    assert ck.study(study, samples=20, seed=1).summary == plain
    study["seat"] = object()
    with pytest.raises(ck.CrokinoleError, match="not a JSON value"):
        ck.study(study, samples=20, seed=1)


def test_a_strategys_nan_flick_names_the_field_and_the_reason():
    # Issue #23, item 11: "chose an illegal flick" alone did not say what was wrong.
    with pytest.raises(ck.CrokinoleError, match=r"chose an illegal flick: field `flick.speed`: must be a finite number, got NaN"):
        ck.play([lambda t: (0.0, 0.0, float("nan"), 0.0), "random"])
    with pytest.raises(ck.CrokinoleError, match=r"illegal flick: field `flick.offset`"):
        ck.play([lambda t: {"offset": 0.3, "speed": 1.0}, "random"])
