"""The briefing's layout as printed (poppler) and as shown in a browser (Chromium)."""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from authoring.mission import load_mission
from authoring.render.build import build_sheet

ROOT = Path(__file__).resolve().parents[2]
DOUBLE = ROOT / "missions" / "examples" / "double-action.yaml"  # events up to 12:05


def test_times_from_ten_minutes_on_keep_a_gap_before_their_text(
        tmp_path: Path, poppler: Callable[..., str]) -> None:
    pdf = tmp_path / "briefing.pdf"
    build_sheet(load_mission(DOUBLE), pdf, kind="briefing")
    words = re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)"[^>]*>([^<]*)</word>',
                       poppler("pdftotext", "-bbox", str(pdf), "-"))
    gaps = {}
    for (_, y0, x1, text), (nx0, ny0, _, _) in pairwise(words):
        if re.fullmatch(r"\d{1,2}:\d\d", text) and y0 == ny0 and float(nx0) > float(x1) - 1:
            gaps[text] = float(nx0) - float(x1)
    long_times = {t: g for t, g in gaps.items() if len(t) == 5}
    assert {"10:00", "11:30", "12:05"} <= set(long_times)
    assert min(gaps.values()) >= 4, gaps  # pt: at least a space, "10:00data" no more


def test_the_comms_table_style_leaves_the_timeline_bars_alone(tmp_path: Path,
                                                              chromium: Any) -> None:
    html = tmp_path / "briefing.html"
    build_sheet(load_mission(DOUBLE), html, kind="briefing")
    page = chromium.new_page()
    try:
        page.goto(html.as_uri())
        bars = page.eval_on_selector_all("svg.timeline rect.comms", """rects => rects.map(
            r => [r.getBBox().width, Number(r.getAttribute('width'))])""")
    finally:
        page.close()
    assert len(bars) == 4  # the mission's four communications-down periods
    for drawn, declared in bars:
        assert drawn == pytest.approx(declared)  # not stretched to the whole row
