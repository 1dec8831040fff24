"""Measure names as people type them, parsed into small frozen values.

Names follow ir_measures (`P@10`, `nDCG@10`, `AP`, `RR`, `Judged@10`) so that a
name copied from a paper or another tool means the same thing here, plus the
families labeler adds from the seeds (`AnyHit@k`, `AllHit@k`, `T@k`, `F@k`,
`Fe@k`, `RBP(p=0.8)`). The relevance threshold is not part of a name: it comes
from the grade scale of the labels being scored, once for every measure, so a
report can never mix thresholds (trec_eval's `-l` works the same way).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

# family -> (cutoff rule, the parameter it takes or None, that parameter's default)
# cutoff rule: "required", "optional" or "none".
_FAMILIES: dict[str, tuple[str, str | None, float | None]] = {
    "P": ("required", None, None),
    "R": ("required", None, None),
    "nDCG": ("optional", None, None),
    "AP": ("optional", None, None),
    "RR": ("optional", None, None),
    "Rprec": ("none", None, None),
    "Bpref": ("none", None, None),
    "infAP": ("none", None, None),
    "Success": ("required", None, None),
    "Judged": ("required", None, None),
    "AnyHit": ("required", None, None),
    "AllHit": ("required", None, None),
    "T": ("required", "alpha", 0.5),
    "F": ("required", "alpha", 0.5),
    "Fe": ("required", "alpha", 0.5),
    "RBP": ("none", "p", 0.8),
}

# Spellings ir_measures also accepts, mapped to the family they name.
_ALIASES = {"MAP": "AP", "MRR": "RR", "RPREC": "Rprec", "PRECISION": "P", "RECALL": "R"}
_BY_UPPER = {family.upper(): family for family in _FAMILIES} | _ALIASES

# Measures computed by ir_measures (pytrec_eval backend), i.e. by trec_eval's own code.
STANDARD_FAMILIES = frozenset({"P", "nDCG", "AP", "RR", "Rprec", "Bpref", "infAP", "Success"})

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
    return ", ".join(
        ["P@k", "R@k", "nDCG[@k]", "AP[@k]", "RR[@k]", "Rprec", "Bpref", "infAP", "Success@k", "Judged@k",
         "AnyHit@k", "AllHit@k", "T[(alpha=a)]@k", "F[(alpha=a)]@k", "Fe[(alpha=a)]@k", "RBP[(p=p)]"]
    )


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
    family = _BY_UPPER.get(match.group("family").upper()) if match else None
    if match is None or family is None:
        suggestion = trec_eval_suggestion(text)
        if suggestion is not None:
            raise ValueError(f"unknown measure {text!r}: did you mean {suggestion}? (that is trec_eval's name "
                             f"for it; measures here are named as in ir_measures)")
        raise ValueError(f"unknown measure {text!r}; known measures: {known_families()}")
    cutoff_rule, param_name, param_default = _FAMILIES[family]

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
