"""A whole campaign replayed: every topic under every order, with curves, shares, targets, tau and stopping.

Overall figures put the topics together. The overall curve judges the topics
in lockstep (the n-th judgment of every topic is made at step n, so after step
n a topic of N units has made min(n, N) judgments); the overall share is the
sum of the topics' areas over the sum of their oracle areas, so the oracle's
is exactly 1. The system ranking at a budget of p% judges the first
ceil(p * N / 100) units of every topic in the order's sequence, gives the
measure only those labels (the others are absent from the qrels, as trec_eval
counts them: not relevant) and ranks the systems by the measure's mean over
the topics; tau and tau_AP compare that ranking with the one the full labels
give (`labeler.coverage.correlation`). A stopping rule stops a topic at the
first judgment after which it says stop (`StoppingRule.first_stop`), or at
the end of its pool when it never does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from labeler.coverage.correlation import compare_rankings
from labeler.json_form import JsonResult, json_field
from labeler.metrics import evaluate, parse_measure
from labeler.ordering import ModelJudgment
from labeler.pooling import PoolEntry
from labeler.replay.core import (
    BUDGETS,
    TARGETS,
    ReplaySettings,
    TopicReplay,
    budget_size,
    curve_area,
    lockstep_curve,
    lockstep_to_relevant,
    oracle_area,
    replay_topic,
    share,
    to_relevant,
)
from labeler.stopping import StoppingRule

Qrels = Mapping[str, Mapping[str, int]]
SystemRankings = Mapping[str, Mapping[str, Sequence[str]]]
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class TopicFigures(JsonResult):
    """One topic under one order."""

    pool: int
    relevant: int
    area: int
    oracle_area: int
    curve_share: float | None
    to_relevant: dict[str, int | None]
    stops: dict[str, int]


@dataclass(frozen=True)
class StopFigures(JsonResult):
    """One stopping rule under one order, over every topic."""

    rule: str
    judgments: int
    pool: int
    effort_saved: float | None
    relevant_found: int
    relevant_lost: int
    tau: float | None
    tau_ap: float | None
    tau_lost: float | None
    topics_stopped: int


@dataclass(frozen=True)
class OrderFigures(JsonResult):
    """One order over every topic: the lockstep curve, the share of the oracle's area, targets, tau, stopping."""

    name: str = json_field(omit=True)
    curve: tuple[tuple[int, int], ...] = json_field()
    area: int = json_field()
    oracle_area: int = json_field()
    curve_share: float | None = json_field()
    to_relevant: dict[str, int | None] = json_field()
    tau: dict[str, float | None] = json_field()
    tau_ap: dict[str, float | None] = json_field()
    stopping: dict[str, StopFigures] = json_field()
    topics: dict[str, TopicFigures] = field(default_factory=dict)


class SystemScorer:
    """Ranks the systems by the mean of one measure on a set of labels, and compares with the full labels' ranking.

    Equal label sets are scored once (every order's 100% budget is the same pool).
    """

    def __init__(
        self, systems: SystemRankings, measure: str, topics: Sequence[str], threshold: int, reference: Qrels
    ) -> None:
        self.systems = systems
        self.measure = parse_measure(measure)
        self.topics = list(topics)
        self.threshold = threshold
        self._cache: dict[tuple[tuple[str, frozenset[str]], ...], dict[str, float | None]] = {}
        self.reference = self.scores(reference)

    def scores(self, qrels: Qrels) -> dict[str, float | None]:
        key = tuple((topic, frozenset(qrels.get(topic, {}))) for topic in self.topics)
        if key not in self._cache:
            self._cache[key] = {
                name: evaluate(qrels, rankings, [self.measure], topics=self.topics, threshold=self.threshold).aggregate[
                    self.measure.name
                ]
                for name, rankings in self.systems.items()
            }
        return self._cache[key]

    def taus(self, qrels: Qrels) -> tuple[float | None, float | None]:
        """(Kendall's tau-b, tau_AP) of the ranking these labels give against the full labels' ranking."""
        if len(self.systems) < 2:
            return None, None
        compared = compare_rankings(self.reference, self.scores(qrels))
        return compared["kendall_tau"], compared["tau_ap"]


def _first(replays: Mapping[str, TopicReplay], sizes: Mapping[str, int], grades: Qrels) -> dict[str, dict[str, int]]:
    """The labels of the first `sizes[topic]` units judged in each topic."""
    return {
        topic: {unit: grades[topic][unit] for unit in replay.sequence[: sizes[topic]]}
        for topic, replay in replays.items()
    }


def replay_campaign(
    pool: Mapping[str, Mapping[str, PoolEntry]],
    grades: Qrels,
    settings: ReplaySettings,
    *,
    orders: Sequence[str],
    scorer: SystemScorer,
    rules: Sequence[StoppingRule] = (),
    progress: Progress | None = None,
    model: Mapping[str, Mapping[str, ModelJudgment]] | None = None,
) -> dict[str, OrderFigures]:
    """Every order's figures over the topics of `pool` (each topic's units all have a grade in `grades`).

    `model` (topic -> unit -> a model's label) and `settings.scale` go to the orders that read a model.
    """
    topics = list(pool)
    total, done = len(orders) * len(topics), 0
    results: dict[str, OrderFigures] = {}
    for name in orders:
        replays: dict[str, TopicReplay] = {}
        for topic in topics:
            replays[topic] = replay_topic(name, topic, pool[topic], grades[topic], settings, (model or {}).get(topic))
            done += 1
            if progress:
                progress(done, total)
        results[name] = _order_figures(name, replays, grades, scorer, rules)
    return results


def _order_figures(
    name: str, replays: Mapping[str, TopicReplay], grades: Qrels, scorer: SystemScorer, rules: Sequence[StoppingRule]
) -> OrderFigures:
    curves = {topic: replay.curve for topic, replay in replays.items()}
    stops = {
        rule.spec: {topic: rule.first_stop(replay.hits) or replay.pool_size for topic, replay in replays.items()}
        for rule in rules
    }
    topics: dict[str, TopicFigures] = {}
    for topic, replay in replays.items():
        curve, relevant = curves[topic], replay.relevant
        best = oracle_area(replay.pool_size, relevant)
        topics[topic] = TopicFigures(
            pool=replay.pool_size,
            relevant=relevant,
            area=curve_area(curve),
            oracle_area=best,
            curve_share=share(curve_area(curve), best),
            to_relevant={str(p): to_relevant(curve, relevant, p) for p in TARGETS},
            stops={spec: by_topic[topic] for spec, by_topic in stops.items()},
        )
    area = sum(t.area for t in topics.values())
    best = sum(t.oracle_area for t in topics.values())
    relevant = sum(t.relevant for t in topics.values())
    points = lockstep_curve(list(curves.values()))
    tau: dict[str, float | None] = {}
    tau_ap: dict[str, float | None] = {}
    for percent in BUDGETS:
        sizes = {topic: budget_size(replay.pool_size, percent) for topic, replay in replays.items()}
        tau[str(percent)], tau_ap[str(percent)] = scorer.taus(_first(replays, sizes, grades))
    stopping = {
        spec: _stop_figures(spec, by_topic, replays, curves, grades, scorer, relevant, tau["100"])
        for spec, by_topic in stops.items()
    }
    return OrderFigures(
        name=name,
        curve=tuple(points),
        area=area,
        oracle_area=best,
        curve_share=share(area, best),
        to_relevant={str(p): lockstep_to_relevant(points, relevant, p) for p in TARGETS},
        tau=tau,
        tau_ap=tau_ap,
        stopping=stopping,
        topics=topics,
    )


def _stop_figures(
    spec: str,
    stops: Mapping[str, int],
    replays: Mapping[str, TopicReplay],
    curves: Mapping[str, Sequence[int]],
    grades: Qrels,
    scorer: SystemScorer,
    relevant: int,
    tau_full: float | None,
) -> StopFigures:
    judgments = sum(stops.values())
    pool = sum(replay.pool_size for replay in replays.values())
    found = sum(curves[topic][n - 1] for topic, n in stops.items() if n)
    tau, tau_ap = scorer.taus(_first(replays, stops, grades))
    return StopFigures(
        rule=spec,
        judgments=judgments,
        pool=pool,
        effort_saved=(pool - judgments) / pool if pool else None,
        relevant_found=found,
        relevant_lost=relevant - found,
        tau=tau,
        tau_ap=tau_ap,
        tau_lost=None if tau is None or tau_full is None else tau_full - tau,
        topics_stopped=sum(1 for topic, n in stops.items() if n < replays[topic].pool_size),
    )
