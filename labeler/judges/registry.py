"""From a `--judge` value to a judge: a built-in, an entry-point plug-in (group `labeler.judges`), or a command.

A plug-in is a Python entry point in the group `labeler.judges` loading a class or callable
that, called with no arguments, returns an object with `judge(pairs, grades)` (and optionally
`fit(examples, grades)`); see `labeler.judges.base`. Built-ins and plug-ins are one registry,
`JUDGES`; built-in names win over a plug-in's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from labeler.errors import LabelerError
from labeler.external import PREFIX as COMMAND_PREFIX
from labeler.judges.command import CommandJudge
from labeler.judges.lexical import LexicalJudge
from labeler.registry import Registry

GROUP = "labeler.judges"


@dataclass(frozen=True)
class JudgeKind:
    name: str
    description: str
    factory: Callable[[], Any]
    builtin: bool = True


@dataclass(frozen=True)
class ChosenJudge:
    name: str  # what `--judge` said (a command's own text)
    model: str  # the default model name its labels are recorded under
    judge: Any
    builtin: bool

    @property
    def is_command(self) -> bool:
        return isinstance(self.judge, CommandJudge)


def make_judge(spec: str) -> ChosenJudge:
    """Resolve `spec`; a `LabelerError` (or `BadArgumentError` naming `judge`) says what is wrong."""
    if spec.startswith(COMMAND_PREFIX):
        command = CommandJudge(spec[len(COMMAND_PREFIX) :])
        return ChosenJudge(f"{COMMAND_PREFIX}{command.command}", command.name, command, builtin=False)
    kind = JUDGES.get(spec)  # a built-in first, so naming one needs no entry-point scan
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


JUDGES: Registry[JudgeKind] = Registry(
    "judge", argument="judge", other=f"{COMMAND_PREFIX}'CMD ...'", plugins=GROUP, plugin=_plugin_kind
)
"""Every judge `--judge` names besides `command:CMD`: the built-ins, then the `labeler.judges` plug-ins by name."""

JUDGES.register(
    "lexical",
    JudgeKind(
        "lexical",
        "term overlap with the topic title, thresholds fitted on people's labels; weak, needs no network",
        LexicalJudge,
    ),
)
