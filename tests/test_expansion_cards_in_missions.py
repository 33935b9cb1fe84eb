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
    assert len(PLAYED) >= 47  # of 48 (docs/rules.md §19.7 lists the other)


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


CARRIERS = [c for c in PLAYED
            if {"bonus-internal", "bonus-external"} & set(load_cards()[c].abilities)]


def test_the_five_carriers_of_a_bonus_threat_are_played() -> None:
    assert CARRIERS == ["E3-107", "SE3-104", "SE3-105", "SI3-102", "SI3-103"]


@pytest.mark.parametrize("card_id", CARRIERS)
def test_a_carrier_resolves_with_its_pinned_bonus_or_a_drawn_one(tmp_path: Path,
                                                                card_id: str) -> None:
    # the resolution lists the bonus card among its threats (turn 0 until it comes): the
    # mission's own `bonus:` when it pins one, else one drawn from its common deck
    mission, plan = _pinned(tmp_path, card_id)
    bonus = "E1-02" if "bonus-external" in load_cards()[card_id].abilities else "I1-04"
    pinned = mission.with_name("with-bonus.yaml")
    pinned.write_text(mission.read_text("utf-8").replace(
        f"card: {card_id}}}", f"card: {card_id}, bonus: {bonus}}}"), "utf-8")
    assert runner.invoke(app, ["validate", str(pinned)]).exit_code == 0
    for path, expected in ((pinned, bonus), (mission, None)):
        resolved = runner.invoke(app, ["resolve", str(path), str(plan), "--json"])
        assert resolved.exit_code == 0, resolved.output
        threats = json.loads(resolved.output)["threats"]
        bonuses = [t["card"] for t in threats if t["token"] == 0]
        assert len(bonuses) == 1
        assert expected is None or bonuses == [expected]


@pytest.mark.parametrize(("bonus", "words"), [
    ("E1-02", "is not internal"),
    ("SI3-102", "carries a bonus threat itself"),
    ("I1-06", "pinned elsewhere in the mission"),
])
def test_a_bad_bonus_is_refused_where_it_is_written(tmp_path: Path, bonus: str,
                                                   words: str) -> None:
    mission, _ = _pinned(tmp_path, "SE3-104")
    text = mission.read_text("utf-8").replace("card: SE3-104}", f"card: SE3-104, bonus: {bonus}}}")
    text = text.replace(INTERNAL, INTERNAL[:-1] + ", card: I1-06}", 1)
    mission.write_text(text, "utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if f"bonus: {bonus}" in row)
    checked = runner.invoke(app, ["validate", str(mission)])
    assert checked.exit_code == 1
    assert f"{mission}:{line}:" in checked.output and words in checked.output


def test_a_pinned_bonus_is_kept_out_of_the_decks(tmp_path: Path) -> None:
    # the bonus card is in the mission once: the other threats' draws never take it
    mission, _ = _pinned(tmp_path, "SE3-105")
    mission.write_text(mission.read_text("utf-8").replace(
        "card: SE3-105}", "card: SE3-105, bonus: E1-02}"), "utf-8")
    simulated = runner.invoke(app, ["simulate", str(mission), "--games", "20", "--no-compare",
                                    "--jobs", "1", "--crew", "heuristic", "--json"])
    assert simulated.exit_code == 0, simulated.output


def test_a_pinned_bonus_is_written_back_by_the_mission_writer(tmp_path: Path) -> None:
    from authoring.generate.interchange.mission_yaml import mission_yaml
    from authoring.mission import load_mission

    mission, _ = _pinned(tmp_path, "SE3-105")
    mission.write_text(mission.read_text("utf-8").replace(
        "card: SE3-105}", "card: SE3-105, bonus: E1-02}"), "utf-8")
    read = load_mission(mission)
    written = tmp_path / "written.yaml"
    written.write_text(mission_yaml(read), "utf-8")
    assert "card: SE3-105, bonus: E1-02}" in written.read_text("utf-8")
    assert load_mission(written).events == read.events
