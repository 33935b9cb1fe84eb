"""Solving with dealt action cards (``spacealert solve --hands``, docs/rules.md §16).

The search itself does not change: every plan it builds is first projected onto the hands
(``authoring/engine/hands.py``: the slots that find no card become blank), so that it only
ever evaluates, keeps and returns plans the crew can play. The fixed crew members (``--fix``)
are served first, so that the projection never takes a card from them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from authoring.engine.hands import (
    Hands,
    Matcher,
    deal,
    decode_rows,
    decoded_actions,
    mission_events,
    project_codes,
)
from authoring.engine.hands import playable as hands_playable
from authoring.engine.levels import get_level
from authoring.mission import Mission

if TYPE_CHECKING:
    from authoring.solve.search import Request


def deal_hands(mission: Mission, labels: Sequence[str], seed: int, level: int) -> Hands:
    """Deals the crew's hands for a solve: the mission's events, a generator seeded by ``seed``."""
    return deal(labels, mission_events(mission), random.Random(f"hands:{seed}"),
                heroics=get_level(level).heroics)


def within(request: Request, plan: list[list[int]]) -> list[list[int]]:
    """The plan projected onto the request's hands (unchanged without hands)."""
    if request.hands is None:
        return plan
    return project_codes(request.hands, plan, first=tuple(request.fixed))


def fits(request: Request, plan: Sequence[Sequence[int]]) -> bool:
    """Tells whether the crew can play the plan from the request's hands (always without)."""
    return request.hands is None or hands_playable(request.hands,
                                                   decode_rows(request.hands, plan))


def start_matcher(request: Request, plan: Sequence[Sequence[int]]) -> Matcher | None:
    """A matcher holding the fixed rows' cards, for building a start plan slot by slot."""
    if request.hands is None:
        return None
    matcher = Matcher(request.hands, request.labels)
    crew = decode_rows(request.hands, plan)
    for member in request.fixed:
        for turn, action in enumerate(crew[member].actions, 1):
            matcher.place(member, turn, action)
    return matcher


def slot_fits(matcher: Matcher | None, member: int, turn: int, code: int, *,
              commit: bool = False) -> bool:
    """Tells whether a card still fits one slot of the start plan (``commit``: and lay it)."""
    if matcher is None:
        return True
    return matcher.place(member, turn, decoded_actions()[code], commit=commit)
