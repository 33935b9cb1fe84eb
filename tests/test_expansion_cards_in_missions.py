"""Every expansion threat card the engine plays, pinned in a mission file, validates,
resolves and simulates through the commands a user runs (issue 36; docs/rules.md §19.8).

The golden scenarios pin each card's rules; this checks the way in: the mission format and
schema, the semantic checks, the setup from a file, ``resolve`` with a plan and ``simulate``
with the default (planner) crew on dealt hands. The card replaces a threat of official
mission 1 of its kind (internal or external, normal or serious).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine.rules.threats.cards import load_cards

ROOT = Path(__file__).resolve().parents[1]
MISSION_1 = ROOT / "missions" / "official" / "mission-1.yaml"
PLAN = ROOT / "tests" / "engine" / "plans" / "mission-1-4p.yaml"
EXTERNAL = "threat: {turn: 4, zone: blue}"
INTERNAL = "threat: {turn: 5, zone: internal}"

PLAYED = sorted(c.id for c in load_cards().values() if c.set != "base" and c.playable)

runner = CliRunner()


def _pinned(tmp_path: Path, card_id: str) -> tuple[Path, Path]:
    """Returns the mission with the card pinned and the four-player plan drawing it."""
    card = load_cards()[card_id]
    event, drawn = (EXTERNAL, "E1-07") if card.external else (INTERNAL, "I1-06")
    serious = ", serious: true" if card.serious else ""
    text = MISSION_1.read_text("utf-8")
    assert event in text
    mission = tmp_path / f"pinned-{card_id}.yaml"
    mission.write_text(text.replace(event, event[:-1] + f"{serious}, card: {card_id}}}", 1),
                       "utf-8")
    plan_text = PLAN.read_text("utf-8")
    assert f", {drawn}," in plan_text
    plan = tmp_path / f"plan-{card_id}.yaml"
    plan.write_text(plan_text.replace(f", {drawn},", f", {card_id},", 1), "utf-8")
    return mission, plan


def test_the_expansion_cards_played_are_most_of_the_deck() -> None:
    assert len(PLAYED) >= 42  # of 48 (docs/rules.md §19.7 lists the others)


@pytest.mark.parametrize("card_id", PLAYED)
def test_a_pinned_expansion_card_validates_resolves_and_simulates(tmp_path: Path,
                                                                 card_id: str) -> None:
    mission, plan = _pinned(tmp_path, card_id)
    checked = runner.invoke(app, ["validate", str(mission)])
    assert checked.exit_code == 0, checked.output
    resolved = runner.invoke(app, ["resolve", str(mission), str(plan), "--json"])
    assert resolved.exit_code == 0, resolved.output
    assert card_id in {t["card"] for t in json.loads(resolved.output)["threats"]}
    simulated = runner.invoke(app, ["simulate", str(mission), "--games", "1", "--no-compare",
                                    "--jobs", "1", "--json"])
    assert simulated.exit_code == 0, simulated.output
    assert json.loads(simulated.output)["games"] == 1
