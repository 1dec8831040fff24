"""What a judging screen on a leased item does with every key: renew the lease, and show a refusal as a notice."""

from __future__ import annotations

from collections.abc import Callable

from textual.screen import Screen

from labeler.errors import LabelerError
from labeler.tui.hints import tui_message


class LeasedScreen(Screen[None]):
    """A screen showing one leased item (a pair, an answer item) whose decisions may be refused."""

    def _attempt(self, action: Callable[[], object]) -> bool:
        """Run a decision; a refusal is shown as an error notice and judging goes on (False)."""
        try:
            action()
        except LabelerError as error:
            self.notify(tui_message(error), severity="error", markup=False)
            return False
        return True

    def _renewed(self, keep: Callable[[], bool], redraw: Callable[[], None]) -> bool:
        """Renew the lease with `keep`; when it was lost to another annotator, `redraw` where the session went."""
        kept = True

        def renew() -> None:
            nonlocal kept
            kept = keep()

        self._attempt(renew)
        if not kept:
            redraw()
        return kept
