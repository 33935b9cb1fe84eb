"""Rule links: ``spacealert rules CODE``, SARIF and GitHub output point at the rule's page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.lint import VALIDATOR_CODES, all_rules
from authoring.lint.docs_link import rule_doc_url
from tests.lint.lint_helpers import EARLY

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def early(tmp_path: Path) -> str:
    path = tmp_path / "early.yaml"
    path.write_text(EARLY, "utf-8")
    return str(path)


def test_every_code_links_to_a_page_that_exists_in_the_repository() -> None:
    codes = [*VALIDATOR_CODES, *all_rules()]
    missing = [code for code in codes if not (ROOT / rule_doc_url(code)).is_file()]
    assert missing == []


def test_the_base_setting_switches_between_a_path_and_a_site(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert rule_doc_url("T105") == "docs/lint/T105.md"
    assert rule_doc_url("T105", base="/srv/sa-docs/") == "/srv/sa-docs/lint/T105.md"
    monkeypatch.setenv("SPACEALERT_DOCS_URL", "https://example.org/sa/")
    assert rule_doc_url("T105") == "https://example.org/sa/lint/T105/"


def test_rules_prints_the_link_of_rules_and_validator_codes() -> None:
    runner = CliRunner()
    explained = runner.invoke(app, ["rules", "T105"])
    assert explained.stdout.endswith("\nDocumentation: docs/lint/T105.md\n")
    validator = runner.invoke(app, ["rules", "S102"])
    assert "Documentation: docs/lint/S102.md" in validator.stdout
    data = json.loads(runner.invoke(app, ["rules", "M110", "--json"]).stdout)
    assert data["url"] == "docs/lint/M110.md"


def test_sarif_links_each_rule_and_writes_help_uri_only_for_web_addresses(
        early: str, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    args = ["lint", early, "--select", "T104", "--output-format", "sarif"]
    driver = json.loads(runner.invoke(app, args).stdout)["runs"][0]["tool"]["driver"]
    rule = next(r for r in driver["rules"] if r["id"] == "T104")
    assert rule["help"]["markdown"] == "[T104 early-event](docs/lint/T104.md)"
    assert "helpUri" not in rule and "informationUri" not in driver
    monkeypatch.setenv("SPACEALERT_DOCS_URL", "https://example.org/sa")
    driver = json.loads(runner.invoke(app, args).stdout)["runs"][0]["tool"]["driver"]
    by_id = {r["id"]: r for r in driver["rules"]}
    assert by_id["T104"]["helpUri"] == "https://example.org/sa/lint/T104/"
    assert by_id["S001"]["helpUri"] == "https://example.org/sa/lint/S001/"
    assert driver["informationUri"] == "https://example.org/sa/lint/"


def test_github_annotations_carry_the_link(early: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPACEALERT_DOCS_URL", "https://example.org/sa/")
    result = CliRunner().invoke(app, ["lint", early, "--select", "T104",
                                      "--output-format", "github"])
    assert result.stdout.rstrip("\n").endswith("(docs: https://example.org/sa/lint/T104/)")
