"""Import sqlite_utils without pandas and numpy: `import_sqlite_utils()`, called before every `import sqlite_utils`.

`sqlite_utils.db` runs `import pandas` and `import numpy` at import time whenever they are installed,
only to add `pandas.Timestamp` and the numpy scalar types to `COLUMN_TYPE_MAPPING`, the table it reads
when *it* creates a column from a Python value (`table.insert`, `create`, `add_column`). labeler never
does: the schema is plain SQL (`labeler.store.schema`) and every value the store writes is a `str`,
`int`, `float`, `bytes` or None. Measured on the 2-core development machine with pandas 3.1 and numpy 2.4
installed (CPU time of a fresh `python -c`, median of 9, `python -c pass` ~65 ms): `import sqlite_utils`
~750 ms, `import_sqlite_utils()` ~240 ms. sqlite_utils is imported only to create or upgrade a workbench
(the migrations) and by `labeler check`, so that is what `labeler init` and `check` save.

So sqlite_utils is imported here with `sys.modules["pandas"]` and `sys.modules["numpy"]` set to None
(the import system's documented "not importable": `import pandas` raises ImportError, which sqlite_utils
catches as "not installed"), and the entries are removed right after, so a later `import pandas` or
`import numpy` elsewhere in the process (bm25s, a plug-in, a notebook) imports them normally. A module
already imported is left alone (then sqlite_utils sees it, as before). sqlite_utils offers no switch
for this; the alternative, an import hook that refuses pandas only to `sqlite_utils.db`, is more code
for the same effect. What sqlite_utils itself imports meanwhile sees them as absent too (none of its
dependencies imports numpy or pandas at import time; `tests/cli/test_startup.py` checks the result).

`sqlite_utils.recipes` (the `r.parsedate`-style functions of the `sqlite-utils convert` command) is imported
by `sqlite_utils.utils` at import time, and it imports `dateutil.parser` (with `dateutil.tz` and `six`).
labeler never calls a recipe, so that module is loaded with the standard library's `LazyLoader`: the
module object exists (`sqlite_utils.recipes`, `from sqlite_utils import recipes` work), its code, and
dateutil with it, runs on the first attribute anyone reads from it.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

HIDDEN = ("pandas", "numpy")
"""What sqlite_utils would import only for column types labeler never asks it to infer."""

LAZY = ("sqlite_utils.recipes",)
"""Modules sqlite_utils imports at import time whose code runs only when first used."""


class _LazyFinder:
    """A `sys.meta_path` finder that finds the modules in `LAZY` as usual and loads them lazily."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if name not in LAZY:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path, target)
        if spec is not None and spec.loader is not None:
            spec.loader = importlib.util.LazyLoader(spec.loader)
        return spec


def import_sqlite_utils() -> None:
    """Import `sqlite_utils` (once) with the modules in `HIDDEN` not yet imported hidden from it, `LAZY` lazy."""
    if "sqlite_utils.db" in sys.modules:
        return
    hidden = [name for name in HIDDEN if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # None: "not importable", by the import system's rule
    finder = _LazyFinder()
    sys.meta_path.insert(0, finder)
    try:
        import sqlite_utils  # noqa: F401
    finally:
        sys.meta_path.remove(finder)
        for name in hidden:
            if sys.modules.get(name, "absent") is None:
                del sys.modules[name]
