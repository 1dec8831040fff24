"""Measure names as people type them, parsed into small frozen values.

Names follow ir_measures (`P@10`, `nDCG@10`, `AP`, `RR`, `Judged@10`) so that a
name copied from a paper or another tool means the same thing here, plus the
families labeler adds (`AnyHit@k`, `AllHit@k`, `T@k`, `F@k`,
`Fe@k`, `RBP(p=0.8)`). The relevance threshold is not part of a name: it comes
from the grade scale of the labels being scored, once for every measure, so a
report can never mix thresholds (trec_eval's `-l` works the same way).

The families are a registry (`FAMILIES`, a `labeler.registry.Registry`): one `MeasureFamily` says how
its name is typed (cutoff, parameter, aliases), which code computes it, and,
for labeler's own measures, the function that does, and carries the line a docs
table shows (description, example, source; `FAMILIES.values()` lists them).
Parsing, the list of known measures in error messages, `evaluate` and
`standard` read it, so a new seed measure is one function plus one
registration, and a new trec_eval measure one registration.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from labeler.metrics import denominators as d
from labeler.registry import Registry

# One topic's value of a seed measure: (measure, ranking cut at depth, relevant units) -> value, or
# None where it is undefined (no relevant unit), which leaves the topic out of the mean.
SeedFunction = Callable[["Measure", list[str], frozenset[str]], "float | None"]

_PLACEHOLDERS = {"alpha": "a", "p": "p"}

# The parameters a family may take, each with the values it accepts and how a refusal says so. A `Measure` holds
# each in the field of the same name, so a family with a new parameter also needs that field.
_PARAMETERS: dict[str, tuple[Callable[[float], bool], str]] = {
    "alpha": (lambda value: 0.0 <= value <= 1.0, "must be between 0 and 1"),
    "p": (lambda value: 0.0 < value < 1.0, "must be strictly between 0 and 1"),
}


@dataclass(frozen=True)
class MeasureFamily:
    """One measure family: how its names are typed and which code computes it.

    `cutoff` is "required", "optional" or "none"; `param` the one parameter it
    takes (`alpha`, `p`) and `default` its value; `aliases` other spellings
    (ir_measures accepts `MAP` for AP). `backend` says who computes it:
    "standard" (trec_eval's code via ir_measures, or `labeler.metrics.standard`
    natively), "rbp" (RBP, with its residual) or "seed" (`compute`).
    `recall`: undefined for a topic with no relevant unit. `graded` (standard
    backend): the grades are the gains and no relevance threshold is passed
    (nDCG); the other standard families count a unit relevant at the scale's
    threshold (trec_eval -l).

    `description` (one line), `example` (a spelling that parses to this family)
    and `source` (the paper or trec_eval measure it follows) are what a docs
    table of the measures shows; a family is refused without them.
    """

    name: str
    cutoff: str = "required"
    param: str | None = None
    default: float | None = None
    aliases: tuple[str, ...] = ()
    backend: str = "seed"
    recall: bool = False
    compute: SeedFunction | None = None
    graded: bool = False
    description: str = ""
    example: str = ""
    source: str = ""

    @property
    def spelling(self) -> str:
        """How the family is typed, for messages: `P@k`, `nDCG[@k]`, `T[(alpha=a)]@k`, `RBP[(p=p)]`."""
        text = self.name
        if self.param is not None:
            text += f"[({self.param}={_PLACEHOLDERS.get(self.param, self.param[0])})]"
        return text + {"required": "@k", "optional": "[@k]", "none": ""}[self.cutoff]


def _check_family(family: MeasureFamily) -> None:
    """Refuse a family that could not be parsed, computed or documented (it is registered while this runs).

    Refused: a name or alias already taken (a typed name must mean one family),
    a cutoff rule, parameter or backend nothing reads, a seed family with
    no function, and a family without its docs line or whose example does not
    parse to it (the docs table is generated from the registry).
    """
    others = [f for f in FAMILIES.values() if f is not family]
    taken = {spelling.upper() for f in others for spelling in (f.name, *f.aliases)}
    clash = [spelling for spelling in (family.name, *family.aliases) if spelling.upper() in taken]
    if clash:
        raise ValueError(f"measure family {clash[0]!r} is already registered")
    if family.cutoff not in ("required", "optional", "none"):
        raise ValueError(f"measure family {family.name!r}: cutoff must be required, optional or none")
    if family.param is not None and family.param not in _PARAMETERS:
        raise ValueError(f"measure family {family.name!r}: the parameter must be one of {', '.join(_PARAMETERS)}")
    if family.backend not in ("standard", "rbp", "seed"):
        raise ValueError(f"measure family {family.name!r}: backend must be standard, rbp or seed")
    if family.backend == "seed" and family.compute is None:
        raise ValueError(f"measure family {family.name!r} is computed here but has no function")
    missing = [field for field in ("description", "example", "source") if not getattr(family, field).strip()]
    if missing:
        raise ValueError(f"measure family {family.name!r} has no {' or '.join(missing)} for the docs")
    try:
        example = parse_measure(family.example).family
    except ValueError as error:
        example = str(error)
    if example != family.name:
        raise ValueError(f"measure family {family.name!r}: its example {family.example!r} does not parse to it")


FAMILIES: Registry[MeasureFamily] = Registry("measure family", check=_check_family)
"""The measure families by name, in registration order (`FAMILIES.register(name, MeasureFamily(name, ...))`).

`FAMILIES.values()` is what a docs table of the measures is generated from: each family carries its
docs line, `name`, `spelling` (how it is typed, e.g. `T[(alpha=a)]@k`), `description`, `example` and
`source`.
"""


def standard_families() -> frozenset[str]:
    """The families `labeler.metrics.standard` computes (trec_eval's code, RR@k and Judged@k)."""
    return frozenset(family.name for family in FAMILIES.values() if family.backend == "standard")


def _family_named(text: str) -> str | None:
    """The family a typed name means, case-insensitively, aliases included."""
    upper = text.upper()
    for family in FAMILIES.values():
        if upper in (spelling.upper() for spelling in (family.name, *family.aliases)):
            return family.name
    return None


def _seed(function: Callable[..., float | None], *, alpha: bool = False) -> SeedFunction:
    """A `denominators` function of (ranking, relevant, k[, alpha]) as a `SeedFunction`."""
    if alpha:
        return lambda measure, ranking, relevant: function(ranking, relevant, measure.k, measure.parameter)
    return lambda measure, ranking, relevant: function(ranking, relevant, measure.k)


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

    @property
    def k(self) -> int:
        """The cutoff of a measure whose family requires one (parse_measure made sure it is there).

        Code that reads only such families (R@k, Judged@k, labeler's own) asks for
        it here rather than trusting `cutoff` not to be None.
        """
        if self.cutoff is None:
            raise ValueError(f"measure {self.name!r} has no cutoff")
        return self.cutoff

    @property
    def parameter(self) -> float:
        """The value of the family's one parameter (alpha or p), the default filled in by parse_measure."""
        value = self.alpha if self.alpha is not None else self.p
        if value is None:
            raise ValueError(f"measure {self.name!r} has no parameter")
        return value


def known_families() -> str:
    """The accepted families as one line for error messages."""
    return ", ".join(family.spelling for family in FAMILIES.values())


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
    match, family = _match_family(text)
    value = _parameter(text, family, match.group("param"), match.group("value"))
    return Measure(
        name=text,
        family=family.name,
        cutoff=_cutoff(text, family, match.group("cutoff")),
        alpha=value if family.param == "alpha" else None,
        p=value if family.param == "p" else None,
    )


def _match_family(text: str) -> tuple[re.Match[str], MeasureFamily]:
    """The name's parts and its registered family; an unknown name is refused with trec_eval's spelling mapped
    to ours where it is one (a name copied from trec_eval output is the commonest mistake), else the known list."""
    match = _NAME.match(text)
    family = _family_named(match.group("family")) if match else None
    if match is not None and family is not None:
        return match, FAMILIES.get(family)
    suggestion = trec_eval_suggestion(text)
    if suggestion is not None:
        raise ValueError(
            f"unknown measure {text!r}: did you mean {suggestion}? (that is trec_eval's name "
            f"for it; measures here are named as in ir_measures)"
        )
    raise ValueError(f"unknown measure {text!r}; known measures: {known_families()}")


def _cutoff(text: str, family: MeasureFamily, raw: str | None) -> int | None:
    """The @cutoff as the family's rule allows it: refused where it takes none, required where it needs one."""
    if raw is None:
        if family.cutoff == "required":
            raise ValueError(f"measure {text!r}: {family.name} needs a cutoff, e.g. {family.name}@10")
        return None
    if family.cutoff == "none":
        raise ValueError(f"measure {text!r}: {family.name} takes no @cutoff")
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"measure {text!r}: the cutoff must be a whole number of at least 1")
    return int(raw)


def _parameter(text: str, family: MeasureFamily, given: str | None, raw: str | None) -> float | None:
    """The family's parameter: the typed value or its default, checked against the values it accepts.

    `rel=` gets its own reason because the threshold is the grade scale's, for
    every measure at once (module docstring), not something a name can set.
    """
    value = family.default
    if given is not None:
        if given == "rel":
            raise ValueError(
                f"measure {text!r}: the relevance threshold comes from the grade scale (threshold), "
                "not from the measure name"
            )
        if family.param is None or given != family.param:
            takes = f"takes only {family.param}=" if family.param else "takes no parameters"
            raise ValueError(f"measure {text!r}: {family.name} {takes}")
        try:
            value = float(raw or "")
        except ValueError:
            raise ValueError(f"measure {text!r}: {family.param} must be a number") from None
    if family.param is not None and value is not None:
        accepts, rule = _PARAMETERS[family.param]
        if not accepts(value):
            raise ValueError(f"measure {text!r}: {family.param} {rule}")
    return value


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


def measure_names(text: str) -> list[str]:
    """Each measure of `"P@10, AP P@10"` by its name, repeats kept: `["P@10", "AP", "P@10"]`.

    What a typed list says before `parse_measures` keeps one of each, so a front end can refuse a
    repeat; ValueError for an unknown measure, as `parse_measure` raises.
    """
    return [parse_measure(token).name for token in _split(text)]


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


# The built-in families, registered last: a registration parses its example, which needs the parser above.
_SEED_PAPER = "Schwartz, Vasilyev & Sawaya, arXiv 2512.20854"

for _family in (
    MeasureFamily(
        "P",
        aliases=("PRECISION",),
        backend="standard",
        description="precision: the share of the top k that is relevant",
        example="P@10",
        source="trec_eval P_k",
    ),
    MeasureFamily(
        "R",
        aliases=("RECALL",),
        recall=True,
        compute=_seed(d.recall_at_k),
        description="recall: the share of the labelled relevant set found in the top k",
        example="R@100",
        source="trec_eval recall_k",
    ),
    MeasureFamily(
        "nDCG",
        cutoff="optional",
        backend="standard",
        graded=True,
        description="normalised discounted cumulative gain, the grades as gains",
        example="nDCG@10",
        source="Järvelin & Kekäläinen 2002; trec_eval ndcg_cut_k",
    ),
    MeasureFamily(
        "AP",
        cutoff="optional",
        aliases=("MAP",),
        backend="standard",
        description="average precision over the labelled relevant set (MAP when averaged over topics)",
        example="AP",
        source="trec_eval map, map_cut_k",
    ),
    MeasureFamily(
        "RR",
        cutoff="optional",
        aliases=("MRR",),
        backend="standard",
        description="reciprocal rank of the first relevant unit (0 if none)",
        example="RR",
        source="trec_eval recip_rank",
    ),
    MeasureFamily(
        "Rprec",
        cutoff="none",
        aliases=("RPREC",),
        backend="standard",
        description="precision at rank |G|, the size of the labelled relevant set",
        example="Rprec",
        source="trec_eval Rprec",
    ),
    MeasureFamily(
        "Bpref",
        cutoff="none",
        backend="standard",
        description="how rarely judged non-relevant units rank above the relevant ones; unjudged units ignored",
        example="Bpref",
        source="Buckley & Voorhees, SIGIR 2004; trec_eval bpref",
    ),
    MeasureFamily(
        "infAP",
        cutoff="none",
        backend="standard",
        description="average precision inferred from a sample of the pool",
        example="infAP",
        source="Yilmaz & Aslam, CIKM 2006; trec_eval infAP",
    ),
    MeasureFamily(
        "Success",
        backend="standard",
        description="1 if a relevant unit is in the top k",
        example="Success@1",
        source="trec_eval success_k",
    ),
    MeasureFamily(
        "Judged",
        backend="standard",
        description="the share of the top k that is judged (graded at least 0), divided by k",
        example="Judged@10",
        source="trec_eval unj.k semantics",
    ),
    MeasureFamily(
        "AnyHit",
        recall=True,
        compute=_seed(d.any_hit_at_k),
        description="1 if the top k holds any relevant unit",
        example="AnyHit@10",
        source="any-hit (Success@k)",
    ),
    MeasureFamily(
        "AllHit",
        recall=True,
        compute=_seed(d.all_hit_at_k),
        description="1 if the top k holds every relevant unit",
        example="AllHit@10",
        source="all-hit",
    ),
    MeasureFamily(
        "T",
        param="alpha",
        default=0.5,
        compute=_seed(d.t_at_k, alpha=True),
        description="relevant finds minus alpha-weighted misses in the top k, no relevant set needed",
        example="T(alpha=0.3)@5",
        source=f"{_SEED_PAPER}, eq. 3",
    ),
    MeasureFamily(
        "F",
        param="alpha",
        default=0.5,
        recall=True,
        compute=_seed(d.f_at_k, alpha=True),
        description="the alpha-weighted harmonic mean of P@k and R@k",
        example="F(alpha=0.7)@10",
        source=f"{_SEED_PAPER}, eq. 2; van Rijsbergen",
    ),
    MeasureFamily(
        "Fe",
        param="alpha",
        default=0.5,
        compute=_seed(d.fe_at_k, alpha=True),
        description="F with the relevant set estimated from the top 2k (an estimate, not recall)",
        example="Fe@10",
        source=f"{_SEED_PAPER}, section 2.1",
    ),
    MeasureFamily(
        "RBP",
        cutoff="none",
        param="p",
        default=0.8,
        backend="rbp",
        description="rank-biased precision, with the residual unjudged units could still add",
        example="RBP(p=0.8)",
        source="Moffat & Zobel, ACM TOIS 27(1), 2008; Moffat-Zobel residual (not trec_eval's rbp_resid, see below)",
    ),
):
    FAMILIES.register(_family.name, _family)
