"""Which unit spaces a workbench holds, and the space a command that writes works in.

The rule, the same for every command that writes labels, marks, pools, assignments, model labels
or snapshots:

1. A unit asked for wins (it must parse, and its chunking must exist).
2. The data decide when they can: ids that are all documents of the workbench go to `doc`; ids
   that are all chunks of one chunking go to that chunking's space. Ids found in several spaces
   (documents and chunks, or chunks that two chunkings share, as `DOC#0` under two window sizes)
   go to the one of those spaces the workbench holds (see 3), and are doubt otherwise: refused,
   with what each space holds of them. Ids the workbench does not know decide nothing.
3. Otherwise the spaces the workbench *holds* decide: a space is held when it has a pool or a
   judgment, that is when a campaign has started in it. A chunking nobody pooled or judged holds
   nothing, and neither does a run alone (chunk runs are often only scored at document level), so
   making one does not change where anything goes. No space held: `doc`. One: that one. Several:
   refused, listing each space with its runs, pools and labels, and a hint for the unit argument
   with the choices.

Why refuse rather than guess: what these commands write is permanent (the judgment log is
append-only, pools and snapshots are immutable), and a guess such as "the latest pool's space"
files a whole campaign's labels under the wrong unit with nothing left to undo it. With one space
held there is nothing to guess, so a workbench with one campaign behaves as it always does.

Reading commands keep their defaults (`labeler.workbench.read_labels.unit_space`); they say which
space they read, and a snapshot carries its own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from labeler.errors import Hint, LabelerError, UnknownIdError, argument_hint
from labeler.json_form import JsonResult
from labeler.models import Unit
from labeler.store import Store
from labeler.wording import plural
from labeler.workbench.read_labels import current_labels, unit_space

DOC = "doc"


@dataclass(frozen=True)
class SpaceHeld(JsonResult):
    """One unit space of the workbench and what it holds: runs that rank it, pools at it, labels in it."""

    space: str
    runs: int
    pools: int
    labels: int

    def described(self) -> str:
        """`doc (3 runs, 1 pool, 138 labels)`."""
        parts = [plural(self.runs, "run"), plural(self.pools, "pool"), plural(self.labels, "label")]
        return f"{self.space} ({', '.join(parts)})"


def all_spaces(store: Store) -> list[str]:
    """Every space the workbench could hold: `doc`, then each chunking's, in the order they were made."""
    return [DOC, *(str(Unit("chunk", c.name)) for c in store.chunkings())]


def held_spaces(store: Store) -> list[str]:
    """The spaces with a pool or a judgment, `doc` first, then in the order the chunkings were made."""
    return ordered(store, {pool.unit for pool in store.pools()} | set(store.unit_spaces()))


def ordered(store: Store, held: Iterable[str]) -> list[str]:
    """Spaces in the workbench's order: `doc` first, then the chunkings' as they were made."""
    order = all_spaces(store)
    return sorted(set(held), key=lambda space: (order.index(space) if space in order else len(order), space))


def spaces_held(store: Store, spaces: Iterable[str]) -> list[SpaceHeld]:
    """What each space holds (its labels derived from the log: only worth it when they are shown)."""
    runs = Counter(str(run.unit) for run in store.runs())
    pools = Counter(pool.unit for pool in store.pools())
    return [SpaceHeld(s, runs[s], pools[s], label_count(current_labels(store, s))) for s in spaces]


def label_count(current: dict) -> int:
    """How many pairs have a label (conflicts and stale pairs have none)."""
    return sum(1 for state in current.values() if state.label is not None and not state.conflict)


def choices_hint(spaces: Iterable[str], why: str) -> Hint:
    """The hint for the unit argument, its value the choices: `doc|chunk:w30`."""
    return argument_hint("unit", "|".join(spaces), why=why)


def several_spaces(store: Store, spaces: list[str], why: str, *, argument: str = "unit") -> LabelerError:
    """The refusal when several spaces are held and nothing says which one is meant.

    The hint is for the unit argument, with the spaces as choices; or (`argument="pool"`, for a
    command that takes a pool rather than a unit) for the pool argument, with each space's latest pool.
    """
    listing = ", ".join(held.described() for held in spaces_held(store, spaces))
    if argument == "pool":
        latest = {p.unit: p.name for p in store.pools()}
        hint = argument_hint("pool", "|".join(latest[s] for s in spaces if s in latest) or None, why=why)
    else:
        hint = choices_hint(spaces, why)
    return LabelerError(f"the workbench holds {len(spaces)} unit spaces: {listing}; which one is not clear", hints=hint)


def write_space(
    store: Store, unit: str | None, *, ids: Iterable[Collection[str]] | None = None, why: str = "to say which"
) -> str:
    """The space a writing command works in, by the rule of this module.

    `ids` are the unit ids the command writes, in batches (a qrels file's parts, or one id), read
    only when no unit is asked for and the workbench has a chunking (without one, every id is a
    document's). `why` ends the hint of a refusal ("to say which space the labels go to").
    """
    if unit is not None:
        return unit_space(store, unit)
    if ids is not None and store.chunkings():
        found = space_of_ids(store, ids, why)
        if found is not None:
            return found
    held = held_spaces(store)
    if len(held) > 1:
        raise several_spaces(store, held, why)
    return held[0] if held else DOC


def space_of_ids(store: Store, ids: Iterable[Collection[str]], why: str = "to say which") -> str | None:
    """The one space whose units the ids are (of several, the one held); None when the workbench knows none.

    Counted per batch (an id in two batches counts twice: the counts are of the lines, which
    bounds memory); ids of several spaces are refused, with each space's count.
    """
    found: Counter[str] = Counter()
    has_documents = store.document_count() > 0
    for batch in ids:
        found.update(_owners(store, batch, has_documents))
    if len(found) > 1:
        held = [space for space in held_spaces(store) if space in found]
        if len(held) == 1:  # chunk ids two chunkings share, one of them the campaign's: no doubt
            return held[0]
        if held:  # the doubt is between the campaigns: a space nobody works in is no choice to offer
            found = Counter({space: found[space] for space in held})
        listing = ", ".join(f"{count} {_what(space, count != 1)} ({space})" for space, count in found.items())
        raise LabelerError(f"the ids are units of {len(found)} unit spaces: {listing}", hints=choices_hint(found, why))
    return next(iter(found), None)


def _owners(store: Store, batch: Collection[str], has_documents: bool) -> Counter[str]:
    """Per space, how many ids of the batch are its units."""
    owners: Counter[str] = Counter()
    if has_documents:
        documents = len(batch) - len(store.missing_documents(batch))
        if documents:
            owners[DOC] = documents
    for name, count in store.chunkings_holding(batch).items():
        owners[str(Unit("chunk", name))] = count
    return owners


def _what(space: str, many: bool) -> str:
    """`documents` or `chunks of w30`, as the ids of a space are called."""
    if space == DOC:
        return "documents" if many else "document"
    return f"{'chunks' if many else 'chunk'} of {space.split(':', 1)[1]}"


def foreign_owners(store: Store, space: str, missing: Collection[str]) -> Counter[str]:
    """Per other space of the workbench, how many of `missing` (ids not in `space`) are its units."""
    if not missing or not store.document_count():  # no documents: no chunking either, so no other space
        return Counter()
    owners = _owners(store, missing, True)
    owners.pop(space, None)
    return owners


def missing_units(store: Store, space: str, ids: Collection[str]) -> list[str]:
    """The ids that are not units of `space` (none for `doc` when the workbench has no corpus to check against)."""
    if space == DOC:
        return store.missing_documents(ids) if store.document_count() else []
    return store.missing_chunks(space.split(":", 1)[1], ids)


def space_name(store: Store, unit_id: str, space: str) -> str:
    """What `unit_id` is here outside `space`: `a document (unit doc)`, `a chunk of w30 (unit chunk:w30)`."""
    owners = foreign_owners(store, space, [unit_id])
    other = next(iter(owners), None)
    return f"a {_what(other, False)} (unit {other})" if other else "no unit"


def foreign_ids(store: Store, space: str, missing: Collection[str]) -> set[str]:
    """Those of `missing` (ids not in `space`) that are units of another space of the workbench."""
    if not missing or not store.document_count():
        return set()
    found = set(missing) - set(store.missing_documents(missing)) if space != DOC else set()
    for chunking in store.chunkings():
        if f"chunk:{chunking.name}" != space:
            found |= set(missing) - set(store.missing_chunks(chunking.name, missing))
    return found


def refuse_foreign(store: Store, space: str, missing: Collection[str], **where: Any) -> None:
    """Refuse ids that are not in `space` but are units of another space of the workbench.

    Accepting unknown ids is for ids the workbench does not know at all; an id that is a document
    (or a chunk) of this workbench filed in another space would be a label nothing can take back.
    `where` (path, line) places the error.
    """
    owners = foreign_owners(store, space, missing)
    if not owners:
        return
    other, count = owners.most_common(1)[0]
    if count == 1:
        said = f"1 id is a {_what(other, False)} of this workbench (unit {other}), not a {_what(space, False)}"
    else:
        said = f"{count} ids are {_what(other, True)} of this workbench (unit {other}), not {_what(space, True)}"
    raise UnknownIdError(
        said, hints=argument_hint("unit", other, why=f"to file {'it' if count == 1 else 'them'} there"), **where
    )
