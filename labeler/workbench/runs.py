"""Importing and listing runs."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from labeler.errors import ConflictError, LabelerError, RunFormatError, UnknownIdError
from labeler.formats.runs import (
    DEDUPE_POLICIES,
    DuplicateUnit,
    Ranking,
    RunBlock,
    RunReader,
    canonical_ranking,
    merge_blocks,
)
from labeler.ids import check_id
from labeler.models import STAGES, RunInfo, Unit, topic_sort_key
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.setup import Progress, now
from labeler.workbench.unknown import unknown_ids_advice

ID_CHECK_BATCH = 100_000


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
) -> dict[str, Any]:
    """Validate and store a ranked run, all or nothing, one topic at a time.

    Topics and unit ids are checked against the workbench when it has topics,
    a corpus or (for chunk units) the chunking; a workbench without them takes
    the ids it is given (evaluation-only use).
    """
    path = Path(path)
    parsed_unit = parse_unit(unit)
    if stage not in STAGES:
        raise LabelerError(f"stage must be one of {', '.join(STAGES)}, not {stage!r}")
    if dedupe not in DEDUPE_POLICIES:
        raise LabelerError(f"--dedupe must be one of {', '.join(DEDUPE_POLICIES)}, not {dedupe!r}")
    check_id(name, "run name")
    if parsed_unit.kind == "chunk" and store.chunking(parsed_unit.chunking) is None:
        raise LabelerError(
            f"no chunking named {parsed_unit.chunking!r}: make it with 'labeler corpus chunk', "
            "'labeler corpus mapping import' or 'labeler corpus mapping derive'"
        )
    exists = name in store.run_names()
    if exists and not replace:
        raise ConflictError(
            f"a run named {name!r} exists already; runs are immutable: import under a new name or pass --replace"
        )

    reader = RunReader(path)
    known_topics = None if allow_unknown or store.topic_count() == 0 else store.topic_ids()
    check_ids = not allow_unknown and (parsed_unit.kind == "chunk" or store.document_count() > 0)
    total_size = reader.lines.size
    stored: dict[str, int] = {}  # topic -> entries, for stats and to merge split topics
    dropped = 0
    pending_ids: set[str] = set()
    unknown_topics: dict[str, int] = {}

    missing_ids: set[str] = set()

    def check_pending() -> None:
        if not pending_ids:
            return
        if parsed_unit.kind == "chunk":
            missing = store.missing_chunks(parsed_unit.chunking, pending_ids)
        else:
            missing = store.missing_documents(pending_ids)
        pending_ids.clear()
        missing_ids.update(missing)

    with store.transaction():
        if exists:
            store.delete_run(name)
        run_id = store.insert_run(RunInfo(name, parsed_unit, stage, str(path), "", (), 0, 0, 0, {}, now()))
        for block in reader.blocks():
            if known_topics is not None and block.topic_id not in known_topics:
                unknown_topics.setdefault(block.topic_id, block.first_line)
                continue
            if block.topic_id in stored:
                previous = store.ranking(run_id, block.topic_id)
                block = merge_blocks(_as_block(previous, block.first_line), block)
            try:
                ranking = canonical_ranking(block, dedupe)
            except DuplicateUnit as dup:
                line = reader.find_line(dup.topic_id, dup.unit_id, occurrence=2)
                raise RunFormatError(
                    f"duplicate id {dup.unit_id!r} in the ranking of topic {dup.topic_id!r} "
                    "(trec_eval refuses this; pass --dedupe first to keep the first occurrence)",
                    path=path,
                    line=line,
                ) from None
            dropped += ranking.dropped_duplicates
            store.put_ranking(run_id, ranking)
            stored[block.topic_id] = len(ranking.units)
            if check_ids:
                pending_ids.update(ranking.units)
                if len(pending_ids) >= ID_CHECK_BATCH:
                    check_pending()
            if progress:
                progress(reader.bytes_read(), total_size)
        if unknown_topics:
            first = sorted(unknown_topics, key=topic_sort_key)
            raise UnknownIdError(
                f"{plural(len(first), 'topic')} not in the workbench: {', '.join(first[:5])}"
                f"{' ...' if len(first) > 5 else ''} (import them with 'labeler topics import', "
                "or pass --allow-unknown)",
                path=path,
                line=min(unknown_topics.values()),
            )
        check_pending()
        if missing_ids:
            where = f"chunking {parsed_unit.chunking!r}" if parsed_unit.kind == "chunk" else "the corpus"
            found = reader.first_line_with_unit(missing_ids)
            examples = sorted(missing_ids)[:5]
            raise UnknownIdError(
                f"{plural(len(missing_ids), 'id')} not in {where}, e.g. {', '.join(examples)} "
                + unknown_ids_advice(store, str(parsed_unit), missing_ids),
                path=path,
                line=found[0] if found else None,
            )
        policies = {"dedupe": dedupe, "order": "score desc, id desc (trec_eval)"}
        if dropped:
            policies["duplicates_dropped"] = dropped
        if reader.extra_fields_lines:
            policies["lines_with_extra_fields_ignored"] = reader.extra_fields_lines
        if allow_unknown:
            policies["allow_unknown"] = True
        # The hash of the bytes this import parsed (read in the same pass), not of the file as it is now.
        source_sha256 = reader.lines.sha256
        if source_sha256 is None:
            raise LabelerError("the run was not read to its end", path=path)
        store.finish_run(
            run_id,
            source_sha256=source_sha256,
            tags=sorted(reader.tags),
            topics=len(stored),
            entries=sum(stored.values()),
            max_depth=max(stored.values(), default=0),
            policies=policies,
        )
    if progress:
        progress(total_size, total_size)
    return run_result(store.run(name), lines=reader.line_count, replaced=exists)


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


def retire_run(store: Store, name: str, *, reason: str = "") -> dict[str, Any]:
    """Take a run out of the default run sets of pool build, eval, coverage and compare.

    The run is kept whole (its rankings, the pools it joined) and still used when named
    (`--runs`); retirement is an append-only row, so it is recorded once and never undone.
    """
    with store.transaction():
        newly = store.retire_run(name, retired=now(), reason=reason)
    retired, why = store.retirements()[name]
    return {"name": name, "retired": retired, "reason": why, "already_retired": not newly}


def list_runs(store: Store) -> list[dict[str, Any]]:
    retirements = store.retirements()
    return [run_result(info, retired=_retired(retirements.get(info.name))) for info in store.runs()]


def _retired(retirement: tuple[str, str] | None) -> dict[str, str] | None:
    return {"time": retirement[0], "reason": retirement[1]} if retirement else None


def parse_unit(text: str) -> Unit:
    try:
        return Unit.parse(text)
    except ValueError as exc:
        raise LabelerError(str(exc)) from None


def _as_block(ranking: Ranking, first_line: int) -> RunBlock:
    """A stored ranking back as a block, to merge a topic whose lines stood apart in the file."""
    return RunBlock(ranking.topic_id, first_line, list(ranking.units), list(ranking.scores), list(ranking.ranks))


def run_result(info: RunInfo, **extra: Any) -> dict[str, Any]:
    return {
        "name": info.name,
        "unit": str(info.unit),
        "stage": info.stage,
        "topics": info.topics,
        "entries": info.entries,
        "depth": info.max_depth,
        "tags": list(info.tags),
        "policies": info.policies,
        "source": info.source,
        "source_sha256": info.source_sha256,
        "imported": info.imported,
        **extra,
    }
