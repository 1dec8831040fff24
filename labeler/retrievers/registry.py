"""From a `--retriever` value to a ready retriever: a registered built-in, an entry-point plug-in, or a command.

Built-ins register themselves in `labeler.retrievers.catalog.RETRIEVERS` (one
module and one `RETRIEVERS.register` each); plug-ins are Python entry points in
the group `labeler.retrievers`, each loading a class or callable that, called
with the run's parameters as keyword arguments, returns an object with
`index(units)` and `search(query, k)` (see `labeler.retrievers.base`). Both are
listed by `RETRIEVERS` (import it from here, which registers the built-ins),
which `--retriever`'s help and the docs read. Built-in names win over a plug-in
of the same name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# isort: off
# The built-in retrievers register themselves on import, in the order they are listed.
from labeler.retrievers import fts5, bm25s_retriever, ql  # noqa: F401

# isort: on
from labeler.errors import LabelerError
from labeler.external import PREFIX as COMMAND_PREFIX
from labeler.retrievers.catalog import GROUP, RETRIEVERS, FullTextIndex
from labeler.retrievers.command import CommandRetriever
from labeler.wording import alternatives

__all__ = [
    "COMMAND_PREFIX",
    "GROUP",
    "ChosenRetriever",
    "FullTextIndex",
    "RETRIEVERS",
    "make_retriever",
    "retrievers_help",
]


@dataclass(frozen=True)
class ChosenRetriever:
    """A retriever ready to run, with what the run records about it."""

    name: str
    version: str
    params: dict[str, Any]
    retriever: Any = field(repr=False)
    builtin: bool = False
    uses_full_text: bool = False

    @property
    def is_command(self) -> bool:
        return isinstance(self.retriever, CommandRetriever)


def retrievers_help() -> str:
    """'fts5 (BM25 by SQLite FTS5 ...), ..., or command:CMD': every registered retriever as one phrase."""
    named = [f"{kind.name} ({kind.description})" for kind in RETRIEVERS.values()]
    return alternatives([*named, f"{COMMAND_PREFIX}CMD (an external program: topics in, a run out)"])


def make_retriever(
    spec: str, params: dict[str, Any] | None = None, *, full_text: FullTextIndex | None = None
) -> ChosenRetriever:
    """Resolve `spec` and build the retriever with `params`; a `LabelerError` says what is wrong."""
    params = dict(params or {})
    if spec.startswith(COMMAND_PREFIX):
        if params:
            raise LabelerError("a command retriever takes no parameters: put them in its command line")
        command = CommandRetriever(spec[len(COMMAND_PREFIX) :])
        return ChosenRetriever(f"{COMMAND_PREFIX}{command.command}", command.version, command.params, command)
    kind = RETRIEVERS.get(spec)  # a built-in first, so naming one needs no entry-point scan
    retriever = kind.factory(params, full_text)
    recorded = getattr(retriever, "params", None)
    return ChosenRetriever(
        spec,
        str(getattr(retriever, "version", "") or _distribution_version(spec) or "unknown"),
        dict(recorded) if isinstance(recorded, dict) else params,
        retriever,
        builtin=kind.builtin,
        uses_full_text=kind.uses_full_text,
    )


def _distribution_version(name: str) -> str:
    """The version of the package that installed the plug-in `name`, for plug-ins that state none."""
    point = RETRIEVERS.entry_points().get(name)
    dist = getattr(point, "dist", None)
    return str(dist.version) if dist is not None else ""
