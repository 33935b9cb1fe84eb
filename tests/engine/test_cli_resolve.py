"""Tests ``spacealert resolve``: output, JSON, plan formats and error exits."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine import Plan, format_result, parse_plan, resolve_mission
from authoring.mission import load_document, load_mission

ROOT = Path(__file__).resolve().parents[2]
MISSION = ROOT / "missions" / "official" / "mission-1.yaml"
PLAN = ROOT / "tests" / "engine" / "plans" / "mission-1-4p.yaml"
runner = CliRunner()


def _expected(seed: int | None = None, level: int | None = None) -> dict[str, object]:
    plan = Plan.from_mapping(load_document(PLAN, "plan").data)
    return resolve_mission(load_mission(MISSION), plan, seed=seed, level=level).to_dict()


def test_text_output_is_the_engine_report() -> None:
    result = runner.invoke(app, ["resolve", str(MISSION), str(PLAN)])
    assert result.exit_code == 0, result.output
    plan = Plan.from_mapping(load_document(PLAN, "plan").data)
    assert result.stdout == format_result(resolve_mission(load_mission(MISSION), plan))
    assert "Turn 1\n  [action] P1 maintains the computer" in result.stdout


def test_json_output_with_seed_and_trace() -> None:
    result = runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--json", "--seed", "5"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data == _expected(seed=5)
    traced = json.loads(runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--json",
                                            "--trace"]).stdout)
    assert traced["trace"][0].startswith("t=0 tracks=T5.T3.T2.T4 ")


def test_compact_text_plan(tmp_path: Path) -> None:
    plan = Plan.from_mapping(load_document(PLAN, "plan").data)
    path = tmp_path / "plan.txt"
    path.write_text(plan.text(), encoding="utf-8")
    assert parse_plan(path.read_text(encoding="utf-8")) == plan
    result = runner.invoke(app, ["resolve", str(MISSION), str(path), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == _expected()


def test_bad_action_exits_1_with_the_message(tmp_path: Path) -> None:
    path = tmp_path / "plan.txt"
    path.write_text("P1: A X\nP2:\nP3:\nP4:\n", encoding="utf-8")
    result = runner.invoke(app, ["resolve", str(MISSION), str(path)])
    assert result.exit_code == 1
    assert f"error: {path}: expected an action" in result.stderr
    assert "got 'X'" in result.stderr


def test_wrong_crew_size_exits_1(tmp_path: Path) -> None:
    path = tmp_path / "plan.yaml"
    path.write_text("crew: [A, A, A]\n", encoding="utf-8")
    result = runner.invoke(app, ["resolve", str(MISSION), str(path)])
    assert result.exit_code == 1
    assert "expected 4 or 5 crew members (players and androids) for 3 players, got 3" \
        in result.stderr


def test_schema_error_is_located(tmp_path: Path) -> None:
    path = tmp_path / "plan.yaml"
    path.write_text("crew:\n  - actions: [A, Q]\n", encoding="utf-8")
    result = runner.invoke(app, ["resolve", str(MISSION), str(path)])
    assert result.exit_code == 1
    assert f"error: {path}:2:" in result.stderr


def test_exact_and_estimate_options() -> None:
    from authoring.engine import estimate, exact_outcome, setup_from_mission

    result = runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--json", "--exact",
                                 "--samples", "20"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    plan = Plan.from_mapping(load_document(PLAN, "plan").data)
    setup = setup_from_mission(load_mission(MISSION), plan)
    assert data["exact"] == exact_outcome(setup, plan).to_dict()
    assert data["estimate"] == estimate(setup, plan, samples=20, seed=plan.seed).to_dict()
    text = runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--exact"]).stdout
    assert text.splitlines()[-1].startswith("Exact: win probability ")


def test_every_plan_file_names_a_command_that_runs() -> None:
    # each bundled plan says in its header how to resolve it: the files it names must exist,
    # fit together and give the score its description promises
    for plan in sorted((ROOT / "tests" / "engine" / "plans").glob("*.yaml")):
        if plan.stem.endswith("-mission") or plan.stem.startswith("campaign-"):
            continue  # the campaign plans are resolved in tests/campaign/test_campaign_cli.py
        header = plan.read_text("utf-8").split("\nformat:")[0]
        command = next(line for line in header.splitlines() if "spacealert resolve" in line)
        mission_path, plan_path = command.split("spacealert resolve ")[1].split()
        assert (ROOT / plan_path) == plan
        result = runner.invoke(app, ["resolve", str(ROOT / mission_path), str(plan)])
        assert result.exit_code == 0, f"{plan.name}: {result.output}"
        assert "Score " in result.stdout
    example = runner.invoke(app, ["resolve", str(PLAN.parent / "example-4p-mission.yaml"),
                                  str(PLAN.parent / "example-4p.yaml")])
    assert "\nScore 41 = threats 36 + visual confirmation 6" in example.stdout


# A plan a short solve made for Mission 5: the engine before the one evaluator refused its
# --exact ("too many to follow exactly", after 26 s); now it answers.
REFUSED = ROOT / "tests" / "engine" / "plans" / "mission-5-refused-exact.txt"
MISSION_5 = ROOT / "missions" / "official" / "mission-5.yaml"


def test_exact_answers_a_plan_that_used_to_be_refused() -> None:
    result = runner.invoke(app, ["resolve", str(MISSION_5), str(REFUSED), "--exact", "--json"])
    assert result.exit_code == 0, result.output
    odds = json.loads(result.stdout)["exact"]
    # followed exactly within the default budget (the sampled answer past it: next test)
    assert (odds["method"], odds["win"], odds["expected_score"]) == ("exact", "0", None)
    text = runner.invoke(app, ["resolve", str(MISSION_5), str(REFUSED), "--exact"])
    assert text.exit_code == 0, text.output
    assert text.stdout.splitlines()[-1] == "Exact: win probability 0, expected score of a win -"


def test_exact_past_the_budget_answers_with_a_sampled_estimate(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import functools

    from authoring.cli import resolve as command
    from authoring.engine import exact_outcome

    # A budget of no extra leaf: the Mission 1 plan's draws cannot be followed exactly.
    monkeypatch.setattr(command, "exact_outcome",
                        functools.partial(exact_outcome, max_leaves=0, samples=30))
    result = runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--exact", "--json"])
    assert result.exit_code == 0, result.output
    odds = json.loads(result.stdout)["exact"]
    assert (odds["method"], odds["samples"]) == ("sampled", 30)
    assert odds["win_error"] is not None
    text = runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--exact"]).stdout
    assert text.splitlines()[-1].startswith("Sampled (too many draws to follow exactly; mean "
                                            "of 30 stratified samples")


def test_hands_check_the_plan_against_the_cards_dealt_with_its_seed(tmp_path: Path) -> None:
    result = runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--hands"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("The crew can play the plan from the hands dealt with "
                                    "seed 2026.\n")
    data = json.loads(runner.invoke(app, ["resolve", str(MISSION), str(PLAN), "--hands",
                                          "--json"]).stdout)
    assert [m["label"] for m in data["hands"]["crew"]] == ["P1", "P2", "P3", "P4"]
    greedy = tmp_path / "greedy.txt"
    greedy.write_text("P1: R R R R R R R R R R R R\nP2:\nP3:\nP4:\nseed: 2026\n",
                      encoding="utf-8")
    refused = runner.invoke(app, ["resolve", str(MISSION), str(greedy), "--hands"])
    assert refused.exit_code == 1
    assert "greedy.txt: P1 cannot play R in turn " in refused.stderr
    assert "no card with R is left in the hands held in phase" in refused.stderr
    assert "Traceback" not in refused.stderr
    assert runner.invoke(app, ["resolve", str(MISSION), str(greedy)]).exit_code == 0
