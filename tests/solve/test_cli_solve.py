"""``spacealert solve`` on the command line: output, plan file, JSON and bad inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine import parse_plan, resolve
from authoring.mission import load_mission
from authoring.solve import load_plan, prepare

DATA = Path(__file__).resolve().parent / "data"
MISSION = str(DATA / "meteoroid.yaml")
IDLE = str(DATA / "androids-idle.yaml")
runner = CliRunner()
FAST = ["--iterations", "300", "--jobs", "1", "--restarts", "1"]


def test_prints_a_plan_that_parses_and_resolves_to_the_reported_score() -> None:
    result = runner.invoke(app, ["solve", MISSION, "--fix", IDLE, *FAST])
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""  # no progress bar when stderr is not a terminal
    assert "expected score" in result.stdout and "survival" in result.stdout
    plan = parse_plan(result.stdout)  # the whole output is plan notation plus comments
    assert [m.label for m in plan.crew] == ["P1", "A1", "A2", "A3"]
    assert len(result.stdout.splitlines()[2].split()) == 13  # '#' and 12 turn columns
    problem = prepare(load_mission(MISSION))
    score = resolve(problem.setup, plan, record=False).score
    assert score is not None
    assert f"expected score {score.total:.2f}" in result.stdout


def test_writes_the_plan_file_and_json(tmp_path: Path) -> None:
    out = tmp_path / "plan.yaml"
    out.write_text("old content\n", encoding="utf-8")
    result = runner.invoke(app, ["solve", MISSION, "--fix", IDLE, *FAST, "-o", str(out),
                                 "--json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["evaluation"]["method"] == "exact"
    written = load_plan(out)  # validated against the plan schema
    assert written.text() == parse_plan(data["notation"]).text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plan.yaml"]  # no temp file left


def test_unknown_mission_path_is_exit_1(tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", str(tmp_path / "nope.yaml"), *FAST])
    assert result.exit_code == 1
    assert "nope.yaml" in result.stderr and "Traceback" not in result.stderr
    assert result.stdout == ""


def test_invalid_draw_file_is_exit_1_with_its_location(tmp_path: Path) -> None:
    draw = tmp_path / "draw.yaml"
    draw.write_text("threats: [E9-99]\n", encoding="utf-8")
    result = runner.invoke(app, ["solve", MISSION, "--draw", str(draw), *FAST])
    assert result.exit_code == 1
    assert "draw.yaml:1:" in result.stderr and "Traceback" not in result.stderr


def test_draw_that_does_not_fit_the_mission_is_exit_1(tmp_path: Path) -> None:
    draw = tmp_path / "draw.yaml"
    draw.write_text("threats: [E1-01, E1-02]\n", encoding="utf-8")
    result = runner.invoke(app, ["solve", MISSION, "--draw", str(draw), *FAST])
    assert result.exit_code == 1
    assert "expected 1 cards in the draw" in result.stderr


def test_draw_file_sets_the_cards_and_boards(tmp_path: Path) -> None:
    draw = tmp_path / "draw.yaml"
    draw.write_text("format: 1\nthreats: [E1-07]\ntrajectories: {red: T1, white: T2, "
                    "blue: T3, internal: T4}\n", encoding="utf-8")
    result = runner.invoke(app, ["solve", MISSION, "--draw", str(draw), "--fix", IDLE, *FAST])
    assert result.exit_code == 0, result.stderr
    assert "draw: E1-07" in result.stdout and "trajectories: T1 T2 T3 T4" in result.stdout


def test_jobs_zero_is_a_usage_error() -> None:
    result = runner.invoke(app, ["solve", MISSION, "--jobs", "0"])
    assert result.exit_code == 2
    assert "expected --jobs of at least 1, got 0" in result.stderr


def test_impossible_player_count_is_a_usage_error() -> None:
    result = runner.invoke(app, ["solve", MISSION, "--players", "7", *FAST])
    assert result.exit_code == 2
    assert "players" in result.stderr


def test_fixed_label_outside_the_crew_is_exit_1(tmp_path: Path) -> None:
    fix = tmp_path / "fix.yaml"
    fix.write_text("crew:\n  - {label: P4, actions: A}\n", encoding="utf-8")
    result = runner.invoke(app, ["solve", MISSION, "--fix", str(fix), *FAST])
    assert result.exit_code == 1
    assert "expected fixed crew members among P1 A1 A2 A3, got P4" in result.stderr


def test_help_says_which_budget_is_deterministic() -> None:
    result = runner.invoke(app, ["solve", "--help"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    text = " ".join(result.stdout.split())  # help wraps at the terminal's width
    assert "DETERMINISTIC" in text and "NOT deterministic" in text


def test_time_limit_stops_the_search() -> None:
    result = runner.invoke(app, ["solve", MISSION, "--fix", IDLE, "--time-limit", "1",
                                 "--jobs", "1", "--restarts", "1", "--json"])
    assert result.exit_code == 0, result.stderr
    search = json.loads(result.stdout)["search"]
    assert search["iterations"] > 0 and search["seconds"] < 10


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("authoring.cli.solve._stderr_is_terminal", lambda: True)
    result = runner.invoke(app, ["solve", MISSION, "--fix", IDLE, *FAST])
    assert result.exit_code == 0, result.stderr
    assert "best" in result.stderr and "100%" in result.stderr
    assert "best" not in result.stdout  # the plan on stdout stays clean


def test_any_player_count_gets_androids_to_fill_the_crew() -> None:
    result = runner.invoke(app, ["solve", MISSION, "--players", "3", "--figures", "5", *FAST])
    assert result.exit_code == 0, result.stderr
    labels = [m.label for m in parse_plan(result.stdout).crew]
    assert labels == ["P1", "P2", "P3", "A1", "A2"]
    bad = runner.invoke(app, ["solve", MISSION, "--players", "5", "--figures", "4", *FAST])
    assert bad.exit_code == 2
    assert "expected 5 figures (players and androids) for 5 players, got 4" in bad.stderr


OFFICIAL = str(Path(__file__).resolve().parents[2] / "missions" / "official" / "mission-1.yaml")


def test_hands_deals_with_the_seed_and_plans_only_playable_cards(tmp_path: Path) -> None:
    from authoring.engine.rules.hands import check

    args = ["solve", OFFICIAL, "--hands", "--seed", "4", *FAST]
    out = tmp_path / "plan.yaml"
    result = runner.invoke(app, [*args, "--json", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    data = json.loads(result.stdout)
    problem = prepare(load_mission(OFFICIAL), seed=4, hands=True)
    assert problem.hands is not None
    assert data["hands"] == problem.hands.to_mapping()
    assert [len(member["cards"]) for member in data["hands"]["crew"]] == [16] * 5  # 4+5+5+2
    plan = parse_plan(data["notation"])
    check(problem.hands, plan.crew)  # raises PlanError for a card the crew does not hold
    text = runner.invoke(app, args)
    assert text.exit_code == 0, text.stderr
    assert "# hands dealt with seed 4 (docs/rules.md §16):" in text.stdout
    assert "#   P1: heroic " in text.stdout and "; phase 2: " in text.stdout
    assert parse_plan(text.stdout).text() == plan.text()  # the same plan, still plan notation
    replay = runner.invoke(app, ["resolve", OFFICIAL, str(out), "--hands"])
    assert replay.exit_code == 0, replay.stderr  # resolve deals the same hands from the seed
    assert "can play the plan from the hands dealt with seed 4" in replay.stdout


def test_hands_refuse_a_fixed_plan_the_cards_cannot_play(tmp_path: Path) -> None:
    fixed = tmp_path / "fixed.yaml"
    fixed.write_text("format: 1\ncrew:\n  - {label: P1, actions: 'R R R R R R R R R R R R'}\n",
                     encoding="utf-8")
    result = runner.invoke(app, ["solve", OFFICIAL, "--hands", "--fix", str(fixed), *FAST])
    assert result.exit_code == 1
    assert "the fixed plan does not fit the hands dealt with seed 0: P1 cannot play R in " \
        "turn" in result.stderr
    assert "Traceback" not in result.stderr


def test_hands_apply_to_single_missions() -> None:
    campaign = str(Path(__file__).resolve().parents[2] / "missions" / "examples" /
                   "campaign.yaml")
    result = runner.invoke(app, ["solve", campaign, "--hands", *FAST])
    assert result.exit_code == 2
    assert "--hands applies to single missions" in result.stderr
