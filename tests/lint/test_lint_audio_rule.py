"""The audio rule A101 with measured lengths (a fake measurer and the real default voice)."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.lint import LintConfig, Linter
from authoring.mission.load import parse_document, read_document
from authoring.mission.timeline import Timeline

ROOT = Path(__file__).resolve().parents[2]
TEXT = """\
format: 1
id: a
title: A
profile: base
phases: ["3:45", "7:30", "10:00"]
events:
  - {at: "0:20", threat: {turn: 1, zone: red}}
  - {at: "0:31", incoming_data: {}}
"""


def _slow_voice(timeline: Timeline, voice: str) -> list[int]:
    # threats one second longer than the official recording (10.1 s -> 11.1 s)
    return [c.nominal_ms + (1000 if c.kind == "threat" else 0) for c in timeline.cues]


def test_measured_lengths_find_overlaps_nominal_lengths_miss() -> None:
    doc = parse_document(TEXT, "a.yaml")
    nominal = Linter(LintConfig(select=("A101",))).lint_document(doc)
    assert nominal == []
    measured = Linter(LintConfig(select=("A101",)), voice="slow",
                      measure=_slow_voice).lint_document(doc)
    assert [(p.line, p.code) for p in measured] == [(8, "A101")]
    assert measured[0].message == ("'incoming data' at 0:31.000 overlaps the T+1 threat "
                                   "announcement at 0:20.000 by 0.1 s (voice slow)")
    assert measured[0].hint is None


@pytest.mark.slow
def test_real_default_voice_on_official_mission_3() -> None:
    doc = read_document(ROOT / "missions" / "official" / "mission-3.yaml")
    problems = Linter(LintConfig(select=("A101",)), voice="en").lint_document(doc)
    assert problems == []
