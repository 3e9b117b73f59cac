"""Studies, games and planner searches on a Dask `LocalCluster` of worker processes
(issue #27): each task a shard run through the library, the merged results byte for byte
those of one process, also when a worker is killed in the middle of a study (Dask runs
its tasks again). Each case runs in a fresh interpreter under a time limit."""

from conftest import run_isolated

CLUSTER = """
import os, signal, threading, time
import crokinole as ck
from crokinole import distributed as cd
from distributed import Client, LocalCluster

if __name__ == "__main__":
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
"""


def test_study_games_and_plans_on_the_cluster_are_one_process_s():
    out = run_isolated(
        CLUSTER
        + """
    takeout = "fixtures/montecarlo/takeout.json"
    shards = cd.study_states(client, takeout, samples=3000, seed=3, shards=7)
    print(len(shards))
    merged = cd.study(client, takeout, samples=3000, seed=3, shards=7)
    print(merged._summary_json == ck.study(takeout, samples=3000, seed=3)._summary_json)
    strategies = ["random", "greedy:k=2"]
    games = cd.play(client, strategies, games=12, ruleset="tournament", seed=5, shards=5)
    print(games == ck.play(strategies, games=12, ruleset="tournament", seed=5))
    sources = ["fixtures/suggest/takeout.json", "fixtures/suggest/takeout.json"]
    plans = cd.suggest_many(client, sources, budget=1500, seed=2)
    print([p.plan for p in plans] == [ck.suggest(s, budget=1500, seed=2).plan for s in sources])
    client.close(); cluster.close()
"""
    )
    assert out.split() == ["7", "True", "True", "True"]


def test_a_worker_killed_mid_study_is_retried_with_the_same_result():
    out = run_isolated(
        CLUSTER
        + """
    takeout = "fixtures/montecarlo/takeout.json"
    result = {}
    run = threading.Thread(
        target=lambda: result.update(r=cd.study(client, takeout, samples=60_000, seed=9, shards=24))
    )
    run.start()
    # Kill (SIGKILL) the worker process running a shard once shards are running.
    killed = None
    deadline = time.time() + 60
    while killed is None and time.time() < deadline:
        busy = {w: tasks for w, tasks in client.processing().items() if tasks}
        if busy:
            worker = sorted(busy)[0]
            pid = client.run(os.getpid, workers=[worker])[worker]
            os.kill(pid, signal.SIGKILL)
            killed = pid
        time.sleep(0.05)
    run.join(240)
    pids = set(client.run(os.getpid).values())
    print(killed is not None, killed not in pids)
    one = ck.study(takeout, samples=60_000, seed=9)
    print(result["r"]._summary_json == one._summary_json)
    client.close(); cluster.close()
""",
        limit=400,
    )
    assert out.split() == ["True", "True", "True"]
