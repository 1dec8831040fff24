"""Making a run with a retriever over the workbench's own corpus and topics.

The result is stored exactly like an imported run: every ranking goes through
`canonical_ranking` (score descending, ties by unit id descending), unit ids
are checked against the corpus or the chunking, and everything is written in
one transaction. The run's policies record the retriever, its parameters and
its version, so the run says how to make it again.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from labeler.errors import (
    BadArgumentError,
    ConflictError,
    Hint,
    LabelerError,
    UnknownIdError,
    argument_hint,
)
from labeler.formats.qrels import qrels_topic_key
from labeler.formats.runs import DuplicateUnit, Ranking, RunBlock, canonical_ranking
from labeler.ids import check_id, is_valid_id
from labeler.models import STAGES, RunInfo, Topic, Unit, topic_sort_key
from labeler.retrievers.registry import ChosenRetriever, make_retriever
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.runs import RunRetrieved, parse_unit
from labeler.workbench.setup import Progress, now

QUERY_FIELDS = ("title", "title+description")
ORDER = "score desc, id desc (trec_eval)"


@dataclass(frozen=True)
class RetrieveRequest:
    """What a retrieval is asked for, checked once when it is made (the checks that need no workbench).

    `retriever` names the retriever (with `params`); its top `depth` for the workbench's topics (or
    `topics`), queried by the `query` field, becomes run `name` at `stage`, in unit space `unit`;
    `replace` allows replacing a run of that name. `space` is `unit` parsed.
    """

    retriever: str
    name: str
    unit: str = "doc"
    depth: int = 100
    topics: Iterable[str] | None = None
    stage: str = "candidate"
    query: str = "title"
    params: dict[str, Any] | None = None
    replace: bool = False
    space: Unit = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "space", parse_unit(self.unit))
        if self.stage not in STAGES:
            raise BadArgumentError(f"must be one of {', '.join(STAGES)}, not {self.stage!r}", argument="stage")
        if self.query not in QUERY_FIELDS:
            raise BadArgumentError(
                f"must be one of {', '.join(QUERY_FIELDS)}, not {self.query!r}", argument="query_field"
            )
        depth = self.depth
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise BadArgumentError(f"must be a whole number 1 or more, not {depth!r}", argument="depth")
        object.__setattr__(self, "name", check_id(self.name, "run name"))


@dataclass(frozen=True)
class RetrieveTarget:
    """A request checked against the workbench: the unit space, whether the run replaces one, the topics to query."""

    unit: Unit
    replaces: bool
    topics: list[Topic]


def retrieve_run(store: Store, request: RetrieveRequest, progress: Progress | None = None) -> RunRetrieved:
    """Run the request's retriever for the workbench's topics (or its `topics`); store its top `depth` as a run."""
    name, depth, query = request.name, request.depth, request.query
    target = _check_request(store, request)
    chosen = make_retriever(request.retriever, request.params, full_text=store)
    rankings = _rankings(store, chosen, target, depth, query, progress)
    _record_run(store, name, request.stage, target, chosen, rankings, _policies(chosen, depth, query))
    stored = {ranking.topic_id for ranking in rankings}
    without = [t.topic_id for t in target.topics if t.topic_id not in stored]
    return RunRetrieved.of(
        store.run(name), replaced=target.replaces, retriever=chosen.name, topics_without_results=tuple(without)
    )


def _check_request(store: Store, request: RetrieveRequest) -> RetrieveTarget:
    """Refuse a request the workbench cannot take before any retriever runs: an index can take minutes to build."""
    name, parsed_unit = request.name, request.space
    exists = name in store.run_names()
    if exists and not request.replace:
        raise ConflictError(
            f"a run named {name!r} exists already; runs are immutable: retrieve under a new name",
            hints=argument_hint("replace", why="to replace it"),
        )
    if parsed_unit.kind == "chunk" and store.chunking(str(parsed_unit.chunking)) is None:
        raise BadArgumentError(
            f"no chunking named {parsed_unit.chunking!r}", argument="unit", hints=Hint("list_chunkings")
        )
    return RetrieveTarget(parsed_unit, exists, _chosen_topics(store, request.topics))


def _rankings(
    store: Store,
    chosen: ChosenRetriever,
    request: RetrieveTarget,
    depth: int,
    query: str,
    progress: Progress | None,
) -> list[Ranking]:
    """Each topic's top `depth` in canonical order, ids checked; topics with no result have no ranking."""
    if chosen.is_command:
        source_name: str | None = chosen.retriever.output_name
        blocks = _command_blocks(store, chosen, request.topics, request.unit, depth)
    else:
        source_name = None
        blocks = _search_blocks(store, chosen, request.topics, request.unit, depth, query, progress)
    rankings = [_cut(_canonical(block, chosen.name, source_name), depth) for block in blocks]
    rankings = [ranking for ranking in rankings if ranking.units]
    _check_units(store, request.unit, rankings, chosen.name, source_name)
    return rankings


# the run's stored policies document: its keys differ by retriever kind and its params are the retriever's own
def _policies(chosen: ChosenRetriever, depth: int, query: str) -> dict[str, Any]:
    """What the run records about how it was made, so it can be made again."""
    policies: dict[str, Any] = {
        "dedupe": "error",
        "order": ORDER,
        "retriever": chosen.name,
        "retriever_version": chosen.version,
        "retriever_params": chosen.params,
        "depth": depth,
    }
    if not chosen.is_command:
        policies["query"] = query
    elif chosen.retriever.extra_fields_lines:
        policies["lines_with_extra_fields_ignored"] = chosen.retriever.extra_fields_lines
    return policies


def _record_run(
    store: Store,
    name: str,
    stage: str,
    request: RetrieveTarget,
    chosen: ChosenRetriever,
    rankings: list[Ranking],
    policies: dict[str, Any],
) -> None:
    """Store the run in one transaction, replacing the old one of that name if asked."""
    # a command's run keeps the tags it printed; a run searched here is tagged with its own name
    tags = sorted(chosen.retriever.tags) if chosen.is_command else [name]
    stored = {ranking.topic_id: len(ranking.units) for ranking in rankings}
    with store.transaction():
        if request.replaces:
            store.delete_run(name)
        run_id = store.insert_run(
            RunInfo(name, request.unit, stage, f"retriever:{chosen.name}", "", (), 0, 0, 0, {}, now())
        )
        for ranking in rankings:
            store.put_ranking(run_id, ranking)
        store.finish_run(
            run_id,
            source_sha256=_rankings_sha256(rankings),
            tags=tags,
            topics=len(stored),
            entries=sum(stored.values()),
            max_depth=max(stored.values(), default=0),
            policies=policies,
        )


def _chosen_topics(store: Store, wanted: Iterable[str] | None) -> list[Topic]:
    """The topics to query: all of them, or the ones named, in topic order."""
    if store.topic_count() == 0:
        raise LabelerError("no topics: a retriever needs queries", hints=Hint("import_topics"))
    every = store.topics()
    if wanted is None:
        return every
    named = list(dict.fromkeys(t.strip() for t in wanted if t.strip()))
    if not named:
        raise BadArgumentError("names no topic", argument="topics")
    by_id = {topic.topic_id: topic for topic in every}
    unknown = [t for t in named if t not in by_id]
    if unknown:
        raise UnknownIdError(
            f"{plural(len(unknown), 'topic')} not in the workbench: {', '.join(unknown[:5])}"
            f"{' ...' if len(unknown) > 5 else ''}",
            hints=Hint("list_topics"),
        )
    return sorted((by_id[t] for t in named), key=lambda topic: topic_sort_key(topic.topic_id))


def query_text(topic: Topic, fields: str) -> str:
    """The query a retriever is given for a topic: its title, or title and description."""
    if fields == "title+description" and topic.description:
        return f"{topic.title} {topic.description}"
    return topic.title


def unit_texts(store: Store, unit: Unit) -> Iterator[tuple[str, str]]:
    """`(unit_id, text)` of every unit: a document's title and text, or a chunk's span of its document's text."""
    chunking = unit.chunking  # None for documents (`Unit.parse` gives every chunk space its chunking)
    if chunking is None:
        for doc_id, title, text in store.iter_document_texts():
            yield doc_id, "\n".join(part for part in (title, text) if part)
        return
    for chunk_id, start, end, text in store.iter_chunk_spans(chunking):
        if start is None or end is None:
            raise LabelerError(
                f"chunking {chunking!r} has chunks without offsets (imported or derived), so their text is "
                f"unknown, e.g. {chunk_id!r}: retrieve over a chunking labeler made from the corpus"
            )
        yield chunk_id, text[start:end]


def _search_blocks(
    store: Store,
    chosen: ChosenRetriever,
    topics: list[Topic],
    unit: Unit,
    depth: int,
    fields: str,
    progress: Progress | None,
) -> list[RunBlock]:
    if store.document_count() == 0:
        raise LabelerError(
            f"no corpus: retriever {chosen.name!r} searches the workbench's own corpus", hints=Hint("import_corpus")
        )
    retriever = chosen.retriever
    blocks = []
    try:
        retriever.index(unit_texts(store, unit))
        for done, topic in enumerate(topics, 1):
            hits = retriever.search(query_text(topic, fields), depth)
            blocks.append(_block(topic.topic_id, hits, chosen.name))
            if progress:
                progress(done, len(topics))
    except LabelerError:
        raise
    except Exception as exc:
        if chosen.builtin:
            raise
        # A plug-in can fail in any way; one line naming it serves better than its traceback.
        raise LabelerError(f"retriever {chosen.name!r} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        if chosen.uses_full_text:
            store.drop_unit_search()
    return blocks


def _block(topic_id: str, hits: Any, retriever: str) -> RunBlock:
    """A topic's hits as a run block, refusing what a run could not hold."""
    block = RunBlock(topic_id, 0)
    for rank, hit in enumerate(hits, 1):
        try:
            unit_id, score = hit
        except (TypeError, ValueError):
            unit_id, score = None, None
        valid_id = is_valid_id(unit_id)
        valid_score = isinstance(score, (int, float)) and not isinstance(score, bool) and math.isfinite(score)
        if not (valid_id and valid_score):
            raise LabelerError(
                f"retriever {retriever!r} returned {hit!r} for topic {topic_id!r}: "
                "expected (a unit id that obeys the id rule, finite score)"
            )
        block.units.append(unit_id)
        block.scores.append(float(score))
        block.ranks.append(rank)
    return block


def _command_blocks(
    store: Store, chosen: ChosenRetriever, topics: list[Topic], unit: Unit, depth: int
) -> list[RunBlock]:
    command = chosen.retriever
    blocks = command.blocks(topics, depth=depth, unit=str(unit), db=str(store.path))
    asked = {topic.topic_id for topic in topics}
    stray = sorted((b for b in blocks if b.topic_id not in asked), key=lambda b: b.first_line)
    if stray:
        raise UnknownIdError(
            f"topic {stray[0].topic_id!r} was not asked for (the command was given "
            f"{plural(len(asked), 'topic')} on stdin)",
            path=command.output_name,
            line=stray[0].first_line,
        )
    return sorted(blocks, key=lambda b: topic_sort_key(b.topic_id))


def _canonical(block: RunBlock, retriever: str, source: str | None) -> Ranking:
    try:
        return canonical_ranking(block, "error")
    except DuplicateUnit as dup:
        raise LabelerError(
            f"retriever {retriever!r} returned {dup.unit_id!r} twice for topic {dup.topic_id!r}", path=source
        ) from None


def _cut(ranking: Ranking, depth: int) -> Ranking:
    return Ranking(ranking.topic_id, ranking.units[:depth], ranking.scores[:depth], ranking.ranks[:depth])


def _check_units(store: Store, unit: Unit, rankings: list[Ranking], retriever: str, source: str | None) -> None:
    """Refuse unit ids the corpus (or the chunking) does not hold; a corpus-less workbench takes any (doc runs)."""
    chunking = unit.chunking  # None for documents
    if chunking is None and store.document_count() == 0:
        return
    ids = {unit_id for ranking in rankings for unit_id in ranking.units}
    missing = store.missing_documents(ids) if chunking is None else store.missing_chunks(chunking, ids)
    if missing:
        where = "the corpus" if chunking is None else f"chunking {chunking!r}"
        raise UnknownIdError(
            f"retriever {retriever!r} returned {plural(len(missing), 'id')} not in {where}, "
            f"e.g. {', '.join(missing[:5])}",
            path=source,
        )


def _rankings_sha256(rankings: list[Ranking]) -> str:
    """A digest of what was stored: the same retriever on the same workbench gives the same digest."""
    digest = hashlib.sha256()
    # topics in the frozen qrels order, not the display order: digests of runs stored before stay comparable
    for ranking in sorted(rankings, key=lambda r: qrels_topic_key(r.topic_id)):
        for unit_id, score in zip(ranking.units, ranking.scores, strict=True):
            digest.update(f"{ranking.topic_id}\t{unit_id}\t{score!r}\n".encode())
    return digest.hexdigest()
