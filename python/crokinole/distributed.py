"""Studies, planner searches and runs of games on a Dask cluster (``distributed``), with
the same bytes as one process.

Each task is a shard run through the library, and the shards merge exactly:

- :func:`study`: a Monte Carlo study split into ``shards`` shard states (what
  ``crokinole montecarlo --shard K/N`` prints), merged as ``crokinole merge`` merges
  them (re-simulating ``verify`` samples of each first). The summary is byte for byte
  :func:`crokinole.study`'s: a study's samples are a function of (seed, index) and the
  merge adds exact integer counts.
- :func:`play`: a run of games split into ranges of game indices; each range's tally
  (integer counts) is added, giving :func:`crokinole.play`'s summary.
- :func:`suggest_many`: a planner search per position, one task each, each plan
  :func:`crokinole.suggest`'s (one search is not split: its rounds depend on each other).

A task that fails because its worker died is run again by Dask (``allowed_failures``,
3 by default); its result is the same, as every shard is a pure function of its inputs.
Needs ``distributed`` (``pip install "./python[dask]"``). ``client`` is a
``distributed.Client`` (a ``LocalCluster``'s, a ``dask-jobqueue`` Slurm cluster's, ...).
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Mapping, Optional, Sequence, Union

from . import DEFAULT_NOISE, CrokinoleError, Plan, Source, Strategy, StudyResult, _noise, _text
from . import _crokinole

__all__ = ["play", "study", "study_states", "suggest_many"]


def _workers(client: Any) -> int:
    return max(1, len(client.scheduler_info().get("workers", {})))


def _key(kind: str, *parts: Any) -> str:
    """A task key naming its inputs, so a resubmitted task is recognised as the same."""
    digest = hashlib.sha256(json.dumps(parts, default=str).encode()).hexdigest()[:16]
    return f"crokinole-{kind}-{digest}"


def study_states(
    client: Any,
    source: Source,
    *,
    samples: int,
    seed: int = 0,
    shards: Optional[int] = None,
    threads: Optional[int] = None,
) -> list:
    """The shard states of a study (``shards`` of them; 4 per worker by default), each
    computed by a task on the cluster: the texts ``crokinole montecarlo --shard K/N``
    prints, for ``crokinole merge`` or :func:`study`."""
    text, _ = _text(source)
    n = shards if shards is not None else 4 * _workers(client)
    if not 1 <= n <= samples:
        raise CrokinoleError(f"field `shards`: must be between 1 and the samples ({samples}), got {n}")
    futures = [
        client.submit(
            _crokinole.study_shard, text, samples, seed, k, n, threads,
            key=_key("study", text, samples, seed, k, n), pure=True,
        )
        for k in range(1, n + 1)
    ]
    return client.gather(futures)


def study(
    client: Any,
    source: Source,
    *,
    samples: int = 10_000,
    seed: int = 0,
    shards: Optional[int] = None,
    verify: int = 8,
    verify_seed: int = 0,
    threads: Optional[int] = None,
) -> StudyResult:
    """:func:`crokinole.study` on the cluster: the summary is byte for byte the one
    process's. ``shards`` tasks (4 per worker by default) each run a shard; the merge
    re-simulates ``verify`` samples of each shard (chosen from ``verify_seed``) and
    refuses a shard that does not match (0: no check; a shard of more than 2^21 samples
    carries no records to check, so use more shards or ``verify=0``)."""
    text, _ = _text(source)
    states = study_states(client, source, samples=samples, seed=seed, shards=shards, threads=threads)
    return StudyResult(_crokinole.merge_study(states, verify, verify_seed), None, text)


def play(
    client: Any,
    strategies: Sequence[Strategy] = ("greedy", "montecarlo"),
    *,
    games: int,
    players: int = 2,
    ruleset: str = "traditional",
    noise: Union[str, Mapping[str, float], None] = DEFAULT_NOISE,
    seed: int = 0,
    max_rounds: int = 100,
    shards: Optional[int] = None,
    threads: Optional[int] = None,
) -> dict:
    """The summary :func:`crokinole.play` gives for ``games`` games (at least 2), the
    games played on the cluster in ``shards`` ranges of game indices (4 per worker by
    default). Python strategies must pickle (``cloudpickle`` takes most functions)."""
    if games < 2:
        raise CrokinoleError(f"field `games`: the distributed run gives a summary of 2 or more games, got {games}")
    n = min(games, shards if shards is not None else 4 * _workers(client))
    if n < 1:
        raise CrokinoleError(f"field `shards`: must be at least 1, got {n}")
    spec = (list(strategies), players, ruleset, _noise(noise), seed)
    bounds = [games * k // n for k in range(n + 1)]
    futures = [
        client.submit(
            _crokinole.play_shard, *spec, a, b, max_rounds, threads,
            key=_key("play", [str(s) for s in spec[0]], *spec[1:], a, b, max_rounds), pure=True,
        )
        for a, b in zip(bounds, bounds[1:])
    ]
    tallies = client.gather(futures)
    total = [sum(t[i] for t in tallies) for i in range(len(tallies[0]))]
    return json.loads(_crokinole.games_summary(*spec, max_rounds, total))


def suggest_many(
    client: Any,
    sources: Sequence[Source],
    *,
    budget: Union[int, str] = 20_000,
    objective: str = "score",
    top: int = 5,
    seed: int = 0,
    threads: Optional[int] = None,
) -> list:
    """:func:`crokinole.suggest` for each suggest file of ``sources`` (paths or dicts),
    one task each on the cluster: the plans, in order, each the one process's (with a
    sample budget; a budget in seconds depends on the machine)."""
    texts = [_text(s)[0] for s in sources]
    futures = [
        client.submit(
            _plan_text, t, str(budget), objective, top, seed, threads,
            key=_key("suggest", t, str(budget), objective, top, seed), pure=True,
        )
        for t in texts
    ]
    return [Plan(p) for p in client.gather(futures)]


def _plan_text(text: str, budget: str, objective: str, top: int, seed: int, threads: Optional[int]) -> str:
    return _crokinole.suggest(text, budget, objective, top, seed, threads)
