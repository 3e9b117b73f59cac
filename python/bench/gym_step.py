"""Gymnasium's own step benchmarks on the environments: `benchmark_step` on a single
`CrokinoleEnv`, `benchmark_vector_step` on the native `CrokinoleVectorEnv` (NEXT_STEP mode)
and on Gymnasium's `SyncVectorEnv` of single environments, for each opponent given.

    python python/bench/gym_step.py [NUM_ENVS] [SECONDS] [OPPONENT ...]

Prints agent steps per second (each step is the agent's shot and the opponent's reply).
Random actions from the action space, seed 0. Wall-clock figures: they move with the
machine's load, so say what the machine was doing when quoting them."""

import os
import sys

import gymnasium as gym
from gymnasium.utils.performance import benchmark_step, benchmark_vector_step

import crokinole  # noqa: F401  (registers the environment)
from crokinole.env import CrokinoleVectorEnv


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 16
    seconds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    opponents = sys.argv[3:] or ["random", "greedy:k=8"]
    print(f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}, num_envs {n}, {seconds} s each")
    for opponent in opponents:
        single = gym.make("crokinole/Crokinole-v0", opponent=opponent)
        s = benchmark_step(single, target_duration=seconds, seed=0)
        native = benchmark_vector_step(CrokinoleVectorEnv(n, opponent=opponent), target_duration=seconds, seed=0)
        sync = gym.make_vec("crokinole/Crokinole-v0", num_envs=n, vectorization_mode="sync", opponent=opponent)
        v = benchmark_vector_step(sync, target_duration=seconds, seed=0)
        print(f"{opponent}: single {s:,.0f}/s, native vector {native:,.0f}/s, sync vector {v:,.0f}/s")


if __name__ == "__main__":
    main()
