"""The retrievers `--retriever` may name, as one registry that built-ins and plug-ins join alike.

A built-in retriever registers itself at the end of its own module
(`register_retriever(RetrieverKind(...))`), and `labeler.retrievers.registry`
adds the installed `labeler.retrievers` entry points to the same list, so the
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


_BUILTINS: dict[str, RetrieverKind] = {}


def register_retriever(kind: RetrieverKind) -> RetrieverKind:
    """Add a built-in retriever (refused if its name is taken)."""
    if kind.name in _BUILTINS:
        raise ValueError(f"retriever {kind.name!r} is already registered")
    _BUILTINS[kind.name] = kind
    return kind


def unregister_retriever(name: str) -> None:
    """Remove a registered retriever (for tests that register a toy one)."""
    del _BUILTINS[name]


def builtin_retrievers() -> tuple[RetrieverKind, ...]:
    """The registered built-in retrievers, in registration order."""
    return tuple(_BUILTINS.values())


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
