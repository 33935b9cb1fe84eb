"""Helpers shared by the generator and interchange tests."""

from __future__ import annotations

from pathlib import Path

from authoring.mission import Mission, check_mission, parse_document

DATA = Path(__file__).resolve().parent / "data"
ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = ROOT / "missions" / "official"


def valid_mission(text: str) -> Mission:
    """Parses mission text with the real loader and returns the mission; fails on problems."""
    mission, problems = check_mission(parse_document(text.encode("utf-8"), "<generated>"))
    assert problems == []
    assert mission is not None
    return mission
