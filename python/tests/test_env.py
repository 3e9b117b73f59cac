"""The Gymnasium environments: the env checker, reproducible resets, rewards that add up
to the game's result, and the native vector environment equal to single environments."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

import crokinole as ck
from crokinole.env import CrokinoleEnv, CrokinoleVectorEnv

FAST = {"opponent": "greedy:k=2", "max_rounds": 2}


def test_passes_the_env_checker():
    env = gym.make("crokinole/Crokinole-v0", **FAST)
    check_env(env.unwrapped)
    env = gym.make("crokinole/Crokinole-v0", seat=2, opponent="random", ruleset="traditional", max_rounds=1)
    check_env(env.unwrapped)


def episode(env, seed, actions):
    obs, _ = env.reset(seed=seed)
    trace = [obs]
    rewards = []
    for a in actions:
        obs, r, term, trunc, info = env.step(a)
        trace.append(obs)
        rewards.append(r)
        if term or trunc:
            break
    return trace, rewards


def same(a, b):
    return len(a) == len(b) and all(
        all(np.array_equal(x[k], y[k]) for k in x) for x, y in zip(a, b)
    )


def test_reset_with_a_seed_is_reproducible():
    actions = np.random.default_rng(0).uniform(-1, 1, (40, 4))
    env = CrokinoleEnv(**FAST)
    t1, r1 = episode(env, 11, actions)
    t2, r2 = episode(env, 11, actions)
    t3, r3 = episode(CrokinoleEnv(**FAST), 11, actions)
    assert same(t1, t2) and same(t1, t3) and r1 == r2 == r3
    t4, _ = episode(env, 12, actions)
    assert not same(t1, t4)


def test_score_rewards_add_up_to_the_final_lead_and_win_rewards_to_the_result():
    actions = np.random.default_rng(1).uniform(-1, 1, (100, 4))
    for seat in (0, 2):
        env = CrokinoleEnv(seat=seat, opponent="random", ruleset="tournament")
        trace, rewards = episode(env, 5, actions)
        log = env.game_log()
        team = ck.team_of_seat(seat)
        lead = log["score"][team] - log["score"][1 - team]
        assert log["result"] is not None and sum(rewards) == lead
        assert trace[-1]["score"].tolist() == [log["score"][team], log["score"][1 - team]]
        win = CrokinoleEnv(seat=seat, opponent="random", ruleset="tournament", reward="win")
        _, w = episode(win, 5, actions)
        assert w[:-1] == [0.0] * (len(w) - 1)
        assert w[-1] == (0.0 if log["winner"] is None else (1.0 if log["winner"] == team else -1.0))


def test_actions_are_the_documented_flicks_and_noise_is_applied():
    env = CrokinoleEnv(**FAST)
    f = env.flick([1.0, -1.0, -1.0, 0.5])
    assert f["offset"] == pytest.approx(0.9 * 0.3048 / np.sqrt(2))
    assert f["aim"] == -0.25 and f["speed"] == 0.3 and f["spin"] == 10.0
    assert env.flick([5, 5, 5, 5]) == env.flick([1, 1, 1, 1])
    env.reset(seed=3)
    env.step([0.0, 0.0, -0.55, 0.0])
    shot = next(s for s in env.game_log()["shots"] if s["seat"] == 0)
    assert shot["intended"]["speed"] == pytest.approx(0.3 + 0.225 * 2.7)
    assert shot["executed"] != shot["intended"]  # the default noise perturbs it
    quiet = CrokinoleEnv(noise="none", **FAST)
    quiet.reset(seed=3)
    quiet.step([0.0, 0.0, -0.55, 0.0])
    shot = next(s for s in quiet.game_log()["shots"] if s["seat"] == 0)
    assert shot["executed"] == shot["intended"]


def test_vector_env_equals_single_envs():
    n = 3
    rng = np.random.default_rng(2)
    vec = CrokinoleVectorEnv(num_envs=n, autoreset_mode=AutoresetMode.SAME_STEP, **FAST)
    singles = [CrokinoleEnv(**FAST) for _ in range(n)]
    obs, _ = vec.reset(seed=40)
    single_obs = [e.reset(seed=40 + i)[0] for i, e in enumerate(singles)]
    for i in range(n):
        assert all(np.array_equal(obs[k][i], single_obs[i][k]) for k in obs)
    ended = 0
    for _ in range(40):
        actions = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
        obs, reward, term, trunc, info = vec.step(actions)
        for i, e in enumerate(singles):
            o, r, te, tr, _ = e.step(actions[i])
            assert r == reward[i] and te == term[i] and tr == trunc[i]
            if te or tr:
                ended += 1
                assert all(np.array_equal(info["final_obs"][i][k], o[k]) for k in o)
                o, _ = e.reset()  # the vector env reset this game at once
            assert all(np.array_equal(obs[k][i], o[k]) for k in obs), i
    assert ended >= n  # every game ended at least once (two rounds of 8 discs each)


def test_bad_options_are_refused():
    with pytest.raises(ck.CrokinoleError, match="seat"):
        CrokinoleEnv(seat=1)
    with pytest.raises(ck.CrokinoleError, match="opponent"):
        CrokinoleEnv(opponent="nope")
    with pytest.raises(ck.CrokinoleError, match="reward"):
        CrokinoleEnv(reward="money")
    with pytest.raises(ck.CrokinoleError, match="speed_range"):
        CrokinoleEnv(speed_range=(0.0, 3.0))
    env = CrokinoleEnv(**FAST)
    with pytest.raises(ck.CrokinoleError, match="has not been reset"):
        env.step([0, 0, 0, 0])


def test_make_vec_uses_the_native_vector_env():
    vec = gym.make_vec("crokinole/Crokinole-v0", num_envs=2,
                       vectorization_mode="vector_entry_point", **FAST)
    assert isinstance(vec, CrokinoleVectorEnv) and vec.num_envs == 2
    obs, _ = vec.reset(seed=1)
    assert obs["discs"].shape == (2, 16, 2) and vec.observation_space.contains(obs)
    obs, reward, term, trunc, _ = vec.step(np.zeros((2, 4), dtype=np.float32))
    assert vec.observation_space.contains(obs) and reward.shape == (2,)


def test_team_of_seat_is_the_librarys_rule():
    # Issue #36: the package computed the team itself and answered 0 for seat 1 of a
    # two-player game, where the library says no such seat plays.
    assert [ck.team_of_seat(s) for s in (0, 2)] == [0, 1]
    assert [ck.team_of_seat(s, 4) for s in range(4)] == [0, 1, 0, 1]
    for seat, players in ((1, 2), (3, 2), (4, 4), (0, 3), (-1, 2), (300, 4)):
        with pytest.raises(ck.CrokinoleError):
            ck.team_of_seat(seat, players)


def test_the_default_noise_is_the_librarys():
    from crokinole import _crokinole

    assert ck.DEFAULT_NOISE == _crokinole.DEFAULT_NOISE == "offset=0.003,aim=0.01,speed=0.03,spin=0.5"
