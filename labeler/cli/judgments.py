"""`labeler judgments ...`: the judgment log without the UI."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from labeler.answers.nuggets import parse_version
from labeler.answers.spaces import NUGGETS, answer_space
from labeler.cli.common.context import Env, assessor_option, checked_id, json_option, pass_env
from labeler.cli.common.deprecation import deprecated_command, deprecated_option
from labeler.cli.common.printing import emit_json, info, listing
from labeler.cli.common.ranges import LIMIT, SEED
from labeler.cli.common.reading import reading_options
from labeler.cli.common.registry_options import order_option
from labeler.cli.export import log as export_log
from labeler.formats.judgment_log import shown_event
from labeler.validation import IMPORT_SOURCES, RECORD_SOURCES, RECORDABLE_KINDS
from labeler.wording import plural
from labeler.workbench import record_judgments
from labeler.workbench.record_judgments import Judgment

if TYPE_CHECKING:
    from labeler.workbench.reading import ConflictGrade


@click.group()
def judgments() -> None:
    """Record, import and undo judgments (the append-only log)."""


@judgments.command()
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("unit_id", metavar="UNIT", callback=checked_id("unit id"))
@click.argument("grade", required=False, type=int)
@assessor_option
@click.option(
    "--kind",
    type=click.Choice(RECORDABLE_KINDS),
    default="grade",
    show_default=True,
    help="A grade, or a state: skip (judge later), unsure (needs --reason), flag, note.",
)
@click.option(
    "--reason", default=None, help="Why unsure (needed with --kind unsure), or why flagged (optional with --kind flag)."
)
@click.option("--note", default=None, help="A free-text note kept with the event.")
@click.option(
    "--source",
    type=click.Choice(RECORD_SOURCES),
    default="human",
    show_default=True,
    help="Who made the judgment.",
)
@click.option("--model", default=None, metavar="NAME", help="The model whose label it records, with --source model.")
@click.option(
    "--unit", default=None, metavar="doc|chunk:NAME", help="Unit space (default: the id's own, else the one held)."
)
@order_option(default=None, help="The judging order the unit came from (recorded).")
@click.option("--seed", default=None, type=SEED, help="The random order's seed (recorded).")
@click.option("--allow-unknown", is_flag=True, help="Accept a topic or unit the workbench does not know.")
@json_option
@pass_env
def add(
    env: Env,
    topic: str,
    unit_id: str,
    grade: int | None,
    assessor: str,
    kind: str,
    reason: str | None,
    note: str | None,
    source: str,
    model: str | None,
    unit: str | None,
    order: str | None,
    seed: int | None,
    allow_unknown: bool,
    as_json: bool,
) -> None:
    """Record one judgment: labeler judgments add TOPIC UNIT GRADE --assessor NAME."""
    if kind == "grade" and grade is None:
        raise click.UsageError("GRADE is required for a grade (or pass --kind skip|unsure|flag|note)")
    with env.store() as store:
        event = record_judgments.record_judgment(
            store,
            Judgment(
                topic_id=topic,
                unit_id=unit_id,
                assessor=assessor,
                grade=grade,
                kind=kind,
                unit=unit,
                source=source,
                model=model,
                reason=reason,
                note=note,
                order=order,
                seed=seed,
                allow_unknown=allow_unknown,
            ),
        )
    if as_json:
        emit_json(shown_event(event))
        return
    what = f"grade {grade}" if kind == "grade" else kind
    info(f"Recorded {what} for topic {topic}, {event.unit} {unit_id}, by {assessor} (event {event.event_id[:8]}).")


@judgments.command("import")
@reading_options
@click.argument("path", type=click.Path())
@assessor_option
@click.option(
    "--source",
    type=click.Choice(IMPORT_SOURCES),
    default="import",
    show_default=True,
    help="Where the labels come from.",
)
@click.option("--model", default=None, metavar="NAME", help="The model whose labels it records, with --source model.")
@deprecated_option("--model-name", "--model", command="judgments import", metavar="NAME")
@click.option("--reviewed", is_flag=True, help="Mark the imported topics reviewed (no_answer where none is relevant).")
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="Unit space of the qrels (default: the ids' own, else the one held).",
)
@click.option("--allow-unknown", is_flag=True, help="Accept topics and ids the workbench does not know.")
@json_option
@pass_env
def import_(
    env: Env,
    path: str,
    assessor: str,
    source: str,
    model: str | None,
    reviewed: bool,
    unit: str | None,
    allow_unknown: bool,
    as_json: bool,
) -> None:
    """Import TREC qrels (or BEIR qrels TSV) into the log; a negative grade means pooled, not judged.

    With --source model the file may also be a model's JSONL, one {"topic", "unit", "grade", "probs"} a
    line (probs optional: {"0": p, ...}); a model's labels are kept out of the human labels.
    """
    with env.store() as store:
        result = record_judgments.import_judgments(
            store,
            path,
            assessor=assessor,
            source=source,
            model=model,
            reviewed=reviewed,
            unit=unit,
            allow_unknown=allow_unknown,
        )
    if as_json:
        emit_json(result.to_json())
        return
    info(
        f"{result.path}: {plural(result.judgments, 'judgment')} recorded for "
        f"{plural(result.topics, 'topic')} "
        f"({result.relevant} relevant, {result.pooled_unjudged} pooled-unjudged), "
        f"{result.unchanged} unchanged; unit {result.unit}, assessor {result.assessor}."
    )
    if result.marked:
        counts = {s: sum(1 for v in result.marked.values() if v == s) for s in set(result.marked.values())}
        info("Marked " + ", ".join(f"{plural(n, 'topic')} {s}" for s, n in sorted(counts.items())) + ".")
    if result.unmarked:
        shown = ", ".join(result.unmarked[:5]) + (", ..." if len(result.unmarked) > 5 else "")
        info(f"{plural(len(result.unmarked), 'topic')} not marked: nothing judged ({shown}).")


@judgments.command()
@assessor_option
@json_option
@pass_env
def undo(env: Env, assessor: str, as_json: bool) -> None:
    """Retract your latest decision (a new event; nothing is deleted)."""
    with env.store() as store:
        event = record_judgments.undo(store, assessor)
    if as_json:
        emit_json(shown_event(event))
        return
    info(f"Undid {event.kind} on topic {event.topic_id}, {event.unit_id}: the pair is open again.")


@judgments.command()
@click.argument("topic", callback=checked_id("topic id"))
@click.argument("unit_id", metavar="UNIT", callback=checked_id("unit id"))
@click.argument("grade", type=int)
@assessor_option
@click.option("--note", default=None, help="Why this grade.")
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME|nugget:RUN|support:RUN",
    help="Unit space (default: the id's own, else the one held); nugget:RUN or support:RUN settles an answer "
    "judgment (UNIT is then the nugget id or the sentence number).",
)
@json_option
@pass_env
def adjudicate(
    env: Env, topic: str, unit_id: str, grade: int, assessor: str, note: str | None, unit: str | None, as_json: bool
) -> None:
    """Settle a pair's label (resolves a conflict between assessors)."""
    with env.store() as store:
        event = record_judgments.adjudicate(store, topic, unit_id, grade, assessor=assessor, unit=unit, note=note)
    if as_json:
        emit_json(shown_event(event))
        return
    info(f"Adjudicated topic {topic}, {unit_id}: grade {grade}.")


@judgments.command()
@click.option("--topic", default=None, callback=checked_id("topic id"), help="Only this topic's conflicts.")
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME|nugget:RUN|support:RUN",
    help="Unit space (default: the one held); nugget:RUN or support:RUN lists an answer run's judgments in conflict.",
)
@json_option
@pass_env
def conflicts(env: Env, topic: str | None, unit: str | None, as_json: bool) -> None:
    """The pairs whose assessors disagree, with each one's grade and notes: what `adjudicate` settles."""
    from labeler.cli.common.printing import table
    from labeler.workbench.reading import conflicts as pairs_in_conflict

    with env.store() as store:
        rows = pairs_in_conflict(store, unit=unit, topic_id=topic)
    if as_json:
        emit_json([row.to_json() for row in rows])
        return
    if not rows:
        info("No pairs in conflict" + (f" for topic {topic}" if topic else "") + ".")
        return
    table(
        plural(len(rows), "pair") + " in conflict",
        ["topic", "unit", "space", "grades", "notes"],
        [
            [
                row.topic,
                row.unit_id,
                row.unit,
                ", ".join(_shown_grade(row.unit, g) for g in row.grades),
                "; ".join(f"{n.assessor}: {n.note}" for n in row.notes),
            ]
            for row in rows
        ],
    )


def _shown_grade(unit: str, grade: ConflictGrade) -> str:
    """`ann 2`, or on an answer judgment `ann support`; an adjudication says so."""
    space = answer_space(unit)
    value = space.labels.get(grade.grade, grade.grade) if space is not None and grade.grade is not None else grade.grade
    return f"{grade.assessor} {value}" + (" (adjudicated)" if grade.kind != "grade" else "")


@judgments.command()
@click.option("--assessor", default=None, help="Only this assessor's events.")
@click.option("--limit", default=20, show_default=True, type=LIMIT, help="How many events, newest first.")
@json_option
@pass_env
def log(env: Env, assessor: str | None, limit: int, as_json: bool) -> None:
    """The latest events of the judgment log."""
    from labeler.workbench.reading import recent_events

    with env.store() as store:
        events = recent_events(store, assessor, limit=limit)
    listing(
        [shown_event(e) for e in events],
        as_json,
        ["seq", "time", "assessor", "topic", "unit", "space", "kind", "grade", "reason/note"],
        lambda r: [
            r["seq"],
            r["time"][:19],
            r["assessor"],
            r["topic"],
            r["unit_id"] or "-",
            r["unit"],
            r["kind"],
            r["grade"],
            r["reason"] or _shown_note(r["unit"], r["note"]),
        ],
    )


def _shown_note(unit: str, note: str | None) -> str:
    """A note as written; a nugget version (the note of a `nuggets` event) as what it did, its text and importance."""
    if unit != NUGGETS or note is None:
        return note or ""
    version = parse_version(note)
    return note if isinstance(version, str) else f"{version.action}: {version.text} ({version.importance})"


@judgments.command()
@click.option("--topic", default=None, callback=checked_id("topic id"), help="Only this topic's flags.")
@click.option("--unit", default=None, metavar="doc|chunk:NAME", help="Only this unit space (default: every one).")
@json_option
@pass_env
def flagged(env: Env, topic: str | None, unit: str | None, as_json: bool) -> None:
    """The flagged pairs: who flagged them, when, why, and their label now (a grade does not unlist a flag)."""
    from labeler.cli.common.printing import table
    from labeler.workbench.flagged import flagged_pairs

    with env.store() as store:
        rows = flagged_pairs(store, topic=topic, unit=unit)
    if as_json:
        emit_json([r.to_json() for r in rows])
        return
    if not rows:
        info("No flagged pairs" + (f" for topic {topic}" if topic else "") + ".")
        return
    table(
        f"{len(rows)} flag{'s' if len(rows) != 1 else ''}",
        ["topic", "unit", "space", "flagged by", "time", "reason", "label now", "state"],
        [
            [
                r.topic,
                r.unit_id,
                r.unit,
                r.assessor,
                r.time[:19],
                r.reason or r.note or "",
                "-" if r.label is None else r.label,
                r.state,
            ]
            for r in rows
        ],
    )


judgments.add_command(deprecated_command(export_log, old="judgments export-log", new="export log"))
