"""Every coverage figure of `labeler coverage`, computed a batch of topics at a time.

At real sizes (10 runs x 5,000 topics x 1,000 results) holding every run's
rankings at once takes gigabytes, yet no figure needs two topics' rankings
together: Judged@k, unique units, R's estimates, saturation, the recall curve
and leave-one-run-out are all sums or means of per-topic values. So the
caller feeds topics in batches (`add`), each batch's rankings can be dropped
after it, and `result` sums the kept per-topic rows once at the end.

The result is the same, number for number, as calling `judged_coverage`,
`estimate_relevant`, `judging_saturation`, `leave_one_run_out` and
`recall_curve` on all topics at once: the same per-topic values, summed in
the same topic order (a test holds the two equal on random inputs). The
batch's depth-k pool is computed once and shared by the reports that read it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from labeler.coverage.bias import DEFAULT_LORO_MEASURES, loro_summary, loro_topic_rows
from labeler.coverage.curves import DEFAULT_RECALL_KS, recall_curve_rows, recall_curve_summary
from labeler.coverage.estimates import DEPENDENCE_WARNING, estimate_topic_rows
from labeler.coverage.inputs import check_cutoff, check_qrels, check_runs, check_threshold, check_topics
from labeler.coverage.judged import judged_summary, judged_topic_rows
from labeler.coverage.saturation import default_window, saturation_topic_rows
from labeler.metrics import parse_measures
from labeler.models import topic_sort_key
from labeler.pooling import depth_pool


class CoverageBatches:
    """Accumulates per-topic coverage rows over batches of topics; `result()` gives the reports.

    `runs` fixes the run order (it breaks ties in rankings of systems), and
    every batch must give exactly those runs. `loro_measures=None` skips
    leave-one-run-out, the costly part (it scores every run on every scored
    topic, then again where a run's unique judgments are left out).
    """

    def __init__(
        self,
        runs: Sequence[str],
        *,
        depth: int,
        threshold: int,
        loro_measures: str | Iterable[str] | None = DEFAULT_LORO_MEASURES,
        ks: Iterable[int] = DEFAULT_RECALL_KS,
        judged_only: bool = False,
    ) -> None:
        self.runs = list(runs)
        if not self.runs:
            raise ValueError("no runs given")
        self.depth = check_cutoff(depth, "depth")
        self.threshold = check_threshold(threshold)
        self.window = default_window(self.depth)
        self.measures = None if loro_measures is None else [measure.name for measure in parse_measures(loro_measures)]
        self.ks = sorted(check_cutoff(k, "each k") for k in ks)
        self._topics: set[str] = set()
        self._scored: set[str] = set()
        self._judged: dict[str, Any] = {"runs": {run: {} for run in self.runs}, "topics": {}}
        self._estimates: dict[str, Any] = {}
        self._saturation: dict[str, Any] = {}
        self._curves: dict[str, dict[str, Any]] = {run: {} for run in self.runs}
        self._loro: dict[str, Any] = {}
        self.judged_only = judged_only

    def add(
        self,
        qrels: Mapping[str, Mapping[str, int]],
        rankings: Mapping[str, Mapping[str, Sequence[str]]],
        *,
        topics: Sequence[str],
        scored: Iterable[str] = (),
    ) -> None:
        """Take in one batch: its topics, the runs' rankings of them, their labels, and which of them are scored.

        Every topic is reported on (Judged@k, unique units, R's estimate,
        saturation); the `scored` ones, a subset, also enter the recall curve
        and leave-one-run-out, as in `labeler eval`. A topic may come once only.
        """
        ordered = check_topics(topics)
        repeated = sorted(self._topics.intersection(ordered), key=topic_sort_key)
        if repeated:
            raise ValueError(f"topic {repeated[0]!r} was already given in an earlier batch")
        if list(rankings) != self.runs:
            raise ValueError(f"each batch must give the runs {self.runs!r} in that order, not {list(rankings)!r}")
        wanted = set(scored)
        scored_here = [topic for topic in ordered if topic in wanted]
        unknown = wanted.difference(ordered)
        if unknown:
            raise ValueError(f"scored topic {sorted(unknown, key=topic_sort_key)[0]!r} is not in the batch")
        grades = check_qrels(qrels, ordered)
        checked = check_runs(rankings, ordered)
        pool = depth_pool(checked, self.depth, fuse=False, distinct=True)

        judged = judged_topic_rows(grades, checked, ordered, self.depth, self.threshold, pool)
        for run in self.runs:
            self._judged["runs"][run].update(judged["runs"][run])
        self._judged["topics"].update(judged["topics"])
        self._estimates.update(estimate_topic_rows(grades, checked, ordered, self.depth, self.threshold))
        self._saturation.update(saturation_topic_rows(grades, pool, ordered, self.depth, self.window, self.threshold))
        if scored_here:
            for run in self.runs:
                self._curves[run].update(recall_curve_rows(grades, checked[run], scored_here, self.threshold, self.ks))
            if self.measures is not None:
                _merge(
                    self._loro,
                    loro_topic_rows(
                        grades,
                        checked,
                        scored_here,
                        self.depth,
                        self.threshold,
                        self.measures,
                        pool,
                        judged_only=self.judged_only,
                    ),
                )
        self._topics.update(ordered)
        self._scored.update(scored_here)

    @property
    def topics(self) -> list[str]:
        """The topics given so far, in topic order."""
        return sorted(self._topics, key=topic_sort_key)

    @property
    def scored(self) -> list[str]:
        """The scored topics given so far, in topic order."""
        return sorted(self._scored, key=topic_sort_key)

    def result(self) -> dict[str, Any]:
        """{"judged", "estimates", "saturation", "curves": {run: [...]}, "bias" (None without LORO, a
        scored topic, or a second run)}: each as its all-at-once function returns it."""
        ordered, scored = self.topics, self.scored
        bias = None
        if self.measures is not None and scored and len(self.runs) > 1:
            bias = loro_summary(self._loro, scored, self.depth, self.threshold, self.measures, self.runs)
        return {
            "judged": judged_summary(self._judged, ordered, self.depth, self.threshold, self.runs),
            "estimates": {
                "depth": self.depth,
                "threshold": self.threshold,
                "method": "chapman, median over pairs of runs",
                "warning": DEPENDENCE_WARNING,
                "topics": {topic: self._estimates[topic] for topic in ordered},
            },
            "saturation": {
                "depth": self.depth,
                "window": self.window,
                "threshold": self.threshold,
                "topics": {topic: self._saturation[topic] for topic in ordered},
            },
            "curves": {
                run: recall_curve_summary(self._curves[run], scored, self.ks) if scored else [] for run in self.runs
            },
            "bias": bias,
        }


def _merge(into: dict[str, Any], part: Mapping[str, Any]) -> None:
    """Add one batch's leave-one-run-out rows to those kept: every level is keyed by run, the last by topic."""
    for key in ("full", "judged", "judged_without", "removed"):
        for run, rows in part[key].items():
            into.setdefault(key, {}).setdefault(run, {}).update(rows)
    for left_out, by_run in part["without"].items():
        for run, rows in by_run.items():
            into.setdefault("without", {}).setdefault(left_out, {}).setdefault(run, {}).update(rows)
