"""The threat decks a mission draws from, with and without the expansion's cards
(docs/rules.md §19.9)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from authoring.engine import Plan, make_crew_plan, setup_from_mission
from authoring.engine.rules import decks
from authoring.engine.rules.decks import deck_cards, deck_problems
from authoring.engine.rules.threats.cards import load_cards
from authoring.mission import load_mission
from authoring.mission.model import Decks, Mission

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs/rules.md"
MISSION_1 = load_mission(ROOT / "missions" / "official" / "mission-1.yaml")
CARDS = load_cards()
PILES = [(True, False), (False, False), (True, True), (False, True)]


def _with(mission: Mission, chosen: Decks) -> Mission:
    return dataclasses.replace(mission, decks=chosen)


def _drawn(mission: Mission, seed: int) -> list[str]:
    plan = Plan(tuple(make_crew_plan(f"P{i + 1}", "") for i in range(5)), seed=seed)
    return [event.card for event in setup_from_mission(mission, plan).threats]


def test_the_rules_page_shows_the_current_table() -> None:
    text = RULES.read_text(encoding="utf-8")
    shown = text.split("<!-- decks:start -->\n", 1)[1].split("\n<!-- decks:end -->")[0]
    assert shown == decks.markdown(), "regenerate docs/rules.md §19.9 from decks.markdown()"


@pytest.mark.parametrize("colour", ["white", "yellow", "mixed"])
@pytest.mark.parametrize(("external", "serious"), PILES)
def test_without_the_expansion_a_pile_is_the_base_games(colour: str, external: bool,
                                                        serious: bool) -> None:
    pile = deck_cards(external, serious, colour)
    assert pile and all(CARDS[c].set == "base" for c in pile)
    wanted = ("white", "yellow") if colour == "mixed" else (colour,)
    assert all(CARDS[c].colour in wanted and CARDS[c].external == external
               and CARDS[c].serious == serious for c in pile)


@pytest.mark.parametrize("colour", ["white", "yellow", "mixed", "red"])
@pytest.mark.parametrize(("external", "serious"), PILES)
def test_the_expansion_adds_its_played_cards_of_the_colours(colour: str, external: bool,
                                                            serious: bool) -> None:
    base = set(deck_cards(external, serious, colour))
    pile = set(deck_cards(external, serious, colour, expansion=True))
    added = pile - base
    assert base <= pile
    wanted = ("white", "yellow") if colour == "mixed" else (colour,)
    expected = {c.id for c in CARDS.values() if c.set != "base" and c.playable
                and c.colour in wanted and c.external == external and c.serious == serious}
    assert added == expected
    assert colour != "red" or not base  # no base card is red


def test_the_expansion_leaves_out_the_cards_not_played_yet() -> None:
    assert not CARDS["SI3-104"].playable  # the Space-Time Vortex (docs/rules.md §19.7)
    assert "SI3-104" not in deck_cards(False, True, "red", expansion=True)
    assert "SI3-105" in deck_cards(False, True, "red", expansion=True)


def test_base_decks_draw_base_cards_and_the_expansion_changes_nothing_without_it() -> None:
    plain = _with(MISSION_1, Decks("mixed", "mixed", False))
    for seed in range(20):
        drawn = _drawn(plain, seed)
        assert drawn == _drawn(MISSION_1, seed)
        assert all(CARDS[c].set == "base" for c in drawn)


def test_expansion_decks_draw_the_expansions_cards_seeded() -> None:
    red = _with(MISSION_1, Decks("red", "red", True))
    seen: set[str] = set()
    for seed in range(30):
        drawn = _drawn(red, seed)
        assert drawn == _drawn(red, seed)  # same seed, same cards
        assert all(CARDS[c].set == "new-frontier" and CARDS[c].colour == "red"
                   and CARDS[c].playable for c in drawn)
        assert len(set(drawn)) == len(drawn)  # each card is in its deck once
        seen |= set(drawn)
    assert len(seen) >= 12  # the piles are shuffled, not dealt in a fixed order
    mixed = _with(MISSION_1, Decks("mixed", "mixed", True))
    drawn = {c for seed in range(60) for c in _drawn(mixed, seed)}
    assert {CARDS[c].set for c in drawn} == {"base", "new-frontier"}


def test_a_red_deck_needs_the_expansion() -> None:
    found = deck_problems(_with(MISSION_1, Decks("mixed", "red", False)))
    assert [key for key, _ in found] == ["serious"]
    assert "expected `expansion: true`" in found[0][1]


def test_a_pile_too_small_for_the_mission_is_reported() -> None:
    # every threat of mission 1 (six) a serious internal one, and one more, drawn from the red
    # serious internal pile: it holds six played cards (docs/rules.md §19.7)
    held = len(deck_cards(False, True, "red", True))
    events = tuple(dataclasses.replace(e, zone="internal", serious=True, unconfirmed=False)
                   if hasattr(e, "serious") else e for e in MISSION_1.events)
    last = [e for e in events if hasattr(e, "serious")][-1]
    events += (dataclasses.replace(last, at=last.at + 20),)
    wanted = sum(1 for e in events if hasattr(e, "serious"))
    assert held < wanted
    mission = dataclasses.replace(MISSION_1, events=events, decks=Decks("mixed", "red", True))
    (key, message), = deck_problems(mission)
    assert key == "serious"
    cards = f"{held} card{'s' if held != 1 else ''}"
    assert message.startswith(f"the serious internal deck (red, with the expansion) holds "
                              f"{cards} the engine plays, and the mission draws {wanted} from it")
    assert not deck_problems(_with(mission, Decks("mixed", "mixed", True)))
