"""What `coverage`, `compare` and the report gather: typed results whose JSON form is the documented `--json`.

The front ends (the CLI, the TUI's coverage screen, the HTML page) read the attributes; only
`--json` calls `to_json()` (`labeler.json_form`: the fields in order, with their rules). Figures the
domain hands over as plain mappings (recall curves, leave-one-run-out rows, a run's before/after
scores) stay mappings: their keys are measure names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from labeler.json_form import JsonResult, json_field
from labeler.pace import Pace
from labeler.workbench.eval_results import BaselineReport, judged_over
from labeler.workbench.rounds import Reopened


@dataclass(frozen=True)
class PaceNote(JsonResult):
    """The pace an estimate used, as `pool build` reports it."""

    per_hour: float
    judgments: int
    basis: str  # "median" of timed judgments, or the "default"
    description: str

    @classmethod
    def of(cls, pace: Pace) -> PaceNote:
        return cls(pace.per_hour, pace.judgments, "median" if pace.measured else "default", pace.describe())


@dataclass(frozen=True)
class Effort(JsonResult):
    """What judging the unjudged units of the runs' top k takes, at the team's pace."""

    depth: int
    unjudged: int
    hours: float
    pace: PaceNote


@dataclass(frozen=True)
class CoverageRun(JsonResult):
    """One run's coverage: Judged@k over every topic and over the scored ones, unique units, pool bias."""

    judged: float | None  # over every topic (the pool's view)
    judged_topics: int = judged_over("all")
    judged_scored: float | None = json_field()  # over the scored topics (what `eval` averages)
    judged_scored_topics: int = json_field()
    unjudged: int = json_field()
    unjudged_share: float | None = json_field()
    unique: int = json_field()
    unique_relevant: int = json_field()
    recall_curve: list[dict[str, Any]] = json_field()  # per k: macro, micro, ceiling, share_of_ceiling, ...
    # measure -> full, without, drop, relative_drop; both None (and no keys) when leave-one-run-out was not run
    loro: dict[str, dict[str, float | None]] | None = json_field(omit_if_none=True, default=None)
    loro_judged: dict[str, float | None] | None = json_field(omit_if_none=True, default=None)


@dataclass(frozen=True)
class CoverageTopic(JsonResult):
    """One topic's pool, judgments and the bounds on its number of relevant units R."""

    pool: int
    judged: int
    relevant: int
    r_lower_bound: int
    r_estimate: float | None
    r_se: float | None
    r_unreliable: bool
    saturation: float | None


@dataclass(frozen=True)
class CoverageRanking(JsonResult):
    """The system ranking under leave-one-run-out on `measure`: how far it moves, and which runs the pool favours.

    `kendall_tau` and `tau_ap`: each run's, between the full ranking and the ranking without its unique
    units; `not_equivalent`: the runs whose tau is under the equivalence line.
    """

    measure: str
    full: list[str]
    kendall_tau: dict[str, float | None]
    tau_ap: dict[str, float | None]
    min_kendall_tau: float | None
    not_equivalent: list[str]
    favoured: tuple[str, ...] = ()


@dataclass(frozen=True)
class RankingNotRun(JsonResult):
    """The ranking when leave-one-run-out was not run: no measure, no taus, no run favoured.

    Its own, shorter document, with the keys `CoverageRanking` shares in this order.
    """

    kendall_tau: dict[str, float | None] = field(default_factory=dict)
    tau_ap: dict[str, float | None] = field(default_factory=dict)
    measure: None = None
    favoured: tuple[str, ...] = ()


@dataclass(frozen=True)
class PoolCounts(JsonResult):
    """Pairs of the latest pool (of one run, or one topic): how many, unjudged, new since the previous pool."""

    pairs: int
    unjudged: int
    new: int
    new_unjudged: int


@dataclass(frozen=True)
class TopicPoolCounts(JsonResult):
    """`PoolCounts` as a topic's row shows them: the pairs as the topic's `pool`, new ones before unjudged."""

    pool: int
    new: int
    unjudged: int
    new_unjudged: int

    @classmethod
    def of(cls, counts: PoolCounts) -> TopicPoolCounts:
        return cls(counts.pairs, counts.new, counts.unjudged, counts.new_unjudged)


@dataclass(frozen=True)
class RepoolStatus(JsonResult):
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
    per_topic: dict[str, TopicPoolCounts]


@dataclass(frozen=True)
class CoverageReport(JsonResult):
    """How complete one snapshot's judgments are for each run and topic (`coverage_report`)."""

    snapshot: str
    depth: int
    unit: str
    threshold: int
    runs: dict[str, CoverageRun]
    topics: dict[str, CoverageTopic]
    scored_topics: int
    reopened: dict[str, dict[str, Any]]  # left out of the scored topics: their latest pool is not all judged
    judged_topics: int = judged_over("all")
    effort: Effort = json_field()
    ranking: CoverageRanking | RankingNotRun = json_field()
    loro: dict[str, Any] | None = json_field()  # leave-one-run-out summary per measure; None when not run
    r_estimate_warning: str = json_field()
    pool: RepoolStatus | None = json_field()
    runs_not_scored: list[str] = json_field()
    runs_retired: list[str] = json_field()
    judged_only: bool = False  # leave-one-run-out scores condensed lists (trec_eval -J)


@dataclass(frozen=True)
class ComparisonRanking(JsonResult):
    """The system ranking before and after, and who moved or gained."""

    measure: str
    before: list[str]
    after: list[str]
    kendall_tau: float | None
    tau_ap: float | None
    moved: dict[str, Any]
    gained: list[dict[str, Any]]  # run, before, after, gain; the biggest gain first


@dataclass(frozen=True)
class SnapshotComparison(JsonResult):
    """What changed between two snapshots (`compare_report`): labels, relevant sets, scores, the ranking.

    Judged@k, like every measure here, is a mean over the topics the newer snapshot scores (as in eval).
    """

    json_extra = {"judged_over": "reopened", "judged_topics": "reopened", "baseline_snapshot": "baseline"}

    old: str = json_field(name="from")
    new: str = json_field(name="to")
    depth: int = json_field()
    unit: str = json_field()
    topics: int = json_field()  # the topics the newer snapshot scores; both are scored on them
    reopened: dict[str, dict[str, Any]] = json_field()  # not compared: the newer snapshot's labels miss pool units
    labels: dict[str, int] = json_field()  # added, changed, retracted
    topics_grown: dict[str, dict[str, Any]] = json_field()  # topic -> before, after, new
    reopened_since: dict[str, Reopened] = json_field(encode=lambda rows: {t: r.to_dict() for t, r in rows.items()})
    runs: dict[str, dict[str, Any]] = json_field()  # run -> before, after, change, recall (measure -> value)
    runs_not_scored: list[str] = json_field()
    runs_retired: list[str] = json_field()
    ranking: ComparisonRanking = json_field()
    judged_only: bool = False  # both snapshots' scores over condensed lists (trec_eval -J)
    # the older snapshot's own scored count, and the topics that entered or left (-> why now) the newer one's
    topic_changes: dict[str, Any] = field(default_factory=dict)
    # `--baseline`: every other run against it, under the newer snapshot (its keys join the document's)
    baseline: BaselineReport | None = json_field(flatten=True, omit_if_none=True, default=None)

    @property
    def judged_over(self) -> str:
        return "scored"

    @property
    def judged_topics(self) -> int:
        return self.topics

    @property
    def baseline_snapshot(self) -> str:
        """The snapshot the baseline comparison scores under: the newer one."""
        return self.new


@dataclass(frozen=True)
class History(JsonResult):
    """Each run's Judged@k and R@k on every snapshot of one unit space, for the report's charts."""

    snapshots: list[str]
    judged: dict[str, list[float | None]]  # run -> one value per snapshot (None before the run existed)
    recall: dict[str, list[float | None]]
    judged_topics: list[int] = judged_over("labelled")  # per snapshot: the topics its means are over


@dataclass(frozen=True)
class ReportData(JsonResult):
    """What the HTML page is drawn from (`report_data`)."""

    workbench: str
    created: str
    coverage: CoverageReport
    history: History
