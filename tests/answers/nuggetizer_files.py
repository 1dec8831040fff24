"""nuggetizer's files as the nugget file tests write them: two topics of the sample's subjects, their nuggets."""

from __future__ import annotations

import json

TOPICS = {"1": "controlling insect pests in crops", "2": "milk fever dairy cows"}

NUGGETS = [
    {
        "query": TOPICS["1"],
        "qid": "1",
        "nuggets": [
            {"text": "Scouting finds pests early", "importance": "vital"},
            {"text": "Biological control uses natural enemies", "importance": "vital"},
            {"text": "Airtight storage kills weevils", "importance": "okay"},
        ],
    },
    {
        "query": TOPICS["2"],
        "qid": "2",
        "nuggets": [
            {"text": "Milk fever is low blood calcium after calving", "importance": "vital"},
            {"text": "Treated with intravenous calcium", "importance": "okay"},
        ],
    },
]


def jsonl(rows: list[dict]) -> str:
    return "".join(json.dumps(row) + "\n" for row in rows)


def assigned(topic: str, run: str, labels: list[str]) -> dict:
    record = next(r for r in NUGGETS if r["qid"] == topic)
    nuggets = [dict(n, assignment=label) for n, label in zip(record["nuggets"], labels, strict=True)]
    return {
        "query": record["query"],
        "qid": topic,
        "answer_text": f"answer of {run} to {topic}",
        "response_length": 5,
        "run_id": run,
        "nuggets": nuggets,
    }
