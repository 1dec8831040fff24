"""Old spellings of commands and options that keep working for a release, with a notice on stderr.

An old spelling is hidden from `--help` and does exactly what the new one does: the same
parameters, the same stdout byte for byte (so `--json` stays parseable). Before it runs it prints
one line on stderr, the same shape for every old spelling (`notice`). docs/cli.md lists every old
spelling in its "Deprecated spellings" table, and CHANGELOG.md under Deprecated.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click
from click.core import ParameterSource

F = TypeVar("F", bound=Callable[..., Any])


def notice(old: str, new: str) -> None:
    """The one stderr line an old spelling prints before it runs: what it is, and what to use instead."""
    click.echo(f"labeler: '{old}' is deprecated and will be removed in a later release; use '{new}'.", err=True)


class DeprecatedCommand(click.Command):
    """A hidden command that prints the notice, then runs `target`'s callback with the same parameters."""

    def __init__(self, name: str, target: click.Command, *, old: str, new: str) -> None:
        super().__init__(
            name,
            params=target.params,
            callback=target.callback,
            help=f"Deprecated: use '{new}'.\n\n{target.help or ''}",
            hidden=True,
            context_settings=target.context_settings,
            no_args_is_help=target.no_args_is_help,
        )
        self.old = old
        self.new = new

    def invoke(self, ctx: click.Context) -> Any:
        notice(self.old, self.new)
        return super().invoke(ctx)


def deprecated_command(target: click.Command, *, old: str, new: str) -> DeprecatedCommand:
    """`target` under its old spelling `old` (its last word is the name): hidden, noticed, otherwise the same."""
    return DeprecatedCommand(old.split()[-1], target, old=old, new=new)


def deprecated_option(
    old: str, new: str, *, command: str, param: str | None = None, required: bool = False, **option_args: Any
) -> Callable[[F], F]:
    """Accept the old option spelling `old` (hidden) as `new`: the same value, after the notice.

    `new` names the option that takes the value (`--model` fills the parameter `model`, or `param`); `option_args`
    are the old option's own (its `type`, `metavar`, `callback`), given as the new option has them.
    Giving both spellings at once is a usage error; whether `new` was given is asked of click (the parameter's
    source), so a new option with a default still takes the old spelling's value. A `required` new option is
    declared optional, so that the old spelling alone can fill it, and is missing when neither is given.
    """
    dest = f"deprecated_{old.lstrip('-').replace('-', '_')}"
    target = param or new.lstrip("-").replace("-", "_")

    def decorate(function: F) -> F:
        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            value = kwargs.pop(dest)
            ctx = click.get_current_context()
            if value is not None:
                notice(f"{command} {old}", f"{command} {new}")
                if _given(ctx, target):
                    raise click.UsageError(f"{old} is the old spelling of {new}: give {new} only.")
                kwargs[target] = value
            elif required and kwargs.get(target) is None:
                raise click.MissingParameter(ctx=ctx, param=_param(ctx, target))
            return function(*args, **kwargs)

        option = click.option(old, dest, default=None, hidden=True, expose_value=True, **option_args)
        return option(wrapper)  # type: ignore[return-value]

    return decorate


def _given(ctx: click.Context, name: str) -> bool:
    """Whether the parameter `name` came from the command line or the environment, not from its default."""
    source = ctx.get_parameter_source(name)
    return source is not None and source not in (ParameterSource.DEFAULT, ParameterSource.DEFAULT_MAP)


def _param(ctx: click.Context, name: str) -> click.Parameter | None:
    """The command's parameter `name`, for click's own "Missing option" message."""
    return next((p for p in ctx.command.params if p.name == name), None)
