"""Where the judging UI's files go: a new local file the annotator confirms, or a browser download.

Locally, export and screenshot ask for a path and follow the output rule
(labeler/output_files.py): never the workbench, and an existing file only after the
annotator says to replace it. Served (`labeler serve`), a session writes nothing
on the server: the file goes to the browser with Textual's `deliver_text`, and
only when Textual reports a web driver (`App.is_web`); otherwise Textual's
delivery would save into the server account's Downloads folder.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from textual import events
from textual.app import App

from labeler.errors import LabelerError
from labeler.output_files import OutputExistsError, check_output, write_output
from labeler.tui.hints import tui_message
from labeler.tui.screens.prompt import ChoicePrompt, TextPrompt

SERVED_NO_DOWNLOAD = (
    "This session is served, but not to a browser that can download: nothing was written on the server."
)


class SavingApp(App[None]):
    """The part of `LabelerApp` that writes or delivers files."""

    db_path: Path
    served_flag: bool = False
    deliveries: list[tuple[str, str]]  # (file name, mime type) of each download offered, for the record

    @property
    def served(self) -> bool:
        """Served to a browser: told so by `labeler serve` (`--served`), or by Textual's own web driver."""
        return self.served_flag or self.is_web

    def ask_where_to_save(self, question: str, default: str, write: Callable[[str, bool], None]) -> None:
        """Ask for a path; check it; ask before replacing an existing file; then `write(path, force)`."""

        def answered(text: str | None) -> None:
            if not text:
                return
            try:
                check_output(text, workbench=self.db_path)
            except OutputExistsError:

                def confirmed(choice: str | None) -> None:
                    if choice == "replace":
                        write(text, True)
                    elif choice == "other":
                        self.ask_where_to_save(question, text, write)

                self.push_screen(
                    ChoicePrompt(
                        f"{text} exists already. Replace it?",
                        [("replace", "Replace it"), ("other", "Choose another name"), ("cancel", "Cancel")],
                    ),
                    confirmed,
                )
                return
            except LabelerError as error:
                self.notify(tui_message(error), severity="error", markup=False)
                return
            write(text, False)

        self.push_screen(TextPrompt(question, value=default), answered)

    def offer_download(self, text: str, filename: str, mime_type: str, name: str) -> bool:
        """Send `text` to the browser as a download; refuse (and say so) when no browser can take it."""
        if not self.is_web:
            self.notify(SERVED_NO_DOWNLOAD, severity="error", markup=False)
            return False
        self.deliveries.append((filename, mime_type))
        self.deliver_text(io.StringIO(text), save_filename=filename, mime_type=mime_type, name=name)
        return True

    def on_delivery_failed(self, event: events.DeliveryFailed) -> None:
        if event.name != "screenshot":  # Textual reports its own screenshot's failure
            self.notify(f"The download failed: {event.exception}", severity="error", markup=False)

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """The palette's "Screenshot": a download when served, else a new local file the annotator names."""
        from textual._files import generate_datetime_filename

        svg_name = filename or generate_datetime_filename(self.title, ".svg", time_format)
        svg = self.export_screenshot()  # now, before a prompt covers the screen
        if self.served:
            self.offer_download(svg, svg_name, "image/svg+xml", "screenshot")
            return None

        def write(target: str, force: bool) -> None:
            try:
                written = write_output(target, svg, workbench=self.db_path, force=force)
            except LabelerError as error:
                self.notify(tui_message(error), severity="error", markup=False)
                return
            self.notify(f"Saved the screenshot to {written.path}.", markup=False)

        default = str(Path(path) / svg_name) if path else svg_name
        self.ask_where_to_save("Save an SVG screenshot of the screen to:", default, write)
        return None
