"""Selection, severities, options and configuration files."""

from __future__ import annotations

from pathlib import Path

import pytest
from lint_helpers import lint_text

from authoring.errors import UsageError
from authoring.lint import LintConfig, LintConfigError, all_rules, find_config, lint_mission
from authoring.lint.config import resolve
from authoring.lint.selection import is_enabled, parse_selectors

NAMES = {code: rule.name for code, rule in all_rules().items()}
EARLY = """\
format: 1
id: early
title: Early
profile: base
phases: ["3:45", "7:30", "10:00"]
events:
  - {at: "0:05", incoming_data: {}}
  - {at: "0:08", incoming_data: {}}
"""


def _enabled(select: list[str], ignore: list[str]) -> set[str]:
    s = parse_selectors(select, NAMES)
    i = parse_selectors(ignore, NAMES)
    return {code for code, name in NAMES.items() if is_enabled(code, name, s, i)}


def test_more_specific_selector_wins_and_ignore_wins_ties() -> None:
    assert _enabled(["T"], ["T1"]) == set()
    assert _enabled(["T104"], ["T1"]) == {"T104"}
    assert _enabled(["T1"], ["T104"]) == {c for c in NAMES if c.startswith("T1")} - {"T104"}
    assert _enabled(["T104"], ["T104"]) == set()
    assert _enabled(["early-event"], ["T"]) == {"T104"}
    assert "A101" in _enabled(["ALL"], [])


def test_default_selection_leaves_audio_and_game_rules_out() -> None:
    enabled = resolve(LintConfig(), all_rules()).enabled
    assert {c[0] for c in enabled} == {"S", "M", "T", "C"}
    # of the campaign rules only the cheap ones: those that simulate are opt-in
    assert {c for c in enabled if c[0] == "C"} == {"C101", "C102"}


def test_unknown_selector_is_a_usage_error_naming_the_choices() -> None:
    with pytest.raises(UsageError, match=r"unknown rule selector 'Q9'.*S, M, T"):
        parse_selectors(["Q9"], NAMES)


def test_severity_override_and_options() -> None:
    problems = lint_text(EARLY, ["T104", "T108"], options={"T108": {"min_gap": 2}})
    assert [(p.line, p.code, p.severity) for p in problems] == [
        (7, "T104", "error"), (8, "T104", "error")]
    config = LintConfig(select=("T104",), severity={"T1": "info"}, rules={"T104": {"earliest": 6}})
    problems = lint_mission(_write(EARLY), config=config)
    assert [(p.line, p.code, p.severity) for p in problems] == [(7, "T104", "info")]


def test_unknown_option_and_wrong_type_are_config_errors() -> None:
    with pytest.raises(LintConfigError, match="unknown option 'gap' for T108 close-events: "
                                              "expected one of min_gap"):
        resolve(LintConfig(rules={"T108": {"gap": 3}}), all_rules())
    with pytest.raises(LintConfigError, match="wrong type for option 'min_gap' of T108"):
        resolve(LintConfig(rules={"close-events": {"min_gap": "ten"}}), all_rules())
    with pytest.raises(LintConfigError, match="unknown rule 'T999'"):
        resolve(LintConfig(rules={"T999": {}}), all_rules())


def test_profile_options_apply_to_their_profile_only() -> None:
    config = LintConfig(select=("T101",), profiles={"training": {"T101": {"length": [1, 2]}}})
    assert lint_mission(_write(EARLY), config=config) == []
    assert [p.code for p in lint_mission(_write(EARLY), config=config, profile="training")] \
        == ["T101"]


_TMP: list[Path] = []


def _write(text: str) -> Path:
    path = _TMP[-1] / "mission.yaml"
    path.write_text(text, "utf-8")
    return path


@pytest.fixture(autouse=True)
def _tmp(tmp_path: Path) -> None:
    _TMP.append(tmp_path)


def test_config_file_is_found_upward_and_validated(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    mission = tmp_path / "sub" / "m.yaml"
    mission.write_text(EARLY, "utf-8")
    (tmp_path / ".spacealert-lint.yaml").write_text(
        "select: [T104]\nseverity: {T104: warning}\n", "utf-8")
    assert find_config(mission) == tmp_path / ".spacealert-lint.yaml"
    assert [(p.code, p.severity) for p in lint_mission(mission)] == [
        ("T104", "warning"), ("T104", "warning")]
    (tmp_path / ".spacealert-lint.yaml").write_text("select: T104\n", "utf-8")
    with pytest.raises(LintConfigError, match=r"\.spacealert-lint\.yaml:1:9: expected a list"):
        lint_mission(mission)


def test_lint_mission_accepts_a_mapping_config() -> None:
    path = _write(EARLY)
    assert [p.code for p in lint_mission(path, config={"select": ["T104"],
                                                       "ignore": ["early-event"]})] == []
