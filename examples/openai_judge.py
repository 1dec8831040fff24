"""An example command judge for `labeler prelabel`, calling an OpenAI-compatible chat endpoint.

    export OPENAI_BASE_URL=https://api.openai.com/v1   # or any compatible server (vLLM, llama.cpp, ...)
    export OPENAI_API_KEY=...
    export OPENAI_MODEL=gpt-4o-mini                    # optional
    labeler prelabel --judge command:'python examples/openai_judge.py --grades 0,1,2,3' --model-name gpt-4o-mini

labeler writes one pair a line on stdin (`{"topic", "unit", "unit_space", "title",
"description", "narrative", "text"}`) and reads one answer a line on stdout (`{"topic",
"unit", "grade", "probs"}`). The prompt follows UMBRELA's (Upadhyay et al., 2024, the TREC
RAG track's judge): a 0-3 relevance grade for the passage given the query. When the endpoint
returns token log-probabilities (`logprobs`), `probs` is their mass on each grade's token,
renormalised over the grades (a grade absent from the top tokens gets 0); otherwise the
answer has no `probs`.

Only the standard library (urllib). It was not run against a real endpoint when it was
written (no network there); its protocol handling is tested against a fake endpoint
(tests/assisted/test_prelabel.py). Without OPENAI_BASE_URL and OPENAI_API_KEY it exits 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
import urllib.error
import urllib.request

PROMPT = """Given a query and a passage, you must provide a score on an integer scale of 0 to 3 with the
following meanings:
0 = represent that the passage has nothing to do with the query,
1 = represents that the passage seems related to the query but does not answer it,
2 = represents that the passage has some answer for the query, but the answer may be a bit unclear, or hidden
amongst extraneous information and
3 = represents that the passage is dedicated to the query and contains the exact answer.

Query: {query}
Passage: {passage}

Answer with the score alone, a single digit."""


def ask(base_url: str, key: str, model: str, pair: dict, grades: list[int], timeout: float) -> dict:
    body = {
        "model": model,
        "messages": [{"role": "user", "content": PROMPT.format(query=pair["title"], passage=pair["text"][:6000])}],
        "temperature": 0,
        "max_tokens": 2,
        "logprobs": True,
        "top_logprobs": 10,
    }
    request = urllib.request.Request(
        base_url.rstrip("/") + "/chat/completions",
        data=json.dumps(body).encode("utf-8"),
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {key}"},
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        reply = json.load(response)
    choice = reply["choices"][0]
    found = re.search(r"-?\d+", choice["message"]["content"] or "")
    if found is None or int(found.group()) not in grades:
        raise ValueError(f"the model answered {choice['message']['content']!r}, not a grade of {grades}")
    answer = {"topic": pair["topic"], "unit": pair["unit"], "grade": int(found.group())}
    probs = grade_probs(choice.get("logprobs"), grades)
    if probs is not None:
        answer["probs"] = probs
    return answer


def grade_probs(logprobs: dict | None, grades: list[int]) -> dict[str, float] | None:
    """The first token's top log-probabilities as a distribution over the grades, or None."""
    try:
        top = logprobs["content"][0]["top_logprobs"]  # type: ignore[index]
    except (TypeError, KeyError, IndexError):
        return None
    mass = {g: 0.0 for g in grades}
    for item in top:
        token = str(item.get("token", "")).strip()
        if token.lstrip("-").isdigit() and int(token) in mass:
            mass[int(token)] += math.exp(float(item["logprob"]))
    total = math.fsum(mass.values())
    if total <= 0:
        return None
    return {str(g): p / total for g, p in mass.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grades", default="0,1,2,3", help="the workbench's grades, comma-separated")
    parser.add_argument("--timeout", type=float, default=60.0)
    args = parser.parse_args()
    base_url, key = os.environ.get("OPENAI_BASE_URL"), os.environ.get("OPENAI_API_KEY")
    if not base_url or not key:
        print("openai_judge: set OPENAI_BASE_URL and OPENAI_API_KEY (no endpoint is configured)", file=sys.stderr)
        return 2
    model = os.environ.get("OPENAI_MODEL", "gpt-4o-mini")
    grades = [int(g) for g in args.grades.split(",")]
    for line in sys.stdin:
        if not line.strip():
            continue
        pair = json.loads(line)
        try:
            answer = ask(base_url, key, model, pair, grades, args.timeout)
        except (urllib.error.URLError, ValueError, KeyError, OSError) as exc:
            print(f"openai_judge: topic {pair.get('topic')} unit {pair.get('unit')}: {exc}", file=sys.stderr)
            return 1
        print(json.dumps(answer), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
