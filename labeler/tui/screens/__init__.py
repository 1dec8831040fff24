"""Screens of the judging UI: each coordinates its widgets and calls the workbench."""
