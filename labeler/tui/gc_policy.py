"""The judging UI's garbage-collector policy, in one place: keep full collections out of the keys.

Why: after a grade key the next unit must be drawn within 50 ms (p95). Python's full
(generation 2) collection walks every tracked object, and a running Textual app holds
a few hundred thousand of them (Textual, Rich, labeler and their modules, the screens'
widgets and style caches): such a collection took 155 to 171 ms, and it landed inside
a key often enough to be most of the latency's tail (docs/performance.md, "Judging
latency").

What: once the judging screen has been drawn, `settle()` collects once and then
`gc.freeze()`s every object alive, which moves them to a permanent generation that
later collections skip. They are the long-lived objects of the session, so nothing
is lost but a little garbage they might have become; later collections only walk
what was made since, and stay short. `release()` (the app unmounting) unfreezes
them, so a process that runs several apps in turn (the tests) can free each one.

Related: Textual's `StylesCache.get_inner_outer` is an `lru_cache(1024)` on an
instance method, so it keeps up to 1,024 removed widgets' style caches alive
(https://github.com/Textualize/textual/issues/6665). The unit view no longer mounts a
widget per paragraph (labeler/tui/widgets/unit_view.py), which was what filled it.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect the start-up garbage, then take everything still alive out of later collections."""
    gc.collect()
    gc.freeze()


def release() -> None:
    """Give the frozen objects back to the collector (when the app ends)."""
    gc.unfreeze()
