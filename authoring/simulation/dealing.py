"""Deals a simulated crew its action cards and keeps every crew's plan within them.

The engine's ``authoring/engine/rules/hands.py`` knows no missions: this module reads a mission's
incoming data and data transfers (by phase, in time order) and deals with a seed derived from
the game's plan seed, so that a game's threat draw and damage seed are the same with and
without hands (the two figures compare game by game), seated as the rules seat the mission's
players (``crew_labels``: androids fill the crew of a mission for fewer than four players).
Every crew gets the hands (the heuristic crew lays each card from them as it chooses it; the
searching crews start from such plans) and every phase's cards pass through ``playable_for``,
which leaves a playable plan unchanged and blanks the slots that find no card
(docs/rules.md §16).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from authoring.engine.cores import hands_module, hands_projection
from authoring.engine.rules.hands import Hands, mission_events
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.plan import decode, encode, parse_action
from authoring.engine.rules.setup import DOUBLE_ACTION_PROFILES
from authoring.mission.model import Mission
from authoring.simulation.horizon import Playable


def crew_labels(players: int, figures: int) -> list[str]:
    """The crew a table seats for a mission written for ``players``: the players, then
    androids up to ``figures`` (docs/rules.md §16: 3 players fly with one android, 2 with two,
    a solo player with three). Androids hold only their heroic card and play the players'
    cards; in the resolution they act like players, and simulated crews never trip, so the
    plans the engine resolves keep a ``P`` row per figure."""
    seated = max(1, min(players, figures))
    return [f"P{i + 1}" for i in range(seated)] + [f"A{i + 1}" for i in range(figures - seated)]


def double_action_deck(mission: Mission) -> bool:
    """Tells whether the mission deals the double-action deck (docs/rules.md §19.5)."""
    return str(mission.profile) in DOUBLE_ACTION_PROFILES


def dealt_deck(mission: Mission) -> str:
    """Names the action deck the mission's hands are dealt from: "double-action" on a
    double-action track (docs/rules.md §19.5), else "base"."""
    return "double-action" if double_action_deck(mission) else "base"


def deal_for(mission: Mission, labels: Sequence[str], seed: int, level: int) -> Hands:
    """Deals the crew's hands for a game (its own generator, seeded from ``seed``): the
    base deck, or the double-action deck on a double-action track."""
    hands: Hands = hands_module().deal(labels, mission_events(mission),
                                       random.Random(f"hands:{seed}"),
                                       heroics=get_level(level).heroics,
                                       double_actions=double_action_deck(mission))
    return hands


def playable_for(hands: Hands) -> Playable:
    """Returns the phase-by-phase projection onto ``hands`` (``horizon.Playable``): the
    turns ``first`` … ``last`` of the rows become cards the crew can still lay after the
    earlier turns, which stay as they are (the projection keeps the earliest cards).

    Projects the encoded rows with the fastest projection (``cores.hands_projection``: the
    C one when built, the same results as ``hands_module().project``)."""

    project = hands_projection()  # falls back to the module that dealt them (``deal_for``)

    def playable(rows: Sequence[Sequence[str]], first: int, last: int) -> list[list[str]]:
        codes = [list(_codes(tuple(row), last)) for row in rows]
        projected = project(hands, codes)
        out = [list(row) for row in rows]
        if projected == codes:  # playable: unchanged
            return out
        for member, row in enumerate(projected):
            for turn in range(first, last + 1):
                out[member][turn - 1] = token_of(row[turn - 1])
        return out

    return playable


#: A token's action, parsed once (a rating lays a few hundred thousand cards).
action_of = functools.cache(parse_action)



@functools.cache
def token_of(code: int) -> str:
    """The token of an encoded slot, as ``Action.token`` writes it."""
    return decode(code).token()


@functools.lru_cache(maxsize=1 << 14)
def _codes(row: tuple[str, ...], last: int) -> tuple[int, ...]:
    """A row's codes up to turn ``last`` (then blanks): a search's plans share most rows."""
    return tuple(encode(action_of(token)) if turn <= last else 0
                 for turn, token in enumerate(row, 1))
