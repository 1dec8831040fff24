"""The terminal view of `labeler agreement --model NAME`: tables and a reliability diagram in text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.answers.spaces import answer_space
from labeler.cli.common.printing import info, table

if TYPE_CHECKING:
    from labeler.agreement.model import Calibration, Reliability
    from labeler.agreement.statistics import Statistic
    from labeler.workbench.agreement import ModelAgreementReport

BAR = 30
HOW_TO_READ = (
    "How to read: rows are the human grades (the truth), columns the model's; a row's shares say what the model "
    "answers when the people said that grade. Precision is the share of the model's g that people called g, "
    "recall the share of the people's g the model found. In the reliability diagram '#' is the share observed "
    "true and '|' the model's mean stated probability in the bin: a calibrated model has the bar end at the mark. "
    "Pairs judged with the model's label on screen are not independent of it (shown)."
)


def statistic_value(statistic: Statistic) -> str:
    """A statistic's value with four places, `-` when it is undefined."""
    return "-" if statistic.value is None else f"{statistic.value:.4f}"


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def bar(observed: float | None, stated: float | None, width: int = BAR) -> str:
    """`#` up to the observed share, `|` at the mean stated probability, on `width` columns."""
    if observed is None or stated is None:
        return ""
    cells = [" "] * (width + 1)
    for i in range(round(observed * width)):
        cells[i] = "#"
    cells[min(width, round(stated * width))] = "|"
    return "".join(cells).rstrip()


def reliability_rows(diagram: Reliability) -> list[list[object]]:
    return [
        [
            f"{'[' if b.low == 0 else '('}{b.low:.2g}, {b.high:.2g}]",
            b.count,
            _share(b.mean_stated),
            _share(b.observed),
        ]
        + [bar(b.observed, b.mean_stated)]
        for b in diagram.bins
        if b.count
    ]


def _say_reliability(calibration: Calibration | None) -> None:
    """The reliability diagrams of the probabilities stated, or why there are none."""
    if calibration is None or not calibration.pairs_with_probs:
        info("No reliability diagram: the model's labels carry no probabilities.")
        return
    for diagram, title in (
        (calibration.confidence, "probability stated for the reported grade vs. share the people gave it"),
        (calibration.relevant, "stated P(relevant) vs. share the people called relevant"),
    ):
        table(
            f"reliability, {title} (ECE {_share(diagram.ece)})",
            ["stated in", "pairs", "mean stated", "observed", "observed # / stated |"],
            reliability_rows(diagram),
        )


def say(report: ModelAgreementReport) -> None:
    info(
        f"Model {report.model} against the human labels in {report.unit}: {report.pairs} pairs labelled "
        f"by both (of the model's {report.model_labels} labels); scale {report.scale}, "
        f"{'supported' if answer_space(report.unit) else 'relevant'} from grade {report.threshold}."
    )
    if answer_space(report.unit) is not None:
        info("Read: every answer item both judged (an answer space has no planned overlap).")
    elif report.pairs_read == "overlap":
        info(
            f"Read: the assignments' planned overlap ({report.planned_overlap} pairs, a seeded sample chosen "
            "before anyone judged); --all-pairs reads every pair both labelled."
        )
    else:
        info(
            "Read: every pair both labelled. No overlap is planned: 'labeler assign --overlap SHARE' plans a seeded "
            "sample; the pairs people chose to judge (pool order, --order uncertainty) are not one, and a model's "
            "agreement measured on them is biased."
        )
    if report.pairs == 0:
        info("Nothing to compare: no pair has both a human label and a label from this model.")
        return
    whole = report.whole
    confusion = whole.confusion
    grades = confusion.grades
    table(
        "confusion: human grade (rows) x model grade (columns), count (row share)",
        ["human \\ model", *[str(g) for g in grades], "pairs"],
        [
            [str(g), *[f"{n} ({_share(s)})" for n, s in zip(counts, shares, strict=True)], sum(counts)]
            for g, counts, shares in zip(grades, confusion.counts, confusion.row_shares, strict=True)
        ],
    )
    weights = whole.weighted_kappa.weights
    rows: list[list[object]] = []
    for name, block in [("all", whole), *report.conditions.items()]:
        rows.append(
            [
                name,
                block.pairs,
                statistic_value(block.exact_match),
                statistic_value(block.kappa),
                statistic_value(block.weighted_kappa),
            ]
        )
    table(
        "agreement by condition (blind: no model label on screen; shown: this model's; shown_other: another's)",
        ["condition", "pairs", "exact match", "kappa", f"weighted kappa ({weights})"],
        rows,
    )
    table(
        "per grade (the model as the prediction, humans as the truth)",
        ["grade", "precision", "recall", "human pairs", "model pairs"],
        [
            [g, _share(row.precision), _share(row.recall), row.support, row.predicted]
            for g, row in whole.per_grade.items()
        ],
    )
    _say_reliability(whole.calibration)
    tau = report.tau
    info(
        f"Runs ranked by {tau.measure} on the model's labels vs. the human labels, on the same "
        f"{report.pairs} pairs over {tau.topics} topics: Kendall tau {_share(tau.kendall_tau)}, "
        f"tau_AP {_share(tau.tau_ap)} ({tau.runs} runs)."
    )
    info(HOW_TO_READ)
