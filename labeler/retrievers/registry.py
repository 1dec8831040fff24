"""From a `--retriever` value to a ready retriever: a registered built-in, an entry-point plug-in, or a command.

Built-ins register themselves in `labeler.retrievers.catalog` (one module and
one `register_retriever` each); plug-ins are Python entry points in the group
`labeler.retrievers`, each loading a class or callable that, called with the
run's parameters as keyword arguments, returns an object with `index(units)`
and `search(query, k)` (see `labeler.retrievers.base`). Both are listed by
`retriever_kinds()`, which `--retriever`'s help and the docs read. Built-in
names win over a plug-in of the same name.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# isort: off
# The built-in retrievers register themselves on import, in the order they are listed.
from labeler.retrievers import fts5, bm25s_retriever, ql  # noqa: F401

# isort: on
from labeler.errors import BadArgumentError, LabelerError
from labeler.external import PREFIX as COMMAND_PREFIX
from labeler.retrievers.catalog import FullTextIndex, RetrieverKind, build_with_params, builtin_retrievers
from labeler.retrievers.command import CommandRetriever
from labeler.wording import alternatives

__all__ = [
    "COMMAND_PREFIX",
    "GROUP",
    "ChosenRetriever",
    "FullTextIndex",
    "make_retriever",
    "retriever_kinds",
    "retriever_names",
    "retrievers_help",
]

GROUP = "labeler.retrievers"


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


def plugin_entry_points() -> dict[str, Any]:
    """Installed plug-ins by name (the entry point's name is the retriever's name).

    Read on each call, never at import: importing `importlib.metadata` and scanning every installed
    distribution costs tens of milliseconds that a command naming a built-in retriever need not pay.
    """
    import importlib.metadata

    return {point.name: point for point in importlib.metadata.entry_points(group=GROUP)}


def retriever_kinds() -> tuple[RetrieverKind, ...]:
    """Every retriever `--retriever` names: the built-ins in registration order, then the plug-ins by name."""
    builtins = builtin_retrievers()
    taken = {kind.name for kind in builtins}
    plugins = plugin_entry_points()
    return builtins + tuple(_plugin_kind(plugins[name]) for name in sorted(set(plugins) - taken))


def retriever_names() -> list[str]:
    """The names `--retriever` accepts besides `command:CMD`."""
    return [kind.name for kind in retriever_kinds()]


def retrievers_help() -> str:
    """'fts5 (BM25 by SQLite FTS5 ...), ..., or command:CMD': every registered retriever as one phrase."""
    named = [f"{kind.name} ({kind.description})" for kind in retriever_kinds()]
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
    # A built-in wins over a plug-in of its name, so naming one needs no entry-point scan.
    kind = next((kind for kind in builtin_retrievers() if kind.name == spec), None)
    if kind is None:
        kinds = {kind.name: kind for kind in retriever_kinds()}
        if spec not in kinds:
            raise BadArgumentError(
                f"unknown retriever {spec!r}: choose one of {', '.join(kinds)}, or {COMMAND_PREFIX}'CMD ...'",
                argument="retriever",
            )
        kind = kinds[spec]
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
    point = plugin_entry_points().get(name)
    dist = getattr(point, "dist", None)
    return str(dist.version) if dist is not None else ""


def _plugin_kind(point: Any) -> RetrieverKind:
    """An entry point as a registered retriever; it is loaded only when a run is made."""

    def load_and_build(params: dict[str, Any], full_text: FullTextIndex | None) -> Any:
        try:
            factory = point.load()
        except Exception as exc:  # a plug-in's import can fail in any way; say which one
            raise LabelerError(f"retriever plug-in {point.name!r} ({point.value}) failed to load: {exc}") from None
        retriever = build_with_params(point.name, factory, params)
        for method in ("index", "search"):
            if not callable(getattr(retriever, method, None)):
                raise LabelerError(f"retriever plug-in {point.name!r} ({point.value}) has no {method}() method")
        return retriever

    return RetrieverKind(
        point.name,
        description=f"plug-in {point.value}",
        parameters="its keyword arguments",
        factory=load_and_build,
        builtin=False,
    )
