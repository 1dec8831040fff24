"""The judgment log's schema: every field of a merged event checked before anything is written.

A log (a JSONL export, or another workbench's events) comes from another
machine: its grades, ids and times are data to check, like an imported file,
never to trust. One function, `log_event`, checks one event against the
schema and this workbench's rules and gives the `Event` to store, or says
why not in one sentence; the callers add where the event came from.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from operator import itemgetter
from pathlib import Path
from typing import Any, Literal, overload

from labeler.answers.nuggets import parse_version
from labeler.answers.spaces import NUGGETS, answer_space
from labeler.errors import FormatError, Hint, argument_hint
from labeler.formats.fields import INT64_MAX, INT64_MIN, json_object, json_type
from labeler.formats.lines import TextLines, data_lines
from labeler.ids import MAX_ID_LENGTH, check_id, id_problem, script_problem
from labeler.inert import inert_json
from labeler.judgments.log import (
    EVENT_KINDS,
    GRADE,
    MODEL,
    NOTE,
    RETRACT,
    REVIEW,
    REVIEW_MARKS,
    SOURCES,
    Event,
    clock_from_time,
    clock_of,
    clock_problem,
    probs_from_json,
    probs_problem,
)
from labeler.validation import (
    choice_problem,
    decision_problem,
    grade_problem,
    grades_kind,
    label_grade_problem,
    parsed_unit,
    scale_words,
    shown,
    unit_problem,
)

LOG_FIELDS = (
    "event_id",
    "topic_id",
    "unit",
    "unit_id",
    "kind",
    "grade",
    "reason",
    "note",
    "assessor",
    "source",
    "model",
    "time",
    "active_ms",
    "content_hash",
    "order",
    "seed",
    "target",
    "pool",
    "clock",
    "probs",
    "shown_model",
    "shown_others",
)
OPTIONAL_FIELDS = ("probs", "shown_model", "shown_others")
"""Fields a log line leaves out when they are null: a line of an event without them reads as it did before them."""
DEFAULT_CLOCK_TOLERANCE = 300  # seconds an event may be dated ahead of this machine's clock when merged
_LOG_FIELD_SET = frozenset(LOG_FIELDS)
REQUIRED = ("event_id", "topic_id", "unit", "kind", "assessor", "source", "time")
HEX = frozenset("0123456789abcdef")


class LogFormatError(FormatError):
    """An event of a merged log that breaks the log's schema or this workbench's rules."""


class EventProblem(ValueError):
    """Why one event is refused, and what would help; the caller says where it is."""

    def __init__(self, reason: str, *, hints: tuple[Hint, ...] | Hint = ()):
        super().__init__(reason)
        self.hints: tuple[Hint, ...] = (hints,) if isinstance(hints, Hint) else tuple(hints)


@dataclass(frozen=True)
class LogRules:
    """What a merged event must fit in this workbench."""

    grades: frozenset[int]  # the workbench's scale
    scale: str  # its name, for messages
    chunkings: frozenset[str]  # the chunkings a `chunk:NAME` unit may name
    now: int  # this machine's clock (microseconds since 1970)
    tolerance: int  # how far ahead of `now` an event may be dated (microseconds)
    allow_future: bool = False
    # a `unit` text -> (its space, the grades its labels take): decided by the text and these rules alone
    spaces: _Checked = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "spaces", _Checked(self._space))

    def _space(self, value: Any) -> tuple[str, _Grades]:
        unit = _unit(value, self)
        return unit, _grades_of(unit, self)


@dataclass(frozen=True)
class LoggedEvent:
    """A checked event, where it was found, and whether it is dated in the future (accepted, flagged)."""

    event: Event
    line: int | None
    future: bool


def read_log(path: str | Path, rules: LogRules) -> Iterator[LoggedEvent]:
    """The events of a JSONL log, each checked; `file:line: reason` for the first that is not sound."""
    for number, text in data_lines(TextLines(path, LogFormatError), comments=False):
        row = json_object(text, path=path, line=number, error=LogFormatError)
        _refuse_repeated_keys(text, path, number)
        try:
            event, future = log_event(row, rules)
        except EventProblem as exc:
            raise LogFormatError(str(exc), path=path, line=number, hints=exc.hints) from None
        yield LoggedEvent(event, number, future)


def log_line(event: Event) -> str:
    """One event as a line of the log (what `read_log` reads back to the same event)."""
    row = {name: getattr(event, name) for name in LOG_FIELDS}
    for name in OPTIONAL_FIELDS:
        if row[name] is None:
            del row[name]
    if event.probs is not None:
        row["probs"] = {str(grade): event.probs[grade] for grade in sorted(event.probs)}
    if event.shown_others is not None:
        row["shown_others"] = list(event.shown_others)
    return inert_json(json.dumps(row, ensure_ascii=False, sort_keys=True)) + "\n"


# how `--json` names an event's fields (shorter than the log's names; the log's own extras left out)
SHOWN_FIELDS = {
    "event": "event_id",
    "seq": "seq",
    "topic": "topic_id",
    "unit_id": "unit_id",
    "unit": "unit",
    "kind": "kind",
    "grade": "grade",
    "reason": "reason",
    "note": "note",
    "assessor": "assessor",
    "source": "source",
    "model": "model",
    "time": "time",
    "probs": "probs",  # a model's probability per grade (None on a person's event)
    "shown_model": "shown_model",  # a person's event: the model whose label was on screen (None: blind)
}


# what a list of an assessor's recent decisions shows of each, in its order
DECISION_KEYS = ("event", "topic", "unit", "unit_id", "kind", "grade", "reason", "note", "time")


def shown_event(event: Event, keys: Iterable[str] = SHOWN_FIELDS) -> dict[str, Any]:
    """An event as the front ends show it in JSON: its local sequence number, and the log's names shortened.

    `keys` (of `SHOWN_FIELDS`) picks the fields and their order, for a view that shows fewer.
    """
    return {key: getattr(event, SHOWN_FIELDS[key]) for key in keys}


def log_event(row: Mapping[str, Any], rules: LogRules) -> tuple[Event, bool]:
    """The event a log row describes, and whether it is dated in the future; `EventProblem` if unsound."""
    if not _LOG_FIELD_SET.issuperset(row):
        unknown = sorted(str(key) for key in row if key not in LOG_FIELDS)
        raise EventProblem(
            f"unknown field(s) {', '.join(map(repr, unknown))} (a log event has {', '.join(LOG_FIELDS)})"
        )
    if None in map(row.get, REQUIRED):
        raise EventProblem(f"an event needs {', '.join(name for name in REQUIRED if row.get(name) is None)}")
    event_id = _id(row, "event_id")
    kind = _choice(row, "kind", EVENT_KINDS, "event kind")
    source = _choice(row, "source", SOURCES, "source")
    unit, grades = rules.spaces(row["unit"])
    time, physical = _checked_time(row["time"])
    clock = _clock(row)
    if clock is None:
        clock = clock_from_time(time)
    fields: dict[str, Any] = {  # the event's fields, checked in this order; _fits_its_kind reads them together
        "event_id": event_id,
        "seq": 0,
        "kind": kind,
        "source": source,
        "unit": unit,
        "time": time,
        "clock": clock,
        "grade": _integer(row, "grade", low=INT64_MIN),
        "topic_id": _checked_topic(row.get("topic_id")),
        "unit_id": _id(row, "unit_id", optional=True),
        "assessor": _checked_assessor(row.get("assessor")),
    }
    usual = _usual(row)
    fields.update(_NULL_FIELDS if usual else _other_fields(row))
    _fits_its_kind(kind, source, fields["grade"], fields, grades)
    _fits_nuggets(unit, kind, fields["note"])
    if not usual:
        fields["probs"] = _probs(row.get("probs"), kind, source, grades)
        fields["shown_model"] = _shown_model(row, source)
        fields["shown_others"] = _others(row.get("shown_others"), source)
    future = _future(time, physical, clock, rules)
    return _event(fields), future


_USUALLY_NULL_FIELDS = (
    "target",
    "pool",
    "order",
    "reason",
    "note",
    "model",
    "content_hash",
    "active_ms",
    "seed",
    "probs",
    "shown_model",
    "shown_others",
)
_USUALLY_NULL = itemgetter(*_USUALLY_NULL_FIELDS)
_NULLS = (None,) * len(_USUALLY_NULL_FIELDS)
_NULL_FIELDS = dict.fromkeys(_USUALLY_NULL_FIELDS)
"""What every check below gives a field that is null: each of them accepts null, as itself."""


def _usual(row: Mapping[str, Any]) -> bool:
    """Whether the row gives each of `_USUALLY_NULL_FIELDS`, null: most events, a person's or an import's grade."""
    try:
        return bool(_USUALLY_NULL(row) == _NULLS)
    except KeyError:  # a log line leaves some out
        return False


def _other_fields(row: Mapping[str, Any]) -> dict[str, Any]:
    """The event's fields after its pair and assessor, each checked, in this order (probs and what was shown apart)."""
    return {
        "target": _id(row, "target", optional=True),
        "pool": _id(row, "pool", optional=True),
        "order": _id(row, "order", optional=True),
        "reason": _text(row, "reason"),
        "note": _text(row, "note"),
        "model": _text(row, "model"),
        "content_hash": _content_hash(row),
        "active_ms": _integer(row, "active_ms", low=0),
        "seed": _integer(row, "seed", low=INT64_MIN),
    }


def _event(fields: dict[str, Any]) -> Event:
    """`Event(**fields)`, `fields` naming every field of an `Event` (in any order), built without `Event.__init__`.

    A frozen dataclass's `__init__` sets each of an event's 23 fields through `object.__setattr__`
    (3.4 us an event, 0.4 us this way): a merge builds one per event of the other log. The event
    is the same (equal, same hash, same fields); tests/formats/test_judgment_log_event.py holds it.
    """
    event = object.__new__(Event)
    event.__dict__.update(fields)
    return event


def _shown_model(row: Mapping[str, Any], source: str) -> str | None:
    """A person's `shown_model`: the model whose label was on screen (an id), or None."""
    if row.get("shown_model") is None:
        return None
    _text(row, "shown_model")
    if source == MODEL:
        raise EventProblem("a model's event has no shown_model (it records what a person saw)")
    return _id(row, "shown_model")


def _others(value: Any, source: str) -> tuple[str, ...] | None:
    """A person's `shown_others`: a list of assessor ids ([]: judged blind), or None."""
    if value is None:
        return None
    if source == MODEL:
        raise EventProblem("a model's event has no shown_others (it records what a person saw)")
    if not isinstance(value, list):
        raise EventProblem(f"shown_others must be a list of assessors or null, found {json_type(value)}")
    return tuple(_id({"shown_others": name}, "shown_others") for name in value)


def _probs(value: Any, kind: str, source: str, grades: _Grades) -> dict[int, float] | None:
    """A model grade's probability per grade of the scale (`{"0": p, ...}`, summing to 1), or None."""
    if value is None:
        return None
    if kind != GRADE or source != MODEL:
        raise EventProblem(f"only a model's grade carries probs, not a {source} {kind} event")
    try:
        probs = probs_from_json(value)
    except ValueError as exc:
        raise EventProblem(str(exc)) from None
    problem = probs_problem(probs, grades.values)
    if problem is not None:
        raise EventProblem(problem)
    return probs


def _fits_its_kind(kind: str, source: str, grade: int | None, fields: dict[str, Any], grades: _Grades) -> None:
    """The rules `labeler check` holds the log to (store/check_rows.py), and what `judgments add` accepts.

    In three steps, each the rule of one part of the event: its grade, the pair or topic it is
    about, and what its kind must carry (`labeler.validation`, the rules every road in shares).
    """
    _fits_grade(kind, source, grade, grades)
    _fits_target(kind, fields)
    problem = decision_problem(kind, source=source, model=fields["model"], reason=fields["reason"], note=fields["note"])
    if problem is not None:
        raise EventProblem(problem[1])


def _fits_grade(kind: str, source: str, grade: int | None, grades: _Grades) -> None:
    """A grade or adjudication has a grade on the scale (imported qrels' may be negative); no other kind has one.

    In an answer space the scale is the space's own labels (2, 1, 0), and no grade is negative.
    """
    if grades_kind(kind):
        if grade is None:
            raise EventProblem(
                f"a {kind} event needs a grade (an integer on {scale_words(grades.values, grades.name)})"
            )
        problem = (
            label_grade_problem(grade, grades.values, grades.name, kind=kind, source=source)
            if grades.pooled
            else grade_problem(grade, grades.values, grades.name)
        )
        if problem is not None:
            raise EventProblem(problem)
    elif grade is not None:
        raise EventProblem(f"a {kind} event has no grade (found {grade})")


def _fits_nuggets(unit: str, kind: str, note: str | None) -> None:
    """A `nuggets` event is a nugget version: a note whose text is the version (`labeler.answers.nuggets`), or a
    retract of one."""
    if unit != NUGGETS or kind == RETRACT:
        return
    if kind != NOTE:
        raise EventProblem(f"a {kind} event in the nuggets space: a nugget event is a note holding a nugget version")
    version = parse_version(note)
    if isinstance(version, str):
        raise EventProblem(version)


def _fits_target(kind: str, fields: dict[str, Any]) -> None:
    """A review marks a topic (no unit, a mark); every other kind is about a unit; only a retract has a target."""
    if kind == REVIEW:
        if fields["unit_id"] is not None:
            raise EventProblem("a review event marks a topic: its unit_id must be null")
        problem = choice_problem(fields["reason"], REVIEW_MARKS, "review mark")
        if problem is not None:
            raise EventProblem(f"a review event's reason: {problem}")
    elif fields["unit_id"] is None:
        raise EventProblem(f"a {kind} event needs a unit_id")
    if kind == RETRACT:
        if fields["target"] is None:
            raise EventProblem("a retract event needs a target (the event it cancels)")
    elif fields["target"] is not None:
        raise EventProblem(f"only a retract event has a target, not a {kind} event")


def _future(time: str, physical: int, clock: int, rules: LogRules) -> bool:
    """True when the event is dated (or clocked) further ahead than the tolerance; refused unless allowed."""
    ahead = max(physical, clock) - rules.now
    if ahead <= rules.tolerance:
        return False
    if rules.allow_future:
        return True
    what = f"time {time}" if physical >= clock else f"clock {clock}"
    raise EventProblem(
        f"{what} is {_duration(ahead)} ahead of this machine's clock (the tolerance is "
        f"{_duration(rules.tolerance)}): the machine that recorded it has a wrong clock? "
        "It would outrank later judgments",
        hints=argument_hint("allow_future", why="to merge it anyway (flagged)"),
    )


def _duration(microseconds: int) -> str:
    seconds = microseconds / 1_000_000
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.0f} s"


@overload
def _id(row: Mapping[str, Any], name: str, *, optional: Literal[False] = False) -> str: ...


@overload
def _id(row: Mapping[str, Any], name: str, *, optional: bool) -> str | None: ...


def _id(row: Mapping[str, Any], name: str, *, optional: bool = False) -> str | None:
    value = row.get(name)
    if value is None and optional:
        return None
    if type(value) is str and 0 < len(value) <= MAX_ID_LENGTH and value.isascii() and value.isprintable():
        if " " not in value:  # what `check_id` accepts as it is, at C speed: a merge checks millions of ids
            return value
    try:
        return check_id(value, name, error=FormatError, exact=True)  # a merged event is never rewritten (its hash)
    except FormatError as exc:
        raise EventProblem(exc.reason) from None


def _assessor(value: Any) -> str:
    """An assessor id whose letters are of one alphabet among those that look alike (`labeler.ids.script_problem`).

    Decided by the event alone, so a merge refuses it whatever the workbench holds, in any order.
    """
    name = _id({"assessor": value}, "assessor")
    problem = script_problem(name)
    if problem is not None:
        raise EventProblem(f"assessor {ascii(name)} {problem}")
    return name


class _Checked:
    """One field's check, each text checked once: topics, assessors and times repeat across a log's events.

    What a check returns for a text depends on the text alone; a refusal is raised, never kept.
    At most `KEPT` texts are kept (then forgotten together), so a log of any size holds a bounded few.
    """

    KEPT = 4096

    def __init__(self, check: Callable[[Any], Any]) -> None:
        self.check = check
        self.kept: dict[str, Any] = {}

    def __call__(self, value: Any) -> Any:
        if type(value) is not str:
            return self.check(value)
        found = self.kept.get(value)
        if found is None:
            if len(self.kept) >= self.KEPT:
                self.kept.clear()
            found = self.kept[value] = self.check(value)
        return found


def _topic(value: Any) -> str:
    return _id({"topic_id": value}, "topic_id")


def _choice(row: Mapping[str, Any], name: str, choices: tuple[str, ...], what: str) -> str:
    value = row[name]
    problem = choice_problem(value, choices, what)
    if problem is not None:
        raise EventProblem(problem)
    return str(value)


@dataclass(frozen=True)
class _Grades:
    """The grades a unit space's labels take: the workbench's scale, or an answer space's labels."""

    values: frozenset[int]
    name: str
    pooled: bool  # whether an imported grade may be negative (pooled, not judged): relevance spaces only


def _grades_of(unit: str, rules: LogRules) -> _Grades:
    space = answer_space(unit)
    if space is None:
        return _Grades(rules.grades, rules.scale, pooled=True)
    scale = space.scale
    return _Grades(frozenset(scale.values), scale.name, pooled=False)


def _unit(value: Any, rules: LogRules) -> str:
    """A relevance space (`doc`, `chunk:NAME` of a chunking here) or an answer space (`nuggets`, `nugget:RUN`,
    `support:RUN`, RUN an id)."""
    if value == NUGGETS:
        return NUGGETS
    space = answer_space(value) if isinstance(value, str) else None
    if space is not None:
        problem = id_problem(space.run)
        if problem is not None:
            raise EventProblem(f"unit {shown(value)} names no answer run: its run name {problem}")
        return str(space)
    problem = unit_problem(value, rules.chunkings)
    if problem is not None:
        if parsed_unit(value) is not None:  # a chunking this workbench lacks: say which it has
            problem += f" in this workbench (its chunkings: {', '.join(sorted(rules.chunkings)) or 'none'})"
        else:
            problem = (
                f"unit must be 'doc', 'chunk:NAME', '{NUGGETS}', 'nugget:RUN' or 'support:RUN', not {shown(value)}"
            )
        raise EventProblem(problem)
    return str(value)


def _time(value: Any) -> tuple[str, int]:
    """The time in labeler's own form (UTC, microseconds), and its clock; an offset is required."""
    if not isinstance(value, str):
        raise EventProblem(f"time must be a string (ISO 8601), found {json_type(value)}")
    _encodable(value, "time")
    try:
        moment = datetime.fromisoformat(value) if len(value) <= 64 else None
    except ValueError:
        moment = None
    if moment is None:
        raise EventProblem(f"time {shown(value)} is not an ISO 8601 time (e.g. 2026-01-31T09:30:00.000000+00:00)")
    if moment.utcoffset() is None:
        raise EventProblem(f"time {shown(value)} has no UTC offset (add +00:00 or Z)")
    try:
        moment = moment.astimezone(timezone.utc)
    except OverflowError:
        moment = None
    if moment is None or moment.year < 1970:
        raise EventProblem(f"time {shown(value)} is before 1970 or out of range")
    return moment.isoformat(timespec="microseconds"), clock_of(moment)


_checked_time = _Checked(_time)
_checked_topic = _Checked(_topic)
_checked_assessor = _Checked(_assessor)


def _clock(row: Mapping[str, Any]) -> int | None:
    """The event's clock, within the clock's range (`labeler.judgments.log.MAX_CLOCK`), or None when absent.

    Refused beyond the range whatever the clock tolerance: a clock past it names no
    time, and would leave the workbench's clock no room to count on from it.
    """
    value = row.get("clock")
    if isinstance(value, int) and not isinstance(value, bool):
        problem = clock_problem(value)
        if problem is not None:
            raise EventProblem(problem)
    return _integer(row, "clock", low=0)


def _integer(row: Mapping[str, Any], name: str, *, low: int) -> int | None:
    value = row.get(name)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        found = json_type(value) if isinstance(value, bool) or value is None else f"{json_type(value)} {shown(value)}"
        raise EventProblem(f"{name} must be an integer, found {found}")
    if not low <= value <= INT64_MAX:
        bounds = "0 or more, a 64-bit integer" if low == 0 else "a 64-bit integer"
        raise EventProblem(f"{name} {shown(value)} is out of range ({bounds})")
    return value


def _text(row: Mapping[str, Any], name: str) -> str | None:
    value = row.get(name)
    if value is None:
        return None
    if not isinstance(value, str):
        raise EventProblem(f"{name} must be a string or null, found {json_type(value)}")
    _encodable(value, name)
    return value


def _content_hash(row: Mapping[str, Any]) -> str | None:
    value = _text(row, "content_hash")
    if value is not None and (len(value) != 64 or not set(value) <= HEX):
        raise EventProblem(f"content_hash {shown(value)} is not a SHA-256 (64 lowercase hex digits)")
    return value


def _encodable(value: str, name: str) -> None:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise EventProblem(f"{name} holds half of a surrogate pair, which is not text") from None


def _refuse_repeated_keys(text: str, path: str | Path, line: int) -> None:
    """A key given twice is ambiguous (JSON readers differ on which one counts): refused."""

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in items]
        repeated = sorted({key for key in keys if keys.count(key) > 1})
        if repeated:
            raise LogFormatError(f"field(s) {', '.join(map(repr, repeated))} given twice", path=path, line=line)
        return dict(items)

    json.loads(text, object_pairs_hook=pairs)  # safe: `json_object` decoded the same text already
