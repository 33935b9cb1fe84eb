"""``validate --output-format`` shares lint's formats (issue 18, Integrations).

SARIF: no copy of the SARIF 2.1.0 JSON Schema is available offline here (sarif-tools,
sarif-pydantic and check-jsonschema's vendored schemas do not ship it), so the SARIF log is
checked against the rules of the
OASIS SARIF 2.1.0 specification that apply to it, written out below (§3.13 sarifLog, §3.14 run,
§3.18 toolComponent, §3.27 result, §3.28 location, §3.30 region, §3.49 reportingDescriptor).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from authoring.cli import app

ROOT = Path(__file__).resolve().parents[1]
GOOD = str(ROOT / "missions" / "official" / "mission-1.yaml")
runner = CliRunner()


@pytest.fixture
def bad(tmp_path: Path) -> str:
    path = tmp_path / "bad.yaml"
    path.write_text("format: 1\nid: x\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("fmt", ["full", "concise", "json", "github", "sarif"])
def test_validate_prints_what_lint_prints_for_the_same_problems(fmt: str, bad: str) -> None:
    validated = runner.invoke(app, ["validate", "--output-format", fmt, GOOD, bad])
    linted = runner.invoke(app, ["lint", "--output-format", fmt, "--select", "S", GOOD, bad])
    assert validated.exit_code == 1 and linted.exit_code == 1
    assert validated.stdout == linted.stdout
    assert "missing key 'events'" in validated.stdout
    assert validated.stderr.splitlines()[-1] == "2 files checked, 1 invalid, 4 problems"


def _check_sarif(log: dict[str, Any]) -> None:
    assert log["version"] == "2.1.0"
    assert isinstance(log["runs"], list) and log["runs"]
    for run in log["runs"]:
        driver = run["tool"]["driver"]
        assert isinstance(driver["name"], str) and driver["name"]
        rules = driver.get("rules", [])
        ids = [r["id"] for r in rules]
        assert len(set(ids)) == len(ids)
        for rule in rules:
            assert isinstance(rule["id"], str)
            if "helpUri" in rule:
                assert isinstance(rule["helpUri"], str)
        for result in run["results"]:
            assert isinstance(result["message"]["text"], str) and result["message"]["text"]
            assert result.get("level", "warning") in {"none", "note", "warning", "error"}
            if "ruleIndex" in result:
                assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
            for location in result.get("locations", []):
                physical = location["physicalLocation"]
                assert isinstance(physical["artifactLocation"]["uri"], str)
                region = physical.get("region", {})
                for key in ("startLine", "startColumn", "endLine", "endColumn"):
                    if key in region:
                        assert isinstance(region[key], int) and region[key] >= 1


def test_validate_sarif_follows_the_sarif_2_1_0_rules(bad: str) -> None:
    result = runner.invoke(app, ["validate", "--output-format", "sarif", bad])
    log = json.loads(result.stdout)
    _check_sarif(log)
    assert len(log["runs"][0]["results"]) == 4


def test_the_sarif_check_can_fail() -> None:
    with pytest.raises((AssertionError, KeyError)):
        _check_sarif({"version": "2.1.0", "runs": [{"tool": {"driver": {"name": "x"}},
                                                     "results": [{"message": {"text": "m"},
                                                                  "level": "fatal"}]}]})


def test_every_help_link_resolves_to_a_page_of_the_docs(
        bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SPACEALERT_DOCS_URL", raising=False)
    log = json.loads(runner.invoke(app, ["validate", "--output-format", "sarif", bad]).stdout)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    # without a published site, links are repository paths, carried in ``help`` (SARIF wants
    # helpUri absolute)
    links = [r["help"]["text"].rsplit(": ", 1)[1] for r in rules]
    assert len(links) > 40 and not any("invalid" in link for link in links)
    for link in links:
        assert (ROOT / link).is_file(), link


def test_the_docs_base_can_be_configured(bad: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPACEALERT_DOCS_URL", "https://example.org/pack/docs")
    log = json.loads(runner.invoke(app, ["validate", "--output-format", "sarif", bad]).stdout)
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    assert rules[0]["helpUri"] == "https://example.org/pack/docs/lint/S001/"
