"""How much two system rankings agree: Kendall's tau-b and the AP rank correlation tau_AP.

Pool bias and re-pooling matter to the extent that they reorder systems, so
both the leave-one-run-out report and the snapshot comparison end in a rank
correlation (Kendall 1945; Yilmaz, Aslam & Robertson, SIGIR 2008). tau-b treats every swap alike;
tau_AP weighs swaps near the top more, where they matter most.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

# Voorhees (2000/2001): rankings with tau >= 0.9 are usually taken as equivalent.
EQUIVALENT_TAU = 0.9


def _check_score(system: str, score: Any) -> float:
    if isinstance(score, bool) or not isinstance(score, (int, float)) or math.isnan(score):
        raise ValueError(f"score of {system!r} must be a number, not {score!r}")
    return float(score)


def _check_ranking(ranking: Any, what: str) -> list[str]:
    if isinstance(ranking, (str, bytes)) or not isinstance(ranking, Sequence):
        raise ValueError(f"{what} must be a list of systems, best first, not {ranking!r}")
    items = list(ranking)
    if len(set(items)) != len(items):
        raise ValueError(f"{what} lists a system twice: {items!r}")
    return items


def _as_scores(values: Any, what: str) -> dict[str, float]:
    """Scores as given, or a ranking (best first) turned into strictly decreasing scores."""
    if isinstance(values, Mapping):
        return {system: _check_score(system, score) for system, score in values.items()}
    items = _check_ranking(values, what)
    return {system: float(len(items) - position) for position, system in enumerate(items)}


Ordering = Mapping[str, float] | Sequence[str]


def _same_systems(first: Iterable[str], second: Iterable[str], what: str) -> None:
    """Refuse two orderings of different systems, naming those only one of them holds."""
    if set(first) != set(second):
        missing = sorted(set(first) ^ set(second))
        raise ValueError(f"both {what} must hold the same systems; only one has: {', '.join(missing)}")


def kendall_tau(reference: Ordering, other: Ordering) -> float | None:
    """Kendall's tau-b between two orderings of the same systems, given as scores or as rankings (best first).

    tau_b = (n_c − n_d) / sqrt((n_0 − n_1)(n_0 − n_2)), with n_0 = n(n−1)/2
    pairs, n_c / n_d the concordant / discordant pairs, and n_1, n_2 the pairs
    tied in the reference and in the other ordering (Kendall 1945; the
    default of scipy.stats.kendalltau). Ties matter here because two runs
    often score the same on a few topics. Without ties it is tau-a =
    (n_c − n_d)/n_0. None when fewer than two systems, or when either
    ordering ties every pair (the coefficient is undefined).
    """
    first = _as_scores(reference, "reference")
    second = _as_scores(other, "other")
    _same_systems(first, second, "orderings")
    systems = list(first)
    concordant = discordant = tied_first = tied_second = 0
    for i, a in enumerate(systems):
        for b in systems[i + 1 :]:
            x = first[a] - first[b]
            y = second[a] - second[b]
            if x == 0:
                tied_first += 1
            if y == 0:
                tied_second += 1
            if x * y > 0:
                concordant += 1
            elif x * y < 0:
                discordant += 1
    pairs = len(systems) * (len(systems) - 1) // 2
    denominator = math.sqrt((pairs - tied_first) * (pairs - tied_second))
    return (concordant - discordant) / denominator if denominator else None


def tau_ap(reference: Sequence[str], estimated: Sequence[str]) -> float | None:
    """AP rank correlation of `estimated` against `reference` (both best first, same systems).

    τ_AP = (2/(N−1)) · Σ_{i=2..N} C(i)/(i−1) − 1, where C(i) counts the
    systems ranked above position i in `estimated` that are also above that
    system in `reference` (Yilmaz, Aslam & Robertson, "A new rank correlation
    coefficient for information retrieval", SIGIR 2008). It is asymmetric and
    penalises swaps near the top more than tau. None for fewer than two systems.
    """
    truth = _check_ranking(reference, "reference")
    guess = _check_ranking(estimated, "estimated")
    _same_systems(truth, guess, "rankings")
    n = len(truth)
    if n < 2:
        return None
    position = {system: index for index, system in enumerate(truth)}
    total = 0.0
    for i in range(1, n):
        here = position[guess[i]]
        correct = sum(1 for above in guess[:i] if position[above] < here)
        total += correct / i
    return 2.0 / (n - 1) * total - 1.0


def rank_systems(scores: Mapping[str, float | None]) -> list[str]:
    """Systems by score, best first; ties keep the given order and None scores are left out.

    The stable tie rule makes tau_AP (which needs a strict order) deterministic.
    """
    scored = [(system, _check_score(system, score)) for system, score in scores.items() if score is not None]
    return [system for system, _ in sorted(scored, key=lambda pair: -pair[1])]


def compare_rankings(reference: Mapping[str, float | None], other: Mapping[str, float | None]) -> dict[str, Any]:
    """The systems ranked by two sets of scores, with tau-b and tau_AP between them.

    Only systems with a score in both are compared (a None score means the
    measure was undefined for that system). Returns {"systems": n, "reference":
    [...], "other": [...], "kendall_tau", "tau_ap", "equivalent": tau >= 0.9
    or None}.
    """
    common = [system for system in reference if reference[system] is not None and other.get(system) is not None]
    first = {system: score for system in common if (score := reference[system]) is not None}
    second = {system: score for system in common if (score := other[system]) is not None}
    ranked_first, ranked_second = rank_systems(first), rank_systems(second)
    tau = kendall_tau(first, second) if common else None
    return {
        "systems": len(common),
        "reference": ranked_first,
        "other": ranked_second,
        "kendall_tau": tau,
        "tau_ap": tau_ap(ranked_first, ranked_second),
        "equivalent": None if tau is None else tau >= EQUIVALENT_TAU,
    }
