"""Errors in the judging screen's words: a key where the workbench has one, else what to do in a shell.

The services' hints are actions (`list_topics`, `set_argument`); the CLI renders them as commands
and flags (labeler/cli/common/hints.py), this module as what an annotator at the screen can do.
"""

from __future__ import annotations

from labeler.errors import BadArgumentError, Hint, LabelerError

# Actions the workbench's screens can do themselves: the key that does it.
KEYS: dict[str, str] = {
    "list_topics": "press t for the topics",
    "list_snapshots": "ctrl+p, Snapshots, lists them",
    "create_snapshot": "ctrl+p, Create snapshot, makes one",
    "adjudicate": "press a to adjudicate",
    "mark_topic": "press d to mark the topic done",
}

# Actions that need a shell: said in words, with the command an engineer would run.
ELSEWHERE: dict[str, str] = {
    "import_topics": "import the topics (labeler topics import, in a shell)",
    "import_corpus": "import the documents (labeler corpus import, in a shell)",
    "import_runs": "import runs (labeler runs import, in a shell)",
    "make_chunking": "make the chunking first (labeler corpus chunk, in a shell)",
    "build_pool": "build a pool first (labeler pool build, in a shell)",
    "list_chunkings": "the chunkings are listed by labeler corpus chunkings, in a shell",
    "list_runs": "the runs are listed by labeler runs list, in a shell",
    "list_answer_runs": "the answer runs are listed by labeler answers list, in a shell",
    "import_answers": "answers are imported by labeler answers import, in a shell",
    "list_nuggets": "the nuggets are listed by labeler nuggets list, in a shell",
    "list_pools": "the pools are listed by labeler pool list, in a shell",
    "list_assignments": "the plan is listed by labeler assign --list, in a shell",
    "upgrade_workbench": "open it once with this labeler (labeler status, in a shell)",
    "init_workbench": "make one first (labeler init, in a shell)",
    "assign_assessors": "an engineer deals the topics again (labeler assign --assessors {value}, in a shell)",
}


def hint_text(hint: Hint) -> str:
    """One hint as the screen says it."""
    if hint.action == "set_argument":
        said = f"set {hint.argument}" + (f" to {hint.value}" if hint.value is not None else "")
    else:
        said = (KEYS.get(hint.action) or ELSEWHERE[hint.action]).format(value=hint.value)
    return f"{said} {hint.why}" if hint.why else said


def tui_message(error: LabelerError) -> str:
    """A notification's text: where, why, and what to do."""
    if isinstance(error, BadArgumentError):
        message = f"{error.argument}: {error.reason}"
    else:
        message = error.location_message()
    if error.hints:
        message += " (" + "; or ".join(hint_text(h) for h in error.hints) + ")"
    return message
