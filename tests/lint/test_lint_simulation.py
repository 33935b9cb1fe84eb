"""Crew models and Monte Carlo simulation: determinism, legality, search, statistics."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine import make_setup, resolve
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.setup import setup_from_mission
from authoring.mission import load_mission
from authoring.report.histogram import bins, svg_histogram, text_histogram
from authoring.simulation import HeuristicCrew, PlanningCrew, simulate
from authoring.simulation.heuristic import path
from authoring.simulation.localsearch import PlanSearch
from authoring.simulation.montecarlo import _blank_plan

ROOT = Path(__file__).resolve().parents[2]
MISSION_1 = ROOT / "missions" / "official" / "mission-1.yaml"


def test_paths_walk_the_decks_and_lifts() -> None:
    assert path(1, 3) == ["r", "l"]      # upper white -> lower red
    assert path(5, 0) == ["r", "r", "l"]  # lower blue -> upper red
    assert path(4, 4) == []


def test_heuristic_crew_shoots_a_lone_threat() -> None:
    setup = make_setup([(1, "red", "E1-01")], "T1 T2 T3 T4", 5)
    plan = HeuristicCrew().plan(setup, 5)
    assert [len(m.actions) for m in plan.crew] == [12] * 5
    assert plan.crew[1].line().startswith("P2: r A")  # the red gunner walks up and fires
    result = resolve(setup, plan, seed=1, record=False)
    assert result.survived
    assert [t.fate for t in result.threats] == ["destroyed"]


def test_heuristic_crew_keeps_locked_turns() -> None:
    setup = make_setup([(2, "blue", "E1-02")], "T1 T2 T3 T4", 4)
    # locked slots the crew would not choose itself, so a plan that ignored them shows
    fixed = [["l", "C", "-"], ["r", "-", "C"], ["-", "C", "C"], ["C", "-", "l"]]
    plan = HeuristicCrew().plan(setup, 4, fixed=fixed, first_turn=4)
    lines = [m.line().split()[1:] for m in plan.crew]
    assert len(lines) == 4
    assert [line[:3] for line in lines] == fixed
    assert all(len(line) > 3 for line in lines)  # and it planned the turns after them


def test_planner_never_does_worse_than_its_seed_plan() -> None:
    mission = load_mission(MISSION_1)
    setup = setup_from_mission(mission, _blank_plan(5, 4), figures=5)
    crew = PlanningCrew(iterations=60, seeds=2)
    heuristic = HeuristicCrew().plan(setup, 5, seed=7)
    planned = crew.plan(setup, 5, seed=7)
    search = PlanSearch(setup, 5, crew._seeds(7))
    rows = [[list(m.codes) for m in p.crew] for p in (heuristic, planned)]
    # the search starts from the heuristic plans and keeps the best it saw on its own seeds
    planned_value, heuristic_value = search.evaluate([rows[1], rows[0]])
    assert planned_value >= heuristic_value


def test_simulation_is_deterministic_and_independent_of_jobs() -> None:
    mission = load_mission(MISSION_1)
    one = simulate(mission, games=6, crew="heuristic", seed=5)
    again = simulate(mission, games=6, crew="heuristic", seed=5)
    two = simulate(mission, games=6, crew="heuristic", seed=5, jobs=2)
    other = simulate(mission, games=6, crew="heuristic", seed=6)
    assert one.outcomes == again.outcomes == two.outcomes
    assert one.outcomes != other.outcomes
    assert len(one.outcomes) == 6
    assert 0.0 <= one.difficulty() <= 100.0
    assert one.labels[0] == "T+2 white serious"
    assert sum(one.killers().values()) >= sum(1 for o in one.outcomes if not o.survived)


def test_histograms() -> None:
    assert bins([1, 2, 3, 10], count=3) == [(1, 4, 3), (5, 8, 0), (9, 12, 1)]
    assert text_histogram([]) == "(no survived games: no scores)\n"
    assert text_histogram([5, 5]).strip() == "5 | " + "#" * 40 + " 2"
    svg = svg_histogram([1, 2, 2], "a <title>")
    assert svg.startswith("<svg") and "a &lt;title&gt;" in svg
    assert svg.count("<rect") == 3  # the background and bins 1 and 2


def test_simulate_command(tmp_path: Path) -> None:
    plot = tmp_path / "scores.svg"
    result = CliRunner().invoke(app, ["simulate", str(MISSION_1), "--games", "4", "--seed",
                                      "2", "--plot", str(plot), "--crew", "heuristic"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# cd-mission-1: 4 games, crew heuristic, seed 2\n")
    assert "score histogram (survived games):" in result.stdout
    assert result.stderr == f"wrote {plot}\n"
    assert plot.read_text("utf-8").startswith("<svg")
    data = json.loads(CliRunner().invoke(app, ["simulate", str(MISSION_1), "--games", "4",
                                               "--seed", "2", "--json", "--jobs", "1",
                                               "--no-compare"]).stdout)
    assert data["crew"] == "planner"  # the ratings' crew by default
    assert data["games"] == 4 and set(data) >= {"survival_rate", "difficulty", "killers"}
    bad = CliRunner().invoke(app, ["simulate", str(MISSION_1), "--crew", "genius"])
    assert bad.exit_code == 2
    assert bad.stderr.startswith("error: unknown crew 'genius'")


@pytest.mark.slow
def test_planner_crew_runs_a_mission() -> None:
    mission = load_mission(MISSION_1)
    stats = simulate(mission, games=2, crew="planner", seed=1,
                     crew_options={"iterations": 20})
    assert len(stats.outcomes) == 2


OFFICIAL = Path(__file__).parents[2] / "missions" / "official"


@pytest.mark.parametrize("path", sorted(OFFICIAL.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_official_track_simulates_under_its_rule_level(path: Path) -> None:
    # test runs play at rule level 1 (7 turns): the crews must leave turns 8-12 blank
    mission = load_mission(path)
    stats = simulate(mission, games=1, crew="heuristic", seed=3)
    turns = get_level(setup_from_mission(mission, _blank_plan(5, 4), figures=5).level).turns
    [outcome] = stats.outcomes
    # a survived game ends after the level's last turn; a lost one within it
    assert outcome.turn == turns + 1 if outcome.survived else 1 <= outcome.turn <= turns


def test_planner_crew_plans_a_test_run_within_its_turns() -> None:
    mission = load_mission(OFFICIAL / "test-run-1.yaml")
    stats = simulate(mission, games=1, crew="planner", seed=1,
                     crew_options={"iterations": 20, "styles": 2})
    [outcome] = stats.outcomes
    assert outcome.turn <= 8  # rule level 1 plays 7 turns: a survived game ends at 8


def test_simulate_reports_a_setup_the_engine_cannot_play(tmp_path: Path) -> None:
    text = (OFFICIAL / "test-run-2.yaml").read_text("utf-8").replace(
        "threat: {turn: 1, zone: white}", "threat: {turn: 1, zone: white, serious: true}")
    mission = tmp_path / "serious-test-run.yaml"
    mission.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(app, ["simulate", str(mission), "--games", "1"])
    assert result.exit_code == 1
    assert "error: expected no serious threat at rule level 1" in result.stderr
    assert "Traceback" not in result.output


def test_simulate_shows_what_the_cards_and_the_information_cost() -> None:
    runner = CliRunner()
    args = ["simulate", str(MISSION_1), "--games", "10", "--jobs", "1"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    compare = data["compare"]
    assert compare["games"] == 10 and compare["seed"] == 0
    rows = {(f["crew"], f["hands"]): f for f in compare["figures"]}
    assert list(rows) == [("planner", True), ("planner", False), ("informed", True),
                          ("informed", False)]
    # the first figure is the rating's own games; free play is simulate --no-hands
    assert rows["planner", True]["survival"] == round(data["survival_rate"], 3)
    free = json.loads(runner.invoke(app, [*args, "--json", "--no-hands",
                                          "--no-compare"]).stdout)
    assert "compare" not in free
    assert rows["planner", False]["survival"] == round(free["survival_rate"], 3)
    # the informed crew starts from the planner's plan of each game: never worse
    for hands in (True, False):
        assert rows["informed", hands]["survival"] >= rows["planner", hands]["survival"]
        assert rows["informed", hands]["difficulty"] <= rows["planner", hands]["difficulty"]
    lost = sum(f["killers"] != {} for f in compare["figures"])
    text = runner.invoke(app, [*args, "--explain"]).stdout
    block = text.split("what makes it hard (the same 10 games, seed 0):\n")[1].splitlines()
    assert block[0].split()[:3] == ["planner", "dealt", "hands"]
    assert len([line for line in block if "lost to:" in line]) == 4
    assert sum("lost to: nothing" not in line for line in block if "lost to:" in line) == lost


def test_the_former_crew_name_omniscient_still_works() -> None:
    runner = CliRunner()
    args = ["simulate", str(MISSION_1), "--games", "3", "--jobs", "1", "--json", "--no-compare"]
    old = json.loads(runner.invoke(app, [*args, "--crew", "omniscient"]).stdout)
    new = json.loads(runner.invoke(app, [*args, "--crew", "informed"]).stdout)
    assert old == new and new["crew"] == "informed"
