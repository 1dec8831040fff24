"""A judgment the screen has moved past survives SIGKILL of the app."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

from judging_support import grades

CHILD = """
import asyncio, sys
from labeler.tui import JudgeRequest, make_app

async def main(db):
    app = make_app(JudgeRequest(db, assessor="ann"))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "0")
        print("SHOWING", app.session.current.unit_id, flush=True)
        await asyncio.sleep(120)

asyncio.run(main(sys.argv[1]))
"""


def test_sigkill_right_after_grade_keys_loses_nothing_the_screen_moved_past(judging_db, tmp_path):
    script = tmp_path / "child.py"
    script.write_text(CHILD)
    child = subprocess.Popen([sys.executable, str(script), str(judging_db)], stdout=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        assert line.strip() == "SHOWING d6"  # the screen moved past d1 and d2
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=10)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signal.SIGKILL
    assert grades(judging_db) == {("1", "d1"): 2, ("1", "d2"): 0}
