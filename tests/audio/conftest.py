"""Shared fixtures of the audio tests: redirected caches, short test missions, decoding."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from authoring.audio.cache import ENV_VAR

# Three minutes, two phases: every cue kind (threat, transfer with beep, comms down with
# static, incoming data, warnings, countdowns, a free announcement) in a track that renders fast.
SHORT_MISSION = """\
format: 1
id: short-test
title: Short test track
language: en
profile: test-run
players: 5
phases: ["1:30", "2:45"]
events:
  - {at: "0:10", threat: {turn: 1, zone: red, serious: true}}
  - {at: "0:35", data_transfer: {}}
  - {at: "0:55", incoming_data: {}}
  - {at: "1:48", threat: {turn: 5, zone: internal, unconfirmed: true}}
  - {at: "2:00", comms_down: {seconds: 10}}
  - {at: "2:15", announcement: {text: "Check your plans."}}
"""


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory,
                    monkeypatch: pytest.MonkeyPatch) -> Path:
    """Points the default clip cache at a per-session temporary folder (never the user's)."""
    folder = tmp_path_factory.getbasetemp() / "clip-cache"
    monkeypatch.setenv(ENV_VAR, str(folder))
    return folder


@pytest.fixture(autouse=True)
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Sends the temporary files of espeak-ng calls (and any other) to a per-test folder."""
    folder = tmp_path / "scratch"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    return folder


@pytest.fixture
def short_mission(tmp_path: Path) -> Path:
    """Returns the path of the short test mission."""
    path = tmp_path / "short.yaml"
    path.write_text(SHORT_MISSION, encoding="utf-8")
    return path


def decode_file(path: Path) -> np.ndarray:
    """Returns an audio file decoded by ffmpeg as mono float samples at 44.1 kHz."""
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "1", "-ar", "44100",
         "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0


@pytest.fixture
def decode() -> Callable[[Path], np.ndarray]:
    """Returns the decoder: an audio file → mono float samples at 44.1 kHz (through ffmpeg)."""
    return decode_file
