"""The example match players of examples/players/ (docs/match.md) in real refereed games:
the one that asks the package's planner for each flick, and the one with nothing but the
standard library, each against a built-in strategy; the logs replay bit for bit."""

import json
import shlex
import sys

import pytest

from conftest import ROOT


def _match(cli, tmp_path, player, seed):
    log = tmp_path / f"match-{seed}.jsonl"
    command = f"{shlex.quote(sys.executable)} {player}"
    r = cli("match", "--player", command, "--player", "builtin:greedy:k=4",
            "--ruleset", "tournament", "--max-rounds", "1", "--seed", seed,
            "--shot-clock", "60", "--log", log)
    assert r.returncode == 0, r.stderr
    assert str(log) in r.stdout
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    replay = cli("match", "replay", log)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    return lines


def _shots(lines, seat):
    return [l["msg"] for l in lines
            if l.get("dir") == "to" and l.get("msg", {}).get("type") == "shot"
            and l["msg"]["seat"] == seat and l["seat"] == seat]


@pytest.mark.parametrize("player", ["planner.py 1000", "simple.py"])
def test_an_example_player_plays_a_refereed_game_without_a_forfeit(cli, tmp_path, player):
    path = ROOT / "examples" / "players" / player.split()[0]
    args = " ".join([shlex.quote(str(path)), *player.split()[1:]])
    lines = _match(cli, tmp_path, args, 5)
    ends = [l["msg"] for l in lines if l.get("msg", {}).get("type") == "game_end"]
    assert ends, "the game ended"
    mine = _shots(lines, 0)
    assert len(mine) == 8, "seat 0 shot its eight discs"
    # Every shot played, none forfeited: the flicks were legal and in time.
    assert all("forfeit" not in s for s in mine), [s.get("forfeit") for s in mine]
