"""Reading back what the judging UI wrote."""

from __future__ import annotations

from support import palette, until  # noqa: F401  (kept importable from here)

from labeler.store import Store


def grades(db, assessor="ann", unit="doc"):
    """{(topic, unit): grade} of an assessor's current grades."""
    from labeler.workbench.read_labels import current_labels

    with Store(db) as store:
        return {
            pair: state.grades[assessor]
            for pair, state in current_labels(store, unit).items()
            if assessor in state.grades
        }


def events(db, kind=None):
    with Store(db) as store:
        rows = list(store.recent_events(limit=1000))
    return [e for e in reversed(rows) if kind is None or e.kind == kind]


async def answer_prompt(pilot, text: str, *, closes: bool = True, typed: bool = False) -> None:
    """Type `text` into the text prompt that is opening, then Enter; wait until the prompt has closed.

    Pilot's press() waits between keys only until the process *looks* idle (its CPU time
    stops advancing), which a process starved by a busy machine also does: keys typed right
    after the key that opens a prompt then reached the screen below it (a snapshot message
    lost its first letters, and its `d` and space ran that screen's diff and mark), and keys
    pressed right after Enter reached the prompt still open (a grade key typed into it). So
    wait until the prompt's input has the focus, check what it holds before submitting, and
    (`closes`: the prompt takes the text) wait until the prompt is gone.

    `typed`: key by key, as an annotator types; otherwise the text goes in at the cursor at once
    (as a paste does: each key costs a wait for the app to look idle, ~0.1 s here).
    """
    from textual.widgets import Input

    from labeler.tui.screens.prompt import TextPrompt

    app = pilot.app
    await until(
        pilot, lambda: isinstance(app.screen, TextPrompt) and isinstance(app.focused, Input), "a text prompt opened"
    )
    prompt, field = app.screen, app.focused
    if typed:
        await pilot.press(*text)
    else:
        field.insert_text_at_cursor(text)
        await pilot.pause()
    assert field.value == text, f"the prompt holds {field.value!r}"
    await pilot.press("enter")
    if closes:
        await until(pilot, lambda: prompt not in app.screen_stack, "the prompt closed")


async def open_screen(pilot, key: str, screen_type: type) -> None:
    """Press the key that opens a screen, and wait until it is shown with its focus set.

    A key pressed before that reached the screen below (an Enter meant for the topics table
    did nothing, or judged on the judging screen).
    """
    app = pilot.app
    await pilot.press(key)
    await until(
        pilot,
        lambda: isinstance(app.screen, screen_type) and app.screen.is_mounted and app.screen.focused is not None,
        f"{screen_type.__name__} opened and focused",
    )


async def back_to(pilot, key: str, screen_type: type) -> None:
    """Press the key that closes the screen on top, and wait until `screen_type` is the screen again."""
    app = pilot.app
    await pilot.press(key)
    await until(pilot, lambda: isinstance(app.screen, screen_type), f"back on {screen_type.__name__}")


async def settle_table(pilot, table) -> None:
    """Wait until a DataTable has laid out its new rows: column widths and auto row heights follow them when idle."""
    await until(pilot, lambda: laid_out(table), "the table settled")


def laid_out(table) -> bool:
    """Whether a DataTable's scrollable height is its rows' heights: true once it has measured the rows it was given."""
    header = table.header_height if table.show_header else 0
    rows = list(table.rows.values())
    return all(row.height > 0 for row in rows) and table.virtual_size.height == header + sum(r.height for r in rows)


async def column_on_screen(pilot, table, name: str) -> list[str]:
    """Each row's cell in column `name`, in row order, as the screen draws it, a wrapped cell's lines joined by a space.

    Read from the app's screenshot (what the annotator sees, modals and all) at the table's
    place, so a cell cut by the screen's edge or by a neighbouring column reads cut.
    """
    from svg_text import screen_lines

    await settle_table(pilot, table)
    lines = screen_lines(pilot.app.export_screenshot())
    left = table.region.x
    for column in table.ordered_columns:
        width = column.get_render_width(table)
        if column.label.plain == name:
            break
        left += width
    else:
        raise AssertionError(f"no column {name!r}")
    top = table.region.y + 1  # below the header
    cells = []
    for row in table.ordered_rows:
        drawn = [lines[top + i][left : left + width].strip() for i in range(row.height)]
        cells.append(" ".join(part for part in drawn if part))
        top += row.height
    return cells
