"""``generate --json``: what was generated, for scripts (issue 18, Integrations)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from authoring.cli import app
from authoring.mission import load_mission
from authoring.mission.load import parse_document

runner = CliRunner()


def test_json_without_output_carries_the_yaml() -> None:
    result = runner.invoke(app, ["generate", "--seed", "7", "--json"])
    assert result.exit_code == 0, result.output
    [entry] = json.loads(result.stdout)["missions"]
    assert entry["seed"] == 7
    plain = runner.invoke(app, ["generate", "--seed", "7"]).stdout
    assert entry["yaml"] == plain
    assert parse_document(entry["yaml"]).data["id"] == entry["id"]


def test_json_with_count_lists_each_file(tmp_path: Path) -> None:
    result = runner.invoke(app, ["generate", "--seed", "5", "--count", "3", "-o", str(tmp_path),
                                 "--json"])
    assert result.exit_code == 0, result.output
    missions = json.loads(result.stdout)["missions"]
    assert [m["seed"] for m in missions] == [5, 6, 7]
    for entry in missions:
        assert load_mission(entry["file"]).id == entry["id"]
