"""What to suggest when imported ids are not in the unit space they were imported into.

A chunk run or chunk qrels imported without `--unit chunk:NAME` fails on ids
that an existing chunking holds; `--allow-unknown` alone would store them as
document ids, a quiet error that spoils every pool and score after it.
"""

from __future__ import annotations

from collections.abc import Collection

from labeler.store import Store


def unknown_ids_advice(store: Store, space: str, missing: Collection[str], *, accept: str = "them") -> str:
    """The parenthesised advice for the unknown-ids error, the right `--unit` first when one fits.

    A chunking (other than the one imported into) that holds at least half of
    the unknown ids is named with its count; otherwise the advice is the usual
    `--allow-unknown`.
    """
    here = space.split(":", 1)[1] if space.startswith("chunk:") else None
    counts = {name: n for name, n in store.chunkings_holding(missing).items() if name != here}
    if counts:
        name = max(counts, key=lambda n: counts[n])  # first made wins ties (dicts keep order)
        if 2 * counts[name] >= len(missing):
            if len(missing) == 1:  # one id (`judgments add`): no counts
                as_what = "a document" if space == "doc" else f"a chunk of {space}"
                return (
                    f"(pass --unit chunk:{name}: chunking {name!r} holds it; "
                    f"--allow-unknown would accept {accept} as {as_what})"
                )
            as_what = "documents" if space == "doc" else f"chunks of {space}"
            return (
                f"(pass --unit chunk:{name}: chunking {name!r} holds {counts[name]} of the {len(missing)}; "
                f"--allow-unknown would accept {accept} as {as_what})"
            )
    return f"(pass --allow-unknown to accept {accept})"
