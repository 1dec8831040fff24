"""labeler: a relevance-labeling and pooling workbench for IR and RAG evaluation.

The distribution is `relevance-labeler` (`pipx install relevance-labeler`); the package and the
command are `labeler`. `labeler.__version__` is the installed distribution's version, read from its
metadata when first asked for (`labeler --version`, `init`, a snapshot's manifest), not at import:
importlib.metadata costs tens of milliseconds, which every command's start would otherwise pay.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

DIST_NAME = "relevance-labeler"
"""The name pip, pipx and PyPI know this project by."""

UNKNOWN_VERSION = "0+unknown"
"""The version of a source tree that is neither installed nor next to its pyproject.toml."""


@functools.cache
def installed_version() -> str:
    """The installed distribution's version; in a source tree without metadata, its pyproject.toml's."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(DIST_NAME)
    except PackageNotFoundError:
        return source_version(Path(__file__).resolve().parent.parent / "pyproject.toml")


def source_version(pyproject: Path) -> str:
    """The `version = "..."` of a checkout's pyproject.toml (its first, the [project] table's), if it has one."""
    try:
        found = re.search(r'^version\s*=\s*"([^"]+)"', pyproject.read_text(encoding="utf-8"), re.MULTILINE)
    except OSError:
        return UNKNOWN_VERSION
    return found.group(1) if found else UNKNOWN_VERSION


def __getattr__(name: str) -> str:
    if name == "__version__":
        return installed_version()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
