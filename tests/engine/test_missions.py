"""Resolves the bundled missions through the real mission model (authoring.mission)."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.engine import parse_plan, resolve_mission, setup_from_mission
from authoring.mission import load_mission

# campaign files (top-level key ``campaign``) name missions; they are resolved in tests/campaign
MISSIONS = sorted(p for p in (Path(__file__).resolve().parents[2] / "missions").glob("*/*.yaml")
                  if "\ncampaign: 1" not in p.read_text("utf-8"))


@pytest.mark.parametrize("path", MISSIONS, ids=lambda p: p.stem)
@pytest.mark.parametrize("crew", ["P1:\nP2:\nP3:\nP4:", "P1:\nP2:\nP3:\nP4:\nA1:"])
def test_every_bundled_mission_resolves(path: Path, crew: str) -> None:
    mission = load_mission(path)
    plan = parse_plan(crew + "\nseed: 11")
    setup = setup_from_mission(mission, plan)
    threats = mission.threats()
    figures = crew.count(":")
    expected = [t for t in threats if figures == 5 or not t.unconfirmed]
    assert [(e.turn, e.zone) for e in setup.threats] == [(t.turn, t.zone) for t in expected]
    result = resolve_mission(mission, plan)
    assert result.turn <= 13
    assert resolve_mission(mission, plan) == result
