"""Reading back what the judging UI wrote."""

from __future__ import annotations

from labeler.store import Store


def grades(db, assessor="ann", unit="doc"):
    """{(topic, unit): grade} of an assessor's current grades."""
    from labeler.workbench import current_labels

    with Store(db) as store:
        return {pair: state.grades[assessor] for pair, state in current_labels(store, unit).items()
                if assessor in state.grades}


def events(db, kind=None):
    with Store(db) as store:
        rows = list(store.recent_events(limit=1000))
    return [e for e in reversed(rows) if kind is None or e.kind == kind]


async def palette(pilot, command: str) -> None:
    """Run a command palette entry by typing its name (what an annotator does with ctrl+p)."""
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*command)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await pilot.pause()
