"""Gymnasium's vector API on the native vector environment (issue #27, item 2): `make_vec`
returns it, the three autoreset modes equal single environments stepped alike, and the
vector wrappers (flatten, normalise, record statistics) run on it."""

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers import vector as wv

import crokinole as ck
from crokinole.env import CrokinoleEnv, CrokinoleVectorEnv

FAST = {"opponent": "random", "max_rounds": 1}


def same_obs(vec_obs, i, obs):
    return all(np.array_equal(vec_obs[k][i], obs[k]) for k in obs)


def test_make_vec_returns_the_native_env_in_next_step_mode_by_default():
    vec = gym.make_vec("crokinole/Crokinole-v0", num_envs=2, **FAST)
    assert isinstance(vec, CrokinoleVectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    vec = gym.make_vec("crokinole/Crokinole-v0", num_envs=2,
                       autoreset_mode=AutoresetMode.DISABLED, **FAST)
    assert isinstance(vec, CrokinoleVectorEnv)
    assert vec.metadata["autoreset_mode"] == AutoresetMode.DISABLED
    with pytest.raises(ck.CrokinoleError, match="field `autoreset_mode`: expected one of NEXT_STEP, SAME_STEP, DISABLED"):
        CrokinoleVectorEnv(2, autoreset_mode="sometimes", **FAST)


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.DISABLED])
def test_next_step_and_disabled_modes_equal_single_envs(mode):
    n = 3
    rng = np.random.default_rng(5)
    vec = CrokinoleVectorEnv(n, autoreset_mode=mode, **FAST)
    singles = [CrokinoleEnv(**FAST) for _ in range(n)]
    obs, _ = vec.reset(seed=7)
    for i, e in enumerate(singles):
        assert same_obs(obs, i, e.reset(seed=7 + i)[0])
    pending = np.zeros(n, dtype=bool)  # ended on the last step
    ended = 0
    for _ in range(30):
        actions = rng.uniform(-1, 1, (n, 4)).astype(np.float32)
        if mode == AutoresetMode.DISABLED and pending.any():
            obs, info = vec.reset(options={"reset_mask": pending})
            assert info["_game_index"].tolist() == pending.tolist()
            for i in np.flatnonzero(pending):
                assert same_obs(obs, i, singles[i].reset()[0])
            pending[:] = False
        obs, reward, term, trunc, info = vec.step(actions)
        for i, e in enumerate(singles):
            if pending[i]:  # NEXT_STEP: this step reset game i, its action ignored
                assert reward[i] == 0 and not term[i] and not trunc[i] and not info["_illegal"][i]
                assert same_obs(obs, i, e.reset()[0])
                continue
            o, r, te, tr, _ = e.step(actions[i])
            assert r == reward[i] and te == term[i] and tr == trunc[i]
            assert same_obs(obs, i, o)
        pending = np.logical_or(term, trunc)
        ended += int(pending.sum())
    assert ended >= n


def test_disabled_mode_refuses_to_step_an_ended_game():
    vec = CrokinoleVectorEnv(2, autoreset_mode=AutoresetMode.DISABLED, **FAST)
    vec.reset(seed=1)
    done = np.zeros(2, dtype=bool)
    while not done.any():
        _, _, term, trunc, _ = vec.step(np.zeros((2, 4), dtype=np.float32))
        done = term | trunc
    with pytest.raises(ck.CrokinoleError, match=r"game \d has ended: reset it before stepping"):
        vec.step(np.zeros((2, 4), dtype=np.float32))
    with pytest.raises(ck.CrokinoleError, match="field `reset_mask`"):
        vec.reset(options={"reset_mask": [1, 0]})


def test_same_step_mode_gives_final_obs_and_final_info():
    vec = CrokinoleVectorEnv(2, autoreset_mode=AutoresetMode.SAME_STEP, **FAST)
    vec.reset(seed=3)
    for _ in range(20):
        _, _, term, trunc, info = vec.step(np.zeros((2, 4), dtype=np.float32))
        done = term | trunc
        if done.any():
            assert info["_final_obs"].tolist() == done.tolist()
            assert info["_final_info"].tolist() == done.tolist()
            assert info["_game_index"].tolist() == done.tolist()
            i = int(np.flatnonzero(done)[0])
            assert vec.single_observation_space.contains(info["final_obs"][i])
            return
    pytest.fail("no game ended in 20 steps of one-round games")


@pytest.mark.parametrize("mode", list(AutoresetMode))
def test_the_vector_wrappers_run_on_it(mode):
    n = 4
    vec = gym.make_vec("crokinole/Crokinole-v0", num_envs=n, autoreset_mode=mode, **FAST)
    # Each wrapper where Gymnasium allows it: the observation wrappers take NEXT_STEP or
    # DISABLED, the normalising ones NEXT_STEP only.
    env = wv.RecordEpisodeStatistics(vec)
    if mode != AutoresetMode.SAME_STEP:
        env = wv.FlattenObservation(env)
    if mode == AutoresetMode.NEXT_STEP:
        env = wv.NormalizeReward(wv.NormalizeObservation(env))
    obs, _ = env.reset(seed=0)
    flat = gym.spaces.flatdim(vec.single_observation_space)
    if mode != AutoresetMode.SAME_STEP:
        assert obs.shape == (n, flat) and obs.dtype.kind == "f"
    episodes = 0
    for _ in range(30):
        if mode == AutoresetMode.DISABLED and "done" in locals() and done.any():
            obs, _ = env.reset(options={"reset_mask": done})
        obs, reward, term, trunc, info = env.step(env.action_space.sample())
        done = term | trunc
        assert reward.shape == (n,) and np.isfinite(reward).all()
        if "episode" in info:
            episodes += int(info["_episode"].sum())
            assert (info["episode"]["l"][info["_episode"]] > 0).all()
    assert episodes >= n  # one-round games: 8 agent steps each


def test_benchmark_vector_step_runs():
    from gymnasium.utils.performance import benchmark_vector_step

    vec = CrokinoleVectorEnv(4, **FAST)
    assert benchmark_vector_step(vec, target_duration=1, seed=0) > 0
    dis = CrokinoleVectorEnv(4, autoreset_mode=AutoresetMode.DISABLED, **FAST)
    assert benchmark_vector_step(dis, target_duration=1, seed=0) > 0
