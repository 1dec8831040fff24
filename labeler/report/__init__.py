"""A standalone HTML report: charts drawn as inline SVG, so it opens anywhere with no network.

Presentation, like the front ends: it turns `labeler.workbench.report.report_data` into a page and
imports neither the workbench nor the store (pyproject.toml's import-linter contracts).
"""

from labeler.report.html import render_report

__all__ = ["render_report"]
