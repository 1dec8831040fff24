"""Errors in the CLI's words: a service's argument becomes its flag, a hint becomes a command to run.

The services raise `LabelerError`s whose reasons name no flag and no command (they serve the TUI
too); this is the one place that knows `unit` is `--unit` and "build a pool" is
`labeler pool build --depth K`.
"""

from __future__ import annotations

from labeler.errors import BadArgumentError, Hint, LabelerError

# Service arguments whose flag is not `--` + the name with hyphens (or that are positional arguments).
FLAGS: dict[str, str] = {
    "run_depths": "--run-depth",
    "query_field": "--query",
    "status": "argument STATUS",  # `topics mark TOPIC STATUS`: a positional argument, named as click names them
    "others": "argument OTHER",  # `nuggets merge TOPIC KEEP OTHER...`: the nuggets merged into the one kept
    "serve_token": "LABELER_SERVE_TOKEN",  # `serve`'s token: an environment variable, never an option
}

COMMANDS: dict[str, str] = {
    "import_topics": "labeler topics import",
    "import_corpus": "labeler corpus import",
    "import_runs": "labeler runs import",
    "make_chunking": "labeler corpus chunk (or corpus mapping import, corpus mapping derive)",
    "build_pool": "labeler pool build --depth K",
    "list_topics": "labeler topics list",
    "list_chunkings": "labeler corpus chunkings",
    "list_runs": "labeler runs list",
    "list_answer_runs": "labeler answers list",
    "import_answers": "labeler answers import FILE --name RUN",
    "list_nuggets": "labeler nuggets list",
    "list_pools": "labeler pool list",
    "list_snapshots": "labeler snapshot list",
    "list_assignments": "labeler assign --list",
    "upgrade_workbench": "labeler status",
    "init_workbench": "labeler init",
    "create_snapshot": "labeler snapshot create -m MESSAGE",
    "assign_assessors": "labeler assign --assessors {value}",
    "adjudicate": "labeler judgments adjudicate TOPIC UNIT GRADE",
    "mark_topic": "labeler topics mark {value} reviewed",
}


def flag(argument: str) -> str:
    """`--unit` for the service argument `unit`; an argument that already is a flag stays as it is."""
    if argument.startswith("-"):
        return argument
    return FLAGS.get(argument, "--" + argument.replace("_", "-"))


def hint_text(hint: Hint) -> str:
    """One hint as the CLI says it: `pass --unit doc to score at document level`."""
    if hint.action == "set_argument":
        assert hint.argument is not None
        said = f"pass {flag(hint.argument)}" + (f" {hint.value}" if hint.value is not None else "")
    else:
        said = f"run '{COMMANDS[hint.action].format(value=hint.value)}'"
    return f"{said} {hint.why}" if hint.why else said


def cli_message(error: LabelerError) -> str:
    """The text after `Error: `: where, why, and what to do, on one line."""
    if isinstance(error, BadArgumentError):
        message = f"{flag(error.argument)}: {error.reason}"
    else:
        message = error.location_message()
    if error.hints:
        message += " (" + "; or ".join(hint_text(h) for h in error.hints) + ")"
    return message


def exit_code(error: LabelerError) -> int:
    """2 for a bad argument (click's code for usage errors), 1 for everything else."""
    return 2 if isinstance(error, BadArgumentError) else 1
