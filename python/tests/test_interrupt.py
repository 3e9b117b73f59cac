"""Ctrl-C during long calls: ``suggest`` with a huge budget, ``simulate_file`` and
``study`` of heavy inputs (a cage of pegs around 64 elastic frictionless discs, seconds a
shot) and ``play`` with a slow Python strategy each raise ``KeyboardInterrupt`` within a
second of the signal (``_thread.interrupt_main`` from a timer, as Ctrl-C in a terminal or a
notebook's interrupt button would). The bound asserted is generous (5 s) for a loaded
machine; each call would otherwise run for minutes."""

import _thread
import json
import math
import threading
import time

import pytest

import crokinole as ck

from conftest import FIXTURES

#: Time from the signal to the exception that the tests accept.
PROMPT = 5.0


def _cage():
    """The heavy cage: board and physics, and the 64 discs at rest inside it."""
    n, r = 110, 0.326
    pegs = [[r * math.cos(2 * math.pi * k / n), r * math.sin(2 * math.pi * k / n)] for k in range(n)]
    board = {"pegs": pegs, "hole_radius": 0.0001}
    physics = {
        "board_friction": 0.0,
        "disc_restitution": 1.0,
        "peg_restitution": 1.0,
        "disc_friction": 0.0,
        "peg_friction": 0.0,
        "max_time": 2000,
    }
    discs, d, y = [], 0.034, -0.26
    while y < 0.27 and len(discs) < 64:
        x = -0.3
        while x < 0.3 and len(discs) < 64:
            if 0.05 < math.hypot(x, y) < 0.285 and math.hypot(x, y + 0.3048) > 0.04:
                discs.append({"team": len(discs) % 2, "pos": [x, y]})
            x += d
        y += d
    return board, physics, discs


def _interrupted(call, after=0.5):
    """Runs ``call()`` with a Ctrl-C sent ``after`` seconds in; returns the seconds from
    the signal to the ``KeyboardInterrupt`` it must raise."""
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        _thread.interrupt_main()

    timer = threading.Timer(after, interrupt)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            call()
    finally:
        timer.cancel()
    assert sent, "the call ended before the signal"
    return time.monotonic() - sent[0]


def test_suggest_with_a_huge_budget_stops_within_a_second():
    took = _interrupted(
        lambda: ck.suggest(FIXTURES / "suggest" / "takeout.json", budget=100_000_000, threads=2)
    )
    assert took < PROMPT, took


def test_simulate_file_of_a_heavy_file_stops_within_a_second():
    board, physics, discs = _cage()
    shot = {"discs": discs, "shooter": {"team": 0, "pos": [0.0, -0.3048], "vel": [0.3, 3.0], "spin": 0.0}}
    file = {"board": board, "physics": physics, "shots": [shot] * 8}
    took = _interrupted(lambda: ck.simulate_file(file, threads=2))
    assert took < PROMPT, took


def test_a_study_of_heavy_samples_stops_within_a_second():
    board, physics, discs = _cage()
    study = {
        "board": board,
        "physics": physics,
        "seat": 0,
        "discs": discs,
        "flick": {"offset": 0.0, "aim": 0.1, "speed": 3.0},
        "noise": {"offset": 0.001, "aim": 0.01, "speed": 0.05, "spin": 1.0},
    }
    took = _interrupted(lambda: ck.study(study, samples=64, threads=2))
    assert took < PROMPT, took


def test_play_with_a_slow_python_strategy_stops_within_a_second():
    def slow(turn):
        time.sleep(0.05)
        return {"speed": 1.5}

    took = _interrupted(lambda: ck.play([slow, "planner:budget=1000000"], games=1, threads=2))
    assert took < PROMPT, took


def test_an_uninterrupted_call_is_unchanged(cli):
    # The cancellation checks leave results alone: the same plan as the command line.
    plan = ck.suggest(FIXTURES / "suggest" / "takeout.json", budget=2000)
    want = cli("suggest", FIXTURES / "suggest" / "takeout.json", "--budget", "2000")
    assert want.returncode == 0, want.stderr
    assert json.loads(want.stdout) == plan.plan
