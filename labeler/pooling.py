"""Pool membership: which (topic, unit) pairs are eligible to be judged.

A pool is computed from plain rankings, never from the store, so the same code
builds a pool, re-pools after a new run arrives and simulates leave-one-run-out.
Each entry keeps every (run, rank) that brought it in, so uniqueness, coverage
and bias reports can be recomputed later without re-reading the runs. The order
in which a pool is judged is a separate question (see `labeler.ordering`).

Rankings are `{topic_id: [unit_id, ...]}` in canonical order (best first); a
set of runs is `{run_name: rankings}` whose insertion order is the fixed run
order used wherever runs tie. Pools are `{topic_id: {unit_id: PoolEntry}}`
with topics in `topic_sort_key` order and units by id, so equal inputs give
equal pools; topics with no pooled unit are left out.

The strategies `labeler pool build --strategy` offers are a registry:
`@STRATEGIES.register(name, doc=..., records=...)` on one function taking the
runs and a `PoolRequest` is all a new strategy needs; the build service and
the CLI's choices and help read it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import itemgetter

from labeler.pool_models import PoolEntry as PoolEntry  # re-exported: a pool is made of them
from labeler.pool_models import topic_sort_key
from labeler.registry import Registry
from labeler.wording import alternatives

RRF_K = 60
_RANK = itemgetter(1)

Rankings = Mapping[str, Sequence[str]]
Runs = Mapping[str, Rankings]


Pool = dict[str, dict[str, PoolEntry]]
# What readers of a pool accept: any mapping of the same shape, such as one rebuilt from the store.
PoolView = Mapping[str, Mapping[str, PoolEntry]]


def _require_positive(name: str, value: int) -> None:
    """Refuse non-integers and values below 1 with a message naming the parameter."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be an integer of at least 1, not {value!r}")


def _ranks(run: str, topic_id: str, ranking: Sequence[str]) -> dict[str, int]:
    """unit -> 1-based rank; a repeated unit is a caller bug (canonical rankings never repeat)."""
    ranks = dict(zip(ranking, range(1, len(ranking) + 1), strict=True))  # built in C: the common case, no repeats
    if len(ranks) == len(ranking):
        return ranks
    ranks = {}  # a repeat: find the first one, for the message
    for rank, unit in enumerate(ranking, start=1):
        if unit in ranks:
            raise ValueError(f"run {run!r} ranks unit {unit!r} twice for topic {topic_id!r}")
        ranks[unit] = rank
    return ranks


def _topics(runs: Runs) -> list[str]:
    """Every topic any run ranks, in `topic_sort_key` order."""
    return sorted({topic for rankings in runs.values() for topic in rankings}, key=topic_sort_key)


def _topic_ranks(runs: Runs, topic_id: str) -> dict[str, dict[str, int]]:
    """run -> unit -> rank for one topic, in run order; runs without the topic are left out."""
    return {run: _ranks(run, topic_id, rankings[topic_id]) for run, rankings in runs.items() if topic_id in rankings}


def _fuse(ranks_by_run: Mapping[str, Mapping[str, int]], k: int) -> dict[str, float]:
    """RRF over one topic.

    `math.fsum` is correctly rounded, so units whose ranks form the same multiset
    get bit-identical scores whatever the run order, and ties stay ties.
    """
    terms: dict[str, list[float]] = {}
    for ranks in ranks_by_run.values():
        for unit, rank in ranks.items():
            terms.setdefault(unit, []).append(1.0 / (k + rank))
    return {unit: math.fsum(parts) for unit, parts in terms.items()}


def _validate_k(k: int) -> None:
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"RRF k must be an integer of at least 0, not {k!r}")


def rrf_scores(runs: Runs, k: int = RRF_K) -> dict[str, dict[str, float]]:
    """topic -> unit -> sum over runs of 1/(k + rank), over each run's full ranking.

    k = 60 is Cormack, Clarke & Büttcher (2009).
    """
    _validate_k(k)
    return {topic: _fuse(_topic_ranks(runs, topic), k) for topic in _topics(runs)}


def rrf_ranking(scores: Mapping[str, float]) -> list[str]:
    """Units by fused score descending, ties by unit id ascending (codepoint order).

    String order is the literature's recommended default; it is pinned by a
    test because it decides which of two tied units enters a top-N pool.
    """
    return sorted(scores, key=lambda unit: (-scores[unit], unit))


def _entry(topic_id: str, unit_id: str, contributors: list[tuple[str, int]], rrf: float) -> PoolEntry:
    best = min(rank for _, rank in contributors)
    return PoolEntry(topic_id, unit_id, best, tuple(contributors), rrf)


def _validate_run_depths(runs: Runs, run_depths: Mapping[str, int]) -> None:
    unknown = sorted(set(run_depths) - set(runs))
    if unknown:
        raise ValueError(f"run_depths names runs that were not given: {', '.join(unknown)}")
    for run, run_depth in run_depths.items():
        _require_positive(f"depth of run {run!r}", run_depth)


def depth_pool(
    runs: Runs,
    depth: int,
    run_depths: Mapping[str, int] | None = None,
    *,
    fuse: bool = True,
    distinct: bool = False,
) -> Pool:
    """The union over runs of each run's top `run_depths.get(run, depth)` units, per topic.

    Per-run depths follow TREC practice (e.g. 2017 Core: deeper pools for the
    runs a site prefers). Contributors are the runs that rank the unit within
    their own depth. A ranking that repeats a unit is refused.

    `fuse=False` is for readers of membership only (the coverage reports): the
    entries' `rrf` is then NaN, not a score, and only each ranking's top is
    read, not the whole of it; `distinct=True` says the caller has already
    refused repeated units (as `labeler.coverage` checks every ranking), so
    the rankings are not checked again.
    """
    _require_positive("depth", depth)
    run_depths = dict(run_depths or {})
    _validate_run_depths(runs, run_depths)
    if not fuse:
        return _members_pool(runs, depth, run_depths, distinct)
    pool: Pool = {}
    for topic in _topics(runs):
        ranks_by_run = _topic_ranks(runs, topic)
        contributors: dict[str, list[tuple[str, int]]] = {}
        for run in ranks_by_run:
            # the top of the ranking itself, in rank order: the same units as `rank <= limit` over its ranks
            for rank, unit in enumerate(islice(runs[run][topic], run_depths.get(run, depth)), start=1):
                contributors.setdefault(unit, []).append((run, rank))
        if contributors:
            # RRF of the pooled units only (the same terms `_fuse` sums, in run order), not of every ranked unit
            rank_maps = list(ranks_by_run.values())
            pool[topic] = {
                unit: _entry(
                    topic,
                    unit,
                    contributors[unit],
                    math.fsum([1.0 / (RRF_K + ranks[unit]) for ranks in rank_maps if unit in ranks]),
                )
                for unit in sorted(contributors)
            }
    return pool


def _members_pool(runs: Runs, depth: int, run_depths: Mapping[str, int], distinct: bool) -> Pool:
    """`depth_pool` without RRF: the same units, best ranks and contributors, each ranking read to its depth only."""
    pool: Pool = {}
    for topic in _topics(runs):
        contributors: dict[str, list[tuple[str, int]]] = {}
        for run, rankings in runs.items():
            ranking = rankings.get(topic)
            if ranking is None:
                continue
            if not distinct and len(set(ranking)) != len(ranking):
                _ranks(run, topic, ranking)  # raises, naming the first repeat
            for rank, unit in enumerate(islice(ranking, run_depths.get(run, depth)), start=1):
                contributors.setdefault(unit, []).append((run, rank))
        if contributors:
            pool[topic] = {
                unit: PoolEntry(topic, unit, min(map(_RANK, found)), tuple(found), math.nan)
                for unit in sorted(contributors)
                for found in (contributors[unit],)
            }
    return pool


def rrf_pool(runs: Runs, top_n: int, k: int = RRF_K) -> Pool:
    """Per topic, the `top_n` units by RRF score (ties: unit id ascending).

    Contributors are every run that ranks the unit anywhere, since the fused
    score, not a depth, brought it in.
    """
    _require_positive("top_n", top_n)
    _validate_k(k)
    pool: Pool = {}
    for topic in _topics(runs):
        ranks_by_run = _topic_ranks(runs, topic)
        scores = _fuse(ranks_by_run, k)
        chosen = sorted(rrf_ranking(scores)[:top_n])
        entries = {}
        for unit in chosen:
            contributors = [(run, ranks[unit]) for run, ranks in ranks_by_run.items() if unit in ranks]
            entries[unit] = _entry(topic, unit, contributors, scores[unit])
        if entries:
            pool[topic] = entries
    return pool


def collapse_to_documents(ranking: Sequence[str], parent_of: Mapping[str, str]) -> tuple[list[str], int]:
    """A chunk ranking as a document ranking: each document at its best chunk's position.

    Later chunks of an already-placed document are dropped; the count of
    dropped chunks is returned so a report can say how much collapsing happened.
    """
    documents: list[str] = []
    placed: set[str] = set()
    collapsed = 0
    for chunk in ranking:
        if chunk not in parent_of:
            raise ValueError(f"chunk {chunk!r} has no parent document in the mapping")
        document = parent_of[chunk]
        if document in placed:
            collapsed += 1
            continue
        placed.add(document)
        documents.append(document)
    return documents, collapsed


def pool_diff(previous: Mapping[str, Iterable[str]] | None, current: PoolView) -> dict[str, set[str]]:
    """topic -> units in `current` that `previous` did not hold: the new work a re-pool creates.

    `previous` may be plain sets or an earlier pool. Topics with nothing new are
    left out; with no previous pool, everything in `current` is new.
    """
    diff: dict[str, set[str]] = {}
    for topic, entries in current.items():
        before = set(previous.get(topic, ())) if previous is not None else set()
        new = set(entries) - before
        if new:
            diff[topic] = new
    return diff


def _run_names(pool: PoolView, runs: Iterable[str] | None) -> list[str]:
    """The runs to report on: those given, else every contributor in order of first appearance."""
    if runs is not None:
        return list(runs)
    names: dict[str, None] = {}
    for entries in pool.values():
        for entry in entries.values():
            names.update(dict.fromkeys(entry.runs))
    return list(names)


def unique_contributions(pool: PoolView, runs: Iterable[str] | None = None) -> dict[str, dict[str, set[str]]]:
    """run -> topic -> units that run alone brought into the pool.

    Unique units measure how much a pool depends on one run (the basis of
    leave-one-run-out bias). Pass `runs` to fix the order and to list runs that
    contributed nothing; topics where a run has no unique unit are left out.
    """
    unique: dict[str, dict[str, set[str]]] = {run: {} for run in _run_names(pool, runs)}
    for topic, entries in pool.items():
        for unit, entry in entries.items():
            if len(entry.contributors) == 1 and entry.runs[0] in unique:
                unique[entry.runs[0]].setdefault(topic, set()).add(unit)
    return unique


def run_contributions(pool: PoolView, runs: Iterable[str] | None = None) -> dict[str, int]:
    """run -> number of pooled pairs it contributed (shared or not)."""
    counts = dict.fromkeys(_run_names(pool, runs), 0)
    for entries in pool.values():
        for entry in entries.values():
            for run in set(entry.runs):
                if run in counts:
                    counts[run] += 1
    return counts


def unique_contribution_counts(pool: PoolView, runs: Iterable[str] | None = None) -> dict[str, int]:
    """run -> number of pooled pairs only that run contributed."""
    unique = unique_contributions(pool, runs)
    return {run: sum(len(units) for units in topics.values()) for run, topics in unique.items()}


@dataclass(frozen=True)
class PoolRequest:
    """What `pool build` was asked for, the same for every strategy; each uses the fields it needs.

    `depth` is the depth k of depth pooling or the pool size N per topic of
    RRF; `run_depths` are per-run depth overrides; `rrf_k` the RRF constant.
    """

    depth: int
    run_depths: Mapping[str, int]
    rrf_k: int = RRF_K


PoolFunction = Callable[[Runs, PoolRequest], Pool]


@dataclass(frozen=True)
class PoolingStrategy:
    """A registered strategy: its `--strategy` name, what it takes (for `--help`), its function.

    `records` names the `PoolRequest` fields, beyond depth and run depths,
    that are stored in the pool's params, so a pool says how it was made.
    """

    name: str
    doc: str
    function: PoolFunction
    records: tuple[str, ...] = ()

    def params(self, request: PoolRequest) -> dict[str, object]:
        return {field: getattr(request, field) for field in self.records}


STRATEGIES: Registry[PoolingStrategy] = Registry(
    "pooling strategy",
    argument="strategy",
    build=lambda name, function, **details: PoolingStrategy(name, function=function, **details),
)
"""The pooling strategies: `@STRATEGIES.register(name, doc=..., records=...)` on a function of the runs and a
`PoolRequest` registers it (the function is returned unchanged)."""


def strategies_help() -> str:
    """'union of each run's top k, or the top N by reciprocal rank fusion': the registered docs as one phrase."""
    return alternatives([strategy.doc for strategy in STRATEGIES.values()])


@STRATEGIES.register("depth", doc="union of each run's top k")
def _by_depth(runs: Runs, request: PoolRequest) -> Pool:
    return depth_pool(runs, request.depth, request.run_depths or None)


@STRATEGIES.register("rrf", doc="the top N by reciprocal rank fusion", records=("rrf_k",))
def _by_rrf(runs: Runs, request: PoolRequest) -> Pool:
    return rrf_pool(runs, request.depth, request.rrf_k)
