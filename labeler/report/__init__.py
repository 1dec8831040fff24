"""A standalone HTML report: charts drawn as inline SVG, so it opens anywhere with no network."""

from labeler.report.html import render_report

__all__ = ["render_report"]
