"""No function in the package is over radon's grade C: a branchy function is split into named steps.

ruff's C901 (pyproject.toml) counts branches differently (no comprehensions, `and`/`or` or conditional
expressions; nested functions included), so this test is what holds radon's grade: `radon cc -n D labeler`
lists nothing.
"""

from __future__ import annotations

from pathlib import Path

from radon.complexity import cc_rank, cc_visit

PACKAGE = Path(__file__).resolve().parent.parent / "labeler"


def test_no_function_is_graded_d_or_worse():
    over = [
        f"{path.relative_to(PACKAGE.parent)}:{block.lineno} {block.fullname} {cc_rank(block.complexity)} "
        f"({block.complexity})"
        for path in sorted(PACKAGE.rglob("*.py"))
        for block in cc_visit(path.read_text(encoding="utf-8"))
        if block.complexity > 20
    ]
    assert not over, "split these into named steps (radon grade D or worse):\n" + "\n".join(over)
