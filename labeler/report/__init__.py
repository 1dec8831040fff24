"""A standalone HTML report: charts drawn as inline SVG, so it opens anywhere with no network.

Presentation, like the front ends: it turns `labeler.workbench.report.report_data` (a `ReportData`)
into a page; it never imports the store (pyproject.toml's import-linter contracts), and the workbench
only for the result types, under `TYPE_CHECKING`.
"""

from labeler.report.html import render_report

__all__ = ["render_report"]
