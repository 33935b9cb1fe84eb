"""``spacealert generate --campaign``: calibrated missions and their campaign file."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from authoring.cli import app
from authoring.mission import load_campaign

runner = CliRunner()


def test_a_generated_campaign_is_reproducible_valid_and_lint_clean(tmp_path: Path) -> None:
    for name in ("a", "b"):
        result = runner.invoke(app, ["generate", "--campaign", "--missions", "3", "--seed",
                                     "11", "-o", str(tmp_path / name)])
        assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert files == ["base-11.yaml", "base-12.yaml", "base-13.yaml", "campaign.yaml"]
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    campaign = load_campaign(tmp_path / "a" / "campaign.yaml")
    decks = [(e.mission.decks.common, e.mission.decks.serious) for e in campaign.missions]
    assert decks == [("white", "white"), ("mixed", "white"), ("yellow", "mixed")]
    lint = runner.invoke(app, ["lint", "--output-format", "json",
                               str(tmp_path / "a" / "campaign.yaml")])
    assert lint.exit_code == 0, lint.output
    summary = json.loads(lint.stdout)["summary"]
    assert (summary["files"], summary["errors"], summary["warnings"]) == (4, 0, 0)


def test_each_mission_is_the_single_generated_mission_of_its_seed(tmp_path: Path) -> None:
    assert runner.invoke(app, ["generate", "--campaign", "--missions", "2", "--seed", "4",
                               "-o", str(tmp_path)]).exit_code == 0
    single = runner.invoke(app, ["generate", "--seed", "5", "--decks", "mixed"])
    assert (tmp_path / "base-5.yaml").read_text("utf-8") == single.stdout


def test_campaign_output_rules(tmp_path: Path) -> None:
    assert runner.invoke(app, ["generate", "--campaign"]).exit_code == 2
    assert runner.invoke(app, ["generate", "--campaign", "--seed", "3", "-o",
                               str(tmp_path)]).exit_code == 0
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    (tmp_path / "campaign.yaml").write_text("stale\n", encoding="utf-8")
    # outputs are replaced (atomically), like every command's: the same seed, the same files
    again = runner.invoke(app, ["generate", "--campaign", "--seed", "3", "-o", str(tmp_path)])
    assert again.exit_code == 0, again.output
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == first
