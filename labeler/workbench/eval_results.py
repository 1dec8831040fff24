"""What `eval` and `eval --compare` return: typed results whose `to_json()` is the documented `--json`.

The front ends read the attributes (`run.topics.scored`, `report.stages.rows`); only `--json`
calls `to_json()`, which gives exactly the dict the services returned before they were typed
(key order included), so the printed JSON never changes shape.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from labeler.json_form import json_form

if TYPE_CHECKING:
    from labeler.workbench.alignment import TopicsSince
    from labeler.workbench.model_scoring import LabelsNote


@dataclass(frozen=True)
class RunTopics:
    """The topics one run's figures rest on: scored, excluded and why, missed by the run, reopened."""

    scored: int
    excluded: dict[str, int]  # reason -> how many topics
    excluded_topics: dict[str, str]  # topic -> reason
    not_in_run: int
    not_in_run_topics: list[str]
    not_in_snapshot: int
    reopened: dict[str, dict[str, Any]]  # topic -> its manifest's reopened row (pool, unjudged, ...)
    lower_bound: list[str]  # scored reopened topics: their scores are lower bounds
    # against the previous snapshot of the unit space: its scored count, topics entered, topics left (-> why now)
    since: TopicsSince | None = None

    def left_out_reopened(self) -> dict[str, dict[str, Any]]:
        """The reopened topics that were not scored (the others are lower bounds)."""
        return {t: r for t, r in self.reopened.items() if t not in self.lower_bound}

    def to_json(self) -> dict[str, Any]:
        return {
            "scored": self.scored,
            "excluded": dict(self.excluded),
            "excluded_topics": dict(self.excluded_topics),
            "not_in_run": self.not_in_run,
            "not_in_run_topics": list(self.not_in_run_topics),
            "not_in_snapshot": self.not_in_snapshot,
            "reopened": dict(self.reopened),
            "lower_bound": list(self.lower_bound),
            "since": json_form(self.since),
        }


@dataclass(frozen=True)
class RunScore:
    """One run's scores on a snapshot, with its denominators and how its unit was reconciled."""

    run: str
    unit: str
    run_unit: str
    stage: str
    topics: RunTopics
    aggregate: dict[str, float | None]
    counts: dict[str, int]
    residuals: dict[str, float] | None
    recall: dict[str, dict[str, Any]]  # "k" -> recall_report (macro, micro, ceiling, ...)
    status: str
    units: dict[str, Any]  # the unit notes: unit, labels_lifted_to_documents, chunks_collapsed, ...
    judged_topics: int | None = None  # set when a Judged@k was asked for: the topics it is a mean over
    per_query: dict[str, dict[str, float | None]] | None = None
    # `--labels combined`: measure -> [low, high] of its prediction-powered interval (None: no interval for it),
    # the human labels of the random sample the intervals rest on, and each estimate's parts
    ci: dict[str, list[float] | None] | None = None
    human_labels: int | None = None
    ppi: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "run": self.run,
            "unit": self.unit,
            "run_unit": self.run_unit,
            "stage": self.stage,
            "topics": self.topics.to_json(),
            "aggregate": self.aggregate,
            "counts": self.counts,
            "residuals": self.residuals,
            "recall": self.recall,
            "status": self.status,
            "units": self.units,
        }
        if self.judged_topics is not None:
            result["judged_over"], result["judged_topics"] = "scored", self.judged_topics
        if self.per_query is not None:
            result["per_query"] = self.per_query
        if self.ci is not None:
            result["ci"], result["human_labels"], result["ppi"] = self.ci, self.human_labels, self.ppi
        return result


@dataclass(frozen=True)
class StageRow:
    """One pipeline stage: its recall at each k and what it lost against the stage before."""

    run: str
    stage: str
    recall: dict[int, float | None]
    lost: dict[int, float | None]

    def to_json(self) -> dict[str, Any]:
        return {"run": self.run, "stage": self.stage, "recall": dict(self.recall), "lost": dict(self.lost)}


@dataclass(frozen=True)
class StageTable:
    """Recall at each stage of one system, in pipeline order (`--stages`)."""

    k: list[int]
    rows: list[StageRow]

    def to_json(self) -> dict[str, Any]:
        return {"k": list(self.k), "rows": [row.to_json() for row in self.rows]}


@dataclass(frozen=True)
class BaselineReport:
    """Every other run against a declared baseline, per measure, with one correction over the family (`--baseline`)."""

    baseline: str
    runs: list[str]  # the runs compared with it, in report order
    measures: list[str]
    correction: dict[str, Any]  # method, family_size, runs, measures
    bootstrap: dict[str, Any]  # method, resamples, seed, level
    # run -> measure -> baseline_comparison (improved/degraded/tied, tests with raw and adjusted p, ci, ...)
    comparisons: dict[str, dict[str, dict[str, Any]]]
    # run -> {"first_only": baseline's topics it lacks, "second_only": its topics the baseline lacks}; differing only
    topic_sets: dict[str, dict[str, list[str]]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The keys `eval --json` and `compare --json` add with `--baseline` (none of the others change)."""
        return {
            "baseline": self.baseline,
            "correction": dict(self.correction),
            "bootstrap": dict(self.bootstrap),
            "comparisons": self.comparisons,
            "topic_sets": dict(self.topic_sets),
        }


@dataclass(frozen=True)
class EvalReport:
    """Scores of runs on one snapshot (`evaluate_runs`)."""

    snapshot: str
    snapshot_sha256: str
    unit: str
    measures: list[str]
    average: str
    depth: int | None
    threshold: int
    runs: list[RunScore]
    runs_not_scored: list[str]
    runs_retired: list[str]
    stages: StageTable | None = None
    baseline: BaselineReport | None = None
    labels: LabelsNote | None = None  # `--labels model|combined`: labels, model, calibration method/examples
    judged_only: bool = False  # each ranking condensed to its judged units before scoring (trec_eval -J)

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "snapshot": self.snapshot,
            "snapshot_sha256": self.snapshot_sha256,
            "unit": self.unit,
            "measures": list(self.measures),
            "average": self.average,
            "depth": self.depth,
            "threshold": self.threshold,
            "runs": [run.to_json() for run in self.runs],
            "runs_not_scored": list(self.runs_not_scored),
            "runs_retired": list(self.runs_retired),
            "judged_only": self.judged_only,
        }
        if self.stages is not None:
            result["stages"] = self.stages.to_json()
        if self.baseline is not None:
            result.update(self.baseline.to_json())
        if self.labels is not None:
            result["labels"] = json_form(self.labels)
        return result


@dataclass(frozen=True)
class RunComparison:
    """A paired comparison of two runs per measure (`compare_runs`, `eval --compare`)."""

    snapshot: str
    a: str
    b: str
    unit: str
    topics_a: RunTopics
    topics_b: RunTopics
    # measure -> paired_comparison (n, mean_a, mean_b, mean_delta, wins, ties, losses, p-values, ...)
    measures: dict[str, dict[str, Any]] = field(default_factory=dict)
    average: str = "reviewed"
    correction: dict[str, Any] = field(default_factory=dict)  # method, family_size, runs, measures
    bootstrap: dict[str, Any] = field(default_factory=dict)  # method, resamples, seed, level
    judged_only: bool = False  # each ranking condensed to its judged units before scoring (trec_eval -J)
    topic_sets: dict[str, list[str]] | None = None  # {"first_only", "second_only"} when a and b score other topics

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "a": self.a,
            "b": self.b,
            "unit": self.unit,
            "topics": {"a": self.topics_a.to_json(), "b": self.topics_b.to_json()},
            "measures": self.measures,
            "average": self.average,
            "baseline": self.a,
            "correction": dict(self.correction),
            "bootstrap": dict(self.bootstrap),
            "judged_only": self.judged_only,
            "topic_sets": self.topic_sets,
        }
