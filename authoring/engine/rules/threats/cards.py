"""Loads the threat card data shipped in ``authoring/engine/data/threats.json``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

from authoring.engine.errors import SetupError

STATION_CODES: tuple[str, ...] = ("UR", "UW", "UB", "LR", "LW", "LB")
Op = tuple[Any, ...]


@dataclass(frozen=True)
class Card:
    """One threat card: printed stats, engine actions and ability ids."""

    id: str
    name: str
    set: str
    kind: str  # external | internal-malfunction | internal-intruder
    serious: bool
    colour: str
    health: int | None
    shield: int
    speed: int
    points_survived: int
    points_destroyed: int
    stations: tuple[int, ...]
    system: str | None  # A, B, C, bots or pilot
    x: tuple[Op, ...]
    y: tuple[Op, ...]
    z: tuple[Op, ...]
    abilities: tuple[str, ...]  # in card order: hooks run in a fixed order in every process
    playable: bool
    external: bool  # travels on an external zone's trajectory (a field: read every step)
    malfunction: bool  # an internal malfunction

    def ability_arg(self, name: str) -> int:
        """Returns the integer argument of an ability written ``name:N`` (0 if absent)."""
        prefix = name + ":"
        for ability in self.abilities:
            if ability.startswith(prefix):
                return int(ability[len(prefix):])
        return 0


def _card(raw: dict[str, Any]) -> Card:
    actions = raw["actions"]
    return Card(
        id=raw["id"],
        name=raw["name"],
        set=raw["set"],
        kind=raw["kind"],
        serious=raw["severity"] == "serious",
        colour=raw["colour"],
        health=raw["health"],
        shield=raw["shield"] or 0,
        speed=raw["speed"] or 0,
        points_survived=raw["points_survived"] or 0,
        points_destroyed=raw["points_destroyed"] or 0,
        stations=tuple(STATION_CODES.index(s) for s in raw["stations"]),
        system=raw["system"],
        x=tuple(tuple(op) for op in actions["x"]) if actions else (),
        y=tuple(tuple(op) for op in actions["y"]) if actions else (),
        z=tuple(tuple(op) for op in actions["z"]) if actions else (),
        abilities=tuple(raw["abilities"]),
        playable=actions is not None,
        external=raw["kind"] == "external",
        malfunction=raw["kind"] == "internal-malfunction",
    )


@cache
def load_cards() -> dict[str, Card]:
    """Returns every card of the packaged data by id (read once per process)."""
    text = resources.files("authoring.engine").joinpath("data/threats.json").read_text("utf-8")
    return {raw["id"]: _card(raw) for raw in json.loads(text)["cards"]}


def get_card(card_id: str) -> Card:
    """Returns a card the engine can play, raising ``SetupError`` otherwise."""
    cards = load_cards()
    card = cards.get(card_id.upper())
    if card is None:
        raise SetupError(f"expected a threat card id such as E1-07, got {card_id!r}")
    if not card.playable:
        from authoring.engine.rules.expansion import missing_rules  # it reads this module's cards

        raise SetupError(f"threat card {card.id} ({card.name}, New Frontier) "
                         f"{missing_rules(card.id)}")
    return card
