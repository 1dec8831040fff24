"""Measure names as people type them, parsed into small frozen values.

Names follow ir_measures (`P@10`, `nDCG@10`, `AP`, `RR`, `Judged@10`) so that a
name copied from a paper or another tool means the same thing here, plus the
families labeler adds from the seeds (`AnyHit@k`, `AllHit@k`, `T@k`, `F@k`,
`Fe@k`, `RBP(p=0.8)`). The relevance threshold is not part of a name: it comes
from the grade scale of the labels being scored, once for every measure, so a
report can never mix thresholds (trec_eval's `-l` works the same way).

The families are a registry (`register_family`): one `MeasureFamily` says how
its name is typed (cutoff, parameter, aliases), which code computes it, and,
for the seeds' measures, the function that does. Parsing, the list of known
measures in error messages and `evaluate` read it, so a new seed measure is
one function plus one registration.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from labeler.metrics import denominators as d

# One topic's value of a seed measure: (measure, ranking cut at depth, relevant units) -> value, or
# None where it is undefined (no relevant unit), which leaves the topic out of the mean.
SeedFunction = Callable[["Measure", list[str], frozenset[str]], "float | None"]

_PLACEHOLDERS = {"alpha": "a", "p": "p"}


@dataclass(frozen=True)
class MeasureFamily:
    """One measure family: how its names are typed and which code computes it.

    `cutoff` is "required", "optional" or "none"; `param` the one parameter it
    takes (`alpha`, `p`) and `default` its value; `aliases` other spellings
    (ir_measures accepts `MAP` for AP). `backend` says who computes it:
    "standard" (trec_eval's code via ir_measures, or `labeler.metrics.standard`
    natively), "rbp" (RBP, with its residual) or "seed" (`compute`).
    `recall`: undefined for a topic with no relevant unit.
    """

    name: str
    cutoff: str = "required"
    param: str | None = None
    default: float | None = None
    aliases: tuple[str, ...] = ()
    backend: str = "seed"
    recall: bool = False
    compute: SeedFunction | None = None

    @property
    def spelling(self) -> str:
        """How the family is typed, for messages: `P@k`, `nDCG[@k]`, `T[(alpha=a)]@k`, `RBP[(p=p)]`."""
        text = self.name
        if self.param is not None:
            text += f"[({self.param}={_PLACEHOLDERS.get(self.param, self.param[0])})]"
        return text + {"required": "@k", "optional": "[@k]", "none": ""}[self.cutoff]


_FAMILIES: dict[str, MeasureFamily] = {}


def register_family(family: MeasureFamily) -> MeasureFamily:
    """Add a family to the registry (refused if its name or an alias is taken, or a seed family has no function)."""
    taken = {spelling.upper() for f in _FAMILIES.values() for spelling in (f.name, *f.aliases)}
    clash = [spelling for spelling in (family.name, *family.aliases) if spelling.upper() in taken]
    if clash:
        raise ValueError(f"measure family {clash[0]!r} is already registered")
    if family.cutoff not in ("required", "optional", "none"):
        raise ValueError(f"measure family {family.name!r}: cutoff must be required, optional or none")
    if family.backend == "seed" and family.compute is None:
        raise ValueError(f"measure family {family.name!r} is computed here but has no function")
    _FAMILIES[family.name] = family
    return family


def unregister_family(name: str) -> None:
    """Remove a registered family (for tests that register a toy one)."""
    del _FAMILIES[name]


def measure_family(name: str) -> MeasureFamily:
    """The registered family `name` (as `Measure.family` holds it); KeyError if there is none."""
    return _FAMILIES[name]


def standard_families() -> frozenset[str]:
    """The families `labeler.metrics.standard` computes (trec_eval's code, RR@k and Judged@k)."""
    return frozenset(name for name, family in _FAMILIES.items() if family.backend == "standard")


def _family_named(text: str) -> str | None:
    """The family a typed name means, case-insensitively, aliases included."""
    upper = text.upper()
    for family in _FAMILIES.values():
        if upper in (spelling.upper() for spelling in (family.name, *family.aliases)):
            return family.name
    return None


def _seed(function: Callable[..., float | None], *, alpha: bool = False) -> SeedFunction:
    """A `denominators` function of (ranking, relevant, k[, alpha]) as a `SeedFunction`."""
    if alpha:
        return lambda measure, ranking, relevant: function(ranking, relevant, measure.cutoff, measure.alpha)
    return lambda measure, ranking, relevant: function(ranking, relevant, measure.cutoff)


for _family in (
    MeasureFamily("P", aliases=("PRECISION",), backend="standard"),
    MeasureFamily("R", aliases=("RECALL",), recall=True, compute=_seed(d.recall_at_k)),
    MeasureFamily("nDCG", cutoff="optional", backend="standard"),
    MeasureFamily("AP", cutoff="optional", aliases=("MAP",), backend="standard"),
    MeasureFamily("RR", cutoff="optional", aliases=("MRR",), backend="standard"),
    MeasureFamily("Rprec", cutoff="none", aliases=("RPREC",), backend="standard"),
    MeasureFamily("Bpref", cutoff="none", backend="standard"),
    MeasureFamily("infAP", cutoff="none", backend="standard"),
    MeasureFamily("Success", backend="standard"),
    MeasureFamily("Judged", backend="standard"),
    MeasureFamily("AnyHit", recall=True, compute=_seed(d.any_hit_at_k)),
    MeasureFamily("AllHit", recall=True, compute=_seed(d.all_hit_at_k)),
    MeasureFamily("T", param="alpha", default=0.5, compute=_seed(d.t_at_k, alpha=True)),
    MeasureFamily("F", param="alpha", default=0.5, recall=True, compute=_seed(d.f_at_k, alpha=True)),
    MeasureFamily("Fe", param="alpha", default=0.5, compute=_seed(d.fe_at_k, alpha=True)),
    MeasureFamily("RBP", cutoff="none", param="p", default=0.8, backend="rbp"),
):
    register_family(_family)

DEFAULT_MEASURES = ("P@10", "R@10", "R@100", "nDCG@10", "AP", "RR", "Judged@10", "AnyHit@10", "AllHit@10")

_NAME = re.compile(
    r"^(?P<family>[A-Za-z]+)"
    r"(?:\(\s*(?P<param>[A-Za-z_]+)\s*=\s*(?P<value>[^()\s]+)\s*\))?"
    r"(?:@(?P<cutoff>[^@\s]+))?$"
)


@dataclass(frozen=True)
class Measure:
    """One measure: its family, cutoff and parameter, keyed by the name the user typed.

    `name` is the user's spelling and the key of every result, so a report
    echoes what was asked for; `canonical` is the normalised spelling.
    """

    name: str
    family: str
    cutoff: int | None = None
    alpha: float | None = None
    p: float | None = None

    @property
    def canonical(self) -> str:
        """The name in labeler's own spelling, e.g. `T(alpha=0.3)@5` or `RBP(p=0.8)`."""
        text = self.family
        if self.alpha is not None:
            text += f"(alpha={self.alpha:g})"
        if self.p is not None:
            text += f"(p={self.p:g})"
        if self.cutoff is not None:
            text += f"@{self.cutoff}"
        return text


def known_families() -> str:
    """The accepted families as one line for error messages."""
    return ", ".join(family.spelling for family in _FAMILIES.values())


# trec_eval's names (as `-m` takes them and its output prints them), in the spelling used here:
# a name copied from trec_eval output is the commonest unknown measure.
_TREC_EVAL = [
    (re.compile(r"^P_(\d+)$", re.IGNORECASE), "P@{}"),
    (re.compile(r"^recall_(\d+)$", re.IGNORECASE), "R@{}"),
    (re.compile(r"^ndcg_cut_(\d+)$", re.IGNORECASE), "nDCG@{}"),
    (re.compile(r"^map_cut_(\d+)$", re.IGNORECASE), "AP@{}"),
    (re.compile(r"^success_(\d+)$", re.IGNORECASE), "Success@{}"),
    (re.compile(r"^recip_rank$", re.IGNORECASE), "RR"),
    (re.compile(r"^ndcg$", re.IGNORECASE), "nDCG"),
    (re.compile(r"^map$", re.IGNORECASE), "AP"),
    (re.compile(r"^bpref$", re.IGNORECASE), "Bpref"),
    (re.compile(r"^infAP$", re.IGNORECASE), "infAP"),
    (re.compile(r"^R-?prec$", re.IGNORECASE), "Rprec"),
]


def trec_eval_suggestion(text: str) -> str | None:
    """labeler's name for a trec_eval measure name (`P_10` -> `P@10`, `recip_rank` -> `RR`), or None."""
    for pattern, spelling in _TREC_EVAL:
        match = pattern.match(text)
        if match:
            return spelling.format(*match.groups())
    return None


def parse_measure(name: str) -> Measure:
    """Parse one name such as `nDCG@10` or `T(alpha=0.3)@5`; ValueError says what is wrong."""
    if not isinstance(name, str):
        raise ValueError(f"a measure name must be text, not {name!r}")
    text = name.strip()
    match = _NAME.match(text)
    family = _family_named(match.group("family")) if match else None
    if match is None or family is None:
        suggestion = trec_eval_suggestion(text)
        if suggestion is not None:
            raise ValueError(
                f"unknown measure {text!r}: did you mean {suggestion}? (that is trec_eval's name "
                f"for it; measures here are named as in ir_measures)"
            )
        raise ValueError(f"unknown measure {text!r}; known measures: {known_families()}")
    chosen = _FAMILIES[family]
    cutoff_rule, param_name, param_default = chosen.cutoff, chosen.param, chosen.default

    cutoff = None
    raw_cutoff = match.group("cutoff")
    if raw_cutoff is not None:
        if cutoff_rule == "none":
            raise ValueError(f"measure {text!r}: {family} takes no @cutoff")
        if not raw_cutoff.isdigit() or int(raw_cutoff) < 1:
            raise ValueError(f"measure {text!r}: the cutoff must be a whole number of at least 1")
        cutoff = int(raw_cutoff)
    elif cutoff_rule == "required":
        raise ValueError(f"measure {text!r}: {family} needs a cutoff, e.g. {family}@10")

    value = param_default
    if match.group("param") is not None:
        given = match.group("param")
        if given == "rel":
            raise ValueError(
                f"measure {text!r}: the relevance threshold comes from the grade scale (threshold), "
                "not from the measure name"
            )
        if param_name is None or given != param_name:
            takes = f"takes only {param_name}=" if param_name else "takes no parameters"
            raise ValueError(f"measure {text!r}: {family} {takes}")
        try:
            value = float(match.group("value"))
        except ValueError:
            raise ValueError(f"measure {text!r}: {param_name} must be a number") from None
    if param_name == "alpha" and value is not None and not 0.0 <= value <= 1.0:
        raise ValueError(f"measure {text!r}: alpha must be between 0 and 1")
    if param_name == "p" and value is not None and not 0.0 < value < 1.0:
        raise ValueError(f"measure {text!r}: p must be strictly between 0 and 1")

    return Measure(
        name=text,
        family=family,
        cutoff=cutoff,
        alpha=value if param_name == "alpha" else None,
        p=value if param_name == "p" else None,
    )


def _split(text: str) -> list[str]:
    """Split on whitespace and commas outside parentheses (`T(alpha=0.3)@5, RBP(p=0.9)`)."""
    tokens: list[str] = []
    current: list[str] = []
    depth = 0
    for char in text:
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        if depth == 0 and (char == "," or char.isspace()):
            if current:
                tokens.append("".join(current))
            current = []
        else:
            current.append(char)
    if depth != 0:
        raise ValueError(f"unbalanced parentheses in measures {text!r}")
    if current:
        tokens.append("".join(current))
    return tokens


def parse_measures(measures: str | Measure | Iterable[str | Measure]) -> list[Measure]:
    """Parse `"R@10 nDCG@10 AP"` (or a list of such strings, or Measures) in order, without repeats.

    A name given twice is kept once; an empty list is an error because a report
    of no measures is always a mistake upstream.
    """
    items: Iterable[str | Measure] = [measures] if isinstance(measures, (str, Measure)) else measures
    parsed: list[Measure] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, (str, Measure)):
            raise ValueError(f"a measure name must be text, not {item!r}")
        for measure in [item] if isinstance(item, Measure) else [parse_measure(t) for t in _split(item)]:
            if measure.name not in seen:
                seen.add(measure.name)
                parsed.append(measure)
    if not parsed:
        raise ValueError(f"no measures given; known measures: {known_families()}")
    return parsed
