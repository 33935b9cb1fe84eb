"""``simulate --json`` says what the crew searched, so a rating can be reproduced and its
budget doubled (docs/simulation.md "The search")."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from authoring.cli import app
from authoring.simulation.calibration import CREW_SETTINGS

MISSION = Path(__file__).resolve().parents[2] / "missions" / "official" / "mission-2.yaml"


def _simulate(*extra: str) -> dict[str, object]:
    shown = CliRunner().invoke(app, ["simulate", str(MISSION), "--games", "6", "--jobs", "1",
                                     "--no-compare", "--json", *extra])
    assert shown.exit_code == 0, shown.output
    data: dict[str, object] = json.loads(shown.stdout)
    return data


def test_the_json_names_the_search_and_replaying_it_gives_the_same_figures() -> None:
    first = _simulate("--styles", "2")
    search = first["search"]
    assert isinstance(search, dict)
    calibrated = CREW_SETTINGS["planner"]
    assert search["crew"] == "planner" and search["hands"] is True
    assert (search["styles"], search["iterations"], search["seeds"]) == (
        2, calibrated["iterations"], calibrated["seeds"])
    assert search["budget"] == "styles" and search["engine"] in ("c", "native", "python")
    again = _simulate("--styles", str(search["styles"]), "--iterations",
                      str(search["iterations"]))
    assert (again["difficulty"], again["survival_rate"]) == (
        first["difficulty"], first["survival_rate"])
    doubled = _simulate("--styles", str(2 * int(str(search["styles"]))))
    assert isinstance(doubled["search"], dict) and doubled["search"]["styles"] == 4


def test_the_heuristic_crew_searches_nothing() -> None:
    search = _simulate("--crew", "heuristic")["search"]
    assert search == {"crew": "heuristic", "hands": True, "engine": search["engine"]}  # type: ignore[index]
