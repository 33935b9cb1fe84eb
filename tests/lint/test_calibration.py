"""The stored calibration is what the current engine and crews give (a stale one fails).

Every rating places a mission on the scale of official missions 1-8 under its crew, read from
``authoring/simulation/calibration.json``. A change to the engine's rules, a crew, the settings
or an official mission changes those figures: the file stores a fingerprint read from behaviour
(the first games of every run the calibration makes, with the settings and the tracks), which
must match the current one; a refactor that plays the same games keeps it. Replaying all three
crews in full would take half an hour, so one cheap replay (the heuristic crew on Mission 1, a
second or two) checks that the figures are indeed the simulation's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring._resources import data_dir
from authoring.engine.rules.log import Result
from authoring.engine.rules.plan import BLANK_ACTION, CrewPlan, Plan
from authoring.engine.rules.setup import Setup
from authoring.mission import load_mission
from authoring.simulation import montecarlo
from authoring.simulation.calibration import (
    CALIBRATION_GAMES,
    CREW_SETTINGS,
    DEFAULT_CREW,
    OFFICIAL,
    TRACKS,
    VARIANTS,
    fingerprint,
    input_files,
    load,
    markdown,
    track_data,
    track_path,
)
from authoring.simulation.montecarlo import CREWS, simulate_with
from authoring.simulation.rating import rate

ROOT = Path(__file__).resolve().parents[2]
RECOMPUTE = "stale calibration: recompute with `python -m authoring.simulation.calibration`"


def test_the_stored_figures_were_computed_from_the_current_behaviour() -> None:
    assert load()["fingerprint"] == fingerprint(), RECOMPUTE


def test_every_crew_is_calibrated_with_its_settings() -> None:
    assert load()["default"] == DEFAULT_CREW
    assert sorted(load()["crews"]) == sorted(CREWS) == sorted(CREW_SETTINGS)
    for crew, table in load()["crews"].items():
        assert table["settings"] == CREW_SETTINGS[crew], RECOMPUTE
        assert tuple(table["ratings"]) == OFFICIAL
        assert tuple(table["tracks"]) == TRACKS
        for name in OFFICIAL:
            assert table["tracks"][name]["hands"]["difficulty"] == table["ratings"][name]
        assert all(tuple(track) == tuple(VARIANTS) for track in table["tracks"].values())


def _quick() -> str:
    """The fingerprint of one crew on one track (a fraction of a second); simulate_with's
    cache is cleared, so that every call plays its games again."""
    montecarlo._simulated.cache_clear()
    return fingerprint(crews=("heuristic",), tracks=("mission-1",))


def test_the_fingerprint_follows_the_settings() -> None:
    before = _quick()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(CREW_SETTINGS, "heuristic", {**CREW_SETTINGS["heuristic"], "games": 499})
        assert _quick() != before
    assert _quick() == before


def test_the_fingerprint_follows_what_is_played() -> None:
    """An engine that plays differently (here: it drops every crew's plan) changes it."""
    before = _quick()
    played = montecarlo.resolve_batch

    def idle(games: list[tuple[Setup, Plan]], seeds: list[int]) -> list[Result]:
        return played([(setup, _blank(plan)) for setup, plan in games], seeds)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(montecarlo, "resolve_batch", idle)
        assert _quick() != before
    assert _quick() == before


def _blank(plan: Plan) -> Plan:
    """The plan with every slot empty (the crew stands still)."""
    return Plan(tuple(CrewPlan(m.label, tuple(BLANK_ACTION for _ in m.actions))
                      for m in plan.crew))


def test_the_fingerprint_reads_data_not_source() -> None:
    """No module's source goes into it: a refactor, a rename or a comment keeps it."""
    assert input_files() == [track_path(name) for name in TRACKS]
    assert all(path.suffix == ".yaml" for path in input_files())


def test_a_comment_in_a_track_keeps_the_fingerprint(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The tracks go in as data: a source comment edited in an official file moves nothing."""
    original = track_path("mission-1")
    edited = tmp_path / "mission-1.yaml"
    edited.write_text("# another comment\n" + original.read_text("utf-8").replace(
        "\nformat: 1", "  # a trailing comment\nformat:   1"), "utf-8")
    before = track_data("mission-1")
    monkeypatch.setattr("authoring.simulation.calibration.track_path", lambda name: edited)
    assert track_data("mission-1") == before
    edited.write_text(original.read_text("utf-8").replace("zone: white", "zone: red", 1), "utf-8")
    assert track_data("mission-1") != before


def test_a_stored_rating_replays_to_the_digit() -> None:
    mission = load_mission(data_dir("missions") / "official" / "mission-1.yaml")
    rated = rate(simulate_with(mission, {**CREW_SETTINGS["heuristic"],
                                         "games": CALIBRATION_GAMES}, jobs=1))
    stored = load()["crews"]["heuristic"]
    assert rated.value == stored["ratings"]["mission-1"], RECOMPUTE
    assert rated.margin == stored["tracks"]["mission-1"]["hands"]["margin"], RECOMPUTE
    assert [round(x, 3) for x in rated.survival_interval] == \
        stored["tracks"]["mission-1"]["hands"]["survival_interval"], RECOMPUTE


def test_the_readme_and_the_docs_show_the_stored_ratings() -> None:
    table = markdown(load()).split("\n\n")[0]
    for page in (ROOT / "README.md", ROOT / "docs/simulation.md"):
        assert table in page.read_text("utf-8"), (
            f"{page.name}'s table of official ratings differs from calibration.json: paste "
            "the table `python -m authoring.simulation.calibration` prints")
