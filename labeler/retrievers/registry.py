"""From a `--retriever` value to a ready retriever: a built-in, an entry-point plug-in, or a command.

Plug-ins are Python entry points in the group `labeler.retrievers`: each
loads a class or callable that, called with the run's parameters as keyword
arguments, returns an object with `index(units)` and `search(query, k)` (see
`labeler.retrievers.base`). Built-in names win over a plug-in of the same name.
"""

from __future__ import annotations

import importlib.metadata
import inspect
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from labeler.errors import LabelerError
from labeler.retrievers.base import Hit, Units
from labeler.retrievers.command import PREFIX as COMMAND_PREFIX
from labeler.retrievers.command import CommandRetriever

GROUP = "labeler.retrievers"
BUILTINS = ("fts5", "bm25s", "ql")


class FullTextIndex(Protocol):
    """What the `fts5` retriever needs from the store (which holds the SQL)."""

    def build_unit_search(self, units: Units) -> int: ...

    def search_units(self, query: str, k: int) -> list[Hit]: ...

    def sqlite_version(self) -> str: ...


@dataclass(frozen=True)
class ChosenRetriever:
    """A retriever ready to run, with what the run records about it."""

    name: str
    version: str
    params: dict[str, Any]
    retriever: Any = field(repr=False)

    @property
    def is_command(self) -> bool:
        return isinstance(self.retriever, CommandRetriever)


def plugin_entry_points() -> dict[str, Any]:
    """Installed plug-ins by name (the entry point's name is the retriever's name)."""
    return {point.name: point for point in importlib.metadata.entry_points(group=GROUP)}


def retriever_names() -> list[str]:
    """The names `--retriever` accepts besides `command:CMD`."""
    return [*BUILTINS, *sorted(set(plugin_entry_points()) - set(BUILTINS))]


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
    if spec == "fts5":
        if params:
            raise LabelerError(
                f"retriever 'fts5' takes no parameters (SQLite fixes BM25's k1 and b), not {', '.join(sorted(params))}"
            )
        if full_text is None:
            raise ValueError("the fts5 retriever needs the store's full-text functions")
        from labeler.retrievers.fts5 import FTS5Retriever

        retriever = FTS5Retriever(full_text.build_unit_search, full_text.search_units, full_text.sqlite_version())
        return ChosenRetriever("fts5", retriever.version, retriever.params, retriever)
    if spec in ("ql", "bm25s"):
        retriever = _build(spec, _builtin_factory(spec), params)
        return ChosenRetriever(spec, retriever.version, retriever.params, retriever)
    plugins = plugin_entry_points()
    if spec not in plugins:
        raise LabelerError(
            f"unknown retriever {spec!r}: choose one of {', '.join(retriever_names())}, or command:'CMD ...'"
        )
    point = plugins[spec]
    try:
        factory = point.load()
    except Exception as exc:  # a plug-in's import can fail in any way; say which one
        raise LabelerError(f"retriever plug-in {spec!r} ({point.value}) failed to load: {exc}") from None
    retriever = _build(spec, factory, params)
    for method in ("index", "search"):
        if not callable(getattr(retriever, method, None)):
            raise LabelerError(f"retriever plug-in {spec!r} ({point.value}) has no {method}() method")
    dist = getattr(point, "dist", None)
    version = getattr(retriever, "version", "") or (dist.version if dist is not None else "") or "unknown"
    recorded = getattr(retriever, "params", None)
    return ChosenRetriever(spec, str(version), dict(recorded) if isinstance(recorded, dict) else params, retriever)


def _builtin_factory(name: str) -> Callable[..., Any]:
    if name == "ql":
        from labeler.retrievers.ql import QueryLikelihood

        return QueryLikelihood
    from labeler.retrievers.bm25s_retriever import BM25SRetriever

    return BM25SRetriever


def _build(name: str, factory: Callable[..., Any], params: dict[str, Any]) -> Any:
    """Call a retriever's factory with the run's parameters, turning refusals into clear errors."""
    try:
        signature = inspect.signature(factory)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        try:
            signature.bind(**params)
        except TypeError:
            known = [
                p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
            ]
            unknown = sorted(set(params) - set(known)) or sorted(params)
            takes = f"it takes {', '.join(known)}" if known else "it takes none"
            raise LabelerError(f"retriever {name!r} takes no parameter {', '.join(unknown)} ({takes})") from None
    try:
        return factory(**params)
    except (TypeError, ValueError) as exc:
        raise LabelerError(f"retriever {name!r}: {exc}") from None
