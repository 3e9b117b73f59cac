"""Benchmarks of the Python package (run after installing it: `pip install ./python`).

    python python/bench/bench.py [SHOT_FILE] [--repeat R] [--envs N] [--steps S]

1. **Python call overhead on a batch** (default `fixtures/crowded.json`, 200 crowded
   shots; any shot file of the benchmark shape works): the file's shots as arrays through
   `Engine.simulate(..., threads=1)`, against `crokinole simulate FILE --threads 1` end to
   end (the release binary of `cargo build --release`). The overhead of the call (checking
   the arrays, building the shots, packing the results) is bounded from above by the same
   call on the same positions with every shooter flicked at 1 mm/s (a shot of a few steps):
   its time per shot is reported as a share of the simulation time per shot.
2. **Vector environment throughput**: `CrokinoleVectorEnv(num_envs=N)` stepped `S` times
   with random actions, against a Python loop over `N` single `CrokinoleEnv`s given the
   same actions (identical games), in agent steps per second (each step includes the
   opponent's replies).

Times are the minimum over `R` repeats (wall clock, `time.perf_counter`); the machine's
load at the start is printed, since a shared machine moves every figure.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import time
from pathlib import Path

import numpy as np

import crokinole as ck
from crokinole.env import CrokinoleEnv, CrokinoleVectorEnv

ROOT = Path(__file__).resolve().parents[2]


def best(f, repeat: int) -> float:
    """The least wall time of `repeat` calls of `f`."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def arrays_of(shots: list) -> tuple:
    """A shot file's shots as the arrays of `Engine.simulate`."""
    n = len(shots)
    m = max(len(s["discs"]) for s in shots)
    discs = np.zeros((n, m, 2))
    teams = np.zeros((n, m), dtype=np.int64)
    counts = np.array([len(s["discs"]) for s in shots])
    for k, s in enumerate(shots):
        for j, d in enumerate(s["discs"]):
            discs[k, j] = d["pos"]
            teams[k, j] = d["team"]
    pos = np.array([s["shooter"]["pos"] for s in shots])
    vel = np.array([s["shooter"]["vel"] for s in shots])
    spin = np.array([s["shooter"].get("spin", 0.0) for s in shots])
    team = np.array([s["shooter"]["team"] for s in shots])
    return discs, teams, counts, pos, vel, spin, team


def batch_overhead(path: Path, repeat: int) -> None:
    file = json.loads(path.read_text())
    shots = file["shots"]
    n = len(shots)
    engine = ck.Engine.from_file(path)
    args = arrays_of(shots)
    exe = ROOT / "target" / "release" / "crokinole"
    if not exe.exists():
        subprocess.run(["cargo", "build", "--release", "--bin", "crokinole"], cwd=ROOT, check=True)

    def cli():
        subprocess.run(
            [str(exe), "simulate", str(path), "--threads", "1"],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    t_cli = best(cli, repeat)
    t_py = best(lambda: engine.simulate(*args, threads=1), repeat)
    # The same call with every shooter barely moving: the call's own cost plus a few steps.
    slow = list(args)
    slow[4] = args[4] / np.linalg.norm(args[4], axis=1, keepdims=True) * 1e-3
    t_min = best(lambda: engine.simulate(*slow, threads=1), repeat)
    sim = (t_py - t_min) / n
    print(f"batch: {path.name}, {n} shots, 1 thread")
    print(f"  crokinole simulate (end to end):   {t_cli * 1e3:8.2f} ms  {t_cli / n * 1e6:7.1f} us/shot")
    print(f"  Engine.simulate (arrays):          {t_py * 1e3:8.2f} ms  {t_py / n * 1e6:7.1f} us/shot")
    print(f"  the same call, shooters at 1 mm/s: {t_min * 1e3:8.2f} ms  {t_min / n * 1e6:7.1f} us/shot")
    print(
        f"  overhead of the call, at most:     {t_min / n * 1e6:7.2f} us/shot = "
        f"{100 * t_min / n / sim:.1f} % of the simulation ({sim * 1e6:.1f} us/shot)"
    )
    print(f"  Python call / CLI end to end:      {t_py / t_cli:.3f}")


def vector_env(n: int, steps: int, repeat: int, opponent: str) -> None:
    rng = np.random.default_rng(0)
    actions = rng.uniform(-1, 1, (steps, n, 4))
    options = {"opponent": opponent}

    def native():
        env = CrokinoleVectorEnv(num_envs=n, **options)
        env.reset(seed=0)
        for a in actions:
            env.step(a)

    def loop():
        envs = [CrokinoleEnv(**options) for _ in range(n)]
        for i, e in enumerate(envs):
            e.reset(seed=i)
        for a in actions:
            for i, e in enumerate(envs):
                _, _, term, trunc, _ = e.step(a[i])
                if term or trunc:
                    e.reset()

    t_vec = best(native, repeat)
    t_loop = best(loop, repeat)
    total = n * steps
    print(f"vector env: {n} games x {steps} steps, opponent {opponent}")
    print(f"  CrokinoleVectorEnv (one rayon batch per step): {total / t_vec:9.0f} steps/s")
    print(f"  Python loop over {n} CrokinoleEnv:             {total / t_loop:9.0f} steps/s")
    print(f"  speed-up: {t_loop / t_vec:.2f}x")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("file", nargs="?", default=str(ROOT / "fixtures" / "crowded.json"))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--envs", type=int, default=64)
    p.add_argument("--steps", type=int, default=16)
    p.add_argument("--opponent", default="random")
    a = p.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    batch_overhead(Path(a.file), a.repeat)
    vector_env(a.envs, a.steps, a.repeat, a.opponent)


if __name__ == "__main__":
    main()
