"""Checks the packaged threat data: schema, counts, and that every hook it names exists."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import jsonschema

from authoring.engine.rules.threats.abilities import ABILITIES, OPS
from authoring.engine.rules.threats.cards import get_card, load_cards

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "threats.schema.json"


def _raw() -> dict:  # type: ignore[type-arg]
    text = resources.files("authoring.engine").joinpath("data/threats.json").read_text("utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_data_validates_against_the_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://spacealert.invalid/schemas/threats.schema.json"
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(_raw()))
    assert errors == []


def test_schema_describes_every_property() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    missing = []

    def walk(node: object, path: str) -> None:
        if isinstance(node, dict):
            for name, sub in node.get("properties", {}).items():
                if "description" not in sub:
                    missing.append(f"{path}/{name}")
            for key, sub in node.items():
                walk(sub, f"{path}/{key}")
        elif isinstance(node, list):
            for i, sub in enumerate(node):
                walk(sub, f"{path}/{i}")

    walk(schema, "")
    assert missing == []


#: The expansion's cards the engine plays (docs/rules.md §19.8).
PLAYED_EXPANSION = {"E1-101", "E1-102", "SE1-101", "SE1-102", "I1-101", "SI1-101",
                    "E2-101", "E2-103", "SE2-101", "SE2-103", "E3-104", "SE3-102",
                    "E2-102", "SE2-102", "E3-102", "E3-103", "SE3-101", "I3-105", "I3-106",
                    "I2-101", "SI2-102", "E3-109", "SE3-109", "E3-101", "SE3-107", "E3-108",
                    "SE3-108", "SE3-103", "I3-101", "E3-105", "E3-106", "SE3-106",
                    "SI3-105", "I3-107", "I3-102", "I3-103", "SI2-101", "I3-104", "SI3-101",
                    "SI3-107", "SI3-106", "I2-102", "E3-107", "SE3-104", "SE3-105",
                    "SI3-102", "SI3-103"}


def test_all_103_cards_and_the_55_base_cards_are_playable() -> None:
    cards = load_cards()
    assert len(cards) == 103
    base = [c for c in cards.values() if c.set == "base"]
    assert len(base) == 55
    assert all(c.playable for c in base)
    played = {c.id for c in cards.values() if c.set == "new-frontier" and c.playable}
    assert played == PLAYED_EXPANSION


def test_every_operation_and_ability_is_registered() -> None:
    for card in load_cards().values():
        for op in (*card.x, *card.y, *card.z):
            assert op[0] in OPS, (card.id, op)
        for ability in card.abilities:
            assert ability.partition(":")[0] in ABILITIES, (card.id, ability)


def test_binding_decisions_are_in_the_data() -> None:
    assert get_card("E1-01").y == (("attack_all", 1),)  # Pulse Ball Y 1
    assert get_card("SE1-02").z == (("attack", 5),)  # Man-of-War Z 5
    assert get_card("E1-09").z == (("attack", 5),)  # Amoeba Z 5
    assert get_card("SI2-02").points_destroyed == 15  # Seeker
    assert get_card("I2-06").speed == 2 and get_card("I2-06").z == (("attack_zone", "white", 3),)
    assert get_card("E1-03").speed == 3 and get_card("I1-03").speed == 4
    maelstrom = get_card("SE1-07")
    assert (maelstrom.health, maelstrom.shield, maelstrom.speed) == (8, 3, 2)
    assert "rocket-immune" not in get_card("SE2-05").abilities  # Nemesis is targetable
    assert get_card("I2-03").y == (("move", "blue"),) and get_card("I2-04").y == (("move", "red"),)


def test_the_expansion_cards_played_keep_their_printed_values() -> None:
    carrier = get_card("SE1-101")
    assert (carrier.health, carrier.shield, carrier.speed) == (6, 3, 2)
    assert "carrier-attacks" in carrier.abilities
    spider = get_card("SE1-102")
    assert {"rocket-immune", "z-at-jump"} <= set(spider.abilities)
    jam = get_card("I1-101")
    assert (jam.stations, jam.system, jam.malfunction) == ((1,), "A", True)
    shambler = get_card("SI1-101")
    assert (shambler.stations, shambler.system, shambler.serious) == ((4,), "bots", True)
    assert "fights-back" not in shambler.abilities
    assert get_card("SE2-103").ability_arg("max-damage") == 2  # Mother Swarm
    assert {"double-damage", "megashield"} <= set(get_card("E2-103").abilities)
    fighter, man_of_war = get_card("E3-104"), get_card("SE3-102")  # red megashields
    assert (fighter.health, fighter.shield, fighter.speed) == (4, 4, 3)
    assert (man_of_war.health, man_of_war.shield, man_of_war.speed) == (7, 5, 1)
    assert man_of_war.x == (("attack", 2), ("speed", 1))
    assert "double-damage" not in fighter.abilities
    # phasing: (value, value when the move began phased out), docs/rules.md §19.8
    assert get_card("SE3-101").x == (("attack_phasing", 2, 1), ("speed", 1))
    # the ids the project follows (docs/rules.md §19.6): the sources swap these two
    assert (get_card("E3-108").name, get_card("E3-109").name) == ("Energy Snake",
                                                                  "Polarized Fighter")
    assert get_card("E3-102").y == (("attack_all", 1),)  # the card prints 1 [1]
    for troopers, station in (("I3-105", 3), ("I3-106", 5)):
        card = get_card(troopers)
        assert (card.stations, card.system) == ((station,), "bots")
        assert {"fights-back", "phasing"} <= set(card.abilities)
    overload = get_card("I2-101")  # Power Pack Overload: the A of LR and LB
    assert (overload.stations, overload.system, overload.malfunction) == ((3, 5), "A", True)
    assert overload.ability_arg("all-stations-bonus") == 1
    mine_layer = get_card("SI2-102")
    assert (mine_layer.stations, mine_layer.system, mine_layer.health, mine_layer.speed) == (
        (1,), "bots", 2, 2)
    assert mine_layer.x == (("lay_mine",), ("move_phasing", "red", "blue"))
    assert mine_layer.z == (("lay_mine",), ("mines_explode", 2))
