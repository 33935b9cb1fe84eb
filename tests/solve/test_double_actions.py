"""Double-action tracks above the engine: solve, resolve, simulate and generated tracks play
double actions, from hands dealt from the double-action deck (docs/rules.md §19.2-§19.5)."""

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


def test_solve_with_hands_finds_a_plan_the_crew_can_play_from_the_double_action_deck(
        tmp_path: Path) -> None:
    result = runner.invoke(app, ["solve", EXAMPLE, "--hands", *FAST])
    assert result.exit_code == 0, result.stderr
    assert _doubles(result.stdout) > 0
    plan = tmp_path / "plan.txt"
    plan.write_text(result.stdout, encoding="utf-8")
    checked = runner.invoke(app, ["resolve", EXAMPLE, str(plan), "--hands"])
    assert checked.exit_code == 0, checked.stderr
    assert "The crew can play the plan from the hands dealt" in checked.stdout


def test_resolve_with_hands_names_the_double_action_the_hands_lack(tmp_path: Path) -> None:
    # the deal of seed 3 (resolve --hands deals as solve --hands does): a two-action half
    # that no card held in phase 1 has, even with gifts, is named by the check
    from authoring.engine.rules.hands import deal, mission_events, playable
    from authoring.engine.rules.plan import DOUBLE_PAIRS
    mission = load_mission(EXAMPLE)
    hands = deal([f"P{i}" for i in range(1, 6)], mission_events(mission),
                 random.Random("hands:3"), double_actions=True)
    assert all(card.double for held in hands.held for card, _ in held)

    def text(pair: str) -> str:
        return f"P1: {pair}\nP2: -\nP3: -\nP4: -\nP5: -\nseed: 3\n"

    missing = [pair for pair in DOUBLE_PAIRS if not playable(hands, parse_plan(text(pair)).crew)]
    held = [pair for pair in DOUBLE_PAIRS if pair not in missing]
    assert missing and held
    plan = tmp_path / "plan.txt"
    plan.write_text(text(missing[0]), encoding="utf-8")
    result = runner.invoke(app, ["resolve", EXAMPLE, str(plan), "--hands"])
    assert result.exit_code == 1
    assert f"P1 cannot play {missing[0]} in turn 1: no card with {missing[0]}" in result.stderr
    assert "Traceback" not in result.stderr
    plan.write_text(text(held[0]), encoding="utf-8")
    assert runner.invoke(app, ["resolve", EXAMPLE, str(plan), "--hands"]).exit_code == 0


def test_a_base_track_refuses_a_plan_with_double_actions(tmp_path: Path) -> None:
    plan = tmp_path / "plan.txt"
    plan.write_text("P1: - lC\nP2: -\nP3: -\nP4: -\nP5: -\n", encoding="utf-8")
    result = runner.invoke(app, ["resolve", MISSION_1, str(plan)])
    assert result.exit_code == 1
    assert "double-action cards are played only on double-action tracks" in result.stderr
    assert "'lC' for P1 in turn 2" in result.stderr


@pytest.mark.parametrize("crew", [HeuristicCrew(), PlanningCrew()])
def test_the_crews_lay_double_actions_from_dealt_hands(crew: HeuristicCrew | PlanningCrew
                                                       ) -> None:
    from authoring.engine.rules.hands import playable
    mission = load_mission(EXAMPLE)
    laid = 0
    for game in range(3):
        drawn = draw_game(mission, random.Random(game))
        assert drawn.hands is not None  # docs/rules.md §19.5: the double-action deck
        assert all(card.double for held in drawn.hands.held for card, _ in held)
        plan = plan_drawn(mission, crew, drawn)
        assert playable(drawn.hands, plan.crew)
        laid += sum(a.is_double for m in plan.crew for a in m.actions)
    assert laid > 0


def test_simulate_deals_hands_and_compares_them_with_free_play() -> None:
    result = runner.invoke(app, ["simulate", EXAMPLE, "--games", "6", "--crew", "heuristic"])
    assert result.exit_code == 0, result.stderr
    assert "free play" not in result.stderr
    compared = result.stdout.split("what makes it hard", 1)[1]
    assert "free play" in compared and "dealt hands" in compared


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_generated_double_action_tracks_resolve_double_action_plans(seed: int) -> None:
    mission = generate_mission(GenerateOptions(profile="double-action", seed=seed)).mission
    plan = parse_plan("P1: rA Cl bB\nP2: lC AB\nP3: bA rR\nP4: Al lB\nP5: RA bC\n"
                      f"seed: {seed}")
    result = resolve_mission(mission, plan, record=True)
    first = [e.text for e in result.log if e.turn == 1 and e.text.startswith("P1 ")]
    assert first[:2] == ["P1 moves UW -> UR", "P1 fires the heavy laser at UR"]
