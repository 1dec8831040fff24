"""The retrievers `--retriever` may name, as one registry that built-ins and plug-ins join alike.

A built-in retriever registers itself at the end of its own module
(`RETRIEVERS.register(name, RetrieverKind(name, ...))`), and the installed
`labeler.retrievers` entry points join the same registry as plug-ins, so the
choices, `runs retrieve --help` and the docs' table of retrievers are read from
here and none of them names a retriever. A kind's factory is called only when
a run is made, so the registry imports no numeric library.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from labeler.errors import LabelerError
from labeler.external import PREFIX as COMMAND_PREFIX
from labeler.registry import Registry
from labeler.retrievers.base import Hit, Units


class FullTextIndex(Protocol):
    """What a retriever searching in SQLite (`fts5`) needs from the store, which holds the SQL."""

    def build_unit_search(self, units: Units) -> int: ...

    def search_units(self, query: str, k: int) -> list[Hit]: ...

    def sqlite_version(self) -> str: ...


Factory = Callable[[dict[str, Any], "FullTextIndex | None"], Any]
"""(the run's parameters, the store's full-text functions) -> a retriever with `index` and `search`."""


@dataclass(frozen=True)
class RetrieverKind:
    """A registered retriever: its name, what it is and takes (for `--help` and the docs), and its factory.

    `parameters` says in words which `--param` keys it takes and their
    defaults; `uses_full_text` kinds build the store's temporary full-text
    index, dropped when the run is made; `builtin` kinds raise their own
    errors, a plug-in's failures are reported in one line naming it.
    """

    name: str
    description: str
    parameters: str
    factory: Factory
    builtin: bool = True
    uses_full_text: bool = False


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


GROUP = "labeler.retrievers"

RETRIEVERS: Registry[RetrieverKind] = Registry(
    "retriever",
    argument="retriever",
    other=f"{COMMAND_PREFIX}'CMD ...'",
    plugins=GROUP,
    plugin=_plugin_kind,
)
"""Every retriever `--retriever` names: the built-ins (`RETRIEVERS.register(name, RetrieverKind(name, ...))`)
in registration order, then the `labeler.retrievers` entry points by name."""


def build_with_params(name: str, factory: Callable[..., Any], params: dict[str, Any]) -> Any:
    """Call a retriever class or function with the run's parameters, turning refusals into clear errors."""
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
