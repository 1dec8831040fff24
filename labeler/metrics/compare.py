"""Paired comparison of two runs, topic by topic, on one measure.

Two means can differ because the runs differ or because the topics are hard
in different ways; pairing each topic with itself removes the second cause
(compare paired results on the same queries).
Two tests are given because they answer with different assumptions: the
randomization (sign-flip) test assumes only that, under no difference, each
topic's delta is as likely to be positive as negative; Student's paired t-test
assumes roughly normal deltas. Smucker, Allan and Carterette (CIKM 2007,
"A comparison of statistical significance tests for IR evaluation") found
them to agree closely on TREC data and recommend the randomization test.

Plain math only: the t distribution's tail is computed from the regularized
incomplete beta function (Numerical Recipes, 3rd ed., §6.4, continued fraction
by the modified Lentz method), so this module needs no scipy (it is checked
against scipy's `ttest_rel`); the Wilcoxon test, bootstrap intervals and the
multiple-comparison correction are in labeler.metrics.significance.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from labeler.models import topic_sort_key

TIE = 1e-12


def paired_comparison(
    a: Mapping[str, float | None], b: Mapping[str, float | None], *, permutations: int = 10_000, seed: int = 0
) -> dict[str, Any]:
    """Compare b against a on the topics both have a value for.

    Returns topics, per-topic deltas (b − a), wins/ties/losses of b (a tie is
    |delta| < 1e-12), the means and mean delta, the two-sided sign-flip
    randomization p-value (seeded, so a report is reproducible) and the
    two-sided paired t-test p-value. A topic whose value is None on either
    side (undefined for that measure) is left out, like a topic only one side has.
    """
    _check_permutations(permutations)
    pairs = _paired_values(a, b)
    topics = list(pairs)
    deltas = {topic: b_value - a_value for topic, (a_value, b_value) in pairs.items()}
    values = list(deltas.values())
    t_stat, t_p = paired_t_test(values)
    return {
        "topics": topics,
        "n": len(values),
        "deltas": deltas,
        "wins": sum(1 for v in values if v >= TIE),
        "ties": sum(1 for v in values if abs(v) < TIE),
        "losses": sum(1 for v in values if v <= -TIE),
        "mean_a": _mean([a_value for a_value, _ in pairs.values()]),
        "mean_b": _mean([b_value for _, b_value in pairs.values()]),
        "mean_delta": _mean(values),
        "randomization_p": randomization_p_value(values, permutations=permutations, seed=seed),
        "permutations": permutations,
        "seed": seed,
        "t": t_stat,
        "t_test_p": t_p,
    }


def _check_permutations(permutations: object) -> None:
    """Refuse a draw count that is not a whole number ≥ 1: True would silently mean one draw."""
    if isinstance(permutations, bool) or not isinstance(permutations, int) or permutations < 1:
        raise ValueError(f"permutations must be a whole number of at least 1, not {permutations!r}")


def _paired_values(a: Mapping[str, float | None], b: Mapping[str, float | None]) -> dict[str, tuple[float, float]]:
    """{topic: (a, b)} for the topics both sides define, in topic_sort_key order, each value checked a number.

    Pairing is what makes the comparison paired: a topic only one side has, or
    one side leaves undefined (None), has no delta and is left out. A value
    that is not a number (text, a bool, NaN) is refused rather than compared.
    """
    topics = sorted((t for t in a if t in b and a[t] is not None and b[t] is not None), key=topic_sort_key)
    return {topic: (_number(topic, "a", a[topic]), _number(topic, "b", b[topic])) for topic in topics}


def _number(topic: str, side: str, value: object) -> float:
    """`value` as a float; ValueError naming the topic and side when it is not a number (bools and NaN included)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ValueError(f"topic {topic!r}: {side} must be a number, not {value!r}")
    return float(value)


def _mean(values: list[float]) -> float | None:
    """The arithmetic mean, None for no values: a mean over no topics is undefined, never 0."""
    return sum(values) / len(values) if values else None


def randomization_p_value(deltas: list[float], *, permutations: int = 10_000, seed: int = 0) -> float | None:
    """Two-sided sign-flip randomization p-value for the mean of paired deltas.

    Under the null hypothesis each delta's sign is a coin flip. Each of
    `permutations` draws flips every sign with probability 1/2; the p-value is
    (count + 1) / (permutations + 1) where count is the draws whose |mean| is at
    least the observed |mean| (the +1 counts the observed assignment itself,
    so p is never 0: Phipson and Smyth 2010). None when there are no deltas.
    """
    n = len(deltas)
    if n == 0:
        return None
    total = sum(deltas)
    observed = abs(total)
    # Float sums of the same magnitudes in another order can differ in the last bits.
    tolerance = 1e-9 * max(1.0, sum(abs(x) for x in deltas))
    # Subset sums of each block of 8 deltas, so one draw costs n/8 lookups instead of n additions.
    tables = []
    for start in range(0, n, 8):
        block = deltas[start : start + 8]
        table = [0.0] * (1 << len(block))
        for mask in range(1, len(table)):
            low = mask & -mask
            table[mask] = table[mask ^ low] + block[low.bit_length() - 1]
        tables.append(table)
    rng = random.Random(seed)
    count = 0
    for _ in range(permutations):
        bits = rng.getrandbits(n)
        flipped = 0.0
        for table in tables:
            flipped += table[bits & 0xFF]
            bits >>= 8
        # Flipping the signs of the chosen deltas turns the total into total − 2·(their sum).
        if abs(total - 2.0 * flipped) >= observed - tolerance:
            count += 1
    return (count + 1) / (permutations + 1)


def paired_t_test(deltas: list[float]) -> tuple[float | None, float | None]:
    """(t, two-sided p) of Student's paired t-test on deltas; (None, None) for fewer than 2.

    t = mean / (s / √n) with s the sample standard deviation, n − 1 degrees of
    freedom; p = I_{ν/(ν+t²)}(ν/2, 1/2) (the t distribution's two tails,
    Abramowitz and Stegun 26.7.1 with 26.5.27). When every delta is the same
    the statistic is 0/0 or x/0: equal deltas of 0 give t = 0 and p = 1 (no
    difference at all), equal non-zero deltas give t = ±inf and p = 0.
    """
    n = len(deltas)
    if n < 2:
        return None, None
    mean = sum(deltas) / n
    variance = sum((x - mean) ** 2 for x in deltas) / (n - 1)
    if variance <= (1e-15 * max(1.0, abs(mean))) ** 2:
        if abs(mean) < TIE:
            return 0.0, 1.0
        return math.copysign(math.inf, mean), 0.0
    t = mean / math.sqrt(variance / n)
    df = n - 1
    return t, regularized_incomplete_beta(df / (df + t * t), df / 2.0, 0.5)


def regularized_incomplete_beta(x: float, a: float, b: float) -> float:
    """I_x(a, b) for 0 ≤ x ≤ 1 and a, b > 0 (Numerical Recipes §6.4).

    I_x(a,b) = x^a (1−x)^b / (a·B(a,b)) · 1/(1+ d1/(1+ d2/(1+ ...))), evaluated
    directly when x < (a+1)/(a+b+2) and through I_x(a,b) = 1 − I_{1−x}(b,a)
    otherwise, where the continued fraction converges fast.
    """
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"x must be between 0 and 1, not {x!r}")
    if x == 0.0 or x == 1.0:
        return x
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_continued_fraction(x, a, b) / a
    return 1.0 - math.exp(log_front) * _beta_continued_fraction(1.0 - x, b, a) / b


def _beta_continued_fraction(x: float, a: float, b: float) -> float:
    """The continued fraction of I_x(a, b) by the modified Lentz method (Numerical Recipes `betacf`)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    dd = 1.0 - qab * x / qap
    dd = 1.0 / (dd if abs(dd) > tiny else tiny)
    h = dd
    for m in range(1, 10_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        dd = 1.0 + aa * dd
        dd = 1.0 / (dd if abs(dd) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= dd * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        dd = 1.0 + aa * dd
        dd = 1.0 / (dd if abs(dd) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = dd * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            return h
    raise ValueError(f"incomplete beta did not converge for x={x}, a={a}, b={b}")
