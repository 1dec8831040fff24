"""Errors that users see.

Every expected failure is a `LabelerError`: the CLI prints it as
``Error: file:line: reason`` and exits 1, in one place, without a traceback.
Keeping the location in structured fields (not baked into the message) lets
the TUI show the same error in a notification and tests match on parts.
"""

from __future__ import annotations

from pathlib import Path


class LabelerError(Exception):
    """An expected error: bad data, a failed check, or an impossible request."""

    def __init__(self, reason: str, *, path: str | Path | None = None, line: int | None = None):
        self.reason = reason
        self.path = str(path) if path is not None else None
        self.line = line
        super().__init__(self.location_message())

    def location_message(self) -> str:
        """`file:line: reason`, leaving out what is unknown."""
        parts = []
        if self.path is not None:
            parts.append(self.path)
            if self.line is not None:
                parts.append(str(self.line))
        prefix = ":".join(parts)
        return f"{prefix}: {self.reason}" if prefix else self.reason


class FormatError(LabelerError):
    """A file that cannot be read as the format it claims to be."""


class RunFormatError(FormatError):
    """A TREC or JSONL run that is malformed."""


class TopicFormatError(FormatError):
    """A topics file that is malformed."""


class CorpusFormatError(FormatError):
    """A corpus file that is malformed."""


class MappingFormatError(FormatError):
    """A chunk mapping file that is malformed."""


class QrelsFormatError(FormatError):
    """A qrels file that is malformed."""


class ScaleFormatError(FormatError):
    """A grade scale file or name that is not valid."""


class UnknownIdError(LabelerError):
    """Ids (topics, documents, chunks) that the workbench does not know."""


class ConflictError(LabelerError):
    """A request that conflicts with what the workbench already holds."""


class NotFoundError(LabelerError):
    """A named thing (run, chunking, pool, snapshot) that does not exist."""


class SchemaVersionError(LabelerError):
    """A workbench written by a newer labeler, or not a labeler workbench at all."""
