"""Shared fixtures for the sheet tests: official missions, small custom missions, poppler."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from authoring.mission import load_mission
from authoring.mission.model import Mission

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = ROOT / "missions" / "official"
OFFICIAL_FILES = sorted(OFFICIAL.glob("*.yaml"))

INJECTED_TITLE = "Mission 7: <script>alert(1)</script> & Co"

#: A small mission with pinned trajectories, white decks and one pinned card: few cards to print.
SMALL_MISSION = """\
format: 1
id: small-pinned
title: "{title}"
author: "Ann <b>Author</b>"
description: "Watch out for <img src=x onerror=alert(1)> & friends."
profile: base
players: 4
phases: ["3:40", "7:30", "10:00"]
decks: {{common: white, serious: white}}
trajectories: {{red: T3, white: T5, blue: T7, internal: T4}}
events:
  - {{at: "0:10", threat: {{turn: 1, zone: red, card: E1-07}}}}
  - {{at: "0:40", threat: {{turn: 2, zone: internal}}}}
  - {{at: "1:10", threat: {{turn: 3, zone: blue, unconfirmed: true}}}}
  - {{at: "1:30", comms_down: {{seconds: 10}}}}
  - {{at: "2:00", data_transfer: {{}}}}
  - {{at: "4:00", threat: {{turn: 5, zone: white, serious: true}}}}
  - {{at: "5:00", incoming_data: {{}}}}
  - {{at: "6:00", announcement: {{text: "<b>Hull</b> breach & panic"}}}}
"""


@pytest.fixture
def write_mission(tmp_path: Path) -> Callable[..., Path]:
    """Writes the small mission (with the given title) to tmp_path and returns its path."""

    def write(title: str = "Small pinned mission", name: str = "small.yaml") -> Path:
        path = tmp_path / name
        path.write_text(SMALL_MISSION.format(title=title.replace('"', '\\"')), encoding="utf-8")
        return path

    return write


@pytest.fixture
def small_mission(write_mission: Callable[..., Path]) -> Mission:
    """The small mission, loaded."""
    return load_mission(write_mission())


def _poppler(tool: str, *args: str) -> str:
    exe = shutil.which(tool)
    assert exe, f"{tool} is missing: apt-get install poppler-utils"
    done = subprocess.run([exe, *args], capture_output=True, text=True, check=True, timeout=60)
    return done.stdout


@pytest.fixture
def poppler() -> Callable[..., str]:
    """Runs a poppler-utils tool (pdfinfo, pdffonts, pdftotext) and returns its stdout."""
    return _poppler

