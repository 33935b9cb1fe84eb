"""PDF sheets checked with poppler: page size, embedded fonts, the text that must be there.

WeasyPrint takes 0.2-0.7 s for a one- or two-page sheet and several seconds for a full threat
sheet (40+ cards), so this file prints a representative subset: each kind once on A4, the
paper sizes on two kinds, the small pinned mission for the threat cards, and one full official
threat sheet marked slow.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from authoring.mission import load_mission
from authoring.render.build import build_sheet

OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"
SIZES = {"a4": "595.276 x 841.89 pts (A4)", "letter": "612 x 792 pts (letter)"}

Poppler = Callable[..., str]


def _check_pdf(poppler: Poppler, path: Path, paper: str) -> tuple[int, str]:
    """Asserts the paper size and embedded fonts; returns (pages, text)."""
    info = poppler("pdfinfo", str(path))
    assert f"Page size:       {SIZES[paper]}" in info
    pages = int(re.search(r"Pages:\s+(\d+)", info).group(1))  # type: ignore[union-attr]
    fonts = poppler("pdffonts", str(path)).splitlines()[2:]
    assert fonts, "no fonts in the PDF"
    for line in fonts:
        columns = line.split()
        emb = columns[-5]
        assert emb == "yes", f"font not embedded: {line}"
    text = poppler("pdftotext", "-layout", str(path), "-")
    return pages, re.sub(r"\s+", " ", text)


@pytest.mark.parametrize(("kind", "paper", "expected"), [
    ("briefing", "a4", ["Mission 7", "MISSION BRIEFING", "Timeline", "T+3 S", "Phase 2",
                        "common: white and yellow mixed"]),
    ("briefing", "letter", ["Mission 7", "6 announced, 8 threat points"]),
    ("comms-officer", "a4", ["COMMUNICATIONS OFFICER", "Communication system down.",
                             "8:20\u20138:45", "Mission complete. Jumping to hyperspace."]),
    ("answer-key", "letter", ["ANSWER KEY", "Draw with seed 3", "Fighter E1-07",
                              "Man-of-War SE1-02", "Points: 8 destroyed"]),
])
def test_official_mission_7_sheets(tmp_path: Path, poppler: Poppler, kind: str, paper: str,
                                   expected: list[str]) -> None:
    out = tmp_path / f"{kind}.pdf"
    build_sheet(load_mission(OFFICIAL / "mission-7.yaml"), out, kind=kind, paper=paper, seed=3)
    pages, text = _check_pdf(poppler, out, paper)
    assert pages == {"briefing": 1, "comms-officer": 2, "answer-key": 2}[kind]
    for snippet in expected:
        assert snippet in text, snippet
    assert "Page 1 of" in text


def test_threat_cards_of_a_pinned_mission(tmp_path: Path, poppler: Poppler,
                                          write_mission: Callable[..., Path]) -> None:
    out = tmp_path / "threats.pdf"
    build_sheet(load_mission(write_mission()), out, kind="threats", paper="a4")
    pages, text = _check_pdf(poppler, out, "a4")
    assert pages >= 3
    for snippet in ("THREAT CARDS", "Fighter E1-07", "health 4", "Attack 2",
                    "Points: 4 destroyed · 2 survived", "SERIOUS EXTERNAL", "Starts:"):
        assert snippet in text, snippet


@pytest.mark.slow
def test_full_official_threat_sheet_on_letter(tmp_path: Path, poppler: Poppler) -> None:
    out = tmp_path / "threats.pdf"
    build_sheet(load_mission(OFFICIAL / "mission-1.yaml"), out, kind="threats", paper="letter")
    pages, text = _check_pdf(poppler, out, "letter")
    assert pages >= 5
    assert "Pulse Ball E1-01" in text and "Overheated Reactor I2-06" in text
    assert "Nuclear Device" not in text  # mission 1 announces no serious internal threat


def test_mission_text_stays_literal_in_the_pdf(tmp_path: Path, poppler: Poppler,
                                               write_mission: Callable[..., Path]) -> None:
    title = "Mission 7: <script>alert(1)</script> & Co"
    mission = load_mission(write_mission(title))
    out = tmp_path / "briefing.pdf"
    build_sheet(mission, out, kind="briefing")
    _, text = _check_pdf(poppler, out, "a4")
    assert title in text
    assert "Watch out for <img src=x onerror=alert(1)> & friends." in text
    comms = tmp_path / "comms.pdf"
    build_sheet(mission, comms, kind="comms-officer")
    assert "<b>Hull</b> breach & panic" in _check_pdf(poppler, comms, "a4")[1]


def test_same_sheet_same_bytes(tmp_path: Path, write_mission: Callable[..., Path]) -> None:
    mission = load_mission(write_mission())
    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    build_sheet(mission, first, kind="answer-key", seed=9)
    build_sheet(mission, second, kind="answer-key", seed=9)
    assert first.read_bytes() == second.read_bytes()
