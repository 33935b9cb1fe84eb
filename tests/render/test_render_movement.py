"""Sheets time the X/Y/Z squares with the engine's movement, abilities included."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from authoring.engine.rules.setup import ThreatEvent
from authoring.mission import load_mission
from authoring.render.build import build_sheet
from authoring.render.movement import reach_turns
from authoring.render.tracks import draw_track, reach_text

ROOT = Path(__file__).resolve().parents[2]
BOARDS = {"red": "T1", "white": "T6", "blue": "T2", "internal": "T3"}


def test_the_man_of_war_speeds_up_at_x() -> None:
    # printed speed 1; its X adds 1: at the printed speed alone Y would come in turn 9
    [moves] = reach_turns([ThreatEvent(2, "white", "SE1-02")], BOARDS)
    assert {square: turn for square, turn in moves.items() if square > 0} == {
        10: 6, 7: 8, 3: 10, 1: 11}
    printed = draw_track("T6", 1, external=True, appears=2)
    assert reach_text(printed, True) == "X turn 6 · Y turn 9 · Y turn 13 · Z not reached"
    engine = draw_track("T6", 1, external=True, appears=2, reached=moves)
    assert reach_text(engine, True) == "X turn 6 · Y turn 8 · Y turn 10 · Z turn 11"


def test_a_plain_threat_moves_at_its_printed_speed() -> None:
    [moves] = reach_turns([ThreatEvent(1, "white", "E1-05")], BOARDS)  # Gunship, speed 2
    printed = draw_track("T6", 2, external=True, appears=1)
    engine = draw_track("T6", 2, external=True, appears=1, reached=moves)
    assert reach_text(engine, True) == reach_text(printed, True)
    assert [s.stop for s in engine.squares] == [s.stop for s in printed.squares]


def test_answer_key_pdf_gives_the_engines_turns(tmp_path: Path,
                                                poppler: Callable[..., str]) -> None:
    pdf = tmp_path / "key.pdf"
    build_sheet(load_mission(ROOT / "missions/official/mission-1.yaml"), pdf,
                kind="answer-key", seed=1)
    text = " ".join(poppler("pdftotext", "-layout", str(pdf), "-").split())
    assert "Man-of-War SE1-02" in text
    assert "white T6 X turn 6 · Y turn 8 · Y turn 10 · Z turn 11" in text
    assert "rules engine's movement" in text
