"""Click options whose choices and help are read from a registry each time they are used.

A registry (`labeler.registry.Registry`: judging orders in `labeler.ordering`,
pooling strategies in `labeler.pooling`, retrievers in `labeler.retrievers.registry`) is the one
list of what a user may choose. Reading it when click parses or prints help,
not when the command is defined, means an entry registered after import (a
plugin, a test's toy order) is a valid choice and appears in `--help` with no
edit here.

The registries themselves are imported inside those functions too, so defining a command costs
nothing until its options are parsed or shown (`labeler --help` imports none of them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click


class RegistryChoice(click.Choice):
    """A `click.Choice` over `names()`, asked again every time the choices are read."""

    def __init__(self, names: Callable[[], Sequence[str]]) -> None:
        self._names = names
        super().__init__(())

    @property  # type: ignore[override,unused-ignore]  # click 8.5 declares choices as a property, older clicks as an attribute
    def choices(self) -> tuple[str, ...]:
        return tuple(self._names())

    @choices.setter
    def choices(self, value: Any) -> None:
        """click.Choice.__init__ assigns the choices once; the registry is the list, so that is ignored."""


class RegistryOption(click.Option):
    """A `click.Option` whose help is `live_help()` (and metavar `live_metavar()`), naming the registry's entries."""

    def __init__(
        self,
        *args: Any,
        live_help: Callable[[], str],
        live_metavar: Callable[[], str] | None = None,
        **kwargs: Any,
    ) -> None:
        self._live_help = live_help
        self._live_metavar = live_metavar
        super().__init__(*args, **kwargs)

    @property
    def metavar(self) -> str | None:
        return self._live_metavar() if self._live_metavar is not None else self._metavar

    @metavar.setter
    def metavar(self, value: str | None) -> None:
        """click.Option.__init__ assigns the metavar once; kept for options without `live_metavar`."""
        self._metavar = value

    @property
    def help(self) -> str:
        return self._live_help()

    @help.setter
    def help(self, value: Any) -> None:
        """click.Option.__init__ assigns the help once; `live_help` replaces it."""


def _order_names() -> Sequence[str]:
    from labeler.ordering import ORDERS

    return ORDERS.names()


def _orders_help() -> str:
    from labeler.ordering import orders_help

    return orders_help()


def _strategy_names() -> Sequence[str]:
    from labeler.pooling import STRATEGIES

    return STRATEGIES.names()


def _strategies_help() -> str:
    from labeler.pooling import strategies_help

    return strategies_help()


def _retriever_metavar() -> str:
    from labeler.retrievers.registry import COMMAND_PREFIX, RETRIEVERS

    return "|".join([*RETRIEVERS.names(), f"{COMMAND_PREFIX}CMD"])


def _retriever_help() -> str:
    from labeler.retrievers.registry import GROUP, retrievers_help

    return f"The retriever: {retrievers_help()}. Plug-ins are '{GROUP}' entry points."


def order_option(*, default: str | None = "pool", help: str | None = None) -> Callable[[Any], Any]:
    """`--order`, one of the registered judging orders; the help names them unless `help` is given."""
    return click.option(
        "--order",
        cls=RegistryOption,
        type=RegistryChoice(_order_names),
        default=default,
        show_default=default is not None,
        live_help=(lambda: help) if help else (lambda: f"Judging order: {_orders_help()}."),
    )


def strategy_option() -> Callable[[Any], Any]:
    """`--strategy`, one of the registered pooling strategies, each described in the help."""
    return click.option(
        "--strategy",
        cls=RegistryOption,
        type=RegistryChoice(_strategy_names),
        default="depth",
        show_default=True,
        live_help=lambda: f"Membership: {_strategies_help()}.",
    )


def retriever_option() -> Callable[[Any], Any]:
    """`--retriever`, a registered retriever (built-in or plug-in) or `command:CMD`, each described in the help.

    Not a choice: `command:CMD` takes any command line, so the workbench refuses an unknown name itself.
    """
    return click.option(
        "--retriever",
        "retriever",
        required=True,
        cls=RegistryOption,
        live_metavar=_retriever_metavar,
        live_help=_retriever_help,
    )
