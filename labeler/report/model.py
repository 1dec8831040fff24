"""The report's model section: a model's confusion with the people and its reliability diagram (SVG).

Drawn from `labeler.workbench.agreement.model_agreement_report` (the `--json` shape of
`labeler agreement model`), handed over by the front end like the replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from labeler.report.svg import escape

if TYPE_CHECKING:  # the types only, like the page's other sections
    from labeler.agreement.model import Confusion, ModelComparison, Reliability
    from labeler.workbench.agreement import ModelAgreementReport

SIZE, PAD = 320, 44


def _fmt(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def reliability_svg(diagram: Reliability, title: str) -> str:
    """Observed share against mean stated probability per non-empty bin, with the diagonal of calibration.

    Each bin is a point sized by its count; the dashed diagonal is where a calibrated model's points lie.
    """
    plot = SIZE - 2 * PAD
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" viewBox="0 0 {SIZE} {SIZE}" '
        f'role="img" aria-label="{escape(title)}">',
        f'<rect x="{PAD}" y="{PAD}" width="{plot}" height="{plot}" fill="#fff" stroke="#ccc"/>',
        f'<line class="diagonal" x1="{PAD}" y1="{PAD + plot}" x2="{PAD + plot}" y2="{PAD}" stroke="#999" '
        'stroke-dasharray="5,4"/>',
    ]
    for i in range(6):
        v = i / 5
        x, y = PAD + plot * v, PAD + plot - plot * v
        parts.append(f'<text x="{x:.1f}" y="{PAD + plot + 14}" font-size="10" text-anchor="middle">{v:.1f}</text>')
        parts.append(f'<text x="{PAD - 4}" y="{y + 3:.1f}" font-size="10" text-anchor="end">{v:.1f}</text>')
    parts.append(
        f'<text x="{SIZE / 2}" y="{SIZE - 8}" font-size="11" text-anchor="middle">mean stated probability</text>'
    )
    parts.append(
        f'<text x="12" y="{SIZE / 2}" font-size="11" text-anchor="middle" '
        f'transform="rotate(-90 12 {SIZE / 2})">observed share</text>'
    )
    parts.append(f'<text x="{SIZE / 2}" y="{PAD - 12}" font-size="12" text-anchor="middle">{escape(title)}</text>')
    total = max(1, diagram.pairs)
    for b in diagram.bins:
        if not b.count or b.mean_stated is None or b.observed is None:
            continue
        x = PAD + plot * b.mean_stated
        y = PAD + plot - plot * b.observed
        r = 3 + 9 * (b.count / total) ** 0.5
        parts.append(
            f'<circle class="bin" cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="#1f77b4" fill-opacity="0.7">'
            f"<title>{b.count} pairs: stated {b.mean_stated:.3f}, observed {b.observed:.3f}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)


def confusion_table(confusion: Confusion) -> str:
    grades = confusion.grades
    head = "<th>human \\ model</th>" + "".join(f"<th>{escape(str(g))}</th>" for g in grades)
    rows = []
    for g, counts, shares in zip(grades, confusion.counts, confusion.row_shares, strict=True):
        cells = "".join(f"<td>{n} ({_fmt(s)})</td>" for n, s in zip(counts, shares, strict=True))
        rows.append(f"<tr><td>{escape(str(g))}</td>{cells}</tr>")
    return f"<table class='confusion'><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def model_section(report: ModelAgreementReport) -> str:
    """The section: what is compared, the confusion (counts and row shares), kappa by condition, reliability."""
    name = escape(report.model)
    whole = report.whole
    weights = escape(whole.weighted_kappa.weights)
    rows: list[tuple[str, ModelComparison]] = [("all", whole), *report.conditions.items()]
    conditions = "".join(
        f"<tr><td>{escape(c)}</td><td>{b.pairs}</td><td>{_fmt(b.exact_match.value)}</td>"
        f"<td>{_fmt(b.kappa.value)}</td><td>{_fmt(b.weighted_kappa.value)}</td></tr>"
        for c, b in rows
    )
    calibration = whole.calibration
    figures = ""
    if calibration is not None and calibration.pairs_with_probs:
        for diagram, title in (
            (calibration.confidence, "stated P(reported grade)"),
            (calibration.relevant, "stated P(relevant)"),
        ):
            figures += (
                f"<figure>{reliability_svg(diagram, title)}<figcaption>{escape(title)}: ECE "
                f"{_fmt(diagram.ece)} on {diagram.pairs} pairs; a calibrated model's points lie on the "
                "dashed diagonal.</figcaption></figure>"
            )
    else:
        figures = "<p class='note'>No reliability diagram: this model's labels carry no probabilities.</p>"
    read = (
        "the assignments' planned overlap, a seeded sample"
        if report.pairs_read == "overlap"
        else "every pair both labelled: no overlap is planned, so not a sample chosen in advance"
    )
    tau = report.tau
    return (
        f"<h2>Model {name} against the human labels</h2>"
        f"<p class='note'>{report.pairs} pairs labelled by both a person and model {name} ({read}), "
        "in the log as it is now, not in the snapshot above. Rows are the "
        "people's grades (the truth), columns the model's; a row's shares say what the model answers when the "
        "people gave that grade. Pairs judged with the model's label on screen (shown) are not independent of "
        "it.</p>"
        + confusion_table(whole.confusion)
        + "<table><thead><tr><th>condition</th><th>pairs</th><th>exact match</th><th>kappa</th>"
        f"<th>weighted kappa ({weights})</th></tr></thead><tbody>{conditions}</tbody></table>"
        + figures
        + f"<p class='note'>Runs ranked by {escape(tau.measure)} on the model's labels against the human labels "
        f"of the same pairs ({tau.topics} topics, {tau.runs} runs): Kendall tau {_fmt(tau.kendall_tau)}, "
        f"tau_AP {_fmt(tau.tau_ap)}.</p>"
    )
