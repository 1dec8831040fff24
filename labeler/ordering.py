"""Judging order over one topic's pool, kept apart from pool membership.

Membership decides which pairs may be judged and which unjudged pairs a metric
may count as non-relevant; order only decides which pair an assessor sees
next. Keeping them apart lets one pool be judged under a budget in any order
(pool rank, fused score, Move-to-Front, or a seeded shuffle for unbiased
samples) and lets orders be compared on the same pool by relevant found per
judgment, without the order ever changing what the pool is. Every function
here returns the full, deterministic order of unit ids for one topic.

The orders an assessor can choose are a registry: `@ORDERS.register(name, ...)` on
one function taking an `OrderInput` is all a new order needs. The queue, the
CLI's `--order` choices and help, the TUI palette and the docs check read the
registry, so none of them names an order.
"""

from __future__ import annotations

import heapq
import math
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from labeler.judgments.log import PairState
from labeler.registry import Registry
from labeler.wording import alternatives

if TYPE_CHECKING:  # only the uncertainty order calibrates, and it imports the module when it runs
    from labeler.agreement.calibration import Calibrator
    from labeler.pool_models import PoolEntry


class ModelJudgment(Protocol):
    """What an order reads of a model's label of a pair (`labeler.judgments.model_labels.ModelLabel` is one)."""

    @property
    def grade(self) -> int: ...

    @property
    def probs(self) -> Mapping[int, float] | None: ...


@dataclass(frozen=True)
class OrderInput:
    """Everything an order may look at for one topic: one signature for every order.

    `entries` is the topic's pool (unit -> entry); `states` the pairs' derived
    states and `threshold` the scale's relevance cut-off, so an order that
    learns from labels (MTF) sees them; `seed` is the user's seed (used by
    seeded orders only); `run_order` the pool's fixed run order, for ties
    between runs. `model` holds one model's labels of the topic's units (unit ->
    label; empty unless the order needs a model and one was named) and `grades`
    the scale's grades (empty: the grades seen in the labels), for the orders
    that calibrate a model (`uncertainty`).
    """

    topic_id: str
    entries: Mapping[str, PoolEntry]
    states: Mapping[str, PairState]
    threshold: int
    seed: int
    run_order: tuple[str, ...]
    model: Mapping[str, ModelJudgment] = field(default_factory=dict)
    grades: tuple[int, ...] = ()

    def relevant(self) -> dict[str, bool]:
        """Judged units -> whether their label reaches the threshold (unjudged units are absent)."""
        return {
            unit: state.label >= self.threshold
            for unit, state in self.states.items()
            if state.judged and state.label is not None
        }


OrderFunction = Callable[[OrderInput], list[str]]


@dataclass(frozen=True)
class JudgingOrder:
    """A registered order: its `--order` name, the words the front ends show, and its function.

    `label` names it in a list ("Move-to-Front"); `doc` says what comes first,
    shown next to the name in the TUI's order picker; `why` says what it is
    good for (the docs' table of orders); `seeded` orders ask for and record a
    seed; `needs_model` orders read a model's labels (`OrderInput.model`), so a
    front end asks which model; `static` orders never look at the labels, so a
    replay may ask them once instead of after every judgment.
    """

    name: str
    label: str
    doc: str
    function: OrderFunction
    seeded: bool = False
    why: str = ""
    needs_model: bool = False
    static: bool = False


ORDERS: Registry[JudgingOrder] = Registry(
    "judging order",
    argument="order",
    build=lambda name, function, **details: JudgingOrder(name, function=function, **details),
)
"""The judging orders: `@ORDERS.register(name, label=..., doc=..., why=..., seeded=..., needs_model=...,
static=...)` on a function of an `OrderInput` registers it (the function is returned unchanged)."""


def is_seeded(name: str | None) -> bool:
    """Whether the order `name` uses a seed (an unknown or missing name does not)."""
    return name is not None and name in ORDERS and ORDERS.get(name).seeded


def needs_model(name: str | None) -> bool:
    """Whether the order `name` reads a model's labels (an unknown or missing name does not)."""
    return name is not None and name in ORDERS and ORDERS.get(name).needs_model


def orders_help() -> str:
    """'pool rank, RRF score, Move-to-Front, or seeded random': the registered labels as one phrase."""
    return alternatives([order.label for order in ORDERS.values()])


def arrange(name: str, given: OrderInput) -> list[str]:
    """The topic's units in the registered order `name`."""
    return ORDERS.get(name).function(given)


def pool_order(entries: Mapping[str, PoolEntry]) -> list[str]:
    """Best rank first, then units more runs agree on, then unit id ascending.

    Judging rank by rank across runs means a budget that runs out early has
    still covered every run's top ranks, which shallow metrics depend on.
    """
    return sorted(entries, key=lambda unit: (entries[unit].best_rank, -len(entries[unit].contributors), unit))


def rrf_order(entries: Mapping[str, PoolEntry]) -> list[str]:
    """RRF score descending, then unit id ascending (the same tie-break as `rrf_pool`)."""
    from labeler.pooling import rrf_ranking  # here: the pooling strategies are not needed to judge in pool order

    return rrf_ranking({unit: entry.rrf for unit, entry in entries.items()})


def _shuffle_key(seed: int, topic_id: str, unit_id: str) -> str:
    import hashlib  # here, not at the top: `labeler next` in any other order never loads OpenSSL

    return hashlib.sha256(f"{seed}\0{topic_id}\0{unit_id}".encode()).hexdigest()


def random_order(topic_id: str, units: Iterable[str], seed: int) -> list[str]:
    """A seeded shuffle that depends only on (seed, topic, set of units).

    Each unit's position comes from a hash of its own id, so the order neither
    depends on how `units` was iterated nor moves existing units when the pool
    grows: a resumed or merged session sees the same sequence.
    """
    return sorted(set(units), key=lambda unit: (_shuffle_key(seed, topic_id, unit), unit))


def _skip_visited(ranking: Sequence[str], position: int, visited: set[str]) -> int:
    """The first position at or after `position` whose unit has not been visited."""
    while position < len(ranking) and ranking[position] in visited:
        position += 1
    return position


def _mtf_visits(rankings: Mapping[str, Sequence[str]], judged: Mapping[str, bool], decrement: int) -> Iterator[str]:
    """Yield units in the order Move-to-Front visits them, replaying the known labels.

    Unjudged units count as non-relevant. Only the tail after the first
    unjudged unit depends on that assumption, and the caller recomputes the
    order after every judgment, so the tail is always provisional.
    """
    positions = dict.fromkeys(rankings, 0)
    priority = dict.fromkeys(rankings, 0)
    visited: set[str] = set()
    while True:
        live = []
        for run, ranking in rankings.items():
            positions[run] = _skip_visited(ranking, positions[run], visited)
            if positions[run] < len(ranking):
                live.append(run)
        if not live:
            return
        # max() keeps the first of equal priorities, which is the fixed run order.
        run = max(live, key=priority.__getitem__)
        ranking = rankings[run]
        while positions[run] < len(ranking):
            unit = ranking[positions[run]]
            visited.add(unit)
            yield unit
            if not judged.get(unit, False):
                priority[run] -= decrement
                break
            positions[run] = _skip_visited(ranking, positions[run] + 1, visited)


def _validate_decrement(decrement: int) -> None:
    if isinstance(decrement, bool) or not isinstance(decrement, int) or decrement < 1:
        raise ValueError(f"MTF decrement must be an integer of at least 1, not {decrement!r}")


def mtf_order(
    rankings: Mapping[str, Sequence[str]],
    judged: Mapping[str, bool],
    decrement: int = 1,
    pool: Iterable[str] = (),
) -> list[str]:
    """Move-to-Front (Cormack, Palmer & Clarke 1998) as a replay over the labels known so far.

    `rankings` is run -> this topic's ranking restricted to pool units, best
    first, in the fixed run order; `judged` maps labelled units to "relevant?".
    All runs start at priority 0; the run with the highest priority (ties: run
    order) is read from where it stopped, skipping units already visited; a
    relevant unit keeps it, a non-relevant or unjudged one costs it `decrement`.
    Replaying instead of storing priorities lets the order learn from each
    judgment as it arrives and survive restarts and merges unchanged. Units of
    `pool` that no ranking holds come last, by unit id.

    Because every miss costs the same `decrement`, any positive value gives the
    same order; the parameter exists so the literature's variants can be named.
    """
    _validate_decrement(decrement)
    order = list(_mtf_visits(rankings, judged, decrement))
    seen = set(order)
    return order + sorted(set(pool) - seen)


def mtf_next(
    rankings: Mapping[str, Sequence[str]],
    judged: Mapping[str, bool],
    decrement: int = 1,
    pool: Iterable[str] = (),
) -> str | None:
    """The next unit MTF asks to judge: the first unjudged unit of `mtf_order` (None when done).

    The replay stops at that unit, so the non-relevant assumption for unjudged
    units never affects the answer.
    """
    _validate_decrement(decrement)
    seen: set[str] = set()
    for unit in _mtf_visits(rankings, judged, decrement):
        if unit not in judged:
            return unit
        seen.add(unit)
    rest = sorted(set(pool) - seen - set(judged))
    return rest[0] if rest else None


def _run_rankings(entries: Mapping[str, PoolEntry], run_order: tuple[str, ...]) -> dict[str, list[str]]:
    """Each run's ranking restricted to the pool, best first, in the pool's run order."""
    rankings: dict[str, list[tuple[int, str]]] = {}
    for unit_id, entry in entries.items():
        for run, rank in entry.contributors:
            rankings.setdefault(run, []).append((rank, unit_id))
    return {run: [u for _, u in sorted(rankings[run])] for run in run_order if run in rankings}


def _maxmean_visits(rankings: Mapping[str, Sequence[str]], judged: Mapping[str, bool], shared: bool) -> Iterator[str]:
    """Yield units in the order MaxMean visits them, replaying the known labels (unjudged: non-relevant)."""
    positions = dict.fromkeys(rankings, 0)
    mean = dict.fromkeys(rankings, 0.5)
    relevant = dict.fromkeys(rankings, 0)
    seen = dict.fromkeys(rankings, 0)
    holders: dict[str, list[str]] = {}
    for run, ranking in rankings.items():
        for unit in dict.fromkeys(ranking):
            holders.setdefault(unit, []).append(run)
    active = [run for run, ranking in rankings.items() if ranking]  # in run order
    visited: set[str] = set()
    while active:
        # The posterior mean of Beta(1 + rel, 1 + nonrel); max() keeps the first of equal means: the run order.
        # Equal fractions of small integers divide to the same float, so ties are exact.
        run = max(active, key=mean.__getitem__)
        ranking = rankings[run]
        positions[run] = _skip_visited(ranking, positions[run], visited)
        if positions[run] == len(ranking):
            active.remove(run)
            continue
        unit = ranking[positions[run]]
        visited.add(unit)
        yield unit
        hit = judged.get(unit, False)
        for counted in holders[unit] if shared else (run,):
            seen[counted] += 1
            relevant[counted] += hit
            mean[counted] = (relevant[counted] + 1) / (seen[counted] + 2)


def maxmean_order(
    rankings: Mapping[str, Sequence[str]],
    judged: Mapping[str, bool],
    shared: bool = True,
    pool: Iterable[str] = (),
) -> list[str]:
    """MaxMean (Losada, Parapar & Barreiro, SAC 2016; IP&M 53(5), 2017) as a replay over the labels known so far.

    Runs are arms with a Beta(1, 1) prior on their rate of relevant units. The
    next unit is the next not-yet-visited unit, in its own pool ranking, of the
    run with the highest posterior mean (rel + 1) / (rel + nonrel + 2); ties go
    to the fixed run order of `rankings`. Reward 1 for relevant, 0 otherwise;
    unjudged units count as non-relevant, so (as with MTF) only the tail after
    the first unjudged unit is provisional.

    labeler's choice: `shared=True` (the default) counts a judged unit for every
    run whose pool ranking holds it, whichever run drew it; `shared=False`
    counts it only for the run that drew it ("own pulls only"). The papers'
    arms are pulled by judging a run's top unjudged document; which runs a
    judgment updates is not pinned down in our notes. Units of `pool` that no
    ranking holds come last, by unit id.
    """
    order = list(_maxmean_visits(rankings, judged, shared))
    return order + sorted(set(pool) - set(order))


HEDGE_BETA = 0.1
# Weighted values this close (relative) are a tie: equal sums of beta ** loss computed along different paths
# differ in their last bits, and a tie must go to the tie rule, not to rounding.
_HEDGE_TIE = 1e-9


def ap_prior(length: int) -> list[float]:
    """Hedge's rank values for a list of `length`: value(r) = (1/2)(1/r + 1/(r+1) + ... + 1/Z), r = 1..Z."""
    values = [0.0] * length
    tail = 0.0
    for r in range(length, 0, -1):
        tail += 1 / r
        values[r - 1] = tail / 2
    return values


def _validate_beta(beta: float) -> None:
    if isinstance(beta, bool) or not isinstance(beta, int | float) or not 0 < beta < 1:
        raise ValueError(f"Hedge beta must be a number strictly between 0 and 1, not {beta!r}")


class _HedgeReplay:
    """One topic's Hedge replay, resumable: the state after the judged prefix is what the cache keeps.

    Weights are kept up to a common factor: w_s = beta ** (L_s - t/2) after t
    pulls is proportional to Hedge's normalised beta ** L_s (L_s the run's
    cumulative loss), so only the runs that rank the pulled unit change. The
    argmax is a lazy max-heap: a stored key times `scale` bounds its unit's
    score from above (weights that fall keep the bound; when one rises,
    `scale` grows by the largest factor), and only units whose bound can
    still win are rescored.
    """

    def __init__(self, rankings: Mapping[str, Sequence[str]], beta: float) -> None:
        runs = [run for run, ranking in rankings.items() if ranking]
        values = {run: ap_prior(len(rankings[run])) for run in runs}
        self.top = max((values[run][0] for run in runs), default=1.0)
        self.log_beta = math.log(beta)
        held: dict[str, dict[int, float]] = {}
        best_position: dict[str, int] = {}
        for index, run in enumerate(runs):
            for position, unit in enumerate(rankings[run]):
                # A unit a run repeats keeps its best rank in that run.
                held.setdefault(unit, {}).setdefault(index, values[run][position])
                best_position[unit] = min(best_position.get(unit, position), position)
        self.ranked = {unit: tuple(runs_of.items()) for unit, runs_of in held.items()}
        # Ties between equal weighted values: best position in any run, then more runs, then unit id.
        self.tie = {unit: (best_position[unit], -len(runs_of), unit) for unit, runs_of in held.items()}
        self.weight = [1.0] * len(runs)
        self.scale = 1.0
        self.heap = [(-self.score(unit), self.tie[unit], unit) for unit in self.ranked]
        heapq.heapify(self.heap)
        self.prefix: list[tuple[str, bool]] = []

    def score(self, unit: str) -> float:
        weight = self.weight
        return sum(weight[i] * value for i, value in self.ranked[unit])

    def take(self) -> str:
        """Pop the unit with the highest weighted value (ties within a relative 1e-9: the tie rule)."""
        heap, scale = self.heap, self.scale
        popped: list[tuple[float, tuple[int, int, str], str]] = []
        best = -1.0
        while heap and -heap[0][0] * scale >= best * (1 - _HEDGE_TIE):
            _, key, unit = heapq.heappop(heap)
            score = self.score(unit)
            popped.append((score, key, unit))
            best = max(best, score)
        floor = best * (1 - _HEDGE_TIE)
        chosen = min((entry for entry in popped if entry[0] >= floor), key=lambda entry: entry[1])
        for entry in popped:
            if entry is not chosen:
                heapq.heappush(heap, (-entry[0] / scale, entry[1], entry[2]))
        return chosen[2]

    def put_back(self, unit: str) -> None:
        heapq.heappush(self.heap, (-self.score(unit) / self.scale, self.tie[unit], unit))

    def learn(self, unit: str, relevant: bool) -> None:
        """Multiply the weights of the runs ranking `unit` by beta ** (loss - 1/2)."""
        self.prefix.append((unit, relevant))
        sign = -0.5 if relevant else 0.5
        grow = 1.0
        for i, value in self.ranked[unit]:
            factor = math.exp(self.log_beta * sign * value / self.top)
            self.weight[i] *= factor
            grow = max(grow, factor)
        self.scale *= grow
        high = max(self.weight)
        if not 1e-100 < high < 1e100:  # a common factor changes no order; keep the floats in range
            self.weight = [w / high for w in self.weight]
            self.scale /= high

    def tail(self) -> list[str]:
        """The units not taken yet, by weighted value now (to 9 significant digits), then the tie rule."""
        left = [unit for _, _, unit in self.heap]
        return sorted(left, key=lambda unit: (-float(f"{self.score(unit):.9g}"), self.tie[unit]))


# Resumable replays by (beta, rankings): the queue asks again after every judgment, and the new label is the
# first unjudged unit of the last answer, so the replay resumes there instead of starting over.
_HEDGE_CACHE: dict[tuple[float, tuple[tuple[str, tuple[str, ...]], ...]], _HedgeReplay] = {}
_HEDGE_CACHE_SIZE = 32
_HEDGE_CACHE_LOCK = threading.Lock()


def _hedge_replay(rankings: Mapping[str, Sequence[str]], judged: Mapping[str, bool], beta: float) -> list[str]:
    key = (beta, tuple((run, tuple(ranking)) for run, ranking in rankings.items()))
    with _HEDGE_CACHE_LOCK:
        replay = _HEDGE_CACHE.pop(key, None)  # taken out while in use: another thread starts its own
    if replay is None or any(judged.get(unit) != relevant for unit, relevant in replay.prefix):
        replay = _HedgeReplay(rankings, beta)
    order = [unit for unit, _ in replay.prefix]
    while replay.heap:
        unit = replay.take()
        if unit not in judged:
            replay.put_back(unit)
            order.append(unit)
            order.extend(other for other in replay.tail() if other != unit)
            break
        order.append(unit)
        replay.learn(unit, judged[unit])
    with _HEDGE_CACHE_LOCK:
        while len(_HEDGE_CACHE) >= _HEDGE_CACHE_SIZE:
            del _HEDGE_CACHE[next(iter(_HEDGE_CACHE))]
        _HEDGE_CACHE[key] = replay
    return order


def hedge_order(
    rankings: Mapping[str, Sequence[str]],
    judged: Mapping[str, bool],
    beta: float = HEDGE_BETA,
    pool: Iterable[str] = (),
) -> list[str]:
    """Hedge (Aslam, Pavlu & Savell, CIKM 2003) as a replay over the labels known so far.

    Each run s has a weight w_s, 1/n for n runs at the start. A unit at
    position r (1-based) of run s's pool ranking, of length Z_s, has the rank
    value v_s(d) = (1/2)(1/r + 1/(r+1) + ... + 1/Z_s), the paper's
    approximation of AP's weight at rank r; v_s(d) = 0 if s does not rank d.
    The next unit is the unvisited unit with the highest sum_s w_s v_s(d) (the
    weights sum to 1); ties (within a relative 1e-9) go to the best position
    in any run, then more runs, then unit id. Once its label is known, every
    run's weight is multiplied by beta ** loss_s(d) and the weights are
    renormalised to sum 1, where

        loss_s(d) = 1/2 - (1/2) v_s(d) / v_max   if d is relevant,
        loss_s(d) = 1/2 + (1/2) v_s(d) / v_max   if not,

    and v_max is the largest rank value in the topic (rank 1 of the longest
    ranking), so the loss lies in [0, 1] and a run that does not rank d loses
    1/2. The paper's beta is 0.1.

    labeler's choices: the loss's scaling to [0, 1] by v_max; r and Z taken
    within the run's pool ranking (for a depth-k pool, the run's rank and k);
    the tie rule; and the provisional tail: after the first unjudged unit the
    rest follow by weighted value under the weights at that point (no
    assumption about labels still missing), so only that tail depends on them.
    Units of `pool` that no ranking holds come last, by unit id.
    """
    _validate_beta(beta)
    order = _hedge_replay(rankings, judged, beta)
    return order + sorted(set(pool) - set(order))


def model_probs(label: ModelJudgment) -> dict[int, float]:
    """A model label's stated probabilities; a label without them is certain of its grade."""
    return dict(label.probs) if label.probs else {label.grade: 1.0}


UNCERTAINTY_METHOD = "isotonic"
# The stated probabilities of the topic's model-labelled pairs join the fit as pseudo-examples of this total weight.
UNCERTAINTY_PRIOR = 10.0
# Margins this close are a tie (equal calibrated values reached along different float paths).
_MARGIN_DIGITS = 12


def uncertainty_order(
    ordered: Sequence[str],
    states: Mapping[str, PairState],
    model: Mapping[str, ModelJudgment],
    grades: Sequence[int] = (),
    method: str = UNCERTAINTY_METHOD,
    prior_weight: float = UNCERTAINTY_PRIOR,
    min_examples: int = 1,
) -> list[str]:
    """LARA's selection (Takehi, Voorhees, Sakai & Soboroff, SIGIR 2025): humans where the calibrated model is unsure.

    A calibrator (`labeler.agreement.calibration`, isotonic by default) is fitted on the
    topic's pairs that both the model and a human labelled: (the model's stated
    probabilities, the human grade). Each unjudged pair's stated probabilities
    are calibrated, and the pair whose top two calibrated grade probabilities
    are closest (the smallest margin p1 - p2) comes first; ties (to 12 decimal
    places) keep `ordered`, the pool order. Judged pairs come first in pool
    order (they are not asked again). The order is computed afresh from the
    labels known, so it refits after every human label.

    labeler's choices: the calibrator is fitted per topic, on that topic's
    labels only (the order sees one topic). The stated probabilities of every
    pair of the topic the model labelled join the fit as pseudo-examples of
    total weight `prior_weight` (10), and it calibrates from the first human
    label (`min_examples` 1): the human labels an uncertainty order collects
    cluster where it looked, and without the pseudo-examples a plain isotonic
    fit would extend their frequency to stated values no human label is near
    (on the DL 2020 simulation of tests/assisted that order did worse than
    random; with them it does better). A model label without probabilities
    counts as certain of its grade (so only calibration tells such labels
    apart); the margin is the uncertainty (LARA's "top two closest"); and
    unjudged pairs the model did not label come before every labelled one, in
    pool order: the model says nothing about them, the least certain it can
    be, and the combined labels (human, else calibrated model) would otherwise
    have no label there at all.
    """
    scale = tuple(grades) or _grade_scale(states, model)
    judged = [u for u in ordered if (s := states.get(u)) is not None and s.judged]
    prior = [model_probs(model[u]) for u in ordered if u in model] if prior_weight else []
    from labeler.agreement.calibration import fit_calibrator  # only this order calibrates: other orders never load it

    calibrator = (
        fit_calibrator(
            _calibration_examples(judged, states, model, set(scale)),
            scale,
            method,
            prior=prior,
            prior_weight=prior_weight,
            min_examples=min_examples,
        )
        if scale
        else None
    )
    done = set(judged)
    unlabelled = [u for u in ordered if u not in done and u not in model]
    return judged + unlabelled + _by_margin(ordered, done, model, calibrator)


def _grade_scale(states: Mapping[str, PairState], model: Mapping[str, ModelJudgment]) -> tuple[int, ...]:
    """The grades seen, when none are given: those the model put probability on and those humans gave."""
    stated = {g for label in model.values() for g in model_probs(label)}
    given = {s.label for s in states.values() if s.judged and s.label is not None}
    return tuple(sorted(stated | given))


def _calibration_examples(
    judged: list[str], states: Mapping[str, PairState], model: Mapping[str, ModelJudgment], known: set[int]
) -> list[tuple[dict[int, float], int]]:
    """(stated probabilities, human grade) of the judged pairs the model labelled, in unit order.

    A human grade outside the scale teaches the calibrator nothing it could output, so it is left out.
    """
    return [
        (model_probs(model[u]), label)
        for u in sorted(judged)
        if u in model and (label := states[u].label) is not None and label in known
    ]


def _by_margin(
    ordered: Sequence[str], done: set[str], model: Mapping[str, ModelJudgment], calibrator: Calibrator | None
) -> list[str]:
    """The unjudged model-labelled units, smallest calibrated margin first, ties in `ordered`'s order.

    Many units share the same stated probabilities, so each distinct statement is calibrated once.
    """
    margins: dict[tuple[tuple[int, float], ...], float] = {}
    ranked: list[tuple[float, int, str]] = []
    for index, unit in enumerate(ordered):
        if unit in done or unit not in model:
            continue
        stated = model_probs(model[unit])
        key = tuple(sorted(stated.items()))
        if key not in margins:
            margins[key] = _margin(calibrator.calibrate(stated) if calibrator is not None else stated)
        ranked.append((margins[key], index, unit))
    ranked.sort()
    return [unit for _, _, unit in ranked]


def _margin(probabilities: Mapping[int, float]) -> float:
    """p1 - p2 of the two likeliest grades (p1 alone with one grade), rounded so float-path ties are ties."""
    top = sorted(probabilities.values(), reverse=True)
    return round(top[0] - (top[1] if len(top) > 1 else 0.0), _MARGIN_DIGITS)


# The built-in orders. Registration order is the order the CLI and the TUI list them in.


@ORDERS.register(
    "pool",
    label="pool rank",
    doc="best rank first",
    why="ties go to pairs more runs agree on: the TREC habit (the default)",
    static=True,
)
def _by_pool_rank(given: OrderInput) -> list[str]:
    return pool_order(given.entries)


@ORDERS.register(
    "rrf", label="RRF score", doc="highest fused score first", why="units many runs rank high", static=True
)
def _by_rrf(given: OrderInput) -> list[str]:
    return rrf_order(given.entries)


@ORDERS.register(
    "mtf",
    label="Move-to-Front",
    doc="Move-to-Front (stay on runs that find relevant units)",
    why=(
        "keeps drawing from a run while it finds relevant units, moves to another when it misses: finds relevant "
        "units with fewer judgments (Cormack, Palmer & Clarke 1998)"
    ),
)
def _by_mtf(given: OrderInput) -> list[str]:
    # Move-to-Front breaks ties between runs by a fixed order: the pool's run order.
    return mtf_order(_run_rankings(given.entries, given.run_order), given.relevant())


@ORDERS.register(
    "random",
    label="seeded random",
    doc="seeded shuffle",
    seeded=True,
    why="stable for a given seed: unbiased samples, reproducible",
    static=True,
)
def _by_seed(given: OrderInput) -> list[str]:
    return random_order(given.topic_id, given.entries.keys(), given.seed)


@ORDERS.register(
    "maxmean",
    label="MaxMean",
    doc="MaxMean (draw from the run with the best rate of relevant units so far)",
    why=(
        "a bandit: each run is an arm with a Beta(1,1) prior, the next unit is the next one of the run with the "
        "highest posterior mean of relevant units so far (Losada, Parapar & Barreiro 2016)"
    ),
)
def _by_maxmean(given: OrderInput) -> list[str]:
    return maxmean_order(_run_rankings(given.entries, given.run_order), given.relevant(), pool=given.entries)


@ORDERS.register(
    "hedge",
    label="Hedge",
    doc="Hedge (weighted runs' rank values; weights follow each label)",
    why=(
        "online learning: units the currently best-weighted runs rank high come first, each label reweights the "
        "runs by how well they ranked it (Aslam, Pavlu & Savell 2003)"
    ),
)
def _by_hedge(given: OrderInput) -> list[str]:
    return hedge_order(_run_rankings(given.entries, given.run_order), given.relevant(), pool=given.entries)


@ORDERS.register(
    "uncertainty",
    label="model uncertainty",
    doc="model uncertainty (the pair whose calibrated top two grades are closest)",
    why=(
        "humans where a model judge is least sure: a calibrator refitted on each human label maps the model's "
        "probabilities, the pair with the closest top two grades comes next (LARA, Takehi et al. 2025); needs a "
        "model's labels"
    ),
    needs_model=True,
)
def _by_uncertainty(given: OrderInput) -> list[str]:
    return uncertainty_order(pool_order(given.entries), given.states, given.model, given.grades)
