"""`labeler assign`: deal topics to assessors, plan an overlap, clear, or list the plan."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import click

from labeler.cli.common.context import Env, checked_id, default_assessor, json_option, pass_env
from labeler.cli.common.deprecation import deprecated_option
from labeler.cli.common.printing import info, print_result, table
from labeler.cli.common.ranges import SEED, Real
from labeler.errors import BadArgumentError
from labeler.workbench.assignments import AssessorProgress, AssignmentPlan, AssignmentsCleared, ShowModel

if TYPE_CHECKING:
    from labeler.workbench.setup import Store


@click.command()
@click.option(
    "--assessors",
    default=None,
    metavar="A,B,...",
    help="Assessors in order: topics are dealt round-robin; an overlap's second judge is the next one.",
)
@click.option(
    "--topics", default=None, metavar="T1,T2,...", help="Topics to assign or clear (default: the latest pool's topics)."
)
@click.option(
    "--overlap",
    type=Real(0, 1, high_open=True),
    default=0.0,
    show_default=True,
    metavar="SHARE",
    help="Share of each topic's pool pairs judged by two assessors, in [0, 1).",
)
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the overlap's choice of pairs.")
@click.option(
    "--unit",
    default=None,
    metavar="doc|chunk:NAME",
    help="Unit space whose latest pool gives the topics and the counts (default: the one the workbench holds).",
)
@click.option(
    "--assigned-by",
    default=default_assessor,
    show_default="LABELER_ASSESSOR or the login name",
    metavar="NAME",
    callback=checked_id("name"),
    help="Who makes the assignment (recorded with it).",
)
@deprecated_option("--by", "--assigned-by", command="assign", metavar="NAME", callback=checked_id("name"))
@click.option(
    "--show-model",
    default=None,
    metavar="NAME|none",
    help="Let the judging UI show model NAME's label (grade, probabilities) beside each pair it labelled; "
    "'none' turns it off. Default: no model label is shown (blind).",
)
@click.option(
    "--show-others",
    is_flag=True,
    help="On overlap pairs, show each judge the other's label, note and reason (a review campaign). "
    "Default: blind until both have judged.",
)
@click.option("--clear", is_flag=True, help="Unassign the --topics: anyone may judge them again.")
@click.option("--list", "list_plan", is_flag=True, help="Show the plan and each assessor's progress.")
@json_option
@pass_env
def assign(
    env: Env,
    assessors: str | None,
    topics: str | None,
    overlap: float,
    seed: int,
    unit: str | None,
    assigned_by: str,
    show_model: str | None,
    show_others: bool,
    clear: bool,
    list_plan: bool,
    as_json: bool,
) -> None:
    """Assign topics to assessors (round-robin or as given), with an optional planned overlap; see docs/guide.md."""
    from labeler.ids import parse_names
    from labeler.workbench.assignments import parse_show_model

    _check_mode(list_plan=list_plan, clear=clear, assessors=assessors, topics=topics, show_model=show_model)
    if show_others and not assessors:
        raise BadArgumentError("is part of an assignment: give the assessors too", argument="show_others")
    topic_ids = parse_names(topics, "topic id", "topics") if topics else None
    names = parse_names(assessors, "assessor name", "assessors") if assessors else []
    model = parse_show_model(show_model) if show_model is not None else None
    with env.store() as store:
        result = _carry_out(
            store,
            list_plan=list_plan or (show_model is not None and not names),
            clear=clear,
            names=names,
            topic_ids=topic_ids,
            overlap=overlap,
            seed=seed,
            unit=unit,
            by=assigned_by,
            show_others=show_others,
        )
        if show_model is not None and isinstance(result, AssignmentPlan):  # after the plan: a refusal sets nothing
            result = replace(result, show_model=_set_model(store, model, by=assigned_by, as_json=as_json))
    print_result(
        result, as_json, lambda planned: _say(planned, names=names, overlap=overlap, seed=seed, show_others=show_others)
    )


def _check_mode(
    *, list_plan: bool, clear: bool, assessors: str | None, topics: str | None, show_model: str | None
) -> None:
    """One of list, clear or assign (or the model setting), with the options it takes: refused before the
    workbench is opened."""
    if list_plan and (clear or assessors or topics or show_model is not None):
        raise BadArgumentError(
            "lists the plan alone: leave out --assessors, --topics, --show-model and --clear", argument="list"
        )
    if clear and show_model is not None:
        raise BadArgumentError("takes topics out of the plan: set --show-model on its own", argument="clear")
    if show_model is not None and topics and not assessors:
        raise BadArgumentError(
            "the model setting is the campaign's, not a topic's: leave out --topics", argument="show_model"
        )
    if show_model is not None and not assessors:
        return
    if clear and assessors:
        raise BadArgumentError("takes topics out of the plan: leave out --assessors", argument="clear")
    if clear and not topics:
        raise BadArgumentError("say which topics to unassign (--topics T1,T2)", argument="clear")
    if not (list_plan or clear or assessors):
        raise BadArgumentError("give the assessors (--assessors ann,bob), or --list, or --clear", argument="assessors")


def _set_model(store: Store, model: str | None, *, by: str, as_json: bool) -> ShowModel:
    """Record the model setting; say what the judging UI now shows (and when the model has labelled nothing)."""
    from labeler.workbench.assignments import set_show_model
    from labeler.workbench.read_labels import model_names

    setting = set_show_model(store, model, by=by)
    if as_json:
        return setting
    if model is None:
        info("The judging UI shows no model label (blind).")
    else:
        info(f"The judging UI shows model {model}'s label beside each pair it labelled (set by {by}).")
        if model not in model_names(store):
            info(f"Model {model} has labelled no pairs yet: nothing is shown until its labels are imported.")
    return setting


def _carry_out(
    store: Store,
    *,
    list_plan: bool,
    clear: bool,
    names: list[str],
    topic_ids: list[str] | None,
    overlap: float,
    seed: int,
    unit: str | None,
    by: str,
    show_others: bool = False,
) -> AssignmentPlan | AssignmentsCleared:
    """The one workbench call the mode stands for: list the plan, clear topics from it, or deal topics."""
    from labeler.workbench.assignments import assign as assign_topics
    from labeler.workbench.assignments import clear_assignments, list_assignments

    if list_plan:
        return list_assignments(store, unit=unit)
    if clear:
        return clear_assignments(store, topic_ids or [], by=by)
    return assign_topics(
        store, names, topics=topic_ids, overlap=overlap, seed=seed, unit=unit, by=by, show_others=show_others
    )


def _say(
    result: AssignmentPlan | AssignmentsCleared, *, names: list[str], overlap: float, seed: int, show_others: bool
) -> None:
    """What was done, in words, then the plan as it now stands (not after a clear, which shows only what left it)."""
    if isinstance(result, AssignmentsCleared):
        info(f"Unassigned {_topics(len(result.cleared))}: {', '.join(result.cleared)}.")
        return
    if result.assigned is not None:
        info(
            f"Assigned {_topics(len(result.assigned))} to {', '.join(names)}"
            + (f", {overlap:g} of each topic's pairs judged twice (seed {seed})." if overlap else ".")
        )
        if overlap:
            info(
                "Second judgments are shown the other judge's label (review)."
                if show_others
                else "Second judgments are blind: neither judge of an overlap pair sees the other's label, "
                "note or reason until both have judged it."
            )
    _show_plan(result)


def _topics(count: int) -> str:
    return "1 topic" if count == 1 else f"{count} topics"


def _show_plan(result: AssignmentPlan) -> None:
    setting = result.show_model
    if setting is not None and setting.model is not None:
        info(f"Model label shown while judging: {setting.model} (since {setting.set[:19]}, set by {setting.by}).")
    else:
        info("Model label shown while judging: none (blind).")
    if not result.topics:
        info("No assignments: anyone may judge any topic ('labeler assign --assessors ann,bob').")
        return
    where = f" (pool {result.pool}, {result.unit})" if result.pool else " (no pool yet)"
    table(
        f"per topic{where}",
        ["topic", "assessor", "second", "overlap", "pairs", "overlap pairs", "second judgment", "assigned by"],
        [
            [
                topic,
                row.assessor,
                row.second or "-",
                f"{row.overlap:g}",
                row.pairs,
                row.overlap_pairs,
                row.second_judgment,
                row.assigned_by,
            ]
            for topic, row in result.topics.items()
        ],
    )
    assessor_table("per assessor", result.assessors)


def assessor_table(title: str, assessors: dict[str, AssessorProgress]) -> None:
    """Per assessor: their topics, those they are second judge on, and their pairs (assign --list, status)."""
    table(
        title,
        ["assessor", "topics", "second judge on", "to judge", "judged", "remaining", "overlap"],
        [
            [
                name,
                ", ".join(row.topics),
                ", ".join(row.second_on),
                row.to_judge,
                row.judged,
                row.remaining,
                row.overlap,
            ]
            for name, row in assessors.items()
        ],
    )
