"""What `eval` and `eval --compare` return: typed results whose JSON form is the documented `--json`.

The front ends read the attributes (`run.topics.scored`, `report.stages.rows`); only `--json`
calls `to_json()` (`labeler.json_form`: the fields in order, with their rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from labeler.json_form import JsonResult, json_field

if TYPE_CHECKING:
    from labeler.workbench.alignment import TopicsSince
    from labeler.workbench.model_scoring import LabelsNote


def judged_over(topics: str, **field_args: Any) -> Any:
    """A field counting the topics a Judged@k mean is over; `judged_over` (`topics`: which ones) precedes its key."""
    return json_field(preceded_by={"judged_over": topics}, **field_args)


@dataclass(frozen=True)
class RunTopics(JsonResult):
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

    # the manifest's reopened rows as stored (`alignment.reopened_topics`): free-form on purpose
    def left_out_reopened(self) -> dict[str, dict[str, Any]]:
        """The reopened topics that were not scored (the others are lower bounds)."""
        return {t: r for t, r in self.reopened.items() if t not in self.lower_bound}


@dataclass(frozen=True)
class RunScore(JsonResult):
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
    # set when a Judged@k was asked for: the topics it is a mean over
    judged_topics: int | None = judged_over("scored", omit_if_none=True, default=None)
    per_query: dict[str, dict[str, float | None]] | None = json_field(omit_if_none=True, default=None)
    # `--labels combined`: measure -> [low, high] of its prediction-powered interval (None: no interval for it),
    # the human labels of the random sample the intervals rest on, and each estimate's parts
    ci: dict[str, list[float] | None] | None = json_field(omit_if_none=True, default=None)
    human_labels: int | None = json_field(omit_if_none=True, default=None)
    ppi: dict[str, Any] | None = json_field(omit_if_none=True, default=None)


@dataclass(frozen=True)
class StageRow(JsonResult):
    """One pipeline stage: its recall at each k and what it lost against the stage before."""

    run: str
    stage: str
    recall: dict[int, float | None]
    lost: dict[int, float | None]


@dataclass(frozen=True)
class StageTable(JsonResult):
    """Recall at each stage of one system, in pipeline order (`--stages`)."""

    k: list[int]
    rows: list[StageRow]


@dataclass(frozen=True)
class BaselineReport(JsonResult):
    """Every other run against a declared baseline, per measure, with one correction over the family (`--baseline`).

    Its JSON form is the keys `eval --json` and `compare --json` add with `--baseline` (none of the others change).
    """

    baseline: str
    runs: list[str] = json_field(omit=True)  # the runs compared with it, in report order
    measures: list[str] = json_field(omit=True)
    correction: dict[str, Any] = json_field()  # method, family_size, runs, measures
    bootstrap: dict[str, Any] = json_field()  # method, resamples, seed, level
    # run -> measure -> baseline_comparison (improved/degraded/tied, tests with raw and adjusted p, ci, ...)
    comparisons: dict[str, dict[str, dict[str, Any]]] = json_field()
    # run -> {"first_only": baseline's topics it lacks, "second_only": its topics the baseline lacks}; differing only
    topic_sets: dict[str, dict[str, list[str]]] = field(default_factory=dict)


@dataclass(frozen=True)
class EvalReport(JsonResult):
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
    judged_only: bool = False  # each ranking condensed to its judged units before scoring (trec_eval -J)
    stages: StageTable | None = json_field(omit_if_none=True, default=None)
    baseline: BaselineReport | None = json_field(flatten=True, omit_if_none=True, default=None)  # its keys join these
    # `--labels model|combined`: labels, model, calibration method/examples
    labels: LabelsNote | None = json_field(omit_if_none=True, default=None)


@dataclass(frozen=True)
class RunComparison(JsonResult):
    """A paired comparison of two runs per measure (`compare_runs`, `eval --compare`); `a` is the baseline."""

    json_extra = {"topics": "unit", "baseline": "average"}

    snapshot: str
    a: str
    b: str
    unit: str
    topics_a: RunTopics = json_field(omit=True)
    topics_b: RunTopics = json_field(omit=True)
    # measure -> paired_comparison (n, mean_a, mean_b, mean_delta, wins, ties, losses, p-values, ...)
    measures: dict[str, dict[str, Any]] = field(default_factory=dict)
    average: str = "reviewed"
    correction: dict[str, Any] = field(default_factory=dict)  # method, family_size, runs, measures
    bootstrap: dict[str, Any] = field(default_factory=dict)  # method, resamples, seed, level
    judged_only: bool = False  # each ranking condensed to its judged units before scoring (trec_eval -J)
    topic_sets: dict[str, list[str]] | None = None  # {"first_only", "second_only"} when a and b score other topics

    @property
    def topics(self) -> dict[str, RunTopics]:
        return {"a": self.topics_a, "b": self.topics_b}

    @property
    def baseline(self) -> str:
        return self.a
