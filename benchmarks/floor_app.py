"""The floor for bench_frame.py: a bare Textual app laid out like labeler's judging screen.

Not labeler: no workbench, no SQLite, no session. It reads a JSON file of units
(`{"topic": "...", "units": [{"id", "title", "text"}, ...]}`, written by
bench_frame.py with the very texts `labeler judge` shows, in the same order) and,
on each grade key (0-3), replaces the unit's text, its title line and the status
bar with the next unit's: the same amount of text per key as labeler, and nothing
else. Whatever labeler does per key, it cannot be faster than this redraw.

    python benchmarks/floor_app.py UNITS.json [LATENCIES.json]

With LATENCIES.json, the in-app latencies (the key's action to `call_after_refresh`
firing, as labeler's `JudgeScreen.latencies`) are written there at exit. ctrl+q quits.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Footer, Static


class FloorApp(App[None]):
    CSS = """
    #panes { height: 1fr; }
    #left { width: 38%; min-width: 30; border-right: solid $primary; }
    #right { width: 1fr; }
    #body { padding: 0 1; }
    #status { height: auto; max-height: 2; background: $panel; padding: 0 1; }
    """
    BINDINGS = [Binding(str(grade), f"grade({grade})", f"grade {grade}") for grade in range(4)]

    def __init__(self, topic: str, units: list[dict]) -> None:
        super().__init__()
        self.topic = topic
        self.units = units
        self.index = 0
        self.latencies: list[float] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            with VerticalScroll(id="left"):
                yield Static(f"Topic {self.topic}", id="topic")
                yield Static("\n".join(f"{g}  grade {g}" for g in range(4)), id="rubric")
            with Vertical(id="right"), VerticalScroll(id="unit"):
                yield Static(id="body")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.show()

    def show(self) -> None:
        if self.index >= len(self.units):
            self.query_one("#body", Static).update("Nothing left.")
            self.query_one("#status", Static).update("queue empty")
            return
        unit = self.units[self.index]
        body = Text()
        body.append(unit["title"] or unit["id"], style="bold")
        body.append("\n\n")
        body.append(unit["text"])
        self.query_one("#body", Static).update(body)
        self.query_one("#unit", VerticalScroll).scroll_home(animate=False)
        status = Text()
        status.append("document", style="bold")
        status.append(" │ ", style="dim")
        status.append(unit["id"], style="bold")
        status.append(" │ ", style="dim")
        status.append(f"unjudged │ {self.index + 1}/{len(self.units)} │ left {len(self.units) - self.index}")
        self.query_one("#status", Static).update(status)

    def action_grade(self, grade: int) -> None:
        started = time.perf_counter()
        self.index += 1
        self.show()
        self.call_after_refresh(lambda: self.latencies.append(time.perf_counter() - started))


def main(argv: list[str]) -> None:
    data = json.loads(Path(argv[0]).read_text())
    app = FloorApp(data["topic"], data["units"])
    app.run()
    if len(argv) > 1:
        Path(argv[1]).write_text(json.dumps({"latencies": app.latencies}))


if __name__ == "__main__":
    main(sys.argv[1:])
