"""What to suggest when imported ids are not in the unit space they were imported into.

A chunk run or chunk qrels imported into the document space fails on ids that an existing
chunking holds (and document qrels imported into a chunk space on ids the corpus holds);
accepting unknown ids would file them in the wrong space, a quiet error that spoils every pool
and score after it, so it is refused (`labeler.workbench.unit_spaces.refuse_foreign`) and the
space that holds them is named instead.
"""

from __future__ import annotations

from collections.abc import Collection

from labeler.errors import Hint, argument_hint
from labeler.store import Store
from labeler.workbench.unit_spaces import DOC, foreign_owners


def unknown_ids_advice(
    store: Store, space: str, missing: Collection[str], *, accept: str = "them"
) -> tuple[str, tuple[Hint, ...]]:
    """What to add to the unknown-ids reason, and the hints: the right unit space when one fits.

    Another space of the workbench (a chunking, or the corpus for a chunk space) that holds at
    least half of the unknown ids is named with its count (`; chunking 'w5' holds 3 of the 4`), and
    the hint is "use that unit space" (accepting ids of another space is refused); otherwise the
    reason stays as it is and the one hint is to accept them.
    """
    owners = foreign_owners(store, space, missing)
    if owners:
        other, count = owners.most_common(1)[0]  # doc, then the chunkings as made, win ties
        if 2 * count >= len(missing):
            holds = "it" if len(missing) == 1 else f"{count} of the {len(missing)}"
            if other == DOC:
                return f"; the corpus holds {holds}", (
                    argument_hint("unit", DOC, why=f"to read {accept} as documents"),
                )
            return f"; chunking {other.split(':', 1)[1]!r} holds {holds}", (
                argument_hint("unit", other, why=f"to read {accept} as its chunks"),
            )
    return "", (argument_hint("allow_unknown", why=f"to accept {accept}"),)
