"""Score histograms for ``spacealert simulate``: text bars for the terminal and an SVG chart."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

BAR_WIDTH = 40


def bins(values: Sequence[int], count: int = 10) -> list[tuple[int, int, int]]:
    """Returns (low, high, frequency) bins of equal integer width covering ``values``."""
    if not values:
        return []
    low, high = min(values), max(values)
    width = max(1, -(-(high - low + 1) // count))
    out = []
    start = low
    while start <= high:
        end = start + width - 1
        out.append((start, end, sum(1 for v in values if start <= v <= end)))
        start = end + 1
    return out


def text_histogram(values: Sequence[int], count: int = 10) -> str:
    """Returns one line per bin: range, a bar of ``#`` and the frequency."""
    table = bins(values, count)
    if not table:
        return "(no survived games: no scores)\n"
    top = max(f for _, _, f in table)
    lines = []
    for low, high, freq in table:
        bar = "#" * (round(freq / top * BAR_WIDTH) if top else 0)
        label = f"{low}" if low == high else f"{low}..{high}"
        lines.append(f"{label:>10} | {bar:<{BAR_WIDTH}} {freq}")
    return "\n".join(lines) + "\n"


def svg_histogram(values: Sequence[int], title: str, count: int = 10) -> str:
    """Returns a self-contained SVG bar chart of the score distribution."""
    table = bins(values, count)
    width, height, margin = 640, 360, 48
    plot_w, plot_h = width - 2 * margin, height - 2 * margin
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{width / 2}" y="24" text-anchor="middle" font-size="15">'
             f'{escape(title)}</text>']
    if table:
        top = max(f for _, _, f in table) or 1
        bar_w = plot_w / len(table)
        for i, (low, high, freq) in enumerate(table):
            h = plot_h * freq / top
            x = margin + i * bar_w
            y = margin + plot_h - h
            label = f"{low}" if low == high else f"{low}-{high}"
            parts.append(f'<rect x="{x + 2:.1f}" y="{y:.1f}" width="{bar_w - 4:.1f}" '
                         f'height="{h:.1f}" fill="#3b6ea5"><title>{label}: {freq}</title></rect>')
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{margin + plot_h + 16}" '
                         f'text-anchor="middle">{label}</text>')
            parts.append(f'<text x="{x + bar_w / 2:.1f}" y="{y - 4:.1f}" '
                         f'text-anchor="middle">{freq}</text>')
    else:
        parts.append(f'<text x="{width / 2}" y="{height / 2}" text-anchor="middle">'
                     'no survived games: no scores</text>')
    parts.append(f'<line x1="{margin}" y1="{margin + plot_h}" x2="{margin + plot_w}" '
                 f'y2="{margin + plot_h}" stroke="black"/>')
    parts.append(f'<text x="{width / 2}" y="{height - 8}" text-anchor="middle">score '
                 '(survived games)</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
