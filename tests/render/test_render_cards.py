"""Which cards a mission can bring up, and the answer-key draw (the engine's seeded draw)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from authoring.crew import FULL_CREW, crew_size
from authoring.engine import Plan, make_crew_plan, setup_from_mission
from authoring.errors import InvalidInputError
from authoring.mission import load_mission
from authoring.mission.model import Decks, Mission, Threat
from authoring.render.cards import deck_pool, possible_cards, zones_for
from authoring.render.catalogue import load_faces
from authoring.render.draw import draw_mission, empty_plan, needs_seed

FACES = load_faces()
OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"


def test_catalogue_has_the_printed_texts() -> None:
    pulse = FACES["E1-01"]
    assert (pulse.name, pulse.health, pulse.shield, pulse.speed) == ("Pulse Ball", "5", "1", "2")
    assert pulse.y == "Attack 1 on all three zones"  # docs/rules.md §20 decision
    warheads = FACES["I1-07"]
    assert not warheads.external and warheads.start and warheads.speed_value == 3
    assert not warheads.health.isdigit()  # a formula printed as text


@pytest.mark.parametrize(("decks", "expected"), [
    (Decks("white", "white"), 10), (Decks("yellow", "yellow"), 7), (Decks(), 17)])
def test_common_external_pool_follows_the_deck_colour(decks: Decks, expected: int) -> None:
    pool = deck_pool(Threat(10, 1, "red"), decks, FACES)
    assert len(pool) == expected
    assert all(f.external and not f.serious and f.set == "base" for f in pool)


def test_serious_internal_pool() -> None:
    pool = deck_pool(Threat(10, 1, "internal", serious=True), Decks(serious="white"), FACES)
    assert [f.id for f in pool] == [f"SI1-0{n}" for n in range(1, 7)]


def test_possible_cards_of_mission_7_cover_every_deck_it_uses() -> None:
    mission = load_mission(OFFICIAL / "mission-7.yaml")
    cards = possible_cards(mission, FACES)
    ids = {c.id for c in cards}
    # normal external + serious external + serious internal; no normal internal threat
    assert len(cards) == 17 + 14 + 11
    assert not any(i.startswith("I") for i in ids)
    assert zones_for(FACES["E1-01"], mission, FACES, FULL_CREW) == ["red", "white", "blue"]
    assert zones_for(FACES["SI2-03"], mission, FACES, FULL_CREW) == ["internal"]


def test_unconfirmed_reports_count_only_with_five_figures(small_mission: Mission) -> None:
    four = possible_cards(small_mission, FACES, crew_size(4))
    five = possible_cards(small_mission, FACES, FULL_CREW)
    android = possible_cards(small_mission, FACES, crew_size(4, 5))
    assert android == five  # 4 players and an android: five figures
    # at 4 players only the pinned Fighter stands for the normal external deck
    assert [c.id for c in four if c.external and not c.serious] == ["E1-07"]
    assert len([c for c in five if c.external and not c.serious]) == 10


def test_a_pinned_card_must_fit_its_announcement(small_mission: Mission) -> None:
    wrong = dataclasses.replace(small_mission, events=(Threat(10, 1, "red", card="SI1-01"),))
    with pytest.raises(InvalidInputError, match=r"0:10: expected an external card, got SI1-01"):
        possible_cards(wrong, FACES)
    unknown = dataclasses.replace(small_mission, events=(Threat(10, 1, "red", card="E1-99"),))
    with pytest.raises(InvalidInputError, match="expected a known threat card id, got 'E1-99'"):
        possible_cards(unknown, FACES)


def test_the_draw_is_the_engines_draw_and_repeatable() -> None:
    mission = load_mission(OFFICIAL / "mission-7.yaml")
    first = draw_mission(mission, FACES, crew=FULL_CREW, seed=11)
    again = draw_mission(mission, FACES, crew=FULL_CREW, seed=11)
    other = draw_mission(mission, FACES, crew=FULL_CREW, seed=12)
    assert first == again
    assert [d.card.id for d in first.threats] != [d.card.id for d in other.threats]
    crew = tuple(make_crew_plan(f"P{n}", "") for n in range(1, 6))
    setup = setup_from_mission(mission, Plan(crew=crew, seed=11))
    assert [d.card.id for d in first.threats] == [e.card for e in setup.threats]
    assert dict(first.trajectories) == dict(setup.trajectories)
    assert len(set(first.trajectories.values())) == 4


def test_the_draw_keeps_pins_and_needs_a_seed_otherwise(small_mission: Mission) -> None:
    assert needs_seed(small_mission, crew_size(4))  # the internal and serious threats are unpinned
    with pytest.raises(ValueError, match="seed"):
        draw_mission(small_mission, FACES, crew=crew_size(4), seed=None)
    drawn = draw_mission(small_mission, FACES, crew=crew_size(4), seed=1)
    assert [p.label for p in empty_plan(crew_size(3), 1).crew] == ["P1", "P2", "P3", "A1"]
    assert [d.threat.turn for d in drawn.threats] == [1, 2, 5]  # unconfirmed T+3 left out
    assert drawn.threats[0].card.id == "E1-07" and drawn.threats[0].pinned
    assert [d.trajectory for d in drawn.threats] == ["T3", "T4", "T5"]
    assert drawn.trajectories_pinned
    assert drawn.threats[1].card.colour == "white" and not drawn.threats[1].card.external
