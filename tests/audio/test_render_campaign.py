"""``spacealert render CAMPAIGN``: one file per mission, or one joined file (decoded back)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from typer.testing import CliRunner

from authoring.audio.campaign import AFTER_STORY_MS
from authoring.cli import app
from tests.audio.conftest import SHORT_MISSION

runner = CliRunner()
RATE = 44_100


def _campaign(tmp_path: Path) -> Path:
    (tmp_path / "short.yaml").write_text(SHORT_MISSION, encoding="utf-8")
    path = tmp_path / "campaign.yaml"
    path.write_text("campaign: 1\nid: two-shorts\ntitle: Two\nmissions:\n"
                    "  - {mission: short.yaml, soundtrack: {players: 4}}\n"
                    "  - mission: short.yaml\n    soundtrack: {players: 5}\n"
                    "    announcement: Second jump. Brace for impact.\n", encoding="utf-8")
    return path


def test_separate_and_joined_renders_line_up_sample_for_sample(
        tmp_path: Path, decode: Callable[[Path], np.ndarray]) -> None:
    campaign = _campaign(tmp_path)
    folder = tmp_path / "out"
    folder.mkdir()
    result = runner.invoke(app, ["render", str(campaign), "-o", str(folder), "-f", "wav"])
    assert result.exit_code == 0, result.output
    first, second = sorted(folder.iterdir())
    assert first.name == "two-shorts-1-short-test.wav"
    assert second.name == "two-shorts-2-short-test.wav"
    one, two = decode(first), decode(second)
    # the soundtrack choice: the second is rendered for 5 players (its unconfirmed report)
    assert len(two) > 0 and not np.array_equal(one[: len(two)], two[: len(one)])
    joined_path = tmp_path / "joined.wav"
    result = runner.invoke(app, ["render", str(campaign), "--join", "--pause", "2",
                                 "-o", str(joined_path)])
    assert result.exit_code == 0, result.output
    joined = decode(joined_path)
    pause = 2 * RATE
    story = len(joined) - len(one) - pause - AFTER_STORY_MS * RATE // 1000 - len(two)
    assert story > RATE  # the spoken story: more than a second
    assert np.array_equal(joined[: len(one)], one)
    assert np.array_equal(joined[len(joined) - len(two):], two)
    assert not np.any(joined[len(one): len(one) + pause])  # the pause is silent
    spoken = joined[len(one) + pause: len(one) + pause + story]
    assert float(np.sqrt(np.mean(spoken ** 2))) > 0.01


def test_join_and_captions_are_refused_where_they_do_not_apply(tmp_path: Path) -> None:
    campaign = _campaign(tmp_path)
    assert runner.invoke(app, ["render", str(campaign), "--captions", "vtt"]).exit_code == 2
    mission = tmp_path / "short.yaml"
    assert runner.invoke(app, ["render", str(mission), "--join"]).exit_code == 2
    missing = runner.invoke(app, ["render", str(campaign), "-o", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2
