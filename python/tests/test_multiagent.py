"""Multi-agent play (issue #27, item 1): the PettingZoo environment (one agent per seat, 2
and 4 players, partnerships as teams) passes PettingZoo's API test, its rewards are the
teams' leads, and the Gymnasium environment takes a Python callable as its opponent."""

import numpy as np
import pytest
from pettingzoo.test import api_test

import crokinole as ck
from crokinole import crokinole_v0
from crokinole.env import CrokinoleEnv, CrokinoleVectorEnv


@pytest.mark.parametrize("players", [2, 4])
def test_passes_the_pettingzoo_api_test(players):
    api_test(crokinole_v0.env(players=players, max_rounds=1), num_cycles=300)


def play_out(env, seed, rng):
    """Plays a game with random actions; returns every agent's rewards as `last()` gave
    them, the rewards of each shot (`env.rewards` after it) and the actions."""
    env.reset(seed=seed)
    rewards = {a: [] for a in env.possible_agents}
    per_shot = []
    actions = []
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        rewards[agent].append(reward)
        if term or trunc:
            env.step(None)
            continue
        assert env.observation_space(agent).contains(obs)
        a = rng.uniform(-1, 1, 4).astype(np.float32)
        actions.append((agent, a.tolist()))
        env.step(a)
        per_shot.append(dict(env.rewards))
    return rewards, per_shot, actions


@pytest.mark.parametrize("players", [2, 4])
def test_partners_share_rewards_that_add_up_to_the_final_lead(players):
    env = crokinole_v0.env(players=players, max_rounds=2)
    rewards, per_shot, actions = play_out(env, 7, np.random.default_rng(0))
    log = env.unwrapped.game_log()
    assert [s["seat"] for s in log["seats"]] == ([0, 2] if players == 2 else [0, 1, 2, 3])
    # Two rounds of every disc: 8 each of 2 players, 6 each of 4 (tournament).
    assert len(log["shots"]) == len(actions) == 2 * (16 if players == 2 else 24)
    # The agents shot in the log's order, each its own seat.
    assert [f"seat_{s['seat']}" for s in log["shots"]] == [a for a, _ in actions]
    lead0 = log["score"][0] - log["score"][1]
    for agent, r in rewards.items():
        team = int(agent[-1]) // 2 if players == 2 else int(agent[-1]) % 2
        assert sum(r) == (lead0 if team == 0 else -lead0), agent
    # Every shot: the two teams' rewards are opposite, partners' equal.
    for r in per_shot:
        if players == 4:
            assert r["seat_0"] == r["seat_2"] == -r["seat_1"] == -r["seat_3"], r
        else:
            assert r["seat_0"] == -r["seat_2"], r
    assert any(r["seat_0"] != 0 for r in per_shot)
    # The same seed and actions give the same game.
    again = crokinole_v0.env(players=players, max_rounds=2)
    again.reset(seed=7)
    for agent, a in actions:
        assert again.agent_selection == agent
        again.step(np.array(a, dtype=np.float32))
    assert again.unwrapped.game_log() == log


def test_four_players_observe_their_own_team_and_the_seats_in_order():
    env = crokinole_v0.raw_env(players=4, max_rounds=1, noise="none")
    env.reset(seed=1)
    first = env.agent_selection
    env.step(np.array([0.0, 0.0, -0.5, 0.0], dtype=np.float32))  # a slow draw: stays on
    for agent in env.agents:
        obs = env.observe(agent)
        assert obs["discs_left"].shape == (4,)
        team = int(agent[-1]) % 2
        assert obs["mask"].sum() <= 1
        if obs["mask"][0]:
            assert obs["own"][0] == (1 if team == int(first[-1]) % 2 else 0)
        # From this seat on: its own count first.
        assert obs["discs_left"][0] == (5 if agent == first else 6)


def test_bad_options_are_refused():
    with pytest.raises(ck.CrokinoleError, match="field `players`: must be 2 or 4, got 3"):
        crokinole_v0.env(players=3)
    with pytest.raises(ck.CrokinoleError, match="field `reward`"):
        crokinole_v0.env(reward="money")
    with pytest.raises(ck.CrokinoleError, match="field `seat`: not an option of crokinole_v0"):
        crokinole_v0.env(seat=0)


def test_the_gymnasium_env_takes_a_python_opponent():
    seen = []

    def straight(turn):
        seen.append(turn["seat"])
        return {"offset": 0.05, "aim": 0.0, "speed": 0.8, "target": [0.0, 0.0]}

    env = CrokinoleEnv(opponent=straight, max_rounds=1)
    env.reset(seed=4)
    done = False
    while not done:
        _, _, term, trunc, _ = env.step(env.action_space.sample())
        done = term or trunc
    log = env.game_log()
    assert log["seats"][1]["strategy"] == "python:straight"
    theirs = [s for s in log["shots"] if s["seat"] == 2]
    assert len(theirs) == len(seen) == 8 and set(seen) == {2}
    assert all(s["intended"]["offset"] == 0.05 for s in theirs)
    # In the vector environment too, and an exception in the policy is raised again.
    vec = CrokinoleVectorEnv(3, opponent=straight, max_rounds=1)
    vec.reset(seed=0)
    vec.step(np.zeros((3, 4), dtype=np.float32))

    def broken(turn):
        raise RuntimeError("policy failed")

    broken_env = CrokinoleEnv(opponent=broken, seat=2)
    with pytest.raises(RuntimeError, match="policy failed"):
        for seed in range(20):  # until the opponent (seat 0) shoots first
            broken_env.reset(seed=seed)
            broken_env.step(broken_env.action_space.sample())
