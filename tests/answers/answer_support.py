"""Answers and nuggets put straight into a workbench, for tests of what reads them."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from labeler.answers.model import Answer, AnswerRunInfo, Sentence
from labeler.answers.nuggets import CREATE, WRITTEN, NuggetVersion
from labeler.store import Store
from labeler.workbench.answer_labels import NuggetChange, record_nugget_changes

Said = Sequence[tuple[str, Sequence[str]]]
"""An answer as (sentence, cited unit ids) pairs."""


def add_answers(store: Store, run: str, answers: Mapping[str, Said], *, unit: str = "doc") -> list[Answer]:
    """Store `run`'s answers (topic -> sentences), as an import of a TREC RAG 2024 file would."""
    made = []
    for line, (topic_id, said) in enumerate(answers.items(), start=1):
        references = list(dict.fromkeys(unit_id for _, cited in said for unit_id in cited))
        body = {
            "run_id": run,
            "topic_id": topic_id,
            "topic": f"topic {topic_id}",
            "references": references,
            "response_length": sum(len(text.split()) for text, _ in said),
            "answer": [{"text": text, "citations": [references.index(u) for u in cited]} for text, cited in said],
        }
        sentences = tuple(Sentence(text, tuple(cited)) for text, cited in said)
        made.append(
            Answer(
                run,
                topic_id,
                sentences,
                tuple(references),
                body["topic"],
                body["response_length"],
                line,
                json.dumps(body, sort_keys=True),
            )
        )
    info = AnswerRunInfo(run, f"{run}.jsonl", "0" * 64, "trec-rag-2024", unit, "2026-12-02T00:00:00Z", 0, 0)
    with store.transaction():
        store.insert_answer_run(info, made)
    return made


def add_nuggets(
    store: Store, topic_id: str, nuggets: Sequence[tuple[str, str]], *, assessor: str = "nist"
) -> list[str]:
    """Log a topic's nuggets (text, importance), written by `assessor`, ranked in the order given; their ids."""
    ids = [f"n{topic_id}-{rank}" for rank in range(1, len(nuggets) + 1)]
    changes = [
        NuggetChange(topic_id, nugget_id, NuggetVersion(CREATE, text, importance, rank, WRITTEN), assessor)
        for rank, (nugget_id, (text, importance)) in enumerate(zip(ids, nuggets, strict=True), start=1)
    ]
    record_nugget_changes(store, changes)
    return ids
