"""The base of `Store`'s row mixins: what each one may rely on, declared once so mypy checks them.

The mixins are split by what they hold, but they all read and write through the
same open database; `Store.__init__` sets both attributes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlite_utils import Database


class Rows:
    """The open workbench: `db` (sqlite-utils, foreign keys on, busy timeout set) and the file it came from."""

    db: Database
    path: Path

    if TYPE_CHECKING:  # defined by Store and CorpusRows; declared here so that each mixin type-checks on its own

        def get_meta(self, key: str) -> str | None: ...

        def set_meta(self, key: str, value: str) -> None: ...

        def _chunking_id(self, name: str) -> int: ...
