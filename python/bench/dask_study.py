"""Samples per second of a Monte Carlo study on a Dask `LocalCluster` of worker processes
against one process, and whether the two summaries are the same bytes.

    python python/bench/dask_study.py [SAMPLES] [WORKERS] [SHARDS] [STUDY_FILE]

Defaults: 10^8 samples of fixtures/montecarlo/opening.json, 2 workers of 1 thread each, 8
shards (shards above 2^21 samples carry no per-sample records, so the merge's check is
off: verify=0). One process runs with all cores (rayon). Wall-clock figures: they move
with the machine's load, so say what the machine was doing when quoting them."""

import os
import sys
import time

from distributed import Client, LocalCluster

import crokinole as ck
from crokinole import distributed as cd


def main() -> None:
    samples = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10**8
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    shards = int(sys.argv[3]) if len(sys.argv) > 3 else 8
    study = sys.argv[4] if len(sys.argv) > 4 else "fixtures/montecarlo/opening.json"
    print(f"cores {os.cpu_count()}, load {os.getloadavg()[0]:.1f}; {samples:,} samples of {study}", flush=True)
    t = time.perf_counter()
    one = ck.study(study, samples=samples, seed=0)
    single = time.perf_counter() - t
    print(f"one process: {single:.1f} s, {samples / single:,.0f} samples/s", flush=True)
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        t = time.perf_counter()
        merged = cd.study(client, study, samples=samples, seed=0, shards=shards, verify=0)
        spread = time.perf_counter() - t
    print(f"LocalCluster ({workers} workers x 1 thread, {shards} shards): {spread:.1f} s, {samples / spread:,.0f} samples/s", flush=True)
    print(f"same bytes: {merged._summary_json == one._summary_json}; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
