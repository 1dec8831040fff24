"""Importing and listing runs."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from labeler.errors import (
    BadArgumentError,
    ConflictError,
    Hint,
    LabelerError,
    RunFormatError,
    UnknownIdError,
    argument_hint,
)
from labeler.formats.runs import (
    DEDUPE_POLICIES,
    DuplicateUnit,
    Ranking,
    RunBlock,
    RunReader,
    canonical_ranking,
    merge_blocks,
)
from labeler.ids import check_id, normal_id
from labeler.json_form import JsonResult
from labeler.models import STAGES, RunInfo, Unit, topic_sort_key
from labeler.store import Store
from labeler.validation import ID_NAMES, choice_problem, parsed_unit, unit_problem
from labeler.wording import plural
from labeler.workbench.setup import Progress, now
from labeler.workbench.unit_spaces import foreign_ids, refuse_foreign
from labeler.workbench.unknown import unknown_ids_advice

ID_CHECK_BATCH = 100_000


@dataclass(frozen=True)
class RunSummary(JsonResult):
    """A stored run: its unit space, stage, size, tags, policies and the file it came from."""

    name: str
    unit: str
    stage: str
    topics: int
    entries: int
    depth: int
    tags: tuple[str, ...]
    policies: dict[str, Any]  # dedupe and order, what the import dropped or accepted, a retriever's settings
    source: str
    source_sha256: str
    imported: str

    @classmethod
    def of(cls: type[Run], info: RunInfo, **more: Any) -> Run:
        """The summary of a stored run; `more` fills the fields a subclass adds."""
        return cls(
            name=info.name,
            unit=str(info.unit),
            stage=info.stage,
            topics=info.topics,
            entries=info.entries,
            depth=info.max_depth,
            tags=tuple(info.tags),
            policies=info.policies,
            source=info.source,
            source_sha256=info.source_sha256,
            imported=info.imported,
            **more,
        )


Run = TypeVar("Run", bound=RunSummary)


@dataclass(frozen=True, kw_only=True)
class RunImport(RunSummary):
    """`import_run`'s result: the run as stored, the lines the file held, and whether it replaced a run."""

    lines: int
    replaced: bool

    @property
    def duplicates_dropped(self) -> int:
        """Repeated ids dropped from rankings (kept the first occurrence), 0 when none was."""
        return int(self.policies.get("duplicates_dropped", 0))


@dataclass(frozen=True)
class Retirement(JsonResult):
    """When a run was retired, and why."""

    time: str
    reason: str


@dataclass(frozen=True, kw_only=True)
class RunListed(RunSummary):
    """One run as `list_runs` gives it: the summary, the digest of its rankings, and its retirement if any."""

    rankings_sha256: str | None
    retired: Retirement | None


@dataclass(frozen=True, kw_only=True)
class RunRetrieved(RunSummary):
    """A run a retriever made: the summary, whether it replaced one, the retriever, and topics it found nothing for."""

    replaced: bool
    retriever: str
    topics_without_results: tuple[str, ...]


@dataclass(frozen=True)
class RunRetired(JsonResult):
    """`retire_run`'s result: the run, when and why it was retired, and whether it was retired before."""

    name: str
    retired: str
    reason: str
    already_retired: bool


class _IdCheck:
    """Unit ids of the rankings stored so far, checked against the unit space a batch at a time.

    One query per `ID_CHECK_BATCH` ids, not one per topic (a run of 5,000 topics), and never all
    the ids of a run at once in memory.
    """

    def __init__(self, store: Store, unit: Unit, enabled: bool):
        self.store, self.unit, self.enabled = store, unit, enabled
        self.pending: set[str] = set()
        self.missing: set[str] = set()

    def add(self, units: Iterable[str]) -> None:
        if self.enabled:
            self.pending.update(units)
            if len(self.pending) >= ID_CHECK_BATCH:
                self.flush()

    def flush(self) -> None:
        if not self.pending:
            return
        if self.unit.kind == "chunk":
            assert self.unit.chunking is not None
            self.missing.update(self.store.missing_chunks(self.unit.chunking, self.pending))
        else:
            self.missing.update(self.store.missing_documents(self.pending))
        self.pending.clear()


@dataclass
class _Stored:
    """What storing the rankings found: entries per topic, duplicates dropped, topics refused."""

    entries: dict[str, int] = field(default_factory=dict)  # topic -> entries, for stats and to merge split topics
    dropped: int = 0
    unknown_topics: dict[str, int] = field(default_factory=dict)  # topic -> its first line


def import_run(
    store: Store,
    path: str | Path,
    name: str,
    *,
    unit: str = "doc",
    stage: str = "candidate",
    dedupe: str = "error",
    replace: bool = False,
    allow_unknown: bool = False,
    progress: Progress | None = None,
) -> RunImport:
    """Validate and store a ranked run, all or nothing, one topic at a time.

    Topics and unit ids are checked against the workbench when it has topics,
    a corpus or (for chunk units) the chunking; a workbench without them takes
    the ids it is given (evaluation-only use).
    """
    path = Path(path)
    name = normal_id(name) if isinstance(name, str) else name  # checked below, by the id rule
    parsed_unit, exists = _check_import_request(store, name, unit, stage, dedupe, replace)
    reader = RunReader(path)
    known_topics = None if allow_unknown or store.topic_count() == 0 else store.topic_ids()
    # with unknown ids allowed the ids are still looked up: a unit of another space is refused all the same
    ids = _IdCheck(store, parsed_unit, parsed_unit.kind == "chunk" or store.document_count() > 0)
    with store.transaction():
        if exists:
            store.delete_run(name)
        run_id = store.insert_run(RunInfo(name, parsed_unit, stage, str(path), "", (), 0, 0, 0, {}, now()))
        stored = _store_rankings(store, reader, run_id, dedupe, known_topics, ids, progress)
        _refuse_unknown(store, reader, parsed_unit, stored, ids, allow_unknown=allow_unknown)
        _finish_run(store, reader, run_id, stored, dedupe=dedupe, allow_unknown=allow_unknown)
    if progress:
        progress(reader.lines.size, reader.lines.size)
    return RunImport.of(store.run(name), lines=reader.line_count, replaced=exists)


RUN_SUFFIXES = (".run", ".trec", ".txt", ".tsv", ".res", ".jsonl", ".json")
"""Endings a run file's name loses to give the run's name (after `.gz`): `bm25.run.gz` is run `bm25`."""


def run_name_of(path: str | Path) -> str:
    """The run name a file gives when none is named: its file name without `.gz`, then without a `RUN_SUFFIXES` ending.

    `bm25.run.gz` -> `bm25`, `input.tasb.gz` -> `input.tasb`, `splade.trec` -> `splade`; a name that is
    nothing but an ending (`.run`) is kept whole, so the id rule judges it.
    """
    name = Path(path).name
    for endings in ((".gz",), RUN_SUFFIXES):
        stem, dot, ending = name.rpartition(".")
        if dot and stem and f".{ending.lower()}" in endings:
            name = stem
    return name


@dataclass(frozen=True)
class RunImportOptions:
    """How `import_runs` reads and files each run: `import_run`'s keyword arguments, the same for every file."""

    unit: str = "doc"
    stage: str = "candidate"
    dedupe: str = "error"
    replace: bool = False
    allow_unknown: bool = False


@dataclass(frozen=True)
class RunImports(JsonResult):
    """`import_runs`'s result: each file's run as `import_run` gives it, in the order given."""

    runs: list[RunImport]


def import_runs(
    store: Store,
    files: Sequence[tuple[str | Path, str]],
    options: RunImportOptions | None = None,
    progress: Progress | None = None,
) -> RunImports:
    """Import several run files, each `(path, name)`, in one transaction: all of them or none.

    One command, one outcome: a bad line in the last file leaves the workbench as it was, so the same
    command can be run again once the file is fixed (a file-by-file import would leave the first runs
    in and refuse the rerun's names). Names and options are checked for every file before a line is
    read; each file is then read with `import_run`'s checks and errors (`file:line`).
    """
    options = options or RunImportOptions()
    names = [normal_id(name) for _, name in files]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise BadArgumentError(
            f"run name {repeated[0]!r} is given to more than one file; each file needs a name of its own",
            argument="name",
            hints=argument_hint("name", why="once per file, in the files' order"),
        )
    for name in names:
        _check_import_request(store, name, options.unit, options.stage, options.dedupe, options.replace)
    with store.transaction():
        runs = [
            import_run(store, path, name, **asdict(options), progress=progress)
            for (path, _), name in zip(files, names, strict=True)
        ]
    return RunImports(runs=runs)


def _check_import_request(
    store: Store, name: str, unit: str, stage: str, dedupe: str, replace: bool
) -> tuple[Unit, bool]:
    """Refuse a request that cannot succeed before a line is read; the unit, and whether the name is taken."""
    parsed_unit = parse_unit(unit)
    for value, choices, argument in ((stage, STAGES, "stage"), (dedupe, DEDUPE_POLICIES, "dedupe")):
        problem = choice_problem(value, choices, argument)
        if problem is not None:
            raise BadArgumentError(problem, argument=argument)
    name = check_id(name, ID_NAMES["run"])
    if parsed_unit.kind == "chunk" and store.chunking(str(parsed_unit.chunking)) is None:
        raise BadArgumentError(
            f"no chunking named {parsed_unit.chunking!r}", argument="unit", hints=Hint("make_chunking")
        )
    exists = name in store.run_names()
    if exists and not replace:
        raise ConflictError(
            f"a run named {name!r} exists already; runs are immutable: import under a new name",
            hints=argument_hint("replace", why="to replace it"),
        )
    return parsed_unit, exists


def _store_rankings(
    store: Store,
    reader: RunReader,
    run_id: int,
    dedupe: str,
    known_topics: set[str] | None,
    ids: _IdCheck,
    progress: Progress | None,
) -> _Stored:
    """Each topic's ranking in canonical order, as the file gives them; a topic split in the file is merged."""
    stored = _Stored()
    for block in reader.blocks():
        if known_topics is not None and block.topic_id not in known_topics:
            stored.unknown_topics.setdefault(block.topic_id, block.first_line)
            continue
        if block.topic_id in stored.entries:
            previous = store.ranking(run_id, block.topic_id)
            assert previous is not None, "stored above, in this transaction"
            block = merge_blocks(_as_block(previous, block.first_line), block)
        ranking = _canonical(reader, block, dedupe)
        stored.dropped += ranking.dropped_duplicates
        store.put_ranking(run_id, ranking)
        stored.entries[block.topic_id] = len(ranking.units)
        ids.add(ranking.units)
        if progress:
            progress(reader.bytes_read(), reader.lines.size)
    ids.flush()
    return stored


def _canonical(reader: RunReader, block: RunBlock, dedupe: str) -> Ranking:
    """The block as trec_eval orders it; a repeated id is refused at its second line unless dropped."""
    try:
        return canonical_ranking(block, dedupe)
    except DuplicateUnit as dup:
        raise RunFormatError(
            f"duplicate id {dup.unit_id!r} in the ranking of topic {dup.topic_id!r}, which trec_eval refuses",
            path=reader.path,
            line=reader.find_line(dup.topic_id, dup.unit_id, occurrence=2),
            hints=argument_hint("dedupe", "first", why="to keep the first occurrence"),
        ) from None


def _refuse_unknown(
    store: Store, reader: RunReader, unit: Unit, stored: _Stored, ids: _IdCheck, *, allow_unknown: bool
) -> None:
    """Topics the workbench lacks, then unit ids its corpus or chunking lacks: the whole run is refused.

    With unknown ids allowed, only ids that are units of another space of the workbench are refused.
    """
    if allow_unknown:
        foreign = sorted(foreign_ids(store, str(unit), ids.missing))
        if foreign:
            found = reader.first_line_with_unit(set(foreign))
            refuse_foreign(store, str(unit), foreign, path=reader.path, line=found[0] if found else None)
        return
    if stored.unknown_topics:
        first = sorted(stored.unknown_topics, key=topic_sort_key)
        raise UnknownIdError(
            f"{plural(len(first), 'topic')} not in the workbench: {', '.join(first[:5])}"
            f"{' ...' if len(first) > 5 else ''}",
            path=reader.path,
            line=min(stored.unknown_topics.values()),
            hints=(Hint("import_topics"), argument_hint("allow_unknown", why="to accept them")),
        )
    if ids.missing:
        where = f"chunking {unit.chunking!r}" if unit.kind == "chunk" else "the corpus"
        found = reader.first_line_with_unit(ids.missing)
        examples = sorted(ids.missing)[:5]
        advice, hints = unknown_ids_advice(store, str(unit), ids.missing)
        raise UnknownIdError(
            f"{plural(len(ids.missing), 'id')} not in {where}, e.g. {', '.join(examples)}{advice}",
            path=reader.path,
            line=found[0] if found else None,
            hints=hints,
        )


def _finish_run(
    store: Store, reader: RunReader, run_id: int, stored: _Stored, *, dedupe: str, allow_unknown: bool
) -> None:
    """Seal the run: its counts, its policies and the hash of the bytes this import parsed."""
    policies: dict[str, Any] = {"dedupe": dedupe, "order": "score desc, id desc (trec_eval)"}
    if stored.dropped:
        policies["duplicates_dropped"] = stored.dropped
    if reader.extra_fields_lines:
        policies["lines_with_extra_fields_ignored"] = reader.extra_fields_lines
    if allow_unknown:
        policies["allow_unknown"] = True
    # The hash of the bytes this import parsed (read in the same pass), not of the file as it is now.
    source_sha256 = reader.lines.sha256
    if source_sha256 is None:
        raise LabelerError("the run was not read to its end", path=reader.path)
    store.finish_run(
        run_id,
        source_sha256=source_sha256,
        tags=sorted(reader.tags),
        topics=len(stored.entries),
        entries=sum(stored.entries.values()),
        max_depth=max(stored.entries.values(), default=0),
        policies=policies,
    )


def export_run(store: Store, name: str) -> Iterator[str]:
    """The run as 6-column TREC lines (`topic Q0 unit rank score tag`), tag = the run's name.

    Rankings come in their stored (canonical) order, topics in natural order, and
    each score as `repr(float)`, the shortest text that reads back to the same
    float: importing the file again stores the same rankings (same digest).
    Raises `NotFoundError` before the first line for an unknown run.
    """
    store.run(name)  # an unknown name fails here, not halfway through a written file
    topics = sorted(store.run_topics(name), key=topic_sort_key)
    return _trec_lines(store, name, topics)


def _trec_lines(store: Store, name: str, topics: list[str]) -> Iterator[str]:
    for ranking in store.iter_rankings(name, topics):
        for unit, score, rank in zip(ranking.units, ranking.scores, ranking.ranks, strict=True):
            yield f"{ranking.topic_id} Q0 {unit} {rank} {float(score)!r} {name}\n"


def retire_run(store: Store, name: str, *, reason: str = "") -> RunRetired:
    """Take a run out of the default run sets of pool build, eval, coverage and compare.

    The run is kept whole (its rankings, the pools it joined) and still used when named
    (`--runs`); retirement is an append-only row, so it is recorded once and never undone.
    """
    with store.transaction():
        newly = store.retire_run(name, retired=now(), reason=reason)
    retired, why = store.retirements()[name]
    return RunRetired(name=name, retired=retired, reason=why, already_retired=not newly)


def list_runs(store: Store) -> list[RunListed]:
    """Every run with the digest of its rankings and its retirement (None: in the defaults)."""
    retirements = store.retirements()
    return [
        RunListed.of(info, rankings_sha256=info.rankings_sha256, retired=_retired(retirements.get(info.name)))
        for info in store.runs()
    ]


def _retired(retirement: tuple[str, str] | None) -> Retirement | None:
    return Retirement(*retirement) if retirement else None


def parse_unit(text: str) -> Unit:
    """The unit space `text` names (`doc` or `chunk:NAME`); whether the chunking exists is the caller's to check."""
    unit = parsed_unit(text)
    if unit is None:
        raise BadArgumentError(str(unit_problem(text)), argument="unit")
    return unit


def _as_block(ranking: Ranking, first_line: int) -> RunBlock:
    """A stored ranking back as a block, to merge a topic whose lines stood apart in the file."""
    return RunBlock(ranking.topic_id, first_line, list(ranking.units), list(ranking.scores), list(ranking.ranks))
