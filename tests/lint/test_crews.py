"""The three crew strengths: phase by phase information, their ordering, one rating everywhere."""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine.rules.setup import setup_from_mission
from authoring.lint.linter import lint_mission
from authoring.mission import load_mission
from authoring.mission.model import Mission, Threat
from authoring.simulation import rating as rating_module
from authoring.simulation.heuristic import HeuristicCrew
from authoring.simulation.horizon import announced_by, known_setup, phase_turns, plan_by_phase
from authoring.simulation.informed import InformedCrew
from authoring.simulation.montecarlo import (
    _blank_plan,
    crew_options,
    make_crew,
    plan_game,
    simulate,
)
from authoring.simulation.planner import PlanningCrew

ROOT = Path(__file__).resolve().parents[2]
OFFICIAL = ROOT / "missions" / "official"


def _without_later_threats(mission: Mission, phase: int) -> Mission:
    """The mission without the threats announced after the 1-based ``phase``."""
    events = tuple(e for e in mission.events
                   if not (isinstance(e, Threat) and mission.phase_of(e.at) > phase))
    return dataclasses.replace(mission, events=events)


def test_phases_are_the_rules_turns_and_announcements_follow_the_timeline() -> None:
    assert phase_turns(4) == [(1, 3), (4, 7), (8, 12)]
    mission = load_mission(OFFICIAL / "mission-1.yaml")
    played = [t for t in mission.threats() if not t.unconfirmed]
    flags = announced_by(mission, 4, 0)
    assert len(flags) == len(played)
    assert flags == [mission.phase_of(t.at) == 1 for t in played]
    assert any(flags) and not all(flags)
    assert all(announced_by(mission, 4, 2))


@pytest.mark.parametrize("crew", [HeuristicCrew(), PlanningCrew(iterations=2000, styles=3)],
                         ids=lambda c: c.name)
def test_phase_one_cards_ignore_a_threat_announced_later(crew: HeuristicCrew) -> None:
    full = load_mission(OFFICIAL / "mission-1.yaml")
    early = _without_later_threats(full, 1)
    assert len(early.threats()) < len(full.threats())
    figures = 5
    setup = setup_from_mission(full, _blank_plan(figures, 11), figures=figures)
    # the same cards for the phase-1 threats, none of the later ones
    early_setup = known_setup(setup, announced_by(full, figures, 0))
    with_later = plan_by_phase(full, setup, crew, figures, seed=3)
    without = plan_by_phase(early, early_setup, crew, figures, seed=3)
    first = [[a.token() for a in m.actions[:3]] for m in with_later.crew]
    assert first == [[a.token() for a in m.actions[:3]] for m in without.crew]
    # … while the later turns do answer the later threats (the test can tell)
    assert [m.actions[3:] for m in with_later.crew] != [m.actions[3:] for m in without.crew]


def test_a_crew_sees_only_announced_threats_when_it_fixes_a_phase() -> None:
    seen: list[int] = []

    class Recorder(HeuristicCrew):
        def plan(self, setup, figures, **kwargs):  # type: ignore[no-untyped-def]
            seen.append(len(setup.threats))
            return super().plan(setup, figures, **kwargs)

    mission = load_mission(OFFICIAL / "mission-1.yaml")
    plan_game(mission, Recorder(), random.Random(1))
    assert mission.players == 5  # five figures: unconfirmed reports are played too
    # a phase with nothing new announced (Mission 1's third) plays on with the sketch
    counts = [sum(announced_by(mission, 5, p)) for p in range(3)]
    assert seen == [n for p, n in enumerate(counts) if p == 0 or n != counts[p - 1]]
    assert seen[0] < seen[-1] == len(mission.threats())


def test_the_informed_crew_needs_the_real_draw() -> None:
    mission = load_mission(OFFICIAL / "mission-1.yaml")
    setup = setup_from_mission(mission, _blank_plan(5, 2), figures=5)
    with pytest.raises(ValueError, match="real damage-token seed"):
        InformedCrew().plan(setup, 5)


def test_the_former_name_omniscient_still_selects_the_informed_crew() -> None:
    assert isinstance(make_crew("omniscient"), InformedCrew)
    assert crew_options({"crew": "omniscient"}) == crew_options({"crew": "informed"})


@pytest.mark.parametrize(("number", "hands"), [(1, True), (4, False)])
def test_the_informed_crew_is_never_worse_than_the_planner_on_the_same_game(
        number: int, hands: bool) -> None:
    # it starts from the planner's plan of the same game and keeps a plan only when it does
    # as well on the real draw (docs/simulation.md): game by game, never a lost ship where
    # the planner's survived, never a lower score
    mission = load_mission(OFFICIAL / f"mission-{number}.yaml")
    planner = simulate(mission, games=10, crew="planner", seed=5, hands=hands).outcomes
    informed = simulate(mission, games=10, crew="informed", seed=5, hands=hands).outcomes
    for game, (table, knowing) in enumerate(zip(planner, informed, strict=True)):
        assert (knowing.survived, knowing.score or 0) >= (table.survived, table.score or 0), \
            f"game {game}"
    assert any((k.survived, k.score) != (t.survived, t.score)
               for t, k in zip(planner, informed, strict=True))  # it does search


@pytest.mark.parametrize("number", [1, 3])
def test_strengths_are_ordered(number: int) -> None:
    # mean difficulty (lower: better play) over the same 12 draws; the tolerance is well
    # under the gaps measured on the official missions (docs/simulation.md: the heuristic
    # rates missions 1 and 3 about 35 points harder than the planner), so a crew that lost
    # its edge fails
    mission = load_mission(OFFICIAL / f"mission-{number}.yaml")
    games = 12
    heuristic = simulate(mission, games=games, crew="heuristic", seed=9).difficulty()
    planner = simulate(mission, games=games, crew="planner", seed=9).difficulty()
    informed = simulate(mission, games=games, crew="informed", seed=9).difficulty()
    assert informed <= planner
    assert planner <= heuristic - 5.0


def test_one_rating_everywhere(fewer_games: Callable[[int], None]) -> None:
    """simulate, lint G103, sheets --rate and pack pages (rate_mission) show one Rating."""
    fewer_games(12)
    settings = rating_module.DEFAULT_SETTINGS
    path = OFFICIAL / "mission-3.yaml"
    rated, note = rating_module.rate_mission(load_mission(path), jobs=1)
    assert note == "" and rated is not None
    assert (rated.games, rated.crew) == (12, settings["crew"])
    figure = f"{rated.value:.1f} ± {rated.margin:.1f}"

    # --no-compare: the free-play and informed comparisons are tested in test_lint_simulation
    shown = CliRunner().invoke(app, ["simulate", str(path), "--games", "12", "--jobs", "1",
                                     "--no-compare", "--json"])
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert (data["difficulty"], data["difficulty_margin"]) == (rated.value, rated.margin)
    assert (data["crew"], data["games"]) == (rated.crew, rated.games)
    assert data["survival_interval"] == list(rated.survival_interval)

    text = CliRunner().invoke(app, ["simulate", str(path), "--games", "12", "--jobs", "1",
                                    "--no-compare"])
    assert f"difficulty         {figure} / 100" in text.stdout

    problems = lint_mission(path, config={"select": ["G103"],
                                          "rules": {"G103": {"games": 12, "jobs": 1}}})
    [g103] = [p for p in problems if p.code == "G103"]
    assert g103.message.startswith(f"difficulty {rated.describe()}")
    assert f"{rated.games} games of the {rated.crew} crew" in g103.message

    from authoring.cli.sheets import _difficulty

    box = _difficulty(load_mission(path))
    assert box.rating == f"{rated.in_words()} {rated.play()}."  # words first, the same games
    assert box.figures[0][1].startswith(f"{figure} of 100")


@pytest.mark.parametrize("crew", [HeuristicCrew(), PlanningCrew(iterations=16, styles=2)],
                         ids=lambda c: c.name)
def test_a_playable_projection_constrains_every_phase(crew: HeuristicCrew) -> None:
    # the hook a hand of action cards plugs into: here, a crew whose hands hold no A
    calls: list[tuple[int, int]] = []

    def no_cannons(rows: Sequence[Sequence[str]], first: int, last: int) -> list[list[str]]:
        calls.append((first, last))
        return [[("-" if first <= turn <= last and token.startswith("A") else token)
                 for turn, token in enumerate(row, 1)] for row in rows]

    mission = load_mission(OFFICIAL / "mission-1.yaml")
    free = plan_game(mission, crew, random.Random(4))[1]
    assert any(a.token().startswith("A") for m in free.crew for a in m.actions)
    bound = plan_game(mission, crew, random.Random(4), playable=no_cannons)[1]
    assert not any(a.token().startswith("A") for m in bound.crew for a in m.actions)
    assert {(1, 3), (4, 7), (8, 12)} <= set(calls)


def test_a_mission_the_engine_refuses_fails_alike_on_every_core_count() -> None:
    # the pack page shows this message: it must not depend on which worker failed first
    from authoring.engine import EngineError

    mission = load_mission(OFFICIAL / "test-run-1.yaml")
    first = mission.threats()[0]
    serious = dataclasses.replace(mission, events=tuple(
        dataclasses.replace(e, serious=True) if e == first else e for e in mission.events))
    messages = []
    for jobs in (1, 2):
        with pytest.raises(EngineError) as error:
            simulate(serious, games=4, crew="heuristic", seed=0, jobs=jobs)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert messages[0].startswith("expected no serious threat at rule level 1")
