"""One registry type for every extension point: judging orders, pooling strategies, measure families,
run formats, retrievers and model judges.

Each extension point is one `Registry` instance with the same verbs: `register(name, value)` (or
`@register(name, ...)` on a function), `get(name)`, `names()`, `values()`, `name in registry` and, for
tests that register a toy entry, `unregister(name)`. The front ends' choices, help and the docs'
tables read the registry, so none of them names an entry.

A registry that takes plug-ins (`plugins="labeler.retrievers"`) also lists the Python entry points of
that group, after its built-ins and by name; `plugin` turns an entry point into a value, loading
nothing until the value is used. Built-in names win over a plug-in's, and the entry points are read
only when a name is not a built-in or every name is asked for: importing `importlib.metadata` and
scanning the installed distributions costs tens of milliseconds that naming a built-in need not pay.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar, overload

from labeler.errors import BadArgumentError, LabelerError

T = TypeVar("T")
F = TypeVar("F")


class Registry(Generic[T]):
    """The entries of one extension point, in registration order, and the plug-ins of its entry-point group.

    `kind` names an entry in messages ("judging order"); an unknown name is refused naming the kind and
    every known name, as a `BadArgumentError` for `argument` when one is given, and with `other`
    ("command:'CMD ...'") offered after the names when the extension point takes more than names.
    `build(name, decorated, **details)` makes the value when `register` is used as a decorator;
    `check(value)` runs with the value registered and, by raising, refuses it (it is then removed).
    """

    def __init__(
        self,
        kind: str,
        *,
        argument: str | None = None,
        other: str = "",
        build: Callable[..., T] | None = None,
        check: Callable[[T], None] | None = None,
        plugins: str | None = None,
        plugin: Callable[[Any], T] | None = None,
    ) -> None:
        if (plugins is None) != (plugin is None):
            raise ValueError("a registry taking plug-ins names their entry-point group and how to make one")
        self.kind = kind
        self.argument = argument
        self.other = other
        self.plugins = plugins
        self._build = build
        self._check = check
        self._plugin = plugin
        self._entries: dict[str, T] = {}

    @overload
    def register(self, name: str, value: T) -> T: ...

    @overload
    def register(self, name: str, value: None = None, **details: Any) -> Callable[[F], F]: ...

    def register(self, name: str, value: T | None = None, **details: Any) -> T | Callable[[F], F]:
        """Add `value` as `name`, refused if the name is taken or `check` refuses it.

        Without a value, a decorator: the decorated object (or what `build` makes of it and `details`)
        is registered, and the decorated object is returned unchanged.
        """
        if value is not None:
            self._add(name, value)
            return value

        def decorate(decorated: F) -> F:
            if self._build is None:
                if details:
                    raise TypeError(f"{self.kind} registrations take no details: {', '.join(details)}")
                self._add(name, decorated)  # type: ignore[arg-type]  # without build, the decorated object is the value
            else:
                self._add(name, self._build(name, decorated, **details))
            return decorated

        return decorate

    def _add(self, name: str, value: T) -> None:
        if name in self._entries:
            raise ValueError(f"{self.kind} {name!r} is already registered")
        self._entries[name] = value
        if self._check is not None:
            try:
                self._check(value)
            except Exception:
                del self._entries[name]
                raise

    def unregister(self, name: str) -> None:
        """Remove a registered entry (for tests that register a toy one)."""
        del self._entries[name]

    def get(self, name: str) -> T:
        """The entry `name`, a built-in first, else a plug-in; an unknown name is refused naming the known ones."""
        value = self._entries.get(name)
        if value is None and self._plugin is not None:
            point = self.entry_points().get(name)
            value = self._plugin(point) if point is not None else None
        if value is None:
            raise self._unknown(name)
        return value

    def _unknown(self, name: str) -> LabelerError:
        reason = f"unknown {self.kind} {name!r}: choose one of {', '.join(self.names())}"
        if self.other:
            reason += f", or {self.other}"
        if self.argument is not None:
            return BadArgumentError(reason, argument=self.argument)
        return LabelerError(reason)

    def names(self) -> tuple[str, ...]:
        """The built-ins' names in registration order, then the plug-ins' by name."""
        return (*self._entries, *self._plugin_names())

    def values(self, *, plugins: bool = True) -> tuple[T, ...]:
        """The built-ins in registration order, then (unless `plugins` is false) the plug-ins by name."""
        builtins = tuple(self._entries.values())
        if not plugins or self._plugin is None:
            return builtins
        points = self.entry_points()
        return builtins + tuple(self._plugin(points[name]) for name in self._plugin_names(points))

    def __contains__(self, name: object) -> bool:
        return name in self._entries or (self.plugins is not None and name in self.entry_points())

    def entry_points(self) -> dict[str, Any]:
        """The installed plug-ins' entry points by name, read on each call (none without an entry-point group)."""
        if self.plugins is None:
            return {}
        import importlib.metadata

        return {point.name: point for point in importlib.metadata.entry_points(group=self.plugins)}

    def _plugin_names(self, points: dict[str, Any] | None = None) -> list[str]:
        if self.plugins is None:
            return []
        return sorted(set(self.entry_points() if points is None else points) - set(self._entries))
