"""The stored calibration is what the current engine and crews give (a stale one fails).

Every rating places a mission on the scale of official missions 1-8 under its crew, read from
``authoring/simulation/calibration.json``. A change to the engine's rules, a crew, the settings
or an official mission changes those figures: the file stores a checksum of those inputs,
which must match the current one. Replaying all three crews would take minutes, so one cheap
replay (the heuristic crew on Mission 1, a second or two) checks that the figures are indeed
the simulation's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring._resources import data_dir
from authoring.mission import load_mission
from authoring.simulation.calibration import (
    CALIBRATION_GAMES,
    CREW_SETTINGS,
    DEFAULT_CREW,
    OFFICIAL,
    TRACKS,
    VARIANTS,
    input_files,
    inputs_checksum,
    load,
    markdown,
)
from authoring.simulation.montecarlo import CREWS, simulate_with
from authoring.simulation.rating import rate

ROOT = Path(__file__).resolve().parents[2]
RECOMPUTE = "stale calibration: recompute with `python -m authoring.simulation.calibration`"


def test_the_stored_figures_were_computed_from_the_current_inputs() -> None:
    assert load()["inputs_checksum"] == inputs_checksum(), RECOMPUTE


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


def test_the_checksum_follows_the_crews_and_the_settings() -> None:
    before = inputs_checksum()
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(CREW_SETTINGS, "planner", {**CREW_SETTINGS["planner"], "games": 499})
        assert inputs_checksum() != before
    assert inputs_checksum() == before
    names = {p.name for p in input_files()}
    assert {"heuristic.py", "planner.py", "informed.py", "horizon.py", "game.py",
            "moves.py", "mission-1.yaml", "simulation-1.yaml"} <= names


def test_prose_does_not_count_but_code_does(tmp_path: Path) -> None:
    from authoring.simulation.calibration import _code_digest

    versions = {
        "base": 'def f() -> int:\n    """Doc."""\n    return 1\n',
        "prose": 'def f() -> int:\n    """Other words."""\n    return 1  # a comment\n',
        "code": 'def f() -> int:\n    """Doc."""\n    return 2\n'}
    digests = {}
    for name, text in versions.items():
        (tmp_path / f"{name}.py").write_text(text, encoding="utf-8")
        digests[name] = _code_digest(tmp_path / f"{name}.py")
    assert digests["base"] == digests["prose"] != digests["code"]


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
