"""Named skill levels (docs/skill.md): a level's name goes wherever a noise does, reads as
the level's widths, and the summary and the plan name it."""

import json

import pytest

import crokinole as ck
from conftest import FIXTURES

OPENING = FIXTURES / "montecarlo" / "opening.json"


def test_the_table_lists_the_levels(cli):
    table = ck.skills()
    names = [level["name"] for level in table["levels"]]
    assert names == ["world", "elite", "competitive", "club", "casual"]
    for level in table["levels"]:
        assert abs(level["open20"]["p"] - level["target"]) <= 0.01
    assert table == json.loads(cli("params", "--skills").stdout)


def test_a_study_dict_takes_a_level_by_name():
    study = json.loads(OPENING.read_text())
    study["noise"] = "elite"
    named = ck.study(study, samples=500, seed=3, threads=1)
    assert named.summary["skill"] == "elite"
    elite = next(level for level in ck.skills()["levels"] if level["name"] == "elite")
    study["noise"] = elite["noise"]
    widths = ck.study(study, samples=500, seed=3, threads=2)
    assert widths.summary == named.summary
    study["noise"] = {"aim": 0.01}
    assert "skill" not in ck.study(study, samples=50, seed=3).summary


def test_the_plan_and_games_take_a_level():
    plan = ck.suggest({"seat": 0, "noise": "club"}, budget=2000)
    assert plan.plan["skill"] == "club"
    summary = ck.play(["greedy:k=2", "greedy:k=2"], noise="casual", games=2, max_rounds=1)
    assert summary["games"] == 2


def test_an_unknown_level_is_refused():
    with pytest.raises(ck.CrokinoleError, match="unknown skill level `pro`"):
        ck.study({"seat": 0, "flick": {"speed": 0.87}, "noise": "pro"}, samples=10)
    with pytest.raises(ck.CrokinoleError, match="world, elite, competitive, club or casual"):
        ck.play(["greedy", "greedy"], noise="pro")
