"""The base of `Store`'s row mixins: what each one may rely on, declared once so mypy checks them.

The mixins are split by what they hold, but they all read and write through the
same open database; `Store.__init__` sets both attributes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from labeler.errors import Hint, NotFoundError

if TYPE_CHECKING:
    from labeler.store.connection import Connection

# where the user finds the names there are, for each kind of thing looked up by name
_LISTINGS = {"pool": "list_pools", "run": "list_runs", "snapshot": "list_snapshots", "chunking": "list_chunkings"}


class Rows:
    """The open workbench: `db` (foreign keys on, busy timeout set) and the file it came from."""

    db: Connection
    path: Path

    def _named(self, sql: str, name: str, what: str) -> Any:
        """The row `sql` finds for `name` (its one `?`): a name that names no `what` is refused the same way for all."""
        row = self.db.execute(sql, [name]).fetchone()
        if not row:
            raise NotFoundError(f"no {what} named {name!r}", hints=Hint(_LISTINGS[what]))
        return row

    if TYPE_CHECKING:  # defined by Store and CorpusRows; declared here so that each mixin type-checks on its own

        def get_meta(self, key: str) -> str | None: ...

        def set_meta(self, key: str, value: str) -> None: ...

        def _chunking_id(self, name: str) -> int: ...
