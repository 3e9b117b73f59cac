"""Games between built-in strategies (the same logs and summaries as `crokinole play`) and
strategies written in Python playing against them."""

import numpy as np
import pytest

import crokinole as ck


def test_game_log_and_summary_are_the_cli_output(cli_json):
    args = ["--strategies", "random,greedy:k=2", "--ruleset", "tournament", "--seed", "3"]
    log = ck.play(["random", "greedy:k=2"], ruleset="tournament", seed=3)
    assert log == cli_json("play", *args)
    summary = ck.play(["random", "greedy:k=2"], ruleset="tournament", seed=3, games=3, threads=1)
    assert summary == cli_json("play", *args, "--games", "3")
    four = ck.play(["random", "greedy:k=2"], players=4, ruleset="tournament", noise="none", max_rounds=1)
    assert four == cli_json("play", "--players", "4", "--strategies", "random,greedy:k=2",
                            "--ruleset", "tournament", "--noise", "none", "--max-rounds", "1")


def test_a_python_strategy_plays_against_a_built_in_one():
    seen = []

    def draw(turn):
        seen.append(turn)
        # Straight at the 20 hole from the middle of the line, a little short.
        return {"offset": 0.0, "aim": 0.0, "speed": 0.8, "target": [0.0, 0.0]}

    log = ck.play([draw, "greedy:k=4"], ruleset="tournament", noise={"aim": 0.01}, max_rounds=2)
    assert [s["strategy"] for s in log["seats"]] == ["python:draw", "greedy:k=4:spin=0"]
    mine = [s for s in log["shots"] if s["seat"] == 0]
    assert len(mine) == len(seen) == 16
    for shot, turn in zip(mine, seen):
        assert turn["seat"] == 0 and turn["team"] == 0 and turn["ruleset"] == "tournament"
        assert shot["intended"]["speed"] == 0.8
        assert turn["discs"].shape == (len(turn["teams"]), 2)
    # Each turn sees the position the rules left: the discs of the shot before it.
    for a, b in zip(log["shots"], log["shots"][1:]):
        if b["seat"] == 0 and not a["round_end"]:
            turn = seen[mine.index(b)]
            assert [d["pos"] for d in a["verdict"]["position"]] == turn["discs"].tolist()
    # The same game twice: same log (the strategy is deterministic).
    again = ck.play([draw, "greedy:k=4"], ruleset="tournament", noise={"aim": 0.01}, max_rounds=2)
    assert again == log
    # A tuple answer works too, and many games run (GIL taken only for the callable).
    summary = ck.play([lambda t: (0.0, 0.0, 0.8, 0.0), "random"], ruleset="tournament", games=4, max_rounds=1)
    assert summary["games"] == 4


def test_python_strategy_errors():
    def boom(turn):
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        ck.play([boom, "random"])

    def off_the_line(turn):
        return {"offset": 0.3, "speed": 1.0}

    with pytest.raises(ck.CrokinoleError, match="illegal flick"):
        ck.play([off_the_line, "random"])

    with pytest.raises(ck.CrokinoleError, match="flick"):
        ck.play([lambda t: "fast", "random"])


def test_a_python_strategy_may_call_the_engine_itself():
    engine = ck.Engine()
    speeds = [0.8, 0.85, 0.9]

    def evaluating(turn):
        # Three speeds straight at the hole, run in one batch; keep the nearest to the centre.
        n = len(turn["teams"])
        pos, vel, spin = engine.flicks(turn["seat"], 0.0, 0.0, speeds, target=(0.0, 0.0))
        discs = np.broadcast_to(turn["discs"], (3, n, 2))
        teams = np.broadcast_to(turn["teams"].astype(np.int64), (3, n))
        try:
            b = engine.simulate(discs, teams, [n] * 3, pos, vel, spin, team=turn["team"])
        except ck.CrokinoleError:  # the middle of the line is taken
            return (0.0, 0.0, 0.85, 0.0)
        d = np.linalg.norm(b.pos[np.arange(3), n], axis=1)
        return {"speed": speeds[int(np.argmin(d))], "target": (0.0, 0.0)}

    one = ck.play([evaluating, "greedy:k=2"], ruleset="tournament", seed=2, threads=1)
    many = ck.play([evaluating, "greedy:k=2"], ruleset="tournament", seed=2, games=3)
    assert many["games"] == 3
    assert {s["intended"]["speed"] for s in one["shots"] if s["seat"] == 0} <= set(speeds)
