"""One JSON form of a rating: ``simulate --json`` and the studio's Rate write ``rating_json``.

They used to build it each in their own way (other key names, other fields); a field added to
``authoring.simulation.rating.rating_json`` now shows in both.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from authoring.audio import DEFAULT_VOICE, load_voice
from authoring.cli import app
from authoring.studio.analysis import Checker

MISSION = Path(__file__).resolve().parents[1] / "missions" / "official" / "mission-3.yaml"


def test_simulate_and_the_studio_write_one_rating(fewer_games: Callable[[int], None],
                                                   tmp_path: Path) -> None:
    fewer_games(12)  # the rating and the G rules of the studio's Rate
    studio = Checker(tmp_path, load_voice(DEFAULT_VOICE)).rate(
        MISSION.read_text("utf-8"), "mission-3.yaml")["rating"]
    shown = CliRunner().invoke(app, ["simulate", str(MISSION), "--games", "12", "--jobs", "1",
                                     "--no-compare", "--json"])
    assert shown.exit_code == 0, shown.output
    cli = json.loads(shown.stdout)
    assert set(studio) <= set(cli)
    assert {key: cli[key] for key in studio} == studio
    assert studio["in_words"].startswith("A careful crew survived ")
    assert studio["search"]["crew"] == "planner" and "styles" in studio["search"]
    # the names scripts read before, kept beside the one form
    assert cli["difficulty_margin"] == studio["margin"]
    assert cli["official_range"] == [studio["official_low"], studio["official_high"]]
