"""Building pool versions from runs, and saying what each new version adds."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from labeler.errors import BadArgumentError, Hint, LabelerError, argument_hint
from labeler.json_form import JsonResult, json_field
from labeler.judgments.log import PairState, derive_pairs
from labeler.models import PoolInfo, RunInfo, Unit, topic_sort_key
from labeler.pace import Pace
from labeler.pooling import (
    STRATEGIES,
    PoolEntry,
    PoolingStrategy,
    PoolRequest,
    collapse_to_documents,
    pool_diff,
)
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.coverage_results import PaceNote
from labeler.workbench.read_labels import judging_pace
from labeler.workbench.setup import Progress, now
from labeler.workbench.unit_spaces import choices_hint, held_spaces, ordered, spaces_held

STAGE_BATCH = 10_000  # entries handed to the staging table at a time: bounds the memory they take
RANKINGS_PER_BATCH = 500  # (run, topic) rankings read at a time while pooling: one query per run and batch


@dataclass(frozen=True)
class TopicAdded(JsonResult):
    """One topic of a new pool: its pairs, those new since the previous pool, and how many are judged."""

    pairs: int
    added: int
    unjudged: int
    added_judged: int


@dataclass(frozen=True)
class RunShare(JsonResult):
    """One run's share of a new pool: the pairs it contributes, and those no other run does."""

    pairs: int
    unique: int


@dataclass(frozen=True)
class RunLeftOut(JsonResult):
    """A default run a pool did not take: its unit, and why (`other_unit`: it cannot be pooled at the
    pool's chunk unit; `retired`)."""

    run: str
    unit: str
    why: str


def _hints_json(hints: tuple[Hint, ...]) -> list[dict[str, str | None]]:
    """The hints as `pool build` documents them: the argument to give, its value and why (the action is implied)."""
    return [{"argument": h.argument, "value": h.value, "why": h.why} for h in hints]


@dataclass(frozen=True)
class PoolBuilt(JsonResult):
    """What `build_pool` made: the new version, what it adds per topic and per run, and the effort left.

    `unit_from` names the previous pool whose unit was taken (None when given or shared by the
    runs), `unit_source` says where the unit came from (`given`, `runs`, `previous_pool`);
    `runs_left_out` the default runs of other units that could not join a chunk pool, and `left_out`
    every default run not pooled with its unit and why (`other_unit`, `retired`); `hints` what would
    pool otherwise (another unit, named runs), when the unit was not given.
    """

    pool: str
    previous: str | None
    strategy: str
    depth: int
    unit: str
    runs: tuple[str, ...]
    params: dict[str, Any]
    pairs: int
    added: int
    added_judged: int
    unjudged: int
    effort_hours: float
    pace: PaceNote
    per_topic: dict[str, TopicAdded]
    per_run: dict[str, RunShare]
    runs_retired: tuple[str, ...]
    unit_from: str | None
    runs_left_out: tuple[str, ...]
    unit_source: str
    left_out: tuple[RunLeftOut, ...]

    hints: tuple[Hint, ...] = json_field(encode=_hints_json)

    json_extra = {"judgments_per_hour": "unjudged"}

    @property
    def judgments_per_hour(self) -> float:
        return self.pace.per_hour


def build_pool(
    store: Store,
    depth: int,
    *,
    runs: list[str] | None = None,
    strategy: str = "depth",
    unit: str | None = None,
    run_depths: dict[str, int] | None = None,
    rrf_k: int = 60,
    progress: Progress | None = None,
) -> PoolBuilt:
    """A new pool version (P1, P2, ...) from the chosen runs; never deletes anything.

    Depth-k takes the union of each run's top k (per-run overrides allowed);
    `rrf` takes the top `depth` units by reciprocal rank fusion. Chunk runs can
    be pooled at document level (`unit="doc"`): each chunk maps to its parent
    and the first occurrence keeps the rank.

    One topic at a time, entries go to the store's staging table and into
    running counts for the report, so memory does not grow with the pool; the
    write lock is taken only for the final copy (all or nothing), never while
    computing, so annotators keep judging meanwhile.
    """
    chosen = _check_request(strategy, depth)
    runs_to_pool = _runs_to_pool(store, runs, unit, run_depths)
    infos, pool_unit, names = runs_to_pool.infos, runs_to_pool.unit, runs_to_pool.names
    space = str(pool_unit)
    previous = next((p for p in reversed(store.pools()) if p.unit == space), None)
    topics = sorted({t for info in infos for t in store.run_topics(info.name)}, key=topic_sort_key)
    changes = store.change_times(space)
    collapsed = dict.fromkeys(names, 0)
    request = PoolRequest(depth, run_depths or {}, rrf_k)
    tally = _Tally(names)
    batch: list[PoolEntry] = []
    with store.pool_staging():
        for done, (topic_id, rankings) in enumerate(_topic_rankings(store, infos, pool_unit, topics, collapsed), 1):
            entries = list(chosen.function(rankings, request).get(topic_id, {}).values())
            if entries:
                # this topic's labels and previous units only: indexed reads, not whole-pool dicts
                before = store.pool_topic_units(previous.name, topic_id) if previous else set()
                tally.add(topic_id, entries, before, derive_pairs(store.topic_events(space, topic_id), changes))
                batch.extend(entries)
            if len(batch) >= STAGE_BATCH:
                store.stage_pool_entries(batch)
                batch.clear()
            if progress and done % 50 == 0:
                progress(done, len(topics))
        store.stage_pool_entries(batch)
        batch.clear()
        params: dict[str, Any] = {"run_depths": run_depths or {}, **chosen.params(request)}
        if pool_unit.kind == "doc" and any(i.unit.kind == "chunk" for i in infos):
            params["collapsed_chunks"] = {n: c for n, c in collapsed.items() if c}
        with store.transaction():
            pool_id = store.next_pool_id()
            info = PoolInfo(f"P{pool_id}", strategy, depth, params, tuple(names), space, now(), tally.pairs)
            store.insert_staged_pool(pool_id, info)
    if progress:
        progress(len(topics), len(topics))
    return tally.report(info, previous, judging_pace(store), runs_to_pool)


def _check_request(strategy: str, depth: int) -> PoolingStrategy:
    """The registered strategy asked for, once the request's own values are known to be sound."""
    chosen = STRATEGIES.get(strategy)
    if depth < 1:
        raise BadArgumentError(f"must be at least 1, not {depth}", argument="depth")
    return chosen


@dataclass(frozen=True)
class _RunsToPool:
    """The runs a pool is built from, the unit it pools at, and why (what was left out, where the unit came from)."""

    infos: list[RunInfo]
    unit: Unit
    retired: list[str]
    unit_from: str | None
    left_out: list[str]
    unit_source: str
    others: list[RunLeftOut]
    hints: tuple[Hint, ...]

    @property
    def names(self) -> list[str]:
        return [info.name for info in self.infos]


def _runs_to_pool(
    store: Store, runs: list[str] | None, unit: str | None, run_depths: dict[str, int] | None
) -> _RunsToPool:
    """The runs named (or every run not retired) at the unit asked for, checked before anything is computed."""
    names, retired = _named_or_active_runs(store, runs)
    infos = [store.run(name) for name in names]
    pool_unit, unit_from, unit_source = _pool_unit(store, infos, unit)
    left_out = []
    if unit_from and not runs and pool_unit.kind == "chunk":
        # the previous pool's chunk unit, over the default runs: the runs of other units cannot join it
        left_out = [i.name for i in infos if i.unit != pool_unit]
        infos = [i for i in infos if i.unit == pool_unit]
        if not infos:
            raise LabelerError(
                f"no default run ranks {pool_unit}, the unit of the previous pool {unit_from}",
                hints=(argument_hint("unit"), argument_hint("runs", why="to name the runs")),
            )
    _check_runs_fit(infos, pool_unit, run_depths)
    others = _left_out(store, left_out, retired)
    hints = _other_choices(store, pool_unit, infos, others, unit_source)
    return _RunsToPool(infos, pool_unit, retired, unit_from, left_out, unit_source, others, hints)


def _left_out(store: Store, other_unit: list[str], retired: list[str]) -> list[RunLeftOut]:
    """The default runs not pooled, each with its unit and why."""
    rows = [RunLeftOut(name, str(store.run(name).unit), "other_unit") for name in other_unit]
    return rows + [RunLeftOut(name, str(store.run(name).unit), "retired") for name in retired]


def _other_choices(
    store: Store, pool_unit: Unit, infos: list[RunInfo], others: list[RunLeftOut], unit_source: str
) -> tuple[Hint, ...]:
    """What would pool otherwise: each other unit the runs rank (or the left-out runs do), and naming the runs.

    None when the unit was given: nothing was chosen for the user.
    """
    if unit_source == "given":
        return ()
    units = {str(i.unit) for i in infos} | {o.unit for o in others if o.why == "other_unit"}
    units.discard(str(pool_unit))
    hints = [argument_hint("unit", u, why=f"to pool at {u}") for u in sorted(units)]
    if others or len(store.run_names()) > len(infos):
        hints.append(argument_hint("runs", why="to name the runs"))
    return tuple(hints)


def _named_or_active_runs(store: Store, runs: list[str] | None) -> tuple[list[str], list[str]]:
    """The runs named, or else every run not retired; and the retired ones left out (none when runs are named)."""
    retired = [] if runs else list(store.retirements())
    names = runs or [name for name in store.run_names() if name not in retired]
    if not names:
        if retired:
            raise LabelerError(
                f"every run is retired ({', '.join(retired)})",
                hints=argument_hint("runs", why="to name the runs to pool"),
            )
        raise LabelerError("no runs to pool", hints=Hint("import_runs"))
    return names, retired


def _check_runs_fit(infos: list[RunInfo], pool_unit: Unit, run_depths: dict[str, int] | None) -> None:
    """Every run can be pooled at the unit, and every per-run depth names a pooled run."""
    for info in infos:
        if pool_unit.kind == "chunk" and info.unit != pool_unit:
            raise LabelerError(f"run {info.name!r} ranks {info.unit}, which cannot be pooled as {pool_unit}")
    pooled = {info.name for info in infos}
    for name in run_depths or {}:
        if name not in pooled:
            raise BadArgumentError(f"names run {name!r}, which is not pooled here", argument="run_depths")


def _topic_rankings(
    store: Store, infos: list[RunInfo], pool_unit: Unit, topics: list[str], collapsed: dict[str, int]
) -> Iterator[tuple[str, dict[str, dict[str, list[str]]]]]:
    """Each topic with each run's ranking of it at the pool's unit (chunk runs lifted to documents, counted in
    `collapsed`), in the order of `topics`.

    Read a batch of topics at a time, one query per run and batch (not one per run and topic), so memory
    holds about `RANKINGS_PER_BATCH` rankings whatever the number of runs.
    """
    size = max(1, RANKINGS_PER_BATCH // max(1, len(infos)))
    for start in range(0, len(topics), size):
        batch = topics[start : start + size]
        ranked = [store.ranked_units(info.name, topics=batch) for info in infos]
        for topic_id in batch:
            rankings: dict[str, dict[str, list[str]]] = {}
            for info, by_topic in zip(infos, ranked, strict=True):
                units = by_topic.get(topic_id, [])
                chunking = info.unit.chunking  # a chunk unit always names its chunking
                if pool_unit.kind == "doc" and info.unit.kind == "chunk" and chunking is not None:
                    parents = store.parents_of(chunking, units)
                    units, count = collapse_to_documents(units, parents)
                    collapsed[info.name] += count
                rankings[info.name] = {topic_id: units}
            yield topic_id, rankings


def _pool_unit(store: Store, infos: list[RunInfo], unit: str | None) -> tuple[Unit, str | None, str]:
    """The unit to pool at, the previous pool it was taken from (None when given or shared by the runs),
    and where it came from (`given`, `runs`, `previous_pool`).

    The unit asked for wins; runs that all rank one unit give it; runs of several
    units follow the latest pool, which already said which unit this campaign
    judges (a re-pool should not need the unit again), unless a run of another
    unit came after that pool: a new run says a campaign goes on, and which one
    is then not clear (`labeler.workbench.unit_spaces`). With no pool yet the
    choice is the user's.
    """
    if unit is not None:
        try:
            return Unit.parse(unit), None, "given"
        except ValueError as exc:
            raise BadArgumentError(str(exc), argument="unit") from None
    units = {info.unit for info in infos}
    if len(units) == 1:
        return units.pop(), None, "runs"
    latest = store.latest_pool()
    if latest is not None:
        _refuse_newer_runs(store, infos, latest)
        return Unit.parse(latest.unit), latest.name, "previous_pool"
    raise LabelerError(
        f"the runs rank different units ({', '.join(sorted(map(str, units)))})",
        hints=(
            argument_hint("unit", "doc", why="to pool chunks at document level"),
            argument_hint("runs", why="to pool each unit separately"),
        ),
    )


def _refuse_newer_runs(store: Store, infos: list[RunInfo], latest: PoolInfo) -> None:
    """Refuse to follow the latest pool's unit when a run of another unit was imported after it."""
    newer = [i for i in infos if str(i.unit) != latest.unit and i.imported > latest.created]
    if not newer:
        return
    named = ", ".join(f"{i.name} ({i.unit})" for i in newer)
    spaces = ordered(store, [*held_spaces(store), *(str(i.unit) for i in newer)])
    listing = "; ".join(held.described() for held in spaces_held(store, spaces))
    raise LabelerError(
        f"{plural(len(newer), 'run')} of another unit came after the latest pool {latest.name} ({latest.unit}): "
        f"{named}; which campaign this pool continues is not clear (the workbench holds {listing})",
        hints=(choices_hint(spaces, "to say which unit to pool at"), argument_hint("runs", why="to name the runs")),
    )


class _Tally:
    """The build report's counts, gathered topic by topic as the entries are made.

    The counting itself is the domain's (`pool_diff`, `run_contributions`,
    `unique_contribution_counts`), applied to one topic at a time so the pool is never held whole.
    """

    def __init__(self, runs: list[str]):
        self.per_topic: dict[str, dict[str, int]] = {}
        self.per_run = {run: {"pairs": 0, "unique": 0} for run in runs}
        self.pairs = 0

    def add(
        self,
        topic_id: str,
        entries: list[PoolEntry],
        previous_units: set[str],
        labels: dict[tuple[str, str], PairState],
    ) -> None:
        """One topic's entries, with the units the previous pool held and the topic's current labels."""
        view = {topic_id: {entry.unit_id: entry for entry in entries}}
        added = pool_diff({topic_id: previous_units}, view).get(topic_id, set())
        judged = {unit for unit in view[topic_id] if (state := labels.get((topic_id, unit))) and state.judged}
        row = self.per_topic.setdefault(topic_id, {"pairs": 0, "added": 0, "unjudged": 0, "added_judged": 0})
        row["pairs"] += len(entries)
        row["unjudged"] += len(entries) - len(judged)
        row["added"] += len(added)
        row["added_judged"] += len(added & judged)
        # `run_contributions` and `unique_contribution_counts` of the topic, counted in one pass over its
        # entries (the domain's functions walk them twice through `PoolEntry.runs`): a run counts a pair
        # once however often it is among the contributors; a pair is unique to a run it alone brought in
        per_run = self.per_run
        for entry in entries:
            contributors = entry.contributors
            if len(contributors) == 1:
                run = contributors[0][0]
                if run in per_run:
                    per_run[run]["pairs"] += 1
                    per_run[run]["unique"] += 1
                continue
            for run in {run for run, _ in contributors}:
                if run in per_run:
                    per_run[run]["pairs"] += 1
        self.pairs += len(entries)

    def report(self, info: PoolInfo, previous: PoolInfo | None, pace: Pace, runs: _RunsToPool) -> PoolBuilt:
        """The build's report: the new pool, what it adds, the effort left, and which runs it took."""
        per_topic = self.per_topic
        unjudged = sum(r["unjudged"] for r in per_topic.values())
        return PoolBuilt(
            pool=info.name,
            previous=previous.name if previous else None,
            strategy=info.strategy,
            depth=info.depth,
            unit=info.unit,
            runs=info.runs,
            params=info.params,
            pairs=info.pairs,
            added=sum(r["added"] for r in per_topic.values()),
            added_judged=sum(r["added_judged"] for r in per_topic.values()),
            unjudged=unjudged,
            # the median pace of the last timed judgments, else a default pace, and which one it is
            effort_hours=round(unjudged / pace.per_hour, 2),
            pace=PaceNote.of(pace),
            per_topic={t: TopicAdded(**per_topic[t]) for t in sorted(per_topic, key=topic_sort_key)},
            per_run={run: RunShare(**counts) for run, counts in self.per_run.items()},
            runs_retired=tuple(runs.retired),
            unit_from=runs.unit_from,
            runs_left_out=tuple(runs.left_out),
            unit_source=runs.unit_source,
            left_out=tuple(runs.others),
            hints=runs.hints,
        )


@dataclass(frozen=True)
class PoolListed(JsonResult):
    """One pool version as `pool list` shows it: strategy, depth, unit, runs, pairs, parameters, when made."""

    pool: str
    strategy: str
    depth: int
    unit: str
    runs: tuple[str, ...]
    pairs: int
    params: dict[str, Any]  # the strategy's parameters as stored
    created: str

    @classmethod
    def of(cls, info: PoolInfo) -> PoolListed:
        return cls(info.name, info.strategy, info.depth, info.unit, info.runs, info.pairs, info.params, info.created)


def list_pools(store: Store) -> list[PoolListed]:
    """Every pool version, oldest first."""
    return [PoolListed.of(info) for info in store.pools()]
