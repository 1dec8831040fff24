"""The one registry type behind every extension point: the same verbs, refusals and plug-in lookup for all."""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass

import pytest

from labeler.errors import BadArgumentError, LabelerError
from labeler.judges.registry import JUDGES
from labeler.ordering import ORDERS
from labeler.pooling import STRATEGIES
from labeler.registry import Registry
from labeler.retrievers.registry import RETRIEVERS

GROUP = "labeler.tests.toys"


@dataclass(frozen=True)
class Toy:
    name: str
    size: int = 0
    function: object = None


def toys(**options) -> Registry[Toy]:
    return Registry("toy", **options)


@pytest.fixture
def installed(monkeypatch):
    """installed(name=value, ...) makes fake entry points of GROUP the installed plug-ins."""

    def install(**points: str) -> None:
        found = [importlib.metadata.EntryPoint(name, value, GROUP) for name, value in points.items()]
        original = importlib.metadata.entry_points
        monkeypatch.setattr(
            importlib.metadata,
            "entry_points",
            lambda **selection: found if selection.get("group") == GROUP else original(**selection),
        )

    return install


def test_register_get_names_values_and_in():
    registry = toys()
    assert registry.register("b", Toy("b", 2)) == Toy("b", 2)
    registry.register("a", Toy("a", 1))
    assert registry.names() == ("b", "a")  # registration order, not sorted
    assert registry.values() == (Toy("b", 2), Toy("a", 1))
    assert registry.get("a") == Toy("a", 1)
    assert "a" in registry and "c" not in registry and 3 not in registry
    registry.unregister("b")
    assert registry.names() == ("a",) and "b" not in registry


def test_as_a_decorator_it_registers_the_object_or_what_build_makes_of_it():
    plain: Registry[object] = Registry("function")

    @plain.register("double")
    def double(x: int) -> int:
        return 2 * x

    assert plain.get("double") is double and double(2) == 4

    built = toys(build=lambda name, function, **details: Toy(name, function=function, **details))

    @built.register("sized", size=3)
    def sized() -> None: ...

    assert built.get("sized") == Toy("sized", 3, sized)
    assert sized.__name__ == "sized"  # the decorated function is returned unchanged
    with pytest.raises(TypeError, match="function registrations take no details: size"):
        plain.register("odd", size=1)(lambda: None)


def test_a_taken_name_is_refused_and_the_first_entry_kept():
    registry = toys()
    registry.register("a", Toy("a", 1))
    with pytest.raises(ValueError, match="^toy 'a' is already registered$"):
        registry.register("a", Toy("a", 2))
    assert registry.get("a") == Toy("a", 1)


def test_a_refusing_check_leaves_the_registry_as_it_was():
    seen = []

    def small(toy: Toy) -> None:
        seen.append(registry.names())  # the check runs with the entry registered
        if toy.size > 9:
            raise ValueError(f"toy {toy.name!r} is too big")

    registry = toys(check=small)
    registry.register("a", Toy("a", 1))
    with pytest.raises(ValueError, match="too big"):
        registry.register("big", Toy("big", 10))
    assert registry.names() == ("a",) and seen == [("a",), ("a", "big")]


def test_an_unknown_name_is_refused_naming_the_kind_and_every_known_name():
    registry = toys()
    registry.register("a", Toy("a"))
    registry.register("b", Toy("b"))
    with pytest.raises(LabelerError) as refused:
        registry.get("c")
    assert type(refused.value) is LabelerError
    assert refused.value.reason == "unknown toy 'c': choose one of a, b"

    argued = toys(argument="toy", other="command:'CMD ...'")
    argued.register("a", Toy("a"))
    with pytest.raises(BadArgumentError) as refused:
        argued.get("c")
    assert refused.value.argument == "toy"
    assert refused.value.reason == "unknown toy 'c': choose one of a, or command:'CMD ...'"


def test_plugins_come_after_the_builtins_by_name_and_a_builtin_wins(installed):
    installed(zeta="pkg:Zeta", alpha="pkg:Alpha", a="pkg:Shadow")
    loaded = []

    def plugin(point: importlib.metadata.EntryPoint) -> Toy:
        loaded.append(point.name)
        return Toy(point.name, size=len(point.value))

    registry = toys(plugins=GROUP, plugin=plugin)
    registry.register("a", Toy("a", 1))
    assert registry.names() == ("a", "alpha", "zeta")
    assert "zeta" in registry and "beta" not in registry
    assert registry.get("a") == Toy("a", 1)  # the built-in, not the plug-in of its name
    assert registry.get("zeta") == Toy("zeta", 8)
    assert registry.values(plugins=False) == (Toy("a", 1),)
    assert [toy.name for toy in registry.values()] == ["a", "alpha", "zeta"]
    assert set(registry.entry_points()) == {"zeta", "alpha", "a"}
    assert "a" not in loaded  # a plug-in shadowed by a built-in is never made
    with pytest.raises(LabelerError, match="unknown toy 'beta': choose one of a, alpha, zeta$"):
        registry.get("beta")


def test_a_registry_without_plugins_never_reads_the_entry_points(monkeypatch):
    def refuse(**selection):
        raise AssertionError("the entry points were read")

    monkeypatch.setattr(importlib.metadata, "entry_points", refuse)
    registry = toys()
    registry.register("a", Toy("a"))
    assert registry.names() == ("a",) and registry.entry_points() == {} and "b" not in registry


def test_a_plugin_group_needs_a_way_to_make_its_values():
    with pytest.raises(ValueError, match="entry-point group and how to make one"):
        toys(plugins=GROUP)


@pytest.mark.parametrize(
    ("registry", "argument"),
    [(ORDERS, "order"), (STRATEGIES, "strategy"), (RETRIEVERS, "retriever"), (JUDGES, "judge")],
)
def test_every_extension_point_the_user_names_refuses_an_unknown_name_as_a_bad_argument(registry, argument):
    with pytest.raises(BadArgumentError) as refused:
        registry.get("no-such-thing")
    assert refused.value.argument == argument
    assert refused.value.reason.startswith(f"unknown {registry.kind} 'no-such-thing': choose one of ")
    assert ", ".join(registry.names()) in refused.value.reason
