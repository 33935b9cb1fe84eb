"""Double-action tracks above the engine: solve, resolve, simulate and generated tracks play
double actions, free of dealt hands (docs/rules.md §19.2-§19.5)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine import parse_plan, resolve_mission
from authoring.generate import GenerateOptions, generate_mission
from authoring.mission import load_mission
from authoring.simulation.heuristic import HeuristicCrew
from authoring.simulation.montecarlo import draw_game, plan_drawn
from authoring.simulation.planner import PlanningCrew

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = str(ROOT / "missions" / "examples" / "double-action.yaml")
MISSION_1 = str(ROOT / "missions" / "official" / "mission-1.yaml")
runner = CliRunner()
FAST = ["--iterations", "600", "--jobs", "1", "--restarts", "1", "--seed", "3"]


def _doubles(text: str) -> int:
    return sum(a.is_double for m in parse_plan(text).crew for a in m.actions)


def test_solve_plays_double_actions_and_its_plan_resolves_on_the_track() -> None:
    result = runner.invoke(app, ["solve", EXAMPLE, *FAST])
    assert result.exit_code == 0, result.stderr
    assert _doubles(result.stdout) > 0
    plan = parse_plan(result.stdout)
    resolved = resolve_mission(load_mission(EXAMPLE), plan, record=False)
    assert resolved.turn >= 1


@pytest.mark.parametrize("command", [["solve", EXAMPLE, "--hands", *FAST],
                                     ["resolve", EXAMPLE, "PLAN", "--hands"]])
def test_dealt_hands_are_refused_on_a_double_action_track(tmp_path: Path,
                                                          command: list[str]) -> None:
    plan = tmp_path / "plan.txt"
    plan.write_text("P1: rA\nP2: -\nP3: -\nP4: -\nP5: -\n", encoding="utf-8")
    result = runner.invoke(app, [str(plan) if c == "PLAN" else c for c in command])
    assert result.exit_code == 1
    assert "dealt hands are not modelled on double-action tracks" in result.stderr
    assert "docs/rules.md §19.5" in result.stderr and "Traceback" not in result.stderr


def test_a_base_track_refuses_a_plan_with_double_actions(tmp_path: Path) -> None:
    plan = tmp_path / "plan.txt"
    plan.write_text("P1: - lC\nP2: -\nP3: -\nP4: -\nP5: -\n", encoding="utf-8")
    result = runner.invoke(app, ["resolve", MISSION_1, str(plan)])
    assert result.exit_code == 1
    assert "double-action cards are played only on double-action tracks" in result.stderr
    assert "'lC' for P1 in turn 2" in result.stderr


@pytest.mark.parametrize("crew", [HeuristicCrew(), PlanningCrew()])
def test_the_crews_lay_double_actions_without_hands(crew: HeuristicCrew | PlanningCrew) -> None:
    mission = load_mission(EXAMPLE)
    laid = 0
    for game in range(3):
        drawn = draw_game(mission, random.Random(game))
        assert drawn.hands is None  # docs/rules.md §19.5: no deal on a double-action track
        plan = plan_drawn(mission, crew, drawn)
        laid += sum(a.is_double for m in plan.crew for a in m.actions)
    assert laid > 0


def test_simulate_says_free_play_and_compares_free_play_only() -> None:
    result = runner.invoke(app, ["simulate", EXAMPLE, "--games", "6", "--crew", "heuristic"])
    assert result.exit_code == 0, result.stderr
    assert "double-action track: the crews play in free play" in result.stderr
    compared = result.stdout.split("what makes it hard", 1)[1]
    assert "free play" in compared and "dealt hands" not in compared


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_double_action_tracks_resolve_double_action_plans(seed: int) -> None:
    mission = generate_mission(GenerateOptions(profile="double-action", seed=seed)).mission
    plan = parse_plan("P1: rA Cl bB\nP2: lC AB\nP3: bA rR\nP4: Al lB\nP5: RA bC\n"
                      f"seed: {seed}")
    result = resolve_mission(mission, plan, record=True)
    first = [e.text for e in result.log if e.turn == 1 and e.text.startswith("P1 ")]
    assert first[:2] == ["P1 moves UW -> UR", "P1 fires the heavy laser at UR"]
