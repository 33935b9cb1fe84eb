"""A mission whose decks include the expansion's threat cards validates, rates and is
generated, through the commands a user runs (issue 36; docs/rules.md §19.9)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.engine.rules.decks import deck_cards
from authoring.engine.rules.threats.cards import load_cards
from authoring.lint.playability import SMALLEST_BASE_PILE
from authoring.mission import load_mission
from authoring.render.cards import deck_pool
from authoring.render.catalogue import load_faces

ROOT = Path(__file__).resolve().parents[1]
MISSION_1 = ROOT / "missions" / "official" / "mission-1.yaml"
PLAN = ROOT / "tests" / "engine" / "plans" / "mission-1-4p.yaml"
CARDS = load_cards()

runner = CliRunner()


def _mission(tmp_path: Path, decks: str, *, serious_internal: bool = False) -> Path:
    """Mission 1 with ``decks:`` added after its profile line (and, when asked, every one of
    its six threats a serious internal one, and a seventh at 6:30)."""
    text = MISSION_1.read_text("utf-8")
    assert "\ndecks:" not in text and "\nprofile: base\n" in text
    text = text.replace("\nprofile: base\n", f"\nprofile: base\ndecks: {decks}\n", 1)
    if serious_internal:
        text, count = re.subn(r"threat: \{turn: (\d), zone: [a-z]+[^}]*\}",
                              r"threat: {turn: \1, zone: internal, serious: true}", text)
        assert count == 6
        last = '  - {at: "5:50", threat: {turn: 7, zone: internal, serious: true}}\n'
        assert last in text
        text = text.replace(last, last + '  - {at: "6:30", threat: {turn: 8, zone: internal, '
                                          'serious: true}}\n', 1)
    path = tmp_path / "mission.yaml"
    path.write_text(text, "utf-8")
    return path


def _line_of(path: Path, words: str) -> int:
    return next(n for n, line in enumerate(path.read_text("utf-8").splitlines(), 1)
                if words in line)


def test_expansion_decks_validate_and_rate_with_the_expansions_cards(tmp_path: Path) -> None:
    mission = _mission(tmp_path, "{common: red, serious: red, expansion: true}")
    checked = runner.invoke(app, ["validate", str(mission)])
    assert checked.exit_code == 0, checked.output
    simulated = runner.invoke(app, ["simulate", str(mission), "--games", "6", "--no-compare",
                                    "--jobs", "1", "--json"])
    assert simulated.exit_code == 0, simulated.output
    rating = json.loads(simulated.output)
    assert rating["games"] == 6
    assert 0 <= rating["survival"] <= 1 and rating["label"]
    # the plan's draw is left open: resolve draws from the mission's (red) decks
    plan = tmp_path / "plan.yaml"
    text = PLAN.read_text("utf-8")
    plan.write_text(text.split("draw:")[0] + "draw:\n  trajectories: {red: T5, white: T3, "
                    "blue: T2, internal: T4}\n", "utf-8")
    resolved = runner.invoke(app, ["resolve", str(mission), str(plan), "--json"])
    assert resolved.exit_code == 0, resolved.output
    drawn = [t["card"] for t in json.loads(resolved.output)["threats"]]
    assert drawn and all(CARDS[c].set == "new-frontier" and CARDS[c].colour == "red"
                         for c in drawn)


def test_a_red_deck_without_the_expansion_is_refused_where_it_is_written(
        tmp_path: Path) -> None:
    mission = _mission(tmp_path, "{common: mixed, serious: red}")
    checked = runner.invoke(app, ["validate", str(mission)])
    assert checked.exit_code == 1
    line = _line_of(mission, "decks:")
    assert f"{mission}:{line}:" in checked.output
    assert "M007" in checked.output and "expected `expansion: true`" in checked.output
    refused = runner.invoke(app, ["simulate", str(mission), "--games", "1", "--no-compare"])
    assert refused.exit_code == 1 and "M007" in refused.output


def test_a_pile_the_played_cards_cannot_fill_is_refused(tmp_path: Path) -> None:
    mission = _mission(tmp_path, "{common: mixed, serious: red, expansion: true}",
                       serious_internal=True)
    checked = runner.invoke(app, ["validate", str(mission)])
    assert checked.exit_code == 1
    assert "M007" in checked.output
    held = len(deck_cards(False, True, "red", True))
    assert held < 7  # fewer of the pile's cards are played (docs/rules.md §19.7)
    assert f"serious internal deck (red, with the expansion) holds {held} card" in checked.output


def test_sheets_list_the_expansions_cards_among_those_that_can_come_up(tmp_path: Path) -> None:
    mission = load_mission(_mission(tmp_path, "{common: mixed, serious: mixed, "
                                              "expansion: true}"))
    threat = next(t for t in mission.threats() if not t.serious and t.zone != "internal")
    pool = {face.id for face in deck_pool(threat, mission.decks, load_faces())}
    assert {"E1-101", "E1-102", "E2-101"} <= pool and "E1-07" in pool
    assert not {c for c in pool if CARDS[c].colour == "red"}


@pytest.mark.parametrize("profile", ["base", "double-action"])
def test_generate_writes_missions_with_expansion_decks(tmp_path: Path, profile: str) -> None:
    out = tmp_path / f"{profile}.yaml"
    made = runner.invoke(app, ["generate", "--profile", profile, "--seed", "3", "--expansion",
                               "--decks", "red", "-o", str(out)])
    assert made.exit_code == 0, made.output
    text = out.read_text("utf-8")
    assert "decks: {common: red, serious: red, expansion: true}" in text
    checked = runner.invoke(app, ["validate", str(out)])
    assert checked.exit_code == 0, checked.output
    assert load_mission(out).decks.expansion


def test_generate_refuses_a_red_deck_without_the_expansion() -> None:
    refused = runner.invoke(app, ["generate", "--decks", "red", "--seed", "1"])
    assert refused.exit_code == 2
    assert "--decks red" in refused.output and "--expansion" in refused.output


def test_the_validators_shortcut_knows_the_smallest_base_pile() -> None:
    smallest = min(len(deck_cards(e, s, colour)) for e in (True, False) for s in (True, False)
                   for colour in ("white", "yellow", "mixed"))
    assert smallest == SMALLEST_BASE_PILE


def test_a_campaigns_chosen_decks_are_checked_where_it_chooses_them(tmp_path: Path) -> None:
    (tmp_path / "mission-1.yaml").write_text(MISSION_1.read_text("utf-8"), "utf-8")
    campaign = tmp_path / "campaign.yaml"
    text = ("campaign: 1\nid: red-run\ntitle: Red run\nmissions:\n"
            "  - mission: mission-1.yaml\n    decks: {common: mixed, serious: red}\n")
    campaign.write_text(text, "utf-8")
    checked = runner.invoke(app, ["validate", str(campaign)])
    assert checked.exit_code == 1
    assert f"{campaign}:6:37: M007 " in checked.output  # the entry's `serious: red`
    refused = runner.invoke(app, ["simulate", str(campaign), "--games", "1"])
    assert refused.exit_code == 1 and "M007" in refused.output
    assert "internal error" not in refused.output
    campaign.write_text(text.replace("serious: red}", "serious: red, expansion: true}"),
                        "utf-8")
    assert runner.invoke(app, ["validate", str(campaign)]).exit_code == 0


def test_every_sheet_names_the_decks_in_one_wording() -> None:
    from authoring.mission.model import Decks
    from authoring.render.sheets import deck_words

    assert deck_words(Decks("mixed", "red", True)) == (
        "common: white and yellow mixed; serious: red; New Frontier cards shuffled in")
    assert deck_words(Decks("white", "white")) == "common: white; serious: white"
