"""Digests of stored rows, recorded when they are written and recomputed by `labeler check`.

A run records the SHA-256 of its source file, which says nothing about the
rankings stored from it, and an imported chunking's hash follows the order of
the mapping file, which is not stored. These digests are over the rows as
stored, in key order, so they can always be recomputed from the file alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeAlias

if TYPE_CHECKING:
    from sqlite_utils import Database

    from labeler.store.connection import Connection

    SQL: TypeAlias = Connection | Database
    """The store's connection, or the sqlite-utils Database a migration is given."""


def rankings_sha256(db: SQL, run_id: int) -> str:
    """SHA-256 over one run's stored rankings (topic, unit ids, packed scores and ranks), in key order."""
    return _rows_sha256(
        db, "SELECT topic_id, units, scores, ranks FROM run_rankings WHERE run_id = ? ORDER BY topic_id", [run_id]
    )


def chunks_sha256(db: SQL, chunking_id: int) -> str:
    """SHA-256 over one chunking's stored chunks (id, parent, ordinal, offsets, content hash), in key order."""
    return _rows_sha256(
        db,
        "SELECT chunk_id, doc_id, ordinal, start, end, hash FROM chunks WHERE chunking_id = ? ORDER BY chunk_id",
        [chunking_id],
    )


def _rows_sha256(db: SQL, sql: str, params: list[Any]) -> str:
    """Each row's Python repr (unambiguous for text, integers, bytes and None), one a line."""
    import hashlib  # OpenSSL loads when a digest is made, not with the store

    digest = hashlib.sha256()
    cursor = db.conn.execute(sql, params)
    # Row by row, a few rows fetched at a time: a run's row is a whole topic's ranking (tens of KB,
    # more as its repr), so joining thousands of them held tens of MB at the end of every import.
    while rows := cursor.fetchmany(64):
        for row in rows:
            digest.update(repr(tuple(row)).encode())
            digest.update(b"\n")
    return digest.hexdigest()


def event_link(previous: bytes, values: list[Any] | tuple[Any, ...]) -> bytes:
    """The log's chain: 16 bytes of SHA-256 over the previous event's link and this event's fields.

    Each event's link covers every field as written (not `seq`, not the link) and,
    through `previous`, every event before it in local order; so an event changed
    behind the guards, or one removed or slipped in between, breaks the chain at
    the next link `labeler check` recomputes. The fields' repr is unambiguous for
    text, integers and None.

    The fields added with model labels (`probs`, `shown_model`, after the 19 the
    chain first covered) are hashed only when one of them is not None: an event
    without them hashes exactly as it did before they existed, so the links of
    every event written earlier (and of every later event that carries neither)
    stay what they were, and `check` needs no rewrite of the chain. An event that
    has either one hashes all 21 fields, so neither can be changed or dropped
    unseen; the tuple's length keeps the two forms apart. The field added with blind
    overlap (`shown_others`, the 22nd) is hashed the same way: only when it is not None.
    """
    import hashlib

    fields = tuple(values)
    if len(fields) == CHAIN_FIELDS + 3 and fields[CHAIN_FIELDS + 2] is None:
        fields = fields[: CHAIN_FIELDS + 2]
    if len(fields) == CHAIN_FIELDS + 2 and fields[CHAIN_FIELDS] is None and fields[CHAIN_FIELDS + 1] is None:
        fields = fields[:CHAIN_FIELDS]
    return hashlib.sha256(previous + repr(fields).encode("utf-8", "surrogatepass")).digest()[:16]


CHAIN_FIELDS = 19
"""How many fields the chain covered before model labels: hashed alone when the later ones are all None."""


def link_rows(previous: bytes, rows: list[list[Any]]) -> bytes:
    """Append to each row (all 22 chained fields, in order) its `event_link`, from `previous`; the last link.

    The same links as calling `event_link` row after row, in one loop that makes
    nothing per row beyond the fields' repr and the digest: a bulk append links
    hundreds of thousands of events.
    """
    import hashlib

    sha256 = hashlib.sha256
    model, others = CHAIN_FIELDS, CHAIN_FIELDS + 2
    for row in rows:
        if row[others] is not None:
            fields = tuple(row[: others + 1])
        elif row[model] is None and row[model + 1] is None:
            fields = tuple(row[:model])
        else:
            fields = tuple(row[:others])
        previous = sha256(previous + repr(fields).encode("utf-8", "surrogatepass")).digest()[:16]
        row.append(previous)
    return previous


def text_sha256(text: str) -> str:
    """SHA-256 of text as UTF-8 (the grade scale's JSON as stored in `meta`)."""
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


SEAL = "seal"
"""The manifest key (and `snapshots` column) of a snapshot's seal: `manifest_sha256` of the rest of its manifest."""


def manifest_sha256(manifest: Mapping[str, Any]) -> str:
    """SHA-256 of a snapshot manifest's canonical JSON, its own `seal` left out.

    Canonical: keys sorted at every level, no spaces, non-ASCII escaped; so the
    text a manifest was stored as (and the order its topics were read back in)
    does not matter, and any value changed in it (a review status, a count, the
    parent, the log head) gives another hash.
    """
    import hashlib
    import json

    body = {key: value for key, value in manifest.items() if key != SEAL}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()
