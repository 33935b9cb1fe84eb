"""Draws a mission's threat cards and trajectories deterministically, for the answer key.

Each pile (external/internal × normal/serious) is sorted by id, cleared of the mission's pinned
cards and shuffled with one ``random.Random(seed)``; threats then take the top card of their
pile in announcement order. Unpinned trajectories are four different boards out of T1–T7, drawn
from the same generator after the cards. The test-run deck is dealt in numeric order (rules.md
§17). Same mission, player count and seed give the same draw.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from authoring.errors import InvalidInputError
from authoring.mission.model import TRAJECTORIES, Mission, Threat
from authoring.mission.timecode import format_clock
from authoring.render.cards import (
    CardFace,
    deck_pool,
    pile_key,
    pinned_face,
    played_threats,
)

ZONES = ("red", "white", "blue", "internal")


@dataclass(frozen=True)
class DrawnThreat:
    """One announced threat with the card it gets and the board it travels on."""

    threat: Threat
    card: CardFace
    trajectory: str
    pinned: bool


@dataclass(frozen=True)
class Draw:
    """The cards and trajectories of one play of a mission."""

    seed: int | None
    trajectories: Mapping[str, str]
    trajectories_pinned: bool
    threats: tuple[DrawnThreat, ...]


def needs_seed(mission: Mission, players: int) -> bool:
    """Tells whether anything of the mission is left to chance (an unpinned card or board)."""
    return mission.trajectories is None or any(
        t.card is None for t in played_threats(mission, players))


def draw_mission(mission: Mission, faces: Mapping[str, CardFace], *, players: int,
                 seed: int | None) -> Draw:
    """Returns the cards and boards of one play; ``seed`` may be None only if all is pinned."""
    if seed is None and needs_seed(mission, players):
        raise ValueError("a seed is needed: the mission leaves cards or trajectories to chance")
    rng = random.Random(seed)
    threats = played_threats(mission, players)
    pinned = {t.card.upper() for t in threats if t.card}
    piles: dict[tuple[bool, bool], list[CardFace]] = {}
    for threat in threats:
        key = pile_key(threat)
        if threat.card or key in piles:
            continue
        pile = [f for f in deck_pool(threat, mission.decks, faces, mission.profile)
                if f.id not in pinned]
        if not (mission.profile == "test-run" and key == (True, False)):
            rng.shuffle(pile)
        piles[key] = pile
    drawn: list[tuple[Threat, CardFace, bool]] = []
    for threat in threats:
        if threat.card:
            drawn.append((threat, pinned_face(threat, faces, mission), True))
            continue
        pile = piles[pile_key(threat)]
        if not pile:
            raise InvalidInputError(
                f"{mission.source or mission.id}: threat at {format_clock(threat.at)}: "
                "its deck has run out of cards")
        drawn.append((threat, pile.pop(0), False))
    if mission.trajectories is not None:
        boards = dict(mission.trajectories)
    else:
        boards = dict(zip(ZONES, rng.sample(list(TRAJECTORIES), len(ZONES)), strict=True))
    return Draw(seed, boards, mission.trajectories is not None,
                tuple(DrawnThreat(t, c, boards[t.zone], p) for t, c, p in drawn))
