"""Fork safety (issue #27, item 4): once the parent has used the engine (its rayon pool
started), workers forked from it (a `multiprocessing` fork `Pool`, Gymnasium's
`AsyncVectorEnv` with the fork context) work and give the parent's results. Each case
runs in a fresh interpreter under a time limit, so a hang fails the test instead of
stalling the run."""

from conftest import run_isolated as run


def test_a_fork_pool_after_the_parent_used_the_engine():
    out = run(
        """
        import multiprocessing as mp
        import crokinole as ck

        def study(seed):
            s = ck.study("fixtures/montecarlo/takeout.json", samples=300, seed=seed)
            return s.summary

        def games(seed):
            return ck.play(["random", "greedy:k=2"], ruleset="tournament", seed=seed, games=2)

        here = [study(s) for s in (1, 2)], [games(s) for s in (1, 2)]   # the pool starts
        with mp.get_context("fork").Pool(2) as pool:
            there = pool.map_async(study, [1, 2]).get(120), pool.map_async(games, [1, 2]).get(120)
        print(here == there)
        """
    )
    assert out.split() == ["True"]


def test_async_vector_env_with_fork_after_the_parent_used_the_engine():
    out = run(
        """
        import gymnasium as gym
        import numpy as np
        import crokinole as ck

        opts = {"opponent": "greedy:k=2", "max_rounds": 1}
        # The parent uses the engine first: a batch and a native vector env.
        ck.Engine().simulate([], [], [], [[0.0, -0.3048]], [[0.0, 1.0]])
        native = gym.make_vec("crokinole/Crokinole-v0", num_envs=2, **opts)
        forked = gym.vector.AsyncVectorEnv(
            [lambda: gym.make("crokinole/Crokinole-v0", **opts)] * 2, context="fork"
        )
        a, _ = native.reset(seed=5)
        b, _ = forked.reset(seed=5)
        same = all(np.array_equal(a[k], b[k]) for k in a)
        rng = np.random.default_rng(0)
        for _ in range(12):
            act = rng.uniform(-1, 1, (2, 4)).astype(np.float32)
            a, ra, ta, ua, _ = native.step(act)
            b, rb, tb, ub, _ = forked.step(act)
            same &= all(np.array_equal(a[k], b[k]) for k in a)
            same &= np.array_equal(ra, rb) and np.array_equal(ta, tb) and np.array_equal(ua, ub)
        forked.close()
        print(bool(same))
        """
    )
    assert out.split() == ["True"]
