"""How well the judgments cover the runs, how biased the pool is, and how much is still unfound.

The domain layer behind `labeler coverage` and `labeler compare` : plain values in (qrels `{topic: {unit: grade}}`
with grade < 0 meaning pooled but unjudged, runs `{run: {topic: [unit, ...]}}`
in canonical order), plain JSON-ready dicts and lists out, nothing rounded.
It loads neither SQL, click nor Textual. Definitions follow Zobel (SIGIR 1998),
Buckley et al. (Information Retrieval 2007) and trec_eval.

- `judged`: Judged@k and the units each run alone contributed;
- `bias`: leave-one-run-out scores, drops and the ranking's tau;
- `correlation`: Kendall's tau-b and tau_AP between system rankings;
- `estimates`: R's lower bound and a capture-recapture estimate;
- `saturation`: relevant units found per extra judgment at depth;
- `curves`: the Recall@k-vs-k curve with its ceiling;
- `compare`: the change between two snapshots of the judgments.
"""

from labeler.coverage.bias import DEFAULT_LORO_MEASURES, leave_one_run_out, leave_out_qrels
from labeler.coverage.compare import compare_snapshots
from labeler.coverage.correlation import EQUIVALENT_TAU, compare_rankings, kendall_tau, rank_systems, tau_ap
from labeler.coverage.curves import DEFAULT_RECALL_KS, recall_curve
from labeler.coverage.estimates import DEPENDENCE_WARNING, MIN_CAPTURED, chapman, estimate_relevant
from labeler.coverage.judged import judged_coverage
from labeler.coverage.saturation import judging_saturation

__all__ = [
    "DEFAULT_LORO_MEASURES",
    "DEFAULT_RECALL_KS",
    "DEPENDENCE_WARNING",
    "EQUIVALENT_TAU",
    "MIN_CAPTURED",
    "chapman",
    "compare_rankings",
    "compare_snapshots",
    "estimate_relevant",
    "judged_coverage",
    "judging_saturation",
    "kendall_tau",
    "leave_one_run_out",
    "leave_out_qrels",
    "rank_systems",
    "recall_curve",
    "tau_ap",
]
