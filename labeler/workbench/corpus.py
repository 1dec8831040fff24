"""Importing documents and making chunkings (unit mappings)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from labeler.chunking import WINDOW_KINDS, ChunkHasher, chunk_document, validate_window
from labeler.errors import (
    BadArgumentError,
    ConflictError,
    Hint,
    LabelerError,
    NotFoundError,
    UnknownIdError,
    argument_hint,
)
from labeler.formats.corpus import detect_corpus_format, read_corpus
from labeler.formats.mappings import derive_mapping, read_mapping
from labeler.ids import InvalidIdError, check_id
from labeler.json_form import JsonResult
from labeler.models import Chunk, Chunking, Document, content_hash
from labeler.store import Store
from labeler.validation import choice_problem
from labeler.wording import plural
from labeler.workbench.setup import Progress, now

BATCH = 1000


@dataclass(frozen=True)
class CorpusImport(JsonResult):
    """`import_corpus`'s result: the file read, what it added, left and replaced, and what the change left stale.

    `stale_chunkings`: chunkings cut from a document text that has since changed (a new one is needed).
    """

    path: str
    format: str
    added: int
    unchanged: int
    updated: int
    documents: int
    stale_chunkings: tuple[str, ...]


@dataclass(frozen=True)
class ChunkingInfo(JsonResult):
    """A chunking as the workbench holds it: its kind and parameters, what it covers, and its hash."""

    name: str
    kind: str
    params: dict[str, str | int]
    documents: int
    chunks: int
    hash: str
    created: str

    @classmethod
    def of(cls, chunking: Chunking) -> ChunkingInfo:
        return cls(
            name=chunking.name,
            kind=chunking.kind,
            params=chunking.params,
            documents=chunking.documents,
            chunks=chunking.chunks,
            hash=chunking.hash,
            created=chunking.created,
        )


@dataclass(frozen=True)
class ChunkRow(JsonResult):
    """One chunk of a chunking with its text; offsets are None where the chunker did not give them.

    Its JSON form is its fields as they are (no renames, no nested values), so a stream of
    rows can be written from `vars(row)`, which is `to_json()` without its per-field rules.
    """

    chunk_id: str
    doc_id: str
    start: int | None
    end: int | None
    text: str | None


def import_corpus(
    store: Store, path: str | Path, *, update: bool = False, progress: Progress | None = None
) -> CorpusImport:
    """Stream documents into the workbench, all or nothing.

    The same content again is a no-op; changed content is refused unless
    `update`, and then recorded as a change so judgments of the old text can
    be re-queued.
    """
    import_id = now()
    counts = {"added": 0, "unchanged": 0, "updated": 0}
    fmt = detect_corpus_format(path)
    batch: list[tuple[int, Document]] = []

    def flush() -> None:
        existing = store.existing_documents([doc.doc_id for _, doc in batch])
        first_line: dict[str, int] = {}
        new: list[Document] = []
        for line, doc in batch:
            if doc.doc_id in first_line or existing.get(doc.doc_id, ("", ""))[1] == import_id:
                where = f" (first at line {first_line[doc.doc_id]})" if doc.doc_id in first_line else ""
                raise ConflictError(f"document {doc.doc_id!r} appears twice in this file{where}", path=path, line=line)
            first_line[doc.doc_id] = line
            previous = existing.get(doc.doc_id)
            if previous is None:
                new.append(doc)
                counts["added"] += 1
            elif previous[0] == doc.hash:
                counts["unchanged"] += 1
            elif update:
                store.replace_document(doc, previous[0], import_id, import_id, str(path))
                counts["updated"] += 1
            else:
                raise ConflictError(
                    f"document {doc.doc_id!r} already exists with different content",
                    path=path,
                    line=line,
                    hints=argument_hint("update", why="to replace it and put its judgments back in the queue"),
                )
        store.insert_documents(new, import_id)
        batch.clear()
        if progress:
            progress(sum(counts.values()), 0)

    with store.transaction():
        for line, document in read_corpus(path):
            batch.append((line, document))
            if len(batch) >= BATCH:
                flush()
        if batch:
            flush()
    stale = _chunkings_with_changed_documents(store) if counts["updated"] else []
    return CorpusImport(
        path=str(path),
        format=fmt,
        added=counts["added"],
        unchanged=counts["unchanged"],
        updated=counts["updated"],
        documents=store.document_count(),
        stale_chunkings=tuple(stale),
    )


def _chunkings_with_changed_documents(store: Store) -> list[str]:
    """Chunkings whose offsets were cut from a document text that has since changed."""
    return [
        c.name for c in store.chunkings() if c.kind in ("words", "sentences") and store.chunkings_changed_since(c.name)
    ]


def chunk_corpus(
    store: Store, name: str, *, size: int, overlap: int, by: str = "words", progress: Progress | None = None
) -> ChunkingInfo:
    """A new, immutable chunking of every document into word or sentence windows."""
    validate_window(size, overlap)
    problem = choice_problem(by, WINDOW_KINDS, "window kind")
    if problem is not None:
        raise BadArgumentError(problem, argument="by")
    total = store.document_count()
    if total == 0:
        raise LabelerError("the workbench has no documents", hints=Hint("import_corpus"))
    params: dict[str, str | int] = {"by": by, "size": size, "overlap": overlap}

    def chunks() -> Iterable[tuple[int, Chunk]]:
        for done, document in enumerate(store.iter_documents(), 1):
            yield from enumerate(chunk_document(document, size=size, overlap=overlap, by=by))
            if progress and done % 200 == 0:
                progress(done, total)

    chunking = _store_chunking(store, name, "words" if by == "words" else "sentences", params, chunks())
    if progress:
        progress(total, total)
    return ChunkingInfo.of(chunking)


def import_mapping(store: Store, path: str | Path, name: str, *, allow_unknown: bool = False) -> ChunkingInfo:
    """A chunking from an external chunker's mapping file (chunk id, doc id, offsets when known)."""
    params: dict[str, str | int] = {"source": Path(path).name}
    chunking = _store_chunking(
        store,
        name,
        "imported",
        params,
        _with_hashes(store, path, read_mapping(path)),
        path=path,
        allow_unknown=allow_unknown,
    )
    return ChunkingInfo.of(chunking)


def derive_chunking(
    store: Store, path: str | Path, name: str, *, separator: str = "#", allow_unknown: bool = False
) -> ChunkingInfo:
    """A chunking from chunk ids that name their parent (`PARENT#...`), read from a run, qrels or id list."""
    params: dict[str, str | int] = {"source": Path(path).name, "separator": separator}
    chunking = _store_chunking(
        store,
        name,
        "derived",
        params,
        _with_hashes(store, path, derive_mapping(path, separator)),
        path=path,
        allow_unknown=allow_unknown,
    )
    return ChunkingInfo.of(chunking)


def chunk_rows(store: Store, name: str) -> Iterator[ChunkRow]:
    """Every chunk of a chunking with its offsets and text, streamed.

    For an outside chunk retriever: it indexes these texts and returns chunk ids that
    `runs import --unit chunk:NAME` accepts. Raises `NotFoundError` before the first row
    for an unknown chunking (it is looked up eagerly).
    """
    if store.chunking(name) is None:
        raise NotFoundError(f"no chunking named {name!r}", hints=Hint("list_chunkings"))
    rows = store.iter_chunk_texts(name)
    return (ChunkRow(*row) for row in rows)


def list_chunkings(store: Store) -> list[ChunkingInfo]:
    """The workbench's chunkings, in the order they were made."""
    return [ChunkingInfo.of(c) for c in store.chunkings()]


def _with_hashes(store: Store, path: str | Path, rows: Iterable[tuple[int, Chunk]]) -> Iterable[tuple[int, Chunk, int]]:
    """(ordinal in its document, chunk, line): chunks with offsets get the hash of their text, offsets checked."""
    ordinals: dict[str, int] = {}
    texts: dict[str, str | None] = {}
    for line, chunk in rows:
        ordinal = ordinals.get(chunk.doc_id, 0)
        ordinals[chunk.doc_id] = ordinal + 1
        if chunk.start is not None and chunk.end is not None:
            if chunk.doc_id not in texts:
                document = store.document(chunk.doc_id)
                texts.clear()  # keep one document's text at a time
                texts[chunk.doc_id] = document.text if document else None
            text = texts[chunk.doc_id]
            if text is not None:
                if chunk.end > len(text):
                    raise LabelerError(
                        f"chunk {chunk.chunk_id!r} ends at {chunk.end}, past the end of document "
                        f"{chunk.doc_id!r} ({len(text)} characters)",
                        path=path,
                        line=line,
                    )
                chunk = Chunk(
                    chunk.chunk_id, chunk.doc_id, chunk.start, chunk.end, content_hash(text[chunk.start : chunk.end])
                )
        yield ordinal, chunk, line


def check_chunking_name(name: str, what: str = "chunking name", *, path: str | None = None) -> str:
    """A chunking name obeys the id rule and holds no ':', which separates it in a unit space (`chunk:NAME`)."""
    name = check_id(name, what, path=path)
    if ":" in name:
        raise InvalidIdError(f"{what} {name!r} may not hold ':' (a unit space is written chunk:NAME)", path=path)
    return name


def _store_chunking(
    store: Store,
    name: str,
    kind: str,
    params: dict[str, str | int],
    rows: Iterable,
    *,
    path: str | Path | None = None,
    allow_unknown: bool = False,
) -> Chunking:
    """Write a chunking and its chunks in one transaction; the chunking row comes last, with the hash."""
    check_chunking_name(name)
    if store.chunking(name) is not None:
        raise ConflictError(f"a chunking named {name!r} exists already; chunkings are never edited, choose a new name")
    check_documents = store.document_count() > 0 and not allow_unknown
    hasher = ChunkHasher(kind, params)
    count = 0
    with store.transaction():
        chunking_id = store.next_chunking_id()
        pending: list[tuple[int, Chunk]] = []
        first_line: dict[str, int] = {}

        def flush() -> None:
            if check_documents:
                missing = store.missing_documents({c.doc_id for _, c in pending})
                if missing:
                    raise UnknownIdError(
                        f"{plural(len(missing), 'parent document')} not in the corpus, e.g. {', '.join(missing[:5])}",
                        path=path,
                        line=first_line.get(missing[0]),
                        hints=argument_hint("allow_unknown", why="to accept them"),
                    )
            store.insert_chunks(chunking_id, pending)
            pending.clear()
            first_line.clear()

        for row in rows:
            ordinal, chunk = row[0], row[1]
            if len(row) > 2:
                first_line.setdefault(chunk.doc_id, row[2])
            hasher.add(chunk)
            count += 1
            pending.append((ordinal, chunk))
            if len(pending) >= 5000:
                flush()
        flush()
        if count == 0:
            raise LabelerError("no chunks to store", path=path)
        documents = store.chunk_documents(chunking_id)
        chunking = Chunking(name, kind, params, hasher.hexdigest(), now(), documents, count)
        store.insert_chunking(chunking, chunking_id=chunking_id)
    return chunking
