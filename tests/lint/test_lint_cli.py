"""``spacealert lint`` and ``spacealert rules`` through Typer's CliRunner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from tests.lint.lint_helpers import EARLY

ROOT = Path(__file__).resolve().parents[2]
MISSION_3 = str(ROOT / "missions" / "official" / "mission-3.yaml")


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def early(tmp_path: Path) -> str:
    path = tmp_path / "early.yaml"
    path.write_text(EARLY, "utf-8")
    return str(path)


def test_clean_mission_exits_0_and_warnings_fail_only_with_strict(runner: CliRunner) -> None:
    result = runner.invoke(app, ["lint", MISSION_3, "--output-format", "concise"])
    assert result.exit_code == 0
    assert result.stdout == (f"{MISSION_3}:29:10: T107 [warning] communications down (10 s) at "
                             "8:15 starts 10 s after the data transfer at 8:05: expected at "
                             "least 13 s\n")
    assert result.stderr == "1 file linted: 0 errors, 1 warning, 0 infos\n"
    strict = runner.invoke(app, ["lint", MISSION_3, "--strict", "-q"])
    assert strict.exit_code == 1
    assert strict.stderr == ""


def test_errors_exit_1_with_full_output(runner: CliRunner, early: str) -> None:
    result = runner.invoke(app, ["lint", early, "--select", "T104"])
    assert result.exit_code == 1
    assert result.stdout == (
        f"{early}:7:10: T104 [error] early-event: incoming data at 0:05: expected no event "
        "before 0:10\n"
        "  |\n"
        '7 |   - {at: "0:05", incoming_data: {}}\n'
        "  |          ^\n"
        "  = hint: the start announcement lasts about 6.6 s\n\n")


def test_every_file_is_linted_even_if_one_does_not_parse(runner: CliRunner, early: str,
                                                          tmp_path: Path) -> None:
    broken = tmp_path / "a-broken.yaml"
    broken.write_text("id: [\n", "utf-8")
    result = runner.invoke(app, ["lint", str(broken), early, "--select", "T104",
                                 "--output-format", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert [(p["file"], p["code"]) for p in data["problems"]] == [
        (str(broken), "S001"), (early, "T104")]
    assert data["summary"] == {"files": 2, "problems": 2, "errors": 2, "warnings": 0,
                               "infos": 0, "files_with_errors": 2}
    assert list(data["problems"][1]) == ["file", "line", "col", "code", "name", "severity",
                                         "message", "hint", "path"]


def test_github_and_sarif_formats(runner: CliRunner, early: str) -> None:
    result = runner.invoke(app, ["lint", early, "--select", "T104", "--output-format", "github"])
    assert result.stdout == (f"::error file={early},line=7,col=10,title=T104 early-event::"
                             "incoming data at 0%3A05: expected no event before 0%3A10 "
                             "(hint: the start announcement lasts about 6.6 s) "
                             "(docs: docs/lint/T104.md)\n"
                             .replace("0%3A", "0:"))
    result = runner.invoke(app, ["lint", early, "--select", "T104", "--output-format", "sarif"])
    sarif = json.loads(result.stdout)
    run = sarif["runs"][0]
    assert sarif["version"] == "2.1.0"
    [found] = run["results"]
    assert found["ruleId"] == "T104" and found["level"] == "error"
    assert found["locations"][0]["physicalLocation"]["region"] == {"startLine": 7,
                                                                   "startColumn": 10}
    assert run["tool"]["driver"]["rules"][found["ruleIndex"]]["name"] == "early-event"


def test_usage_errors_exit_2(runner: CliRunner, early: str, tmp_path: Path) -> None:
    result = runner.invoke(app, ["lint", early, "--select", "Q"])
    assert result.exit_code == 2
    assert "unknown rule selector 'Q'" in result.stderr
    result = runner.invoke(app, ["lint", early, "--profile", "expert"])
    assert result.exit_code == 2
    assert result.stderr.startswith("error: unknown profile 'expert': expected one of")
    bad = tmp_path / "bad.yaml"
    bad.write_text("selekt: [T]\n", "utf-8")
    result = runner.invoke(app, ["lint", early, "--config", str(bad)])
    assert result.exit_code == 2
    assert "unknown key 'selekt'" in result.stderr
    result = runner.invoke(app, ["lint", early, "--output-format", "xml"])
    assert result.exit_code == 2


def test_profile_override(runner: CliRunner) -> None:
    result = runner.invoke(app, ["lint", MISSION_3, "--profile", "test-run", "--select", "M101",
                                 "--output-format", "concise", "-q"])
    assert result.exit_code == 1
    assert result.stdout == (f"{MISSION_3}:12:1: M101 [error] the test-run profile has 2 "
                             "phases, got 3 phase ends\n")


def test_rules_lists_and_explains(runner: CliRunner) -> None:
    listing = runner.invoke(app, ["rules"])
    assert listing.exit_code == 0
    lines = listing.stdout.splitlines()
    assert lines[0].startswith("S001  yaml-syntax")
    assert any(line.startswith("T104  early-event                  error") for line in lines)
    explain = runner.invoke(app, ["rules", "early-event"])
    assert explain.exit_code == 0
    assert explain.stdout.startswith("T104 early-event (error; needs mission)\n")
    assert "Passes::" in explain.stdout and "  base           earliest=10" in explain.stdout
    data = json.loads(runner.invoke(app, ["rules", "T110", "--json"]).stdout)
    assert data["options"]["double-action"] == {"min_gap": 20}
    missing = runner.invoke(app, ["rules", "T999"])
    assert missing.exit_code == 2
    assert missing.stderr.startswith("error: no such rule 'T999'")
    validator = runner.invoke(app, ["rules", "s001"])
    assert validator.stdout.startswith("S001 yaml-syntax (error; reported by the validator)")
