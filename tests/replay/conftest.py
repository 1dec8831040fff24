"""The Toy-2 workbench (pooling_literature.md §0): three runs of five units, d11 never judged."""

from __future__ import annotations

import pytest

RUNS = {
    "A": "d1 d2 d3 d4 d5",
    "B": "d2 d6 d1 d7 d8",
    "C": "d9 d6 d10 d2 d11",
}
RELEVANT = {"d1", "d2", "d4", "d6", "d9"}
LABELLED = ["d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10"]  # d11 never judged


@pytest.fixture
def toy(run_cli, write):
    run_cli("topics", "import", write("topics.tsv", "q1\tfirst topic\n"))
    for name, units in RUNS.items():
        lines = "".join(f"q1 Q0 {u} {r} {10 - r} {name}\n" for r, u in enumerate(units.split(), 1))
        run_cli("runs", "import", write(f"{name}.run", lines), "--name", name)
    qrels = "".join(f"q1 0 {u} {int(u in RELEVANT)}\n" for u in LABELLED)
    run_cli("judgments", "import", write("qrels.txt", qrels), "--reviewed")
    run_cli("snapshot", "create", "-m", "v1")
    return run_cli
