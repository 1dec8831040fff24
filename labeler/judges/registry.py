"""From a `--judge` value to a judge: a built-in, an entry-point plug-in (group `labeler.judges`), or a command.

A plug-in is a Python entry point in the group `labeler.judges` loading a class or callable
that, called with no arguments, returns an object with `judge(pairs, grades)` (and optionally
`fit(examples, grades)`); see `labeler.judges.base`. Built-in names win over a plug-in's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from labeler.errors import BadArgumentError, LabelerError
from labeler.external import PREFIX as COMMAND_PREFIX
from labeler.judges.command import CommandJudge
from labeler.judges.lexical import LexicalJudge

GROUP = "labeler.judges"


@dataclass(frozen=True)
class JudgeKind:
    name: str
    description: str
    factory: Callable[[], Any]
    builtin: bool = True


BUILTINS: dict[str, JudgeKind] = {
    "lexical": JudgeKind(
        "lexical",
        "term overlap with the topic title, thresholds fitted on people's labels; weak, needs no network",
        LexicalJudge,
    ),
}


@dataclass(frozen=True)
class ChosenJudge:
    name: str  # what `--judge` said (a command's own text)
    model: str  # the default model name its labels are recorded under
    judge: Any
    builtin: bool

    @property
    def is_command(self) -> bool:
        return isinstance(self.judge, CommandJudge)


def plugin_entry_points() -> dict[str, Any]:
    """Installed plug-ins by name, read on each call (scanning distributions is not free)."""
    import importlib.metadata

    return {point.name: point for point in importlib.metadata.entry_points(group=GROUP)}


def judge_kinds() -> tuple[JudgeKind, ...]:
    """Every judge `--judge` names besides `command:CMD`: the built-ins, then the plug-ins by name."""
    plugins = plugin_entry_points()
    return tuple(BUILTINS.values()) + tuple(
        _plugin_kind(plugins[name]) for name in sorted(set(plugins) - set(BUILTINS))
    )


def make_judge(spec: str) -> ChosenJudge:
    """Resolve `spec`; a `LabelerError` (or `BadArgumentError` naming `judge`) says what is wrong."""
    if spec.startswith(COMMAND_PREFIX):
        command = CommandJudge(spec[len(COMMAND_PREFIX) :])
        return ChosenJudge(f"{COMMAND_PREFIX}{command.command}", command.name, command, builtin=False)
    kind = BUILTINS.get(spec)
    if kind is None:
        kinds = {k.name: k for k in judge_kinds()}
        if spec not in kinds:
            raise BadArgumentError(
                f"unknown judge {spec!r}: choose one of {', '.join(kinds)}, or {COMMAND_PREFIX}'CMD ...'",
                argument="judge",
            )
        kind = kinds[spec]
    judge = kind.factory()
    if not callable(getattr(judge, "judge", None)):
        raise LabelerError(f"judge {spec!r} has no judge() method")
    return ChosenJudge(spec, spec, judge, builtin=kind.builtin)


def _plugin_kind(point: Any) -> JudgeKind:
    def load() -> Any:
        try:
            factory = point.load()
            return factory()
        except Exception as exc:  # a plug-in can fail in any way; say which one
            raise LabelerError(f"judge plug-in {point.name!r} ({point.value}) failed to load: {exc}") from None

    return JudgeKind(point.name, f"plug-in {point.value}", load, builtin=False)
