"""The replay itself: one topic, one order, the labels revealed one judgment at a time; and its figures.

Choices that are ours (the issue names the figures, not every detail):

- An order is asked for its whole order of the topic's units given the labels
  revealed so far, and the first unit it lists that is not yet judged is
  judged next. Orders registered `static` (their order never depends on the labels:
  pool rank, RRF, seeded random) are asked once; every other registered order
  (MTF, and any order added later) is asked again after every judgment, which
  is what the live queue does (`labeler.workbench.queue`). A test holds the
  two equal for the static orders.
- The oracle judges the relevant units first, then the others, each group in
  pool order (best rank, more runs, unit id): it finds all R relevant units in
  R judgments whatever the tie rule.
- A curve is `found(n)` for n = 1 .. pool size (no point at n = 0); its area is
  the sum of found(n) over those n, and a share is an area over the oracle's.
- "Judgments to p% of the relevant units" is the smallest n with
  found(n) >= ceil(p * R / 100), computed in integers; None when R = 0.
- A budget of p% of a topic's pool judges its first ceil(p * N / 100) units.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import ceil

from labeler.judgments.log import PairState
from labeler.ordering import ORDERS, ModelJudgment, OrderInput, arrange, pool_order
from labeler.pooling import PoolEntry

ORACLE = "oracle"
# Orders that read neither `states` nor `threshold`: their order is the same before and after any judgment.
TARGETS = (50, 90, 95)
BUDGETS = (10, 25, 50, 100)


@dataclass(frozen=True)
class TopicReplay:
    """One topic judged under one order: the units in the order judged, and whether each was relevant."""

    topic_id: str
    order: str
    sequence: tuple[str, ...]
    hits: tuple[bool, ...]

    @property
    def pool_size(self) -> int:
        return len(self.sequence)

    @property
    def relevant(self) -> int:
        return sum(self.hits)

    @property
    def curve(self) -> list[int]:
        return topic_curve(self.hits)


def oracle_order(entries: Mapping[str, PoolEntry], relevant: Iterable[str]) -> list[str]:
    """The relevant units first, then the others, each in pool order (replay only: it needs every label)."""
    wanted = set(relevant)
    ordered = pool_order(entries)
    return [u for u in ordered if u in wanted] + [u for u in ordered if u not in wanted]


def _state(topic_id: str, unit_id: str, grade: int) -> PairState:
    return PairState(topic_id, unit_id, label=grade)


@dataclass(frozen=True)
class ReplaySettings:
    """What every order of one replay runs with: the relevance threshold, the seed of the random orders,
    the runs in their order (for the orders that read it), and the grade scale (for the orders that read a model)."""

    threshold: int
    seed: int = 0
    run_order: tuple[str, ...] = ()
    scale: tuple[int, ...] = ()


def replay_order(
    name: str,
    topic_id: str,
    entries: Mapping[str, PoolEntry],
    grades: Mapping[str, int],
    settings: ReplaySettings,
    *,
    recompute: bool | None = None,
    model: Mapping[str, ModelJudgment] | None = None,
) -> list[str]:
    """The units of `entries` in the order `name` has them judged, revealing each unit's grade once judged.

    `grades` holds a grade for every unit of `entries` (the caller leaves
    unjudged units out of both, or gives them grade 0). `recompute=None` asks
    static orders once and the others after every judgment; True or False
    forces either (the tests compare them). `model` (unit -> a model's label)
    and `settings.scale` (the grades) are passed to the orders that read a model.
    """
    threshold, seed, run_order, scale = settings.threshold, settings.seed, settings.run_order, settings.scale
    missing = sorted(set(entries) - set(grades))
    if missing:
        raise ValueError(f"topic {topic_id!r}: no label to reveal for unit {missing[0]!r}")
    if name == ORACLE:
        return oracle_order(entries, [u for u in entries if grades[u] >= threshold])
    again = not ORDERS.get(name).static if recompute is None else recompute
    states: dict[str, PairState] = {}

    def ask() -> list[str]:
        return arrange(name, OrderInput(topic_id, entries, states, threshold, seed, run_order, model or {}, scale))

    if not again:
        return _complete(ask(), entries)
    sequence: list[str] = []
    while len(sequence) < len(entries):
        unit = next((u for u in ask() if u in entries and u not in states), None)
        if unit is None:  # an order that leaves units out: the rest by unit id
            unit = min(u for u in entries if u not in states)
        sequence.append(unit)
        states[unit] = _state(topic_id, unit, grades[unit])
    return sequence


def _complete(order: Sequence[str], entries: Mapping[str, PoolEntry]) -> list[str]:
    """`order` restricted to the pool, each unit once, and any unit it left out after it by unit id."""
    seen: dict[str, None] = {}
    for unit in order:
        if unit in entries:
            seen.setdefault(unit)
    return list(seen) + sorted(set(entries) - set(seen))


def replay_topic(
    name: str,
    topic_id: str,
    entries: Mapping[str, PoolEntry],
    grades: Mapping[str, int],
    settings: ReplaySettings,
    model: Mapping[str, ModelJudgment] | None = None,
) -> TopicReplay:
    sequence = replay_order(name, topic_id, entries, grades, settings, model=model)
    hits = tuple(grades[u] >= settings.threshold for u in sequence)
    return TopicReplay(topic_id, name, tuple(sequence), hits)


def topic_curve(hits: Sequence[bool]) -> list[int]:
    """found(n) for n = 1 .. len(hits): relevant units among the first n judged."""
    curve, found = [], 0
    for hit in hits:
        found += 1 if hit else 0
        curve.append(found)
    return curve


def curve_area(curve: Sequence[int]) -> int:
    """The sum over n of found(n): the area under the curve, in judgment x relevant units."""
    return sum(curve)


def oracle_area(pool_size: int, relevant: int) -> int:
    """The oracle's area: sum over n = 1..N of min(n, R), in closed form."""
    return relevant * (relevant + 1) // 2 + relevant * (pool_size - relevant)


def share(area: int, oracle: int) -> float | None:
    """area / oracle area (exactly 1.0 for the oracle); None when the oracle's area is 0 (no relevant unit)."""
    return float(Fraction(area, oracle)) if oracle else None


def _target(percent: int, relevant: int) -> int:
    return ceil(Fraction(percent * relevant, 100))


def to_relevant(curve: Sequence[int], relevant: int, percent: int) -> int | None:
    """The smallest n with found(n) >= ceil(percent * relevant / 100); None when there is no relevant unit."""
    if relevant <= 0:
        return None
    target = _target(percent, relevant)
    return next((n for n, found in enumerate(curve, start=1) if found >= target), None)


def lockstep_curve(curves: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Topics judged in lockstep: at step n every topic has made min(n, its pool) judgments.

    Returns (total judgments, total relevant found) for n = 1 .. the largest pool.
    """
    points = []
    for n in range(1, max((len(c) for c in curves), default=0) + 1):
        judged = found = 0
        for curve in curves:
            made = min(n, len(curve))
            judged += made
            found += curve[made - 1] if made else 0
        points.append((judged, found))
    return points


def lockstep_to_relevant(points: Sequence[tuple[int, int]], relevant: int, percent: int) -> int | None:
    """The total judgments at the first lockstep step whose relevant found reach ceil(percent * relevant / 100)."""
    if relevant <= 0:
        return None
    target = _target(percent, relevant)
    return next((judged for judged, found in points if found >= target), None)


def budget_size(pool_size: int, percent: int) -> int:
    """How many of a topic's units a budget of `percent`% judges: ceil(percent * N / 100)."""
    return ceil(Fraction(percent * pool_size, 100))


def units_within(sequence: Sequence[str], percent: int) -> list[str]:
    """The first ceil(percent * N / 100) units of a topic's judging sequence."""
    return list(sequence[: budget_size(len(sequence), percent)])
