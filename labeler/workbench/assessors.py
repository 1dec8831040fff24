"""An assessor name on its way in: the id rule, in NFC, and no look-alike of another assessor.

Names are compared as a reader sees them (`labeler.ids.skeleton`): a second name that reads
like an existing assessor's (Cyrillic `аnn` beside Latin `ann`, `ANN` beside `ann`) would split
one person's labels in two, or let someone judge under a colleague's name unnoticed in agreement
tables and reports. Only a name new to the workbench is weighed, so a name already in the log
keeps working: the cost on every judgment is one index seek.

`current_plan` reads which assessors must judge which topics (`labeler.workbench.assignments`
writes it): the queue and the claims ask it on every `next`, without the assigning use cases.
"""

from __future__ import annotations

from labeler.assignment import Plan
from labeler.errors import BadArgumentError
from labeler.ids import check_id, script_problem, skeleton
from labeler.store import Store
from labeler.validation import ID_NAMES


def current_plan(store: Store) -> Plan:
    """The assignments in force: each topic's latest assignment event (an empty plan when there is none)."""
    return Plan(store.current_assignments())


def check_assessor(store: Store, assessor: object) -> str:
    """The assessor name in NFC; a name new to the workbench that mixes look-alike alphabets, or reads like
    an existing assessor's name, is refused as a bad `assessor` argument."""
    name = check_id(assessor, ID_NAMES["assessor"])
    if store.has_assessor(name):
        return name
    problem = lookalike_problem(name, store.assessor_names())
    if problem is not None:
        raise BadArgumentError(problem, argument="assessor")
    return name


def lookalike_problem(name: str, existing: list[str]) -> str | None:
    """Why a new assessor name is refused beside `existing` names, or None."""
    problem = script_problem(name)
    if problem is not None:
        return f"assessor name {ascii(name)} {problem}"
    own = skeleton(name)
    twin = next((other for other in existing if other != name and skeleton(other) == own), None)
    if twin is None:
        return None
    return (
        f"assessor name {ascii(name)} reads like {ascii(twin)}, an assessor of this workbench: "
        "use that name, or one that does not look like it"
    )
