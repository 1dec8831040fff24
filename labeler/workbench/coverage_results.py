"""What `coverage`, `compare` and the report gather: typed results whose `to_json()` is the documented `--json`.

The front ends (the CLI, the TUI's coverage screen, the HTML page) read the attributes; only
`--json` calls `to_json()`, which gives exactly the dict the services returned before they were
typed (key order included). Figures the domain hands over as plain mappings (recall curves,
leave-one-run-out rows, a run's before/after scores) stay mappings: their keys are measure names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from labeler.pace import Pace
from labeler.workbench.eval_results import BaselineReport
from labeler.workbench.rounds import Reopened


@dataclass(frozen=True)
class PaceNote:
    """The pace an estimate used, as `pool build` reports it."""

    per_hour: float
    judgments: int
    basis: str  # "median" of timed judgments, or the "default"
    description: str

    @classmethod
    def of(cls, pace: Pace) -> PaceNote:
        return cls(pace.per_hour, pace.judgments, "median" if pace.measured else "default", pace.describe())

    def to_json(self) -> dict[str, Any]:
        return {
            "per_hour": self.per_hour,
            "judgments": self.judgments,
            "basis": self.basis,
            "description": self.description,
        }


@dataclass(frozen=True)
class Effort:
    """What judging the unjudged units of the runs' top k takes, at the team's pace."""

    depth: int
    unjudged: int
    hours: float
    pace: PaceNote

    def to_json(self) -> dict[str, Any]:
        return {"depth": self.depth, "unjudged": self.unjudged, "hours": self.hours, "pace": self.pace.to_json()}


@dataclass(frozen=True)
class CoverageRun:
    """One run's coverage: Judged@k over every topic and over the scored ones, unique units, pool bias."""

    judged: float | None  # over every topic (the pool's view)
    judged_topics: int
    judged_scored: float | None  # over the scored topics (what `eval` averages)
    judged_scored_topics: int
    unjudged: int
    unjudged_share: float | None
    unique: int
    unique_relevant: int
    recall_curve: list[dict[str, Any]]  # per k: macro, micro, ceiling, share_of_ceiling, ...
    loro: dict[str, dict[str, float | None]] | None = None  # measure -> full, without, drop, relative_drop
    loro_judged: dict[str, float | None] | None = None

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "judged": self.judged,
            "judged_over": "all",
            "judged_topics": self.judged_topics,
            "judged_scored": self.judged_scored,
            "judged_scored_topics": self.judged_scored_topics,
            "unjudged": self.unjudged,
            "unjudged_share": self.unjudged_share,
            "unique": self.unique,
            "unique_relevant": self.unique_relevant,
            "recall_curve": self.recall_curve,
        }
        if self.loro is not None:
            result["loro"] = self.loro
            result["loro_judged"] = self.loro_judged
        return result


@dataclass(frozen=True)
class CoverageTopic:
    """One topic's pool, judgments and the bounds on its number of relevant units R."""

    pool: int
    judged: int
    relevant: int
    r_lower_bound: int
    r_estimate: float | None
    r_se: float | None
    r_unreliable: bool
    saturation: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "judged": self.judged,
            "relevant": self.relevant,
            "r_lower_bound": self.r_lower_bound,
            "r_estimate": self.r_estimate,
            "r_se": self.r_se,
            "r_unreliable": self.r_unreliable,
            "saturation": self.saturation,
        }


@dataclass(frozen=True)
class CoverageRanking:
    """The system ranking under leave-one-run-out: how far it moves, and which runs the pool favours."""

    measure: str | None = None  # None: leave-one-run-out was not run
    full: list[str] | None = None
    kendall_tau: dict[str, float | None] | None = None
    tau_ap: dict[str, float | None] | None = None
    min_kendall_tau: float | None = None
    not_equivalent: list[Any] | None = None
    favoured: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        if self.measure is None:
            return {"kendall_tau": {}, "tau_ap": {}, "measure": None, "favoured": []}
        return {
            "measure": self.measure,
            "full": self.full,
            "kendall_tau": self.kendall_tau,
            "tau_ap": self.tau_ap,
            "min_kendall_tau": self.min_kendall_tau,
            "not_equivalent": self.not_equivalent,
            "favoured": list(self.favoured),
        }


@dataclass(frozen=True)
class PoolCounts:
    """Pairs of the latest pool (of one run, or one topic): how many, unjudged, new since the previous pool."""

    pairs: int
    unjudged: int
    new: int
    new_unjudged: int

    def run_json(self) -> dict[str, Any]:
        return {"pairs": self.pairs, "unjudged": self.unjudged, "new": self.new, "new_unjudged": self.new_unjudged}

    def topic_json(self) -> dict[str, Any]:
        return {"pool": self.pairs, "new": self.new, "unjudged": self.unjudged, "new_unjudged": self.new_unjudged}


@dataclass(frozen=True)
class RepoolStatus:
    """What the latest pool added over the previous one of its unit, what is unjudged, and the effort left."""

    pool: str
    runs_not_pooled: list[str]
    previous: str | None
    unit: str
    unjudged: int
    judgments_per_hour: float
    effort_hours: float
    pace: PaceNote
    per_run: dict[str, PoolCounts]
    per_topic: dict[str, PoolCounts]

    def to_json(self) -> dict[str, Any]:
        return {
            "pool": self.pool,
            "runs_not_pooled": list(self.runs_not_pooled),
            "previous": self.previous,
            "unit": self.unit,
            "unjudged": self.unjudged,
            "judgments_per_hour": self.judgments_per_hour,
            "effort_hours": self.effort_hours,
            "pace": self.pace.to_json(),
            "per_run": {run: counts.run_json() for run, counts in self.per_run.items()},
            "per_topic": {topic: counts.topic_json() for topic, counts in self.per_topic.items()},
        }


@dataclass(frozen=True)
class CoverageReport:
    """How complete one snapshot's judgments are for each run and topic (`coverage_report`)."""

    snapshot: str
    depth: int
    unit: str
    threshold: int
    runs: dict[str, CoverageRun]
    topics: dict[str, CoverageTopic]
    scored_topics: int
    reopened: dict[str, dict[str, Any]]  # left out of the scored topics: their latest pool is not all judged
    judged_topics: int
    effort: Effort
    ranking: CoverageRanking
    loro: dict[str, Any] | None  # leave-one-run-out summary per measure; None when not run
    r_estimate_warning: str
    pool: RepoolStatus | None
    runs_not_scored: list[str]
    runs_retired: list[str]
    judged_only: bool = False  # leave-one-run-out scores condensed lists (trec_eval -J)

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshot": self.snapshot,
            "depth": self.depth,
            "unit": self.unit,
            "threshold": self.threshold,
            "runs": {name: run.to_json() for name, run in self.runs.items()},
            "topics": {topic: row.to_json() for topic, row in self.topics.items()},
            "scored_topics": self.scored_topics,
            "reopened": dict(self.reopened),
            "judged_over": "all",
            "judged_topics": self.judged_topics,
            "effort": self.effort.to_json(),
            "ranking": self.ranking.to_json(),
            "loro": self.loro,
            "r_estimate_warning": self.r_estimate_warning,
            "pool": self.pool.to_json() if self.pool is not None else None,
            "runs_not_scored": list(self.runs_not_scored),
            "runs_retired": list(self.runs_retired),
            "judged_only": self.judged_only,
        }


@dataclass(frozen=True)
class ComparisonRanking:
    """The system ranking before and after, and who moved or gained."""

    measure: str
    before: list[str]
    after: list[str]
    kendall_tau: float | None
    tau_ap: float | None
    moved: dict[str, Any]
    gained: list[dict[str, Any]]  # run, before, after, gain; the biggest gain first

    def to_json(self) -> dict[str, Any]:
        return {
            "measure": self.measure,
            "before": list(self.before),
            "after": list(self.after),
            "kendall_tau": self.kendall_tau,
            "tau_ap": self.tau_ap,
            "moved": self.moved,
            "gained": self.gained,
        }


@dataclass(frozen=True)
class SnapshotComparison:
    """What changed between two snapshots (`compare_report`): labels, relevant sets, scores, the ranking."""

    old: str
    new: str
    depth: int
    unit: str
    topics: int  # the topics the newer snapshot scores; both are scored on them
    reopened: dict[str, dict[str, Any]]  # not compared: the newer snapshot's labels miss pool units
    labels: dict[str, int]  # added, changed, retracted
    topics_grown: dict[str, dict[str, Any]]  # topic -> before, after, new
    reopened_since: dict[str, Reopened]
    runs: dict[str, dict[str, Any]]  # run -> before, after, change, recall (measure -> value)
    runs_not_scored: list[str]
    runs_retired: list[str]
    ranking: ComparisonRanking
    baseline: BaselineReport | None = None  # `--baseline`: every other run against it, under the newer snapshot
    judged_only: bool = False  # both snapshots' scores over condensed lists (trec_eval -J)
    # the older snapshot's own scored count, and the topics that entered or left (-> why now) the newer one's
    topic_changes: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        result: dict[str, Any] = {
            "from": self.old,
            "to": self.new,
            "depth": self.depth,
            "unit": self.unit,
            "topics": self.topics,
            "reopened": dict(self.reopened),
            # Judged@k, like every measure here, is a mean over the topics the newer snapshot scores (as in eval)
            "judged_over": "scored",
            "judged_topics": self.topics,
            "labels": self.labels,
            "topics_grown": self.topics_grown,
            "reopened_since": {topic: r.to_dict() for topic, r in self.reopened_since.items()},
            "runs": self.runs,
            "runs_not_scored": list(self.runs_not_scored),
            "runs_retired": list(self.runs_retired),
            "ranking": self.ranking.to_json(),
            "judged_only": self.judged_only,
            "topic_changes": dict(self.topic_changes),
        }
        if self.baseline is not None:
            result.update(self.baseline.to_json())
            result["baseline_snapshot"] = self.new
        return result


@dataclass(frozen=True)
class History:
    """Each run's Judged@k and R@k on every snapshot of one unit space, for the report's charts."""

    snapshots: list[str]
    judged: dict[str, list[float | None]]  # run -> one value per snapshot (None before the run existed)
    recall: dict[str, list[float | None]]
    judged_topics: list[int]  # per snapshot: the topics its means are over

    def to_json(self) -> dict[str, Any]:
        return {
            "snapshots": list(self.snapshots),
            "judged": {run: list(v) for run, v in self.judged.items()},
            "recall": {run: list(v) for run, v in self.recall.items()},
            "judged_over": "labelled",
            "judged_topics": list(self.judged_topics),
        }


@dataclass(frozen=True)
class ReportData:
    """What the HTML page is drawn from (`report_data`)."""

    workbench: str
    created: str
    coverage: CoverageReport
    history: History

    def to_json(self) -> dict[str, Any]:
        return {
            "workbench": self.workbench,
            "created": self.created,
            "coverage": self.coverage.to_json(),
            "history": self.history.to_json(),
        }
