"""The docs' tables of registered things, generated from the registries: `python -m labeler.cli.common.doc_tables`.

Each table lives in a marked region of a page under `docs/`
(`<!-- registry:orders -->` ... `<!-- /registry:orders -->`); `--write`
renders every table into its region and `--check` exits 1 naming the
regions that differ from what the registries say (tests/test_docs.py runs the
check). A new judging order, pooling strategy, measure family, run format or
built-in retriever then reaches the docs with no hand edit: run `--write`.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import labeler.formats.runs  # noqa: F401  (its import registers the built-in run formats)
from labeler.formats.run_formats import RUN_FORMATS
from labeler.metrics import names as measure_names
from labeler.ordering import ORDERS
from labeler.pooling import STRATEGIES
from labeler.retrievers.registry import COMMAND_PREFIX, RETRIEVERS

DOCS = Path(__file__).resolve().parents[3] / "docs"


@dataclass(frozen=True)
class DocTable:
    """One generated table: the page it lives on and the function that renders it."""

    name: str
    page: str
    render: Callable[[], str]


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join("---" for _ in header) + " |"]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines)


def orders_table() -> str:
    """The judging orders, as `--order` takes them."""
    rows = [
        (f"`{order.name}`", order.label, order.doc, order.why, "yes" if order.seeded else "")
        for order in ORDERS.values()
    ]
    return _table(("order", "name", "what comes first", "why", "seeded"), rows)


def strategies_table() -> str:
    """The pooling strategies, as `pool build --strategy` takes them."""
    rows = []
    for strategy in STRATEGIES.values():
        recorded = ", ".join(f"`{field}`" for field in strategy.records) or "—"
        rows.append((f"`{strategy.name}`", strategy.doc, recorded))
    return _table(("strategy", "membership", "also recorded in the pool's params"), rows)


def formats_table() -> str:
    """The run formats `runs import` reads, in the order they are tried."""
    ordered = sorted(RUN_FORMATS.values(), key=lambda run_format: run_format.fallback)
    rows = [(f"`{f.name}`", f.detected_by, f.description, f"`{f.example}`") for f in ordered]
    return _table(("format", "read when", "a result line", "example"), rows)


def retrievers_table() -> str:
    """The built-in retrievers (plug-ins differ from one machine to the next, so they are not listed)."""
    rows = [(f"`{kind.name}`", kind.description, kind.parameters) for kind in RETRIEVERS.values(plugins=False)]
    rows.append(
        (
            f"`{COMMAND_PREFIX}'CMD ...'`",
            "an external program: topics as JSON lines on stdin, a TREC or JSONL run on stdout",
            "none (put them in its command line)",
        )
    )
    return _table(("retriever", "what it is", "parameters (`--param KEY=VALUE`, default)"), rows)


def measures_table() -> str:
    """The measure families `--measures` takes, with a spelling that parses to each."""
    rows = []
    for family in measure_names.FAMILIES.values():
        aliases = ", ".join(f"`{alias}`" for alias in family.aliases)
        rows.append((f"`{family.spelling}`", family.description, f"`{family.example}`", aliases, family.source))
    return _table(("measure", "what it is", "example", "also spelled", "source"), rows)


TABLES = (
    DocTable("orders", "guide.md", orders_table),
    DocTable("strategies", "cli.md", strategies_table),
    DocTable("retrievers", "cli.md", retrievers_table),
    DocTable("formats", "formats.md", formats_table),
    DocTable("measures", "metrics.md", measures_table),
)


def _region(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- registry:{name} -->\n)(.*?)(<!-- /registry:{name} -->)", re.S)


def regenerated(text: str, table: DocTable) -> str:
    """`text` with the table's region holding what the registry renders now; ValueError if there is no region."""
    region = _region(table.name)
    if not region.search(text):
        raise ValueError(f"docs/{table.page} has no region <!-- registry:{table.name} -->")
    return region.sub(lambda match: match.group(1) + table.render() + "\n" + match.group(3), text, count=1)


def stale_tables(docs: Path = DOCS) -> list[str]:
    """The tables whose region in the docs is not what the registries render, as `page: table`."""
    stale = []
    for table in TABLES:
        text = (docs / table.page).read_text(encoding="utf-8")
        if regenerated(text, table) != text:
            stale.append(f"{table.page}: {table.name}")
    return stale


def write_tables(docs: Path = DOCS) -> list[str]:
    """Render every table into its region; the pages changed."""
    changed = []
    for table in TABLES:
        path = docs / table.page
        text = path.read_text(encoding="utf-8")
        updated = regenerated(text, table)
        if updated != text:
            path.write_text(updated, encoding="utf-8")
            changed.append(f"{table.page}: {table.name}")
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m labeler.cli.common.doc_tables", description=__doc__.splitlines()[0]
    )
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--check", action="store_true", help="exit 1 if a docs table differs from its registry")
    action.add_argument("--write", action="store_true", help="render every table into its docs region")
    parser.add_argument("--docs", type=Path, default=DOCS, help="the docs folder (default: the checkout's docs/)")
    args = parser.parse_args(argv)
    if args.write:
        for changed in write_tables(args.docs):
            print(f"wrote {changed}")
        return 0
    stale = stale_tables(args.docs)
    for name in stale:
        print(f"stale: docs/{name} (run python -m labeler.cli.common.doc_tables --write)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
