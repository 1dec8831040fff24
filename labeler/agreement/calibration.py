"""Calibrating a model judge's stated grade probabilities on the human labels of the same pairs.

A model that labels relevance states a probability per grade; those probabilities are rarely
calibrated (a stated 0.8 may be right 70% of the time). `fit_calibrator` learns a map from the
stated probabilities to calibrated ones on (stated probs, human grade) examples, the pairs that
both the model and a human labelled, and `Calibrator.calibrate` applies it to any pair.

Two methods, both one-vs-rest per grade and then renormalised so that the probabilities sum to 1
(the scheme of Zadrozny and Elkan, KDD 2002, "Transforming classifier scores into accurate
multiclass probability estimates", which scikit-learn's `CalibratedClassifierCV` also uses):

- `isotonic`: per grade g, an isotonic (non-decreasing) regression of 1[human = g] on the stated
  P(g), fitted by pool-adjacent-violators (Ayer et al. 1955; Zadrozny and Elkan 2002). Equal stated
  values are pooled first (their mean target, weighted by their count); between the fitted points
  the map is linear and outside them it is clipped to the end values: scikit-learn's
  `IsotonicRegression(out_of_bounds="clip")`, which the tests check against.
- `logistic`: per grade g, Platt scaling (Platt 1999): P(human = g) = sigmoid(a * logit(P(g)) + b),
  fitted by Newton's method on the log loss with Platt's smoothed targets ((N+ + 1) / (N+ + 2) for
  the positives, 1 / (N- + 2) for the negatives, so that a grade never or always seen gives finite
  parameters) and an L2 penalty a^2 / (2 C) on the slope only (C = 1, the intercept unpenalised, as
  scikit-learn's `LogisticRegression` does, which the tests check against). Our choices: the
  feature is the logit of the stated probability (clipped to [1e-6, 1 - 1e-6]), not the probability
  itself, so that an identity map is a = 1, b = 0; and the penalty.

One-vs-rest, not the cumulative P(grade >= g): our choice, because the grades a model confuses
need not be neighbours and one-vs-rest needs no ordering of the per-grade fits.

Few examples: with fewer than `min_examples` examples (10 by default) the calibrator falls back
to the stated probabilities, renormalised over the grades (missing grades count 0; all zero gives
the uniform distribution). The same fallback applies to a pair whose calibrated values are all 0.

Refitting is cheap (sorting and one linear PAV pass, or a few Newton steps, per grade):
`Calibrator.updated(probs, grade)` returns the calibrator refitted with one more example; 300
examples on four grades refit in about 2 ms (isotonic) or 7 ms (logistic) of CPU.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

METHODS = ("isotonic", "logistic")
MIN_EXAMPLES = 10
_CLIP = 1e-6
_PLATT_C = 1.0

Example = tuple[Mapping[int, float], int]


def normalised(probs: Mapping[int, float], grades: Sequence[int]) -> dict[int, float]:
    """`probs` over `grades` summing to 1 (missing grades count 0; negative values count 0; all zero: uniform)."""
    values = {g: max(0.0, float(probs.get(g, 0.0))) for g in grades}
    total = sum(values.values())
    if total <= 0.0:
        return {g: 1.0 / len(grades) for g in grades}
    return {g: v / total for g, v in values.items()}


# --- isotonic regression (pool-adjacent-violators) --------------------------------------------


@dataclass(frozen=True)
class IsotonicMap:
    """A fitted non-decreasing map: linear between `xs` (increasing) and clipped outside."""

    xs: tuple[float, ...]
    ys: tuple[float, ...]

    def __call__(self, x: float) -> float:
        xs, ys = self.xs, self.ys
        if x <= xs[0]:
            return ys[0]
        if x >= xs[-1]:
            return ys[-1]
        i = bisect_right(xs, x)
        x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
        return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def fit_isotonic(xs: Sequence[float], ys: Sequence[float], ws: Sequence[float] | None = None) -> IsotonicMap:
    """Weighted isotonic least-squares regression of `ys` on `xs` (at least one point), by pool-adjacent-violators."""
    if not xs or len(xs) != len(ys) or (ws is not None and len(ws) != len(xs)):
        raise ValueError("isotonic regression needs as many targets (and weights) as points, and at least one")
    # Pool equal x first: their mean target, weighted.
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    ux: list[float] = []
    sums: list[float] = []
    weights: list[float] = []
    for i in order:
        w = 1.0 if ws is None else float(ws[i])
        if ux and xs[i] == ux[-1]:
            sums[-1] += w * ys[i]
            weights[-1] += w
        else:
            ux.append(float(xs[i]))
            sums.append(w * float(ys[i]))
            weights.append(w)
    # Blocks of (sum, weight, number of unique points), merged while a block's mean falls below its predecessor's.
    b_sum: list[float] = []
    b_w: list[float] = []
    b_n: list[int] = []
    for s, w in zip(sums, weights, strict=True):
        b_sum.append(s)
        b_w.append(w)
        b_n.append(1)
        while len(b_sum) > 1 and b_sum[-2] * b_w[-1] > b_sum[-1] * b_w[-2]:
            s2, w2, n2 = b_sum.pop(), b_w.pop(), b_n.pop()
            b_sum[-1] += s2
            b_w[-1] += w2
            b_n[-1] += n2
    fitted: list[float] = []
    for s, w, n in zip(b_sum, b_w, b_n, strict=True):
        fitted.extend([s / w] * n)
    return IsotonicMap(tuple(ux), tuple(fitted))


# --- Platt scaling ----------------------------------------------------------------------------


def _logit(p: float) -> float:
    p = min(max(p, _CLIP), 1.0 - _CLIP)
    return math.log(p / (1.0 - p))


def _sigmoid(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z))
    e = math.exp(z)
    return e / (1.0 + e)


@dataclass(frozen=True)
class PlattMap:
    """sigmoid(slope * logit(p) + intercept)."""

    slope: float
    intercept: float

    def __call__(self, p: float) -> float:
        return _sigmoid(self.slope * _logit(p) + self.intercept)


def fit_platt(
    xs: Sequence[float], targets: Sequence[float], weights: Sequence[float] | None = None, c: float = _PLATT_C
) -> PlattMap:
    """Minimise sum w * logloss(t, sigmoid(a x + b)) + a^2 / (2 c) by Newton's method (x: features, t in [0, 1])."""
    w = list(weights) if weights is not None else [1.0] * len(xs)
    a, b = 0.0, 0.0
    for _ in range(100):
        ga, gb = a / c, 0.0
        haa, hab, hbb = 1.0 / c, 0.0, 0.0
        for x, t, wi in zip(xs, targets, w, strict=True):
            p = _sigmoid(a * x + b)
            r = wi * (p - t)
            ga += r * x
            gb += r
            h = wi * p * (1.0 - p)
            haa += h * x * x
            hab += h * x
            hbb += h
        det = haa * hbb - hab * hab
        if det <= 1e-300:
            hbb += 1e-12
            det = haa * hbb - hab * hab
        da = (hbb * ga - hab * gb) / det
        db = (haa * gb - hab * ga) / det
        a -= da
        b -= db
        if abs(da) < 1e-12 and abs(db) < 1e-12:
            break
    return PlattMap(a, b)


def platt_targets(ys: Sequence[int]) -> tuple[float, float]:
    """Platt's smoothed targets (positive, negative) for 0/1 labels `ys`."""
    pos = sum(1 for y in ys if y)
    neg = len(ys) - pos
    return (pos + 1.0) / (pos + 2.0), 1.0 / (neg + 2.0)


# --- the calibrator ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Calibrator:
    """A fitted calibrator: `calibrate(probs)` maps a model's stated probabilities to calibrated ones."""

    method: str
    grades: tuple[int, ...]
    examples: tuple[tuple[dict[int, float], int], ...]
    min_examples: int = MIN_EXAMPLES
    _maps: tuple[IsotonicMap | PlattMap, ...] = field(default=(), repr=False, compare=False)

    @property
    def fallback(self) -> bool:
        """True when there are too few examples and the stated probabilities are used as they are."""
        return len(self.examples) < self.min_examples

    def calibrate(self, probs: Mapping[int, float]) -> dict[int, float]:
        """Calibrated probabilities per grade (every grade of the scale, summing to 1)."""
        if self.fallback or not self._maps:
            return normalised(probs, self.grades)
        raw = {g: m(float(probs.get(g, 0.0))) for g, m in zip(self.grades, self._maps, strict=True)}
        if sum(raw.values()) <= 0.0:
            return normalised(probs, self.grades)
        return normalised(raw, self.grades)

    def updated(self, probs: Mapping[int, float], grade: int) -> Calibrator:
        """This calibrator refitted with one more example."""
        return fit_calibrator(
            [*self.examples, (probs, grade)], self.grades, self.method, min_examples=self.min_examples
        )


def fit_calibrator(
    examples: Sequence[Example],
    grades: Sequence[int],
    method: str = "isotonic",
    *,
    min_examples: int = MIN_EXAMPLES,
    prior: Sequence[Mapping[int, float]] = (),
    prior_weight: float = 0.0,
) -> Calibrator:
    """Fit a calibrator on (stated probabilities, human grade) examples over the scale's `grades`.

    `prior` (stated probabilities, e.g. of every pair the model labelled) with `prior_weight` > 0 adds
    pseudo-examples whose target is the stated probability itself, of total weight `prior_weight`: where no
    human label is near, the map stays near the stated probabilities instead of extending the nearest human
    frequency (our choice, for an order whose human labels cluster where it looked). Off by default.
    """
    if method not in METHODS:
        raise ValueError(f"unknown calibration method {method!r}: one of {', '.join(METHODS)}")
    scale = tuple(grades)
    if not scale:
        raise ValueError("a calibrator needs at least one grade")
    kept = _scaled_examples(examples, scale)
    if len(kept) < min_examples:
        return Calibrator(method, scale, tuple(kept), min_examples)
    pseudo = [normalised(p, scale) for p in prior] if prior_weight > 0 else []
    w_prior = prior_weight / len(pseudo) if pseudo else 0.0
    maps = [_fit_grade_map(method, g, kept, prior, pseudo, w_prior) for g in scale]
    return Calibrator(method, scale, tuple(kept), min_examples, tuple(maps))


def _scaled_examples(examples: Sequence[Example], scale: tuple[int, ...]) -> list[tuple[dict[int, float], int]]:
    """The examples with a probability for every grade of the scale (0 where none was stated).

    A human grade off the scale is refused: the calibrator could never output it.
    """
    known = set(scale)
    kept: list[tuple[dict[int, float], int]] = []
    for probs, grade in examples:
        if grade not in known:
            raise ValueError(f"grade {grade} is not on the scale {list(scale)}")
        kept.append(({g: float(probs.get(g, 0.0)) for g in scale}, grade))
    return kept


def _fit_grade_map(
    method: str,
    grade: int,
    kept: list[tuple[dict[int, float], int]],
    prior: Sequence[Mapping[int, float]],
    pseudo: list[dict[int, float]],
    w_prior: float,
) -> IsotonicMap | PlattMap:
    """One grade's map, one-vs-rest: stated P(grade) -> how often humans gave that grade.

    The pseudo-examples (when `pseudo` is not empty) are the prior's stated P(grade) with their normalised
    value as the target, each of weight `w_prior`; the human examples weigh 1.
    """
    xs = [p[grade] for p, _ in kept]
    ys = [1 if h == grade else 0 for _, h in kept]
    px = [float(p.get(grade, 0.0)) for p in prior] if pseudo else []
    py = [p[grade] for p in pseudo]
    weights = [1.0] * len(xs) + [w_prior] * len(px) if pseudo else None
    if method == "isotonic":
        return fit_isotonic(xs + px, [float(y) for y in ys] + py, weights)
    t_pos, t_neg = platt_targets(ys)
    return fit_platt([_logit(x) for x in xs + px], [t_pos if y else t_neg for y in ys] + py, weights)
