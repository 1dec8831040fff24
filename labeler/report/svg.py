"""Small SVG charts (line and bar) as strings: no JavaScript, no fonts to fetch, no dependencies."""

from __future__ import annotations

import html

from labeler.inert import visible


def escape(text: str) -> str:
    """User text for HTML: tags and quotes escaped, control characters as visible escapes."""
    return html.escape(visible(str(text)))


PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22")
WIDTH, HEIGHT = 640, 320
LEFT, RIGHT, TOP, BOTTOM = 56, 150, 20, 44


def _frame(title: str, x_label: str, y_label: str, y_max: float) -> list[str]:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}">',
        f'<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#fff" stroke="#ccc"/>',
    ]
    for i in range(6):
        value = y_max * i / 5
        y = TOP + plot_h - plot_h * i / 5
        parts.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{LEFT + plot_w}" y2="{y:.1f}" stroke="#eee"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" font-size="11" text-anchor="end">{value:.2f}</text>')
    parts.append(
        f'<text x="{LEFT + plot_w / 2:.1f}" y="{HEIGHT - 6}" font-size="12" text-anchor="middle">'
        f'{escape(x_label)}</text>'
    )
    parts.append(
        f'<text x="14" y="{TOP + plot_h / 2:.1f}" font-size="12" text-anchor="middle" '
        f'transform="rotate(-90 14 {TOP + plot_h / 2:.1f})">{escape(y_label)}</text>'
    )
    return parts


def line_chart(
    title: str,
    x_labels: list[str],
    series: list[tuple[str, list[float | None], bool]],
    *,
    x_label: str,
    y_label: str,
    y_max: float = 1.0,
) -> str:
    """Lines over categorical x positions; each series is (name, values, dashed). None leaves a gap."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = _frame(title, x_label, y_label, y_max)
    step = plot_w / max(len(x_labels) - 1, 1)
    for i, label in enumerate(x_labels):
        x = LEFT + step * i if len(x_labels) > 1 else LEFT + plot_w / 2
        parts.append(
            f'<text x="{x:.1f}" y="{TOP + plot_h + 16}" font-size="11" text-anchor="middle">{escape(label)}</text>'
        )
    colours: dict[str, str] = {}
    for index, (name, values, dashed) in enumerate(series):
        colour = "#555" if dashed else colours.setdefault(name, PALETTE[len(colours) % len(PALETTE)])
        points = []
        for i, value in enumerate(values):
            if value is None:
                continue
            x = LEFT + step * i if len(x_labels) > 1 else LEFT + plot_w / 2
            y = TOP + plot_h - plot_h * min(value, y_max) / y_max
            points.append(f"{x:.1f},{y:.1f}")
        dash = ' stroke-dasharray="5,4"' if dashed else ""
        if len(points) > 1:
            parts.append(
                f'<polyline class="series" fill="none" stroke="{colour}" stroke-width="2"{dash} '
                f'points="{" ".join(points)}"><title>{escape(name)}</title></polyline>'
            )
        for point in points:
            cx, cy = point.split(",")
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="3" fill="{colour}"><title>{escape(name)}</title></circle>')
        legend_y = TOP + 14 + 16 * index
        parts.append(
            f'<line x1="{WIDTH - RIGHT + 10}" y1="{legend_y - 4}" x2="{WIDTH - RIGHT + 30}" '
            f'y2="{legend_y - 4}" stroke="{colour}" stroke-width="2"{dash}/>'
        )
        parts.append(f'<text x="{WIDTH - RIGHT + 34}" y="{legend_y}" font-size="11">{escape(name)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def bar_chart(title: str, bars: list[tuple[str, float | None]], *, y_label: str, y_max: float = 1.0) -> str:
    """One bar per label; None draws no bar and says so."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = _frame(title, "", y_label, y_max)
    slot = plot_w / max(len(bars), 1)
    for i, (label, value) in enumerate(bars):
        x = LEFT + slot * i + slot * 0.15
        parts.append(
            f'<text x="{LEFT + slot * (i + 0.5):.1f}" y="{TOP + plot_h + 16}" font-size="11" '
            f'text-anchor="middle">{escape(label)}</text>'
        )
        if value is None:
            parts.append(
                f'<text x="{LEFT + slot * (i + 0.5):.1f}" y="{TOP + plot_h - 6}" font-size="11" '
                f'text-anchor="middle">n/a</text>'
            )
            continue
        height = plot_h * min(value, y_max) / y_max
        parts.append(
            f'<rect class="bar" x="{x:.1f}" y="{TOP + plot_h - height:.1f}" width="{slot * 0.7:.1f}" '
            f'height="{height:.1f}" fill="{PALETTE[i % len(PALETTE)]}"><title>{escape(label)}: '
            f'{value:.3f}</title></rect>'
        )
        parts.append(
            f'<text x="{LEFT + slot * (i + 0.5):.1f}" y="{TOP + plot_h - height - 4:.1f}" font-size="11" '
            f'text-anchor="middle">{value:.2f}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
