"""Crews that play from dealt hands (docs/rules.md §16): every plan they make is playable."""

from __future__ import annotations

import random

import pytest

from authoring._resources import data_dir
from authoring.engine import Plan, make_crew_plan, setup_from_mission
from authoring.engine.rules.hands import check, mission_events, playable
from authoring.mission import load_mission
from authoring.simulation.dealing import deal_for
from authoring.simulation.heuristic import HeuristicCrew
from authoring.simulation.montecarlo import plan_game, simulate
from authoring.simulation.planner import PlanningCrew

LABELS = ("P1", "P2", "P3", "P4", "P5")


def _mission(number: int):  # type: ignore[no-untyped-def]
    return load_mission(data_dir("missions") / "official" / f"mission-{number}.yaml")


def test_the_missions_events_become_phases() -> None:
    events = mission_events(_mission(1))
    assert events == [(1, "incoming_data"), (1, "data_transfer"), (2, "incoming_data"),
                      (2, "data_transfer"), (2, "data_transfer"), (3, "data_transfer")]


@pytest.mark.parametrize("number", [1, 3, 6])
def test_the_heuristic_crew_plans_within_its_hands(number: int) -> None:
    mission = _mission(number)
    blank = Plan(tuple(make_crew_plan(label, "") for label in LABELS), seed=number)
    setup = setup_from_mission(mission, blank, figures=5)
    for seed in range(6):
        hands = deal_for(mission, LABELS, seed, setup.level)
        plan = HeuristicCrew().plan(setup, 5, seed=seed, hands=hands)
        check(hands, plan.crew)  # its own plan, not a projection of it
        free = HeuristicCrew().plan(setup, 5, seed=seed)
        assert sum(not a.is_blank for m in plan.crew for a in m.actions) > 0
        if not playable(hands, free.crew):
            assert plan != free


def test_every_crew_plan_of_a_game_is_playable_from_the_dealt_hands() -> None:
    mission = _mission(2)
    changed = 0
    for index in range(12):
        for crew in (HeuristicCrew(), PlanningCrew(iterations=10, styles=2)):
            draws = random.Random(f"5:{index}")
            setup, plan = plan_game(mission, crew, random.Random(f"5:{index}"), hands=True)
            draws.randrange(1 << 30)  # plan_game draws the setup seed, then the plan seed
            hands = deal_for(mission, LABELS, draws.randrange(1 << 30), setup.level)
            check(hands, plan.crew)
            _, free = plan_game(mission, crew, random.Random(f"5:{index}"), hands=False)
            changed += plan != free
    assert changed  # the hands do bind some plans


def test_simulate_with_and_without_hands_draws_the_same_games() -> None:
    mission = _mission(1)
    free = simulate(mission, games=20, seed=1, hands=False)
    dealt = simulate(mission, games=20, seed=1)
    assert len(dealt.outcomes) == 20
    assert dealt == simulate(mission, games=20, seed=1, hands=True)  # deterministic
    assert [o.best_points for o in free.outcomes] == [o.best_points for o in dealt.outcomes]


def test_simulate_plays_hands_by_default_and_no_hands_on_request() -> None:
    import json

    from typer.testing import CliRunner

    from authoring.cli import app

    mission = str(data_dir("missions") / "official" / "mission-2.yaml")
    runner = CliRunner()
    once = ["-n", "12", "--json", "--no-compare"]  # the comparison runs: test_lint_simulation
    dealt = json.loads(runner.invoke(app, ["simulate", mission, *once]).stdout)
    free = json.loads(runner.invoke(app, ["simulate", mission, *once, "--no-hands"]).stdout)
    assert dealt["hands"] is True and free["hands"] is False
    assert "docs/rules.md §16" in dealt["crew_model"]
    assert dealt == json.loads(runner.invoke(app, ["simulate", mission, *once,
                                                    "--hands"]).stdout)
    text = runner.invoke(app, ["simulate", mission, "-n", "2", "--no-hands"]).stdout
    assert text.splitlines()[0].endswith(", no hands (any action in any turn)")


@pytest.mark.parametrize(("players", "seated"), [
    (3, ["P1", "P2", "P3", "A1"]), (2, ["P1", "P2", "A1", "A2"]),
    (1, ["P1", "A1", "A2", "A3"]), (4, ["P1", "P2", "P3", "P4"])])
def test_a_mission_for_fewer_players_is_flown_with_androids(
        players: int, seated: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import dataclasses

    from authoring.simulation import montecarlo
    from authoring.simulation.dealing import crew_labels

    assert crew_labels(players, 4) == seated
    dealt_to: list[tuple[str, ...]] = []

    def spy(mission, labels, seed, level):  # type: ignore[no-untyped-def]
        dealt_to.append(tuple(labels))
        return deal_for(mission, labels, seed, level)

    monkeypatch.setattr(montecarlo, "deal_for", spy)
    mission = dataclasses.replace(_mission(2), players=players)
    for index in range(4):
        draws = random.Random(f"7:{index}")
        setup, plan = plan_game(mission, HeuristicCrew(), random.Random(f"7:{index}"))
        assert dealt_to[-1] == tuple(seated)  # the game's crew is seated as the rules say
        draws.randrange(1 << 30)
        hands = deal_for(mission, seated, draws.randrange(1 << 30), setup.level)
        assert hands.labels == tuple(seated)
        if players > 1:  # the players' hands are the table's for that many players
            assert len([c for c, when in hands.held[0] if when == 0]) == {
                4: 5, 3: 6, 2: 9}[players]
        crew = tuple(dataclasses.replace(row, label=label)
                     for row, label in zip(plan.crew, seated, strict=True))
        check(hands, crew)  # the androids' slots took the players' cards
