"""Several annotators, one set of labels: merging workbenches and judgment logs.

A judgment log is a set of events with ids unique across workbenches, and
labels are derived from events in logical-clock order, so merging is a union
by id: idempotent (merging twice adds nothing) and order-independent (A into
B and B into A derive the same labels). Snapshots, pools and runs stay local.

What is merged comes from another machine, so it is checked like an imported
file, all of it before anything is written: every field of every event
(`labeler.formats.judgment_log`), an id seen before must carry the same
content, a workbench must share this one's scale, chunkings and documents.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import groupby, islice
from operator import itemgetter
from pathlib import Path
from typing import Any, NoReturn

from labeler.answers.spaces import answer_space, is_answer_unit
from labeler.errors import BadArgumentError, ConflictError, Hint, LabelerError, argument_hint
from labeler.formats.judgment_log import (
    DEFAULT_CLOCK_TOLERANCE,
    LOG_FIELDS,
    EventProblem,
    LogFormatError,
    LoggedEvent,
    LogRules,
    log_event,
    log_line,
    read_log,
)
from labeler.ids import shown_id
from labeler.json_form import JsonResult
from labeler.judgments.log import GRADE, MODEL, REVIEW, Event, clock_from_time, derive_pair, event_clock, parse_time
from labeler.paths import require_regular_file
from labeler.scales import PRESETS, GradeScale
from labeler.store import Store
from labeler.store.event_rows import event_from_row, event_values
from labeler.store.merge_rows import STAGE_BATCH, log_rows, read_errors
from labeler.validation import MAX_CLOCK_TOLERANCE, shown, tolerance_problem
from labeler.wording import agrees, plural
from labeler.workbench.setup import now
from labeler.workbench.unit_spaces import foreign_ids, missing_units, space_name

SQLITE_MAGIC = b"SQLite format 3\x00"
__all__ = ["LOG_FIELDS", "DEFAULT_CLOCK_TOLERANCE", "BackupResult", "MergeResult", "backup", "export_log", "merge"]


def export_log(store: Store) -> Iterator[str]:
    """The whole judgment log as JSON lines, in local order (one event per line), streamed."""
    for event in store.log_events():
        yield log_line(event)


@dataclass(frozen=True, slots=True)
class NewConflict:
    """A pair whose assessors disagree since the merge (it had no conflict before)."""

    unit: str
    topic: str
    unit_id: str


@dataclass(frozen=True, slots=True)
class LabelChange:
    """A pair whose current label the merge changed, from `before` to `after` (None: no label).

    `conflict`: the pair is in conflict after the merge (it then has no label);
    `assessors`: whose merged events are about the pair.
    """

    unit: str
    topic: str
    unit_id: str
    before: int | None
    after: int | None
    conflict: bool
    assessors: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FutureEvent:
    """An event dated ahead of this machine's clock, merged because the merge allowed it."""

    event_id: str
    time: str
    line: int | None


@dataclass(frozen=True)
class MergeResult(JsonResult):
    """What a merge took: how many events, which assessors, and what now needs a look."""

    source: str
    format: str  # "workbench" or "jsonl"
    events: int
    added: int
    already_present: int
    assessors: tuple[str, ...]
    new_conflicts: tuple[NewConflict, ...]
    unknown_topics: tuple[str, ...]
    future: tuple[FutureEvent, ...]
    changes: tuple[LabelChange, ...] = ()


@dataclass(frozen=True)
class BackupResult(JsonResult):
    """`backup`'s result: the copy, whether its check found it whole, and what it holds."""

    path: str
    ok: bool
    events: int
    snapshots: int
    bytes: int


def merge(
    store: Store, other: str | Path, *, clock_tolerance: float = DEFAULT_CLOCK_TOLERANCE, allow_future: bool = False
) -> MergeResult:
    """Union another workbench's (or a JSONL log's) events into this one; report new conflicts.

    All or nothing: the first unsound event, or a workbench that does not fit
    this one, refuses the whole merge with where and why. Streamed: the other
    log is read, checked and compared with this one a batch at a time. A
    workbench whose events all carry their clock is read in log order and its
    new events appended as they come, in the one write transaction a refusal
    rolls back; a JSONL log (in any order) has its new events staged on disk
    (`MergeRows.stage_begin`) and then appended in log order. The labels the
    merged events change are derived one topic at a time.
    """
    path = Path(other)
    is_db = _check_merge_request(store, path, clock_tolerance)
    rules = _merge_rules(store, clock_tolerance, allow_future)
    if is_db:
        return _merge_workbench(store, path, rules)
    store.stage_begin()
    try:
        read = _stage_log(store, path, rules)
        _check_retracts(store, path, store.staged_retracts(), staged=True)
        return _append_staged(store, path, "jsonl", read)
    finally:
        store.stage_end()


def _merge_workbench(store: Store, path: Path, rules: LogRules) -> MergeResult:
    """Merge another workbench: appended in log order as read when it can be, staged otherwise."""
    with read_errors(path):
        source = Store(path, readonly=True)
    with source:
        with read_errors(path):
            _same_scale(store.scale(), source.scale_text(), path)
            _same_chunkings(store.chunking_signatures(), source.chunking_signatures(), path)
            _same_documents(store.document_hash_rows(), source.document_hash_rows(), path)
            columns = source.log_columns()
            comparable = columns == store.log_columns()  # a file of another schema is compared field by field
            in_order = comparable and source.all_clocked()
        if in_order:
            return _append_in_log_order(store, path, source, columns, rules)
        store.stage_begin()
        try:
            with read_errors(path):
                read = _stage_workbench(store, path, source, columns, rules)
            _check_retracts(store, path, store.staged_retracts(), staged=True)
            return _append_staged(store, path, "workbench", read)
        finally:
            store.stage_end()


@dataclass
class _Taken:
    """What a merge appended as it read: how many events it read and added, their assessors, topics and future ones."""

    read: int = 0
    added: int = 0
    assessors: set[str] = field(default_factory=set)
    topics: set[str] = field(default_factory=set)
    future: list[tuple[int, FutureEvent]] = field(default_factory=list)  # with the order the other log holds them

    def take(self, new: list[LoggedEvent], seqs: dict[str, int]) -> None:
        self.added += len(new)
        for item in new:
            event = item.event
            self.assessors.add(event.assessor)
            self.topics.add(event.topic_id)
            if item.future:
                self.future.append((seqs[event.event_id], FutureEvent(event.event_id, event.time, None)))


def _append_in_log_order(store: Store, path: Path, source: Store, columns: list[str], rules: LogRules) -> MergeResult:
    """Append the events of `source` (read in log order) that this workbench lacks, each checked, in one transaction.

    Per batch: the events held here with every value the same are skipped unchecked; the
    rest are checked, compared with what this workbench holds by id (an event appended
    earlier in this merge is an id the other log repeats), and appended. Nothing is
    staged: a refusal rolls the transaction back, so nothing is written.
    """
    before, at = store.last_seq(), columns.index("event_id")
    taken = _Taken()
    with store.cache_restored(), store.transaction():
        for rows in _source_batches(path, source, columns):
            taken.read += len(rows)
            held, present = store.rows_held(columns, rows)
            fresh = [row for row, kept in zip(rows, held, strict=True) if not kept]
            logged = [_checked(row, rules, path) for row in log_rows(columns, fresh)]  # each row's seq left out
            new = _not_held(store, path, _first_of_batch(path, logged), since=before, present=present)
            _check_spaces(store, path, new)
            store.append_rows([event_values(i.event, event_clock(i.event)) for i in new])
            taken.take(new, {row[at]: row[-1] for row in fresh} if any(i.future for i in new) else {})
        _check_retracts(store, path, store.appended_retracts(before), staged=False)
    new_conflicts, changes = _label_changes(store, before, store.last_seq(), store.appended_pairs(before))
    return _result(store, path, "workbench", taken, new_conflicts, changes)


def _source_batches(path: Path, source: Store, columns: list[str]) -> Iterator[list[tuple[Any, ...]]]:
    """The other workbench's events in log order, a batch at a time, its read errors naming it."""
    batches = source.log_rows_in_log_order(columns, STAGE_BATCH)
    while True:
        with read_errors(path):
            rows = next(batches, None)
        if rows is None:
            return
        yield rows


def _result(
    store: Store,
    path: Path,
    form: str,
    taken: _Taken,
    new_conflicts: list[NewConflict],
    changes: list[LabelChange],
) -> MergeResult:
    topics = store.topic_ids()
    return MergeResult(
        source=str(path),
        format=form,
        events=taken.read,
        added=taken.added,
        already_present=taken.read - taken.added,
        assessors=tuple(sorted(taken.assessors)),
        new_conflicts=tuple(new_conflicts),
        unknown_topics=tuple(t for t in sorted(taken.topics) if topics and t not in topics),
        future=tuple(future for _, future in sorted(taken.future, key=lambda pair: pair[0])),
        changes=tuple(changes),
    )


def _append_staged(store: Store, path: Path, form: str, read: int) -> MergeResult:
    """Append the staged events in log order in one transaction, and what the merge took and changed."""
    added, assessors, staged_topics = store.staged_summary()
    before = store.last_seq()
    with store.cache_restored(), store.transaction():
        for rows in store.staged_in_log_order():
            store.append_rows(rows)  # each keeps its clock; the workbench's clock moves past them
    new_conflicts, changes = _label_changes(store, before, store.last_seq(), store.appended_pairs(before))
    future = [(index, FutureEvent(*row)) for index, row in enumerate(store.staged_future())]
    taken = _Taken(read, added, set(assessors), set(staged_topics), future)
    return _result(store, path, form, taken, new_conflicts, changes)


def _label_changes(
    store: Store, before: int, after: int, merged_by_topic: Iterator[tuple[str, str, list[tuple[Any, ...]]]]
) -> tuple[list[NewConflict], list[LabelChange]]:
    """The pairs the merged events put in conflict, and those whose label they changed, in pair order.

    Relevance and answer spaces alike (a nugget assignment is a label); nugget versions are none (their
    pairs have no grade), and `merged_by_topic` (`MergeRows.appended_pairs`) leaves them out.

    One topic at a time: the events it held before the merge (up to seq `before`) of the pairs the
    merge touched give their labels before; those and the merged events (up to `after`), the labels after.
    """
    conflicts: list[NewConflict] = []
    changes: list[LabelChange] = []
    changed: dict[str, dict[str, str]] = {}
    shared: dict[tuple[str, ...], tuple[str, ...]] = {}  # one tuple per set of assessors: a merge may change 1M labels
    for space, topic, merged in merged_by_topic:
        if space not in changed:
            changed[space] = store.change_times(space)
        held = store.topic_grades(space, topic, before, {row[0] for row in merged})
        pairs_of = _TopicPairs(space, topic, changed[space], before, after)
        for unit_id, group in groupby(merged, key=itemgetter(0)):
            rows = [row[1:] for row in group]
            old, new = pairs_of.states(store, unit_id, _pair_events(rows, held.get(unit_id)))
            if new[1] and not old[1]:
                conflicts.append(NewConflict(space, topic, unit_id))
            if old != new:
                names = _assessors(rows, shared)
                changes.append(LabelChange(space, topic, unit_id, old[0], new[0], new[1], names))
    return conflicts, changes


def _pair_events(merged: list[tuple[Any, ...]], held: list[tuple[Any, ...]] | None) -> list[tuple[Any, ...]]:
    """A pair's events up to the merge's end: those it held before (`held`), then the merged ones, reviews left out."""
    events = [row for row in merged if row[1] != REVIEW]
    return held + events if held else events


def _assessors(rows: list[tuple[Any, ...]], shared: dict[tuple[str, ...], tuple[str, ...]]) -> tuple[str, ...]:
    """The assessors of a pair's merged events (`MergeRows.appended_pairs` rows), sorted, one tuple per set."""
    names = (rows[0][5],) if len(rows) == 1 else tuple(sorted({row[5] for row in rows}))
    return shared.setdefault(names, names)


_NO_LABEL = (None, False)


@dataclass(frozen=True, slots=True)
class _TopicPairs:
    """The pairs of one topic a merge touched: `changed` is when each unit's text last changed."""

    space: str
    topic: str
    changed: dict[str, str]
    before: int  # the log's last seq before the merge
    after: int  # and after it

    def states(
        self, store: Store, unit_id: str, rows: list[tuple[Any, ...]]
    ) -> tuple[tuple[int | None, bool], tuple[int | None, bool]]:
        """A pair's label and conflict before the merge and after, from its `MergeRows.topic_grades` rows.

        Most pairs merged hold people's grades alone, made after their unit's text last changed:
        their label is the grade the assessors' latest grades agree on (a conflict when they
        differ), what `derive_pair` settles them to. Any other pair is derived from its events.
        """
        changed = self.changed.get(unit_id)
        if len(rows) == 1 and _plain(rows[0], changed):  # most pairs a merge touches: one grade, merged
            state = (rows[0][3], False)
            return (state if rows[0][0] <= self.before else _NO_LABEL), state
        if all(_plain(row, changed) for row in rows):
            return _agreed([row for row in rows if row[0] <= self.before]), _agreed(rows)
        return self._derived(store, unit_id, changed)

    def _derived(
        self, store: Store, unit_id: str, changed: str | None
    ) -> tuple[tuple[int | None, bool], tuple[int | None, bool]]:
        """`states` of a pair derived from its events (`derive_pair`)."""
        events = [e for e in store.pair_events(self.space, self.topic, unit_id) if e.kind != REVIEW]
        events = [e for e in events if e.seq <= self.after]
        old = _pair_state(self.topic, unit_id, [e for e in events if e.seq <= self.before], changed)
        return old, _pair_state(self.topic, unit_id, events, changed)


def _plain(row: tuple[Any, ...], changed: str | None) -> bool:
    """A person's grade of the scale with its clock, made after the unit's text last changed (`changed`)."""
    _, kind, source, grade, time, _, clock, _ = row
    return (
        kind == GRADE
        and source != MODEL
        and type(grade) is int
        and grade >= 0
        and clock is not None
        and not (changed and time < changed)
    )


def _agreed(rows: list[tuple[Any, ...]]) -> tuple[int | None, bool]:
    """The label plain grades give (`_plain`): the grade each assessor's latest agrees on, else a conflict."""
    latest: dict[str, tuple[int, str, int]] = {}
    for _, _, _, grade, _, assessor, clock, event_id in rows:
        order = (clock, event_id, grade)
        if assessor not in latest or order > latest[assessor]:
            latest[assessor] = order
    grades = {order[2] for order in latest.values()}
    if len(grades) > 1:
        return None, True
    return (grades.pop() if grades else None), False


def _pair_state(topic: str, unit_id: str, events: list[Event], changed: str | None) -> tuple[int | None, bool]:
    """A pair's label and whether it is in conflict, from its events (no events: no label, no conflict)."""
    if not events:
        return None, False
    state = derive_pair(topic, unit_id, events, changed)
    return state.label, state.conflict


def _check_merge_request(store: Store, path: Path, clock_tolerance: float) -> bool:
    """Refuse what cannot be merged before reading a line; True when `path` is a workbench, not a log."""
    require_regular_file(path)  # a FIFO would block the open below; a folder or device is no log
    if os.path.samefile(path, store.path):
        raise LabelerError("cannot merge a workbench into itself", path=path)
    problem = tolerance_problem(clock_tolerance)
    if problem is not None:
        further = argument_hint("allow_future", why="to merge events further ahead")
        hints = further if clock_tolerance > MAX_CLOCK_TOLERANCE else ()
        raise BadArgumentError(problem, argument="clock_tolerance", hints=hints)
    try:
        with open(path, "rb") as handle:
            return handle.read(16) == SQLITE_MAGIC
    except OSError as exc:
        raise LabelerError(f"cannot read: {exc.strerror or exc}", path=path) from None


def _merge_rules(store: Store, clock_tolerance: float, allow_future: bool) -> LogRules:
    """What every merged event must fit here: this workbench's scale, its chunkings, its clock."""
    scale = store.scale()
    return LogRules(
        frozenset(scale.values),
        scale.name,
        frozenset(c.name for c in store.chunkings()),
        clock_from_time(now()),
        round(clock_tolerance * 1_000_000),
        allow_future,
    )


def _stage_workbench(store: Store, path: Path, source: Store, columns: list[str], rules: LogRules) -> int:
    """Stage another workbench's events this one lacks, each checked; how many events it holds.

    Read a batch at a time. An event stored here with every value the same (merged before) is
    neither checked again nor staged: a merge holds one batch, not the other log.
    """
    comparable = columns == store.log_columns()  # a file of another schema is compared field by field
    count = 0
    for rows in source.log_row_batches(columns, STAGE_BATCH):
        count += len(rows)
        held = store.identical_rows(columns, rows) if comparable else [False] * len(rows)
        fresh = [row for row, kept in zip(rows, held, strict=True) if not kept]
        _stage_batch(store, path, [_checked(row, rules, path) for row in log_rows(columns, fresh)])
    return count


def _stage_log(store: Store, path: Path, rules: LogRules) -> int:
    """Stage a JSONL log's events this workbench lacks, each checked, a batch at a time; how many lines it holds."""
    count = 0
    events = read_log(path, rules)
    while batch := list(islice(events, STAGE_BATCH)):
        count += len(batch)
        _stage_batch(store, path, batch)
    return count


def _checked(row: dict[str, Any], rules: LogRules, path: Path) -> LoggedEvent:
    """One event of another workbench, checked as a log line is."""
    try:
        event, future = log_event(row, rules)
    except EventProblem as exc:
        raise LogFormatError(f"event {shown(row.get('event_id'))}: {exc}", path=path, hints=exc.hints) from None
    return LoggedEvent(event, None, future)


def _same_scale(ours: GradeScale, stored: Any, path: Path) -> None:
    try:
        theirs = GradeScale.from_dict(json.loads(stored)) if stored else PRESETS["default"]
    except (LabelerError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        raise LabelerError("its grade scale cannot be read: not a sound workbench", path=path) from None
    if theirs == ours:
        return
    there, here = _describe_scale(theirs), _describe_scale(ours)
    if there == here:
        there, here = there + " with other labels or definitions", here
    raise ConflictError(
        f"its grade scale is {there}, this workbench's is {here}: a grade would mean something "
        "else once merged (merge only workbenches made with the same scale)",
        path=path,
    )


def _describe_scale(scale: GradeScale) -> str:
    return f"{scale.name!r} (grades {', '.join(map(str, scale.values))}; relevant from {scale.threshold})"


def _same_chunkings(ours: dict[str, tuple], theirs: dict[Any, tuple], path: Path) -> None:
    for name in sorted(set(ours) & set(theirs)):
        if ours[name] == theirs[name]:
            continue
        differs = [
            f"{what} {shown(there)} there, {shown(here)} here"
            for what, here, there in zip(("kind", "params", "hash"), ours[name], theirs[name], strict=True)
            if here != there
        ]
        raise ConflictError(
            f"chunking {name!r} is another chunking there under the same name "
            f"({'; '.join(differs)}): its chunk ids name other text (re-create one of them under "
            "another name)",
            path=path,
        )


def _same_documents(ours: Iterable[tuple[Any, Any]], theirs: Iterable[tuple[Any, Any]], path: Path) -> None:
    """Documents with the same id must have the same text: judgments name units by id."""
    differing: list[str] = []
    count = 0
    mine = iter(ours)
    current = next(mine, None)
    for doc_id, text_hash in theirs:
        if not isinstance(doc_id, str):  # SQLite sorts other types apart: they cannot match an id here
            continue
        while current is not None and current[0] < doc_id:
            current = next(mine, None)
        if current is not None and current[0] == doc_id and current[1] != text_hash:
            count += 1
            if len(differing) < 5:
                differing.append(shown_id(doc_id))
    if count:
        raise ConflictError(
            f"{plural(count, 'document')} {agrees(count, 'has', 'have')} the same id but another text "
            "there than here "
            f"(e.g. {', '.join(differing)}): their judgments are about other text "
            "(import the same corpus into both workbenches first)",
            path=path,
        )


def _stage_batch(store: Store, path: Path, logged: list[LoggedEvent]) -> None:
    """Stage the events of a batch this workbench lacks; an id seen before with other content is refused, not skipped.

    Seen before: earlier in the batch, staged from an earlier batch, or stored here.
    """
    first = _first_of_batch(path, logged)
    for event_id, (row, line) in store.staged_by_id(list(first)).items():
        _repeated(path, event_from_row(row), line, first.pop(event_id))
    new = _not_held(store, path, first, since=None)
    _check_spaces(store, path, new)
    store.stage_rows([[*event_values(i.event, event_clock(i.event)), i.line, i.future] for i in new])


def _first_of_batch(path: Path, logged: list[LoggedEvent]) -> dict[str, LoggedEvent]:
    """`id -> event` of a batch, each id's first; one repeated with other content is refused."""
    first: dict[str, LoggedEvent] = {}
    for item in logged:
        seen = first.setdefault(item.event.event_id, item)
        if seen is not item:
            _repeated(path, seen.event, seen.line, item)
    return first


def _not_held(
    store: Store,
    path: Path,
    first: dict[str, LoggedEvent],
    *,
    since: int | None,
    present: set[Any] | None = None,
) -> list[LoggedEvent]:
    """The events of `first` this workbench does not hold; one held with other content is refused.

    `since`: the log's last seq before a merge that appends as it reads; an event after it
    was appended by this merge, so the other log repeats its id. `present`: the ids of `first`
    this workbench holds, when known already (`MergeRows.rows_held`); only those are read.
    """
    existing = store.events_by_id(first if present is None else [i for i in first if i in present])
    new = []
    for event_id, item in first.items():
        stored = existing.get(event_id)
        if stored is None:
            new.append(item)
        elif since is not None and stored.seq > since:
            _repeated(path, stored, None, item)
        else:
            differs = _difference(stored, item.event, "here", "there")
            if differs:
                _refuse(
                    path,
                    item,
                    f"event {shown_id(event_id)} is already in this workbench with other content "
                    f"({differs}): a forged or corrupt event",
                )
    return new


def _repeated(path: Path, seen: Event, line: int | None, item: LoggedEvent) -> None:
    """Refuse `item` when its id was seen before (`seen`, at `line`) with other content."""
    differs = _difference(seen, item.event, "first", "here")
    if differs:
        where = f"line {line}" if line is not None else "earlier"
        _refuse(
            path,
            item,
            f"event id {shown_id(item.event.event_id)} appears again with other content "
            f"({differs}; first at {where}): a forged or corrupt log",
        )


def _check_retracts(store: Store, path: Path, batches: Iterator[list[tuple[Any, ...]]], *, staged: bool) -> None:
    """A retract cancels an event of its own pair that exists (here or in the same log), made by its own assessor.

    The same rule as `undo`, which withdraws only the assessor's own decisions: a merged
    retract cannot take back another assessor's grade, or an adjudication it did not make.
    `batches`: the merged retracts (rows as `event_from_row` reads them, then the line).
    Every event of the log is either staged (`staged`) or held here, so a target is looked up in both.
    """
    for rows in batches:
        retracts = [(event_from_row(row[:-1]), row[-1]) for row in rows]
        targets = [event.target for event, _ in retracts if event.target is not None]
        known = _known_targets(store, targets, staged=staged)
        for event, line in retracts:
            item = LoggedEvent(event, line, False)
            target = known.get(event.target) if event.target is not None else None  # the schema requires a target
            if target is None:
                _refuse(
                    path,
                    item,
                    f"retract targets event {shown(event.target)}, which is neither in this workbench nor in the log",
                )
            problem = _retract_problem(event, target)
            if problem is not None:
                _refuse(path, item, problem)


def _known_targets(store: Store, targets: list[str], *, staged: bool) -> dict[str, Event]:
    """The events among `targets` held here, and with `staged` those staged too."""
    known = store.events_by_id(targets)
    if staged:
        known.update((event_id, event_from_row(row)) for event_id, (row, _) in store.staged_by_id(targets).items())
    return known


def _retract_problem(event: Event, target: Event) -> str | None:
    """Why a retract cannot cancel its target: another pair, or another assessor's decision."""
    if (target.topic_id, target.unit, target.unit_id) != (event.topic_id, event.unit, event.unit_id):
        return (
            f"retract is about topic {shown(event.topic_id)}, {shown(event.unit_id)} "
            f"but its target {shown_id(target.event_id)} is about another pair"
        )
    if target.assessor != event.assessor:
        return (
            f"retract by {shown_id(event.assessor)} targets event {shown_id(target.event_id)} of "
            f"{shown_id(target.assessor)}: an assessor withdraws only their own decisions "
            "(an adjudication only by the one who made it)"
        )
    return None


def _check_spaces(store: Store, path: Path, new: list[LoggedEvent]) -> None:
    """A merged event's unit id must not be a unit of another space here: a document filed as a chunk, or the reverse.

    The same rule as an import's unknown ids: an id this workbench does not know is the other
    workbench's business, but one that names a unit of another space here would be a label in the
    wrong space that the append-only log can never take back. Answer spaces hold no units (their
    ids are nuggets and sentence numbers): an event of one needs its answer run here instead.
    """
    by_space: dict[str, list[LoggedEvent]] = {}
    for item in new:
        by_space.setdefault(item.event.unit, []).append(item)
    answers = {space for space in by_space if is_answer_unit(space)}
    if answers:
        _answer_runs_here(store, path, [item for item in new if item.event.unit in answers])
    for space, items in by_space.items():
        if space not in answers:
            _refuse_other_space(store, path, space, items)


def _refuse_other_space(store: Store, path: Path, space: str, items: list[LoggedEvent]) -> None:
    """Refuse the first of `items` (merged events of relevance space `space`) whose unit id is a unit of another."""
    ids = {item.event.unit_id for item in items if item.event.unit_id is not None}
    foreign = foreign_ids(store, space, missing_units(store, space, ids))
    if foreign:
        item = next(item for item in items if item.event.unit_id in foreign)
        _refuse(
            path,
            item,
            f"{shown_id(str(item.event.unit_id))} is filed in unit space {space}, but here it is "
            f"{space_name(store, str(item.event.unit_id), space)}: a label in the wrong unit space",
        )


def _answer_runs_here(store: Store, path: Path, items: list[LoggedEvent]) -> None:
    """Refuse the first of `items` (events of answer spaces, in the log's order) whose answer run is not here."""
    runs: set[str] | None = None
    for item in items:
        runs = _answer_run_here(store, path, item, runs)


def _answer_run_here(store: Store, path: Path, item: LoggedEvent, runs: set[str] | None) -> set[str]:
    """Refuse an event of an answer space whose answer run this workbench lacks; the answer runs here.

    Answers stay local, as runs do: a nugget assignment or a support judgment is about an answer
    this workbench must hold. Nugget versions (`nuggets`) are about a topic alone.
    """
    if runs is None:
        runs = {info.name for info in store.answer_runs()}
    space = answer_space(item.event.unit)
    if space is not None and space.run not in runs:
        _refuse(
            path,
            item,
            f"answer run {shown_id(space.run)} is not in this workbench: import its answers first",
            hints=Hint("import_answers"),
        )
    return runs


def _difference(a: Event, b: Event, a_name: str, b_name: str) -> str:
    """How two events with one id differ ('' when they are the same event)."""
    differs = []
    for name in LOG_FIELDS:
        left, right = getattr(a, name), getattr(b, name)
        if name == "time" and left != right:  # an older merge may have kept another spelling of one instant
            moment = parse_time(str(left))
            if moment is not None and moment == parse_time(str(right)):
                continue
        if left != right or type(left) is not type(right):
            differs.append(f"{name} {shown(left)} {a_name}, {shown(right)} {b_name}")
    return "; ".join(differs[:3]) + ("; ..." if len(differs) > 3 else "")


def _refuse(path: Path, item: LoggedEvent, reason: str, *, hints: tuple[Hint, ...] | Hint = ()) -> NoReturn:
    if item.line is not None:
        raise LogFormatError(reason, path=path, line=item.line, hints=hints)
    raise LogFormatError(f"event {shown_id(item.event.event_id)}: {reason}", path=path, hints=hints)


def backup(store: Store, destination: str | Path, *, force: bool = False) -> BackupResult:
    """Copy the workbench with SQLite's online backup, then check the copy.

    The copy is made in a temporary file and renamed into place (the output rule,
    labeler/output_files.py): an interrupted backup leaves no half-copied workbench.
    """
    from labeler.output_files import output_file
    from labeler.workbench.check import check_workbench

    path = Path(destination)
    with output_file(path, workbench=store.path, force=force) as temporary:
        store.backup_to(temporary)
    with Store(path) as copy:
        checked = check_workbench(copy)
        events = copy.event_count()
        snapshots = len(copy.snapshots())
    return BackupResult(path=str(path), ok=checked.ok, events=events, snapshots=snapshots, bytes=path.stat().st_size)
