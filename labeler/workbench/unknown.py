"""What to suggest when imported ids are not in the unit space they were imported into.

A chunk run or chunk qrels imported into the document space fails on ids that an existing
chunking holds; accepting unknown ids alone would store them as document ids, a quiet error
that spoils every pool and score after it. So the chunking that holds them is named first.
"""

from __future__ import annotations

from collections.abc import Collection

from labeler.errors import Hint, argument_hint
from labeler.store import Store


def unknown_ids_advice(
    store: Store, space: str, missing: Collection[str], *, accept: str = "them"
) -> tuple[str, tuple[Hint, ...]]:
    """What to add to the unknown-ids reason, and the hints: the right unit space first when one fits.

    A chunking (other than the one imported into) that holds at least half of the unknown ids is
    named with its count (`; chunking 'w5' holds 3 of the 4`), and the hints are "use that unit
    space" before "accept them anyway"; otherwise the reason stays as it is and the one hint is
    to accept them.
    """
    here = space.split(":", 1)[1] if space.startswith("chunk:") else None
    counts = {name: n for name, n in store.chunkings_holding(missing).items() if name != here}
    if counts:
        name = max(counts, key=lambda n: counts[n])  # first made wins ties (dicts keep order)
        if 2 * counts[name] >= len(missing):
            one = len(missing) == 1  # one id (`judgments add`): no counts
            as_what = ("a document" if one else "documents") if space == "doc" else f"chunks of {space}"
            if one and space != "doc":
                as_what = f"a chunk of {space}"
            holds = "it" if one else f"{counts[name]} of the {len(missing)}"
            return f"; chunking {name!r} holds {holds}", (
                argument_hint("unit", f"chunk:{name}", why=f"to read {accept} as its chunks"),
                argument_hint("allow_unknown", why=f"to accept {accept} as {as_what} anyway"),
            )
    return "", (argument_hint("allow_unknown", why=f"to accept {accept}"),)
