"""Stopping rules: when more judgments on one topic stop paying.

A rule looks only at one topic's judgments in the order they were made, as a
sequence of "was this one relevant?", so the same function answers the live
question (the judging screen, `labeler status`: does the rule say stop now?)
and the replay's question (after how many judgments would it first have said
stop, and what would stopping there have cost?). Neither needs the labels the
assessor has not given yet, which is what makes a rule usable in a live
campaign.

Two rules are built in:

- **window** (fixed window): stop once the last N judgments found no relevant
  unit. Simple, and what many teams do by habit; it stops early on topics
  whose relevant units sit deep in the order.
- **knee** (Cormack and Grossman, "Engineering quality and reliability in
  technology-assisted review", SIGIR 2016): find the knee of the gain curve
  (judgments on x, relevant found on y) as the point farthest from the line
  joining the origin to the current point; stop once the slope before the
  knee is at least `156 - min(relevant, 150)` times the slope after it
  (smoothed by one relevant unit), and at least `min_judgments` judgments were
  made (150 in the paper, where a review reads thousands of documents; pools
  are smaller, so the parameter is offered).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from labeler.json_form import JsonResult

WINDOW = "window"
KNEE = "knee"
DEFAULT_WINDOW = 10
DEFAULT_KNEE_MIN = 150
KNEE_OFFSET = 156
KNEE_CAP = 150


@dataclass(frozen=True)
class StopDecision(JsonResult):
    """What a rule says about one topic after `judgments` judgments, and why, in words."""

    rule: str
    stop: bool
    judgments: int
    relevant: int
    reason: str


@dataclass(frozen=True)
class StoppingRule:
    """A named rule with its one parameter; `spec` is how a user writes it (`window:10`, `knee:150`)."""

    name: str
    parameter: int

    @property
    def spec(self) -> str:
        return f"{self.name}:{self.parameter}"

    def decide(self, found: Sequence[bool]) -> StopDecision:
        """Whether the rule says stop after these judgments (each True when the unit was relevant)."""
        return _DECIDERS[self.name](self.parameter, found)

    def first_stop(self, found: Sequence[bool]) -> int | None:
        """The smallest n such that the rule says stop after the first n judgments; None if it never does.

        Used by replay, which knows the whole sequence in advance; a live
        campaign only ever asks `decide` about the judgments made so far.
        """
        if self.name == WINDOW:
            return _window_first_stop(self.parameter, found)
        for n in range(1, len(found) + 1):
            if _DECIDERS[self.name](self.parameter, found[:n]).stop:
                return n
        return None


def _window_decide(window: int, found: Sequence[bool]) -> StopDecision:
    relevant = sum(1 for hit in found if hit)
    n = len(found)
    if n < window:
        return StopDecision(WINDOW, False, n, relevant, f"{n} of the {window} judgments the window needs")
    since = _since_last_relevant(found)
    if since >= window:
        return StopDecision(
            WINDOW,
            True,
            n,
            relevant,
            f"no relevant unit in the last {window} judgments: the rule says stop",
        )
    if since == 0:
        return StopDecision(WINDOW, False, n, relevant, "the last judgment found a relevant unit")
    return StopDecision(WINDOW, False, n, relevant, f"{since} of {window} judgments since the last relevant unit")


def _since_last_relevant(found: Sequence[bool]) -> int:
    """How many judgments were made since the last relevant one (all of them when none was relevant)."""
    for back, hit in enumerate(reversed(found)):
        if hit:
            return back
    return len(found)


def _window_first_stop(window: int, found: Sequence[bool]) -> int | None:
    misses = 0
    for n, hit in enumerate(found, start=1):
        misses = 0 if hit else misses + 1
        if misses >= window:
            return n
    return None


def knee_point(found: Sequence[bool]) -> int:
    """The knee of the gain curve: the judgment count i in 1..n-1 farthest above the line from (0, 0) to (n, rel(n)).

    The distance of (i, rel(i)) from that line is proportional to
    `rel(i) * n - i * rel(n)`, so the comparison needs no square root; the
    first of equal distances wins. 0 when there are fewer than two judgments.
    """
    n = len(found)
    total = sum(1 for hit in found if hit)
    best, best_distance = 0, None
    so_far = 0
    for i in range(1, n):
        so_far += 1 if found[i - 1] else 0
        distance = so_far * n - i * total
        if best_distance is None or distance > best_distance:
            best, best_distance = i, distance
    return best


def slope_ratio(found: Sequence[bool], knee: int) -> float:
    """(rel(knee) / knee) / ((rel(n) - rel(knee) + 1) / (n - knee)): Cormack and Grossman's ρ, smoothed by one."""
    n = len(found)
    before = sum(1 for hit in found[:knee] if hit)
    after = sum(1 for hit in found[knee:] if hit)
    return (before / knee) / ((after + 1) / (n - knee))


def _knee_decide(min_judgments: int, found: Sequence[bool]) -> StopDecision:
    n = len(found)
    relevant = sum(1 for hit in found if hit)
    if n < min_judgments:
        return StopDecision(KNEE, False, n, relevant, f"{n} of the {min_judgments} judgments the rule needs first")
    knee = knee_point(found)
    if knee == 0 or relevant == 0:
        return StopDecision(KNEE, False, n, relevant, "no knee yet: no relevant unit found")
    ratio = slope_ratio(found, knee)
    target = KNEE_OFFSET - min(relevant, KNEE_CAP)
    if ratio >= target:
        return StopDecision(
            KNEE,
            True,
            n,
            relevant,
            f"the gain curve bent at judgment {knee} (slope ratio {ratio:.1f}, at least {target}): the rule says stop",
        )
    return StopDecision(KNEE, False, n, relevant, f"slope ratio {ratio:.1f} at judgment {knee}, below {target}")


_DECIDERS: dict[str, Callable[[int, Sequence[bool]], StopDecision]] = {WINDOW: _window_decide, KNEE: _knee_decide}
DEFAULTS = {WINDOW: DEFAULT_WINDOW, KNEE: DEFAULT_KNEE_MIN}


def rule_names() -> tuple[str, ...]:
    return tuple(_DECIDERS)


def parse_rule(text: str) -> StoppingRule:
    """`window`, `window:20`, `knee`, `knee:40` as a rule; ValueError with the reason otherwise."""
    name, colon, value = text.strip().partition(":")
    if name not in _DECIDERS:
        known = ", ".join(rule_names())
        raise ValueError(f"no stopping rule {name!r} (the rules are {known})")
    if not colon:
        return StoppingRule(name, DEFAULTS[name])
    if not (value.isascii() and value.isdigit()) or int(value) < 1:  # not "²" (int() refuses it) or "٣"
        raise ValueError(f"a stopping rule's parameter is a whole number of at least 1, not {value!r}")
    return StoppingRule(name, int(value))
