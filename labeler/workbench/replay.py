"""`labeler replay` (and the report's replay section): judging replayed on a snapshot's labels.

The pool is built in memory from the runs named, by the registered strategy
(`labeler.pooling`, the same membership `pool build` stores), and nothing is
written to the workbench. The snapshot's labels stand in for the assessor
(`labeler.replay`); the systems ranked for tau are every run the labels' unit
can score (or those asked for).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from labeler.errors import BadArgumentError, LabelerError
from labeler.json_form import JsonResult, json_field
from labeler.metrics import parse_measure
from labeler.models import SnapshotInfo, topic_sort_key
from labeler.ordering import ORDERS, needs_model
from labeler.pooling import STRATEGIES, PoolEntry, PoolRequest
from labeler.replay import ORACLE, ReplaySettings
from labeler.replay.campaign import OrderFigures, SystemScorer, replay_campaign
from labeler.stopping import StoppingRule, parse_rule
from labeler.store import Store
from labeler.workbench.alignment import aligned_labels, aligned_rankings, runs_to_score
from labeler.workbench.read_labels import model_labels_by_topic
from labeler.workbench.setup import Progress
from labeler.workbench.snapshots import resolve_snapshot

DEFAULT_MEASURE = "nDCG@10"
DEFAULT_STOP = "window:10,knee"


@dataclass(frozen=True)
class ReplayPool(JsonResult):
    """The pool a replay judged: the runs' top `depth` under `strategy`, and how many pairs it holds."""

    depth: int
    strategy: str
    runs: tuple[str, ...]
    pairs: int


@dataclass(frozen=True)
class ReplayResult(JsonResult):
    """What `replay` found: the pool replayed, what it left out, and each order's figures (oracle first).

    In its JSON form the pool's depth, strategy, runs and pairs are one `pool` object, and `topics` is a count.
    """

    json_extra = {"pool": "unit"}

    snapshot: str
    unit: str
    depth: int = json_field(omit=True)
    strategy: str = json_field(omit=True)
    runs: tuple[str, ...] = json_field(omit=True)
    pairs: int = json_field(omit=True)
    topics: tuple[str, ...] = json_field(encode=len)
    relevant: int = json_field()
    unjudged: int = json_field()
    unjudged_as_nonrelevant: bool = json_field()
    unjudged_units: dict[str, list[str]] = json_field()
    topics_without_labels: tuple[str, ...] = json_field()
    measure: str = json_field()
    seed: int = json_field()
    systems: tuple[str, ...] = json_field()
    runs_not_scored: tuple[str, ...] = json_field()
    rules: tuple[str, ...] = json_field(name="stop_rules")
    model: str | None = None
    orders: dict[str, OrderFigures] = field(default_factory=dict)

    @property
    def pool(self) -> ReplayPool:
        return ReplayPool(depth=self.depth, strategy=self.strategy, runs=self.runs, pairs=self.pairs)


def replay_orders(orders: list[str] | None, model: str | None = None) -> list[str]:
    """The orders asked for, the oracle first; unknown names refused.

    By default every registered order, except those that read a model's labels when no model is named;
    naming such an order without a model is refused.
    """
    known = ORDERS.names()
    wanted = list(orders) if orders else [name for name in known if model is not None or not needs_model(name)]
    for name in wanted:
        if name != ORACLE and name not in known:
            raise BadArgumentError(
                f"must name judging orders ({', '.join((*known, ORACLE))}), not {name!r}", argument="orders"
            )
        if model is None and needs_model(name):
            raise BadArgumentError(f"the {name} order needs a model's labels: name the model", argument="model")
    return [ORACLE, *dict.fromkeys(name for name in wanted if name != ORACLE)]


def stopping_rules(text: str | None) -> list[StoppingRule]:
    """`window:10,knee` as rules; a bad one refused naming it."""
    rules = []
    for part in (text if text is not None else DEFAULT_STOP).split(","):
        if not part.strip():
            continue
        try:
            rules.append(parse_rule(part))
        except ValueError as exc:
            raise BadArgumentError(str(exc), argument="stop") from None
    return rules


@dataclass(frozen=True)
class ReplayRequest:
    """What a replay is asked for, checked once when it is made: the pool (`runs` at `depth` under
    `strategy`), the judging `orders` (default: every registered order that can run), the `measure` the
    runs in `score_runs` (default: the comparable runs) are ranked by, the `stop` rules, and `model`.

    `model` names the model whose labels (`labeler.workbench.read_labels`) the orders that read one
    (`uncertainty`) rank by; its labels are calibrated on the snapshot's labels as they are revealed.
    `order_names` (the oracle first) and `rules` are `orders` and `stop` once checked.
    """

    depth: int
    runs: list[str]
    snapshot: str | None = None
    strategy: str = "depth"
    orders: list[str] | None = None
    seed: int = 0
    measure: str = DEFAULT_MEASURE
    stop: str | None = None
    unjudged_as_nonrelevant: bool = False
    score_runs: list[str] | None = None
    model: str | None = None
    order_names: list[str] = field(init=False, repr=False, compare=False)
    rules: list[StoppingRule] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        _check_pool(self.depth, self.strategy, self.runs, self.measure)
        object.__setattr__(self, "order_names", replay_orders(self.orders, self.model))
        object.__setattr__(self, "rules", stopping_rules(self.stop))


def _check_pool(depth: int, strategy: str, runs: list[str], measure: str) -> None:
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
        raise BadArgumentError(f"must be at least 1, not {depth}", argument="depth")
    STRATEGIES.get(strategy)
    if not runs:
        raise BadArgumentError("must name at least one run to pool", argument="runs")
    if len(set(runs)) != len(runs):
        raise BadArgumentError(f"names a run twice: {', '.join(runs)}", argument="runs")
    try:
        parse_measure(measure)
    except ValueError as exc:
        raise BadArgumentError(str(exc), argument="measure") from None


def replay(store: Store, request: ReplayRequest, progress: Progress | None = None) -> ReplayResult:
    """Replay judging the pool of `request.runs` at its depth under each order, the snapshot's labels as assessor."""
    depth, runs, strategy, model = request.depth, request.runs, request.strategy, request.model
    measure, unjudged_as_nonrelevant = request.measure, request.unjudged_as_nonrelevant
    info = resolve_snapshot(store, request.snapshot)
    infos = [store.run(name) for name in runs]  # an unknown run: NotFoundError, before anything is computed
    qrels, _ = aligned_labels(store, info, None)
    threshold = info.manifest["scale"]["threshold"]
    try:
        pooled = {run.name: aligned_rankings(store, info, run, None)[0] for run in infos}
        pool = STRATEGIES.get(strategy).function(pooled, PoolRequest(depth, {}))
    except ValueError as exc:
        raise LabelerError(str(exc)) from None
    pairs = sum(len(entries) for entries in pool.values())
    kept, grades, unjudged, without_labels = _labelled_pool(pool, qrels, unjudged_as_nonrelevant)
    if not kept:
        raise LabelerError(
            f"snapshot {info.name} labels no unit of the pool of {', '.join(runs)} at depth {depth}: nothing to replay"
        )
    topics = sorted(kept, key=topic_sort_key)
    by_topic = model_labels_by_topic(store, model, info.unit) if model is not None else None
    systems, not_scored = runs_to_score(store, request.score_runs, info.unit)
    try:
        rankings = {name: aligned_rankings(store, info, store.run(name), None, topics=topics)[0] for name in systems}
        reference = {topic: qrels[topic] for topic in topics}
        scorer = SystemScorer(rankings, measure, topics, threshold, reference)
        figures = replay_campaign(
            {topic: kept[topic] for topic in topics},
            grades,
            ReplaySettings(threshold, request.seed, tuple(runs), _scale(info) if by_topic is not None else ()),
            orders=request.order_names,
            scorer=scorer,
            rules=request.rules,
            progress=progress,
            model=by_topic,
        )
    except ValueError as exc:
        raise LabelerError(str(exc)) from None
    return ReplayResult(
        model=model,
        snapshot=info.name,
        unit=info.unit,
        depth=depth,
        strategy=strategy,
        runs=tuple(runs),
        pairs=pairs,
        topics=tuple(topics),
        relevant=_relevant_count(grades, threshold),
        unjudged=sum(len(units) for units in unjudged.values()),
        unjudged_units=unjudged,
        unjudged_as_nonrelevant=unjudged_as_nonrelevant,
        topics_without_labels=tuple(without_labels),
        measure=measure,
        seed=request.seed,
        systems=tuple(systems),
        runs_not_scored=tuple(not_scored),
        rules=tuple(rule.spec for rule in request.rules),
        orders=figures,
    )


def _labelled_pool(
    pool: Mapping[str, Mapping[str, PoolEntry]], qrels: Mapping[str, Mapping[str, int]], unjudged_as_nonrelevant: bool
) -> tuple[dict[str, dict[str, PoolEntry]], dict[str, dict[str, int]], dict[str, list[str]], list[str]]:
    """The pool the snapshot can replay: (kept entries, their grades, unjudged units, topics without labels).

    The snapshot is the assessor, so a pooled unit it does not label is either dropped (the default) or
    graded 0 (`unjudged_as_nonrelevant`); a topic it labels nothing of, or nothing kept of, is left out.
    """
    kept: dict[str, dict[str, PoolEntry]] = {}
    grades: dict[str, dict[str, int]] = {}
    unjudged: dict[str, list[str]] = {}
    without_labels = []
    for topic, entries in pool.items():
        labels = qrels.get(topic)
        if not labels:
            without_labels.append(topic)
            continue
        missing = sorted(unit for unit in entries if unit not in labels)
        if missing:
            unjudged[topic] = missing
        if unjudged_as_nonrelevant:
            kept[topic] = dict(entries)
            grades[topic] = {unit: labels.get(unit, 0) for unit in entries}
        else:
            kept[topic] = {unit: entry for unit, entry in entries.items() if unit in labels}
            grades[topic] = {unit: labels[unit] for unit in kept[topic]}
        if not kept[topic]:
            del kept[topic], grades[topic]
    return kept, grades, unjudged, without_labels


def _scale(info: SnapshotInfo) -> tuple[int, ...]:
    """The snapshot's grades, low to high as its manifest lists them: what a model's labels are calibrated to."""
    return tuple(g["grade"] for g in info.manifest["scale"]["grades"])


def _relevant_count(grades: Mapping[str, Mapping[str, int]], threshold: int) -> int:
    """How many replayed pairs are relevant: what every order's recall is a fraction of."""
    return sum(1 for topic_grades in grades.values() for grade in topic_grades.values() if grade >= threshold)
