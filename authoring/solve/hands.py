"""Solving with dealt action cards (``spacealert solve --hands``, docs/rules.md §16).

The search itself does not change: every plan it builds is first projected onto the hands
(``authoring/engine/rules/hands.py``: the slots that find no card become blank), so that it only
ever evaluates, keeps and returns plans the crew can play. The fixed crew members (``--fix``)
are served first, so that the projection never takes a card from them. One help for the
search: its moves draw heroic halves from all six heroic cards, so a heroic half a crew
member does not hold becomes the matching half of its own heroic card (a heroic action for a
heroic action, a heroic move for a heroic move) before the projection, rather than a blank.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from authoring.engine.cores import hands_module, hands_projection
from authoring.engine.rules.hands import Hands, decoded_actions
from authoring.engine.rules.plan import HEROIC_BIT, HMOVE, STATIONS, Action, encode

if TYPE_CHECKING:
    from authoring.solve.search import Request


def within(request: Request, plan: list[list[int]],
           before: Sequence[Sequence[int]] | None = None) -> list[list[int]]:
    """The plan projected onto the request's hands (unchanged without hands).

    ``before``: the playable plan a search move changed; its cards that the move left in
    place keep theirs, so a new card that does not fit is the one dropped (a move stays
    local instead of blanking a later slot of the plan).
    """
    if request.hands is None:
        return plan
    hands = request.hands
    rows = [row if member in request.fixed else [_own_heroic(hands, member, code) for code in row]
            for member, row in enumerate(plan)]
    if _playable(hands, rows):
        return rows  # a playable plan projects onto itself, whatever the order (most moves)
    kept = () if before is None else {
        (member, turn) for member, row in enumerate(rows)
        for turn, code in enumerate(row, 1) if code and before[member][turn - 1] == code}
    projected: list[list[int]] = hands_module().project_codes(
        hands, rows, first=tuple(request.fixed), prefer=kept)
    return projected


def _own_heroic(hands: Hands, member: int, code: int) -> int:
    """A heroic half turned into the same kind of half of the member's own heroic card."""
    if not code & HEROIC_BIT:
        return code
    card = hands.heroic[member]
    if card is None:
        return code  # no heroic cards at this rule level: the projection blanks it
    action = decoded_actions()[code]
    if action.kind == HMOVE:
        own = Action(HMOVE, heroic=True, target=STATIONS.index(card.move[1:]))
    else:
        own = Action("-rblABCR".index(card.action[0]), heroic=True)
    return encode(Action(own.kind, True, own.target, action.tripped))


def fits(request: Request, plan: Sequence[Sequence[int]]) -> bool:
    """Tells whether the crew can play the plan from the request's hands (always without)."""
    return request.hands is None or _playable(request.hands, plan)


def _playable(hands: Hands, plan: Sequence[Sequence[int]]) -> bool:
    """Whether the crew can play the plan: its projection in turn order leaves it unchanged
    (``hands.project`` and ``hands.check`` lay it alike), through the fastest projection (the
    C one when built, as the crews check theirs: ``simulation/dealing.py``). Measured on the
    greedy start of double-action easier 1 (5,430 checks): 2.0 s in C against 28.5 s for the
    reference's ``playable`` (tests/solve/test_hands_search.py compares the two answers)."""
    rows = [list(row) for row in plan]
    return hands_projection()(hands, rows) == rows
