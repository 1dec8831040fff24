"""The report page: recall curves with ceilings, Judged@k, coverage and scores across snapshots, pool bias."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from labeler.report.model import model_section
from labeler.report.svg import bar_chart, escape, line_chart

if TYPE_CHECKING:  # the types only: the page is drawn from what the workbench gathered, handed over
    from labeler.workbench.agreement import ModelAgreementReport
    from labeler.workbench.coverage_results import CoverageReport, History, ReportData
    from labeler.workbench.replay import ReplayResult

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 980px; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; margin: .8rem 0; font-size: .9rem; }
th, td { border: 1px solid #ddd; padding: .25rem .6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
.note { color: #555; font-size: .9rem; max-width: 760px; }
figure { margin: 1rem 0; } figcaption { color: #555; font-size: .85rem; }
"""


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return escape(str(value))


def _table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_fmt(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def render_report(
    data: ReportData, replay: ReplayResult | None = None, model: ModelAgreementReport | None = None
) -> str:
    """The whole page from the report data the workbench gathers (see workbench.report.report_data).

    `replay` (from `labeler.workbench.replay.replay`) adds the section on judging orders; `model`
    (from `labeler.workbench.agreement.model_agreement_report`) the section on a model judge.
    """
    coverage = data.coverage
    sections = [
        _heading(data),
        _reopened(coverage),
        _recall(coverage),
        _judged(coverage),
        _history(data.history, coverage.depth),
        _loro(coverage),
        _topics(coverage),
        _replay(replay) if replay is not None else "",
        model_section(model) if model is not None else "",
    ]
    return (
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>labeler report {escape(coverage.snapshot)}</title><style>{STYLE}</style></head><body>"
        + "".join(sections)
        + "</body></html>\n"
    )


def _heading(data: ReportData) -> str:
    """The title and what every figure is computed on."""
    coverage = data.coverage
    return (
        f"<h1>labeler report: snapshot {escape(coverage.snapshot)}</h1>"
        f"<p class='note'>Workbench {escape(data.workbench)}, unit {escape(coverage.unit)}, "
        f"{coverage.scored_topics} scored topics, made {escape(data.created)}. Every figure below is "
        "computed on the labels of this snapshot; unjudged units count as not relevant.</p>"
    )


def _reopened(coverage: CoverageReport) -> str:
    """The reopened topics left out of the scored ones, with what reopened them (nothing when none is)."""
    if not coverage.reopened:
        return ""
    return (
        "<p class='note'>Reopened topics, left out of the scored topics (their latest pool has "
        "units nobody judged since they were marked): "
        + ", ".join(
            f"{escape(str(t))} by {escape(str(r['pool']))} ({int(r['unjudged'])} unjudged)"
            for t, r in coverage.reopened.items()
        )
        + ".</p>"
    )


def _recall(coverage: CoverageReport) -> str:
    """Recall@k against k for each run, with the ceiling, as a chart and a table (nothing without curves)."""
    curves = {run: {p["k"]: p for p in row.recall_curve} for run, row in coverage.runs.items()}
    first = next((row.recall_curve for row in coverage.runs.values() if row.recall_curve), [])
    ks = [point["k"] for point in first]
    if not ks:
        return ""
    series = [(run, [curve[x]["macro"] for x in ks], False) for run, curve in curves.items()]
    ceiling = next(iter(coverage.runs.values())).recall_curve
    series.append(("ceiling (all runs)", [p["ceiling"] for p in ceiling], True))
    return (
        "<h2 id='recall'>Recall@k against k</h2><figure>"
        + line_chart("Recall@k vs k", [str(x) for x in ks], series, x_label="k (cutoff)", y_label="Recall@k (macro)")
        + "</figure><p class='note'>Where a curve flattens, the missing relevant units are not ranked "
        "low but absent (the elbow diagnostic). The dashed line is the ceiling: the mean of "
        "min(k, |G|)/|G|, the best any ranking can reach at k.</p>"
        + _table(
            ["run", *(f"R@{x}" for x in ks)],
            [[run, *(curve[x]["macro"] for x in ks)] for run, curve in curves.items()],
        )
    )


def _judged(coverage: CoverageReport) -> str:
    """Judged@k per run over every topic (a chart) and over the scored ones (the table)."""
    k, every, scored = coverage.depth, coverage.judged_topics, coverage.scored_topics
    chart = (
        f"<h2 id='judged'>Judged@{k} per run</h2><figure>"
        + bar_chart(
            f"Judged@{k} over all {every} topics",
            [(run, row.judged) for run, row in coverage.runs.items()],
            y_label=f"Judged@{k} (all {every} topics)",
        )
        + f"<figcaption>Judged@{k} of each run over all {every} topics (labelled or ranked by a run: "
        "the pool's view)</figcaption></figure>"
    )
    return (
        chart
        + _table(
            [
                "run",
                f"Judged@{k} over all {every} topics",
                f"Judged@{k} over {scored} scored topics",
                "unjudged in top k",
                "unique units",
                "unique relevant",
            ],
            [
                [run, r.judged, r.judged_scored, r.unjudged, r.unique, r.unique_relevant]
                for run, r in coverage.runs.items()
            ],
        )
        + "<p class='note'>Over all topics, as <code>labeler coverage</code> reports the pool; over the "
        "scored topics, as <code>labeler eval</code> averages it.</p>"
    )


def _history(history: History, k: int) -> str:
    """Judged@k and R@k of each run across the snapshots (nothing with no snapshot to draw)."""
    if not history.snapshots:
        return ""
    labels = history.snapshots
    judged_series = [(run, values, False) for run, values in history.judged.items()]
    recall_series = [(run, values, False) for run, values in history.recall.items()]
    return (
        "<h2 id='history'>Coverage and scores across snapshots</h2><figure>"
        + line_chart(f"Judged@{k} across snapshots", labels, judged_series, x_label="snapshot", y_label=f"Judged@{k}")
        + f"<figcaption>Judged@{k} of each run on every snapshot: the mean over that snapshot's "
        "topics with a relevant label, reviewed or not ("
        + escape(", ".join(f"{name}: {n}" for name, n in zip(labels, history.judged_topics, strict=True)))
        + " topics)</figcaption></figure><figure>"
        + line_chart(f"R@{k} across snapshots", labels, recall_series, x_label="snapshot", y_label=f"R@{k} (macro)")
        + f"<figcaption>R@{k} (macro) of each run on every snapshot</figcaption></figure>"
        "<p class='note'>A run whose coverage rises from one snapshot to the next was "
        "being scored against judgments that had not looked at what it found.</p>"
    )


def _loro(coverage: CoverageReport) -> str:
    """Leave-one-run-out: each run's drop without its unique units, and what that does to the ranking."""
    if not coverage.loro:
        return ""
    rows = [
        [run, measure, values["full"], values["without"], values["drop"]]
        for run, row in coverage.runs.items()
        for measure, values in (row.loro or {}).items()
    ]
    from labeler.coverage.bias import favoured_sentence

    ranking = coverage.ranking
    favoured = favoured_sentence(ranking.measure, ranking.favoured, {run: r.loro for run, r in coverage.runs.items()})
    tau = ranking.kendall_tau or {}
    return (
        "<h2 id='loro'>Pool bias: leave one run out</h2>"
        + _table(["run", "measure", "full judgments", "without its unique units", "drop"], rows)
        + "<p class='note'>Each run is scored again with the judgments of the units only it "
        "contributed removed (Zobel 1998). "
        + (escape(favoured) + " " if favoured else "")
        + (
            "Kendall's tau of the ranking with each run left out: "
            + escape(", ".join(f"{r} {_fmt(t)}" for r, t in tau.items()))
            + "."
            if tau
            else ""
        )
        + "</p>"
    )


def _topics(coverage: CoverageReport) -> str:
    """Each topic's pool, judgments and the bounds on R, with the warning the estimates need."""
    return (
        "<h2 id='topics'>Topics</h2>"
        + _table(
            ["topic", "pool", "judged", "relevant (lower bound on R)", "R estimate", "± SE", "saturation"],
            [
                [t, r.pool, r.judged, r.r_lower_bound, r.r_estimate, r.r_se, r.saturation]
                for t, r in coverage.topics.items()
            ],
        )
        + f"<p class='note'>{escape(coverage.r_estimate_warning)}</p>"
    )


def _replay(result: ReplayResult) -> str:
    """Judging replayed on the snapshot's labels: the orders' curves (SVG) and their table."""
    orders = result.orders
    steps = [judged for judged, _ in next(iter(orders.values())).curve]
    every = max(1, len(steps) // 8)
    labels = [str(judged) if i % every == 0 or i == len(steps) - 1 else "" for i, judged in enumerate(steps)]
    relevant = result.relevant or 1
    series: list[tuple[str, list[float | None], bool]] = [
        (name, [found / relevant for _, found in figures.curve], name == "oracle") for name, figures in orders.items()
    ]
    chart = line_chart(
        "Relevant units found per judgment (topics in lockstep)",
        labels,
        series,
        x_label="judgments",
        y_label="share of relevant found",
    )
    rows = [
        [
            name,
            f.curve_share,
            f.to_relevant["50"],
            f.to_relevant["90"],
            f.to_relevant["95"],
            f.tau["10"],
            f.tau["25"],
            f.tau["50"],
            f.tau["100"],
            f.tau_ap["100"],
        ]
        for name, f in orders.items()
    ]
    stops = [
        [name, s.rule, s.judgments, s.effort_saved, s.relevant_lost, s.tau, s.tau_lost]
        for name, f in orders.items()
        for s in f.stopping.values()
    ]
    unjudged = (
        f"{result.unjudged} pool units the snapshot never judged are "
        + ("kept as non-relevant (flagged)." if result.unjudged_as_nonrelevant else "left out of the replay.")
        if result.unjudged
        else "Every pool unit has a label."
    )
    return (
        "<h2>Judging orders, replayed</h2>"
        f"<p class='note'>Snapshot {escape(result.snapshot)} as the assessor; pool: {escape(result.strategy)} at "
        f"depth {result.depth} of {escape(', '.join(result.runs))} ({result.pairs} pairs, {len(result.topics)} "
        f"topics, {result.relevant} relevant units). {escape(unjudged)} Curve share: the area under an order's "
        "curve over the oracle's; tau: the systems ranked by mean "
        f"{escape(result.measure)} on the labels a budget of 10/25/50/100% of each topic's pool gives, against "
        "the full labels.</p>"
        f"<figure>{chart}</figure>"
        + _table(
            [
                "order",
                "curve share",
                "to 50%",
                "to 90%",
                "to 95%",
                "tau@10%",
                "tau@25%",
                "tau@50%",
                "tau@100%",
                "tau_AP@100%",
            ],
            rows,
        )
        + (
            _table(["order", "rule", "judgments", "effort saved", "relevant lost", "tau", "tau lost"], stops)
            if stops
            else ""
        )
    )
