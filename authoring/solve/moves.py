"""The plan alphabet and the local-search moves over encoded crew plans.

A plan is a list of rows, one per crew member, of 12 encoded actions (``engine.game.encode``).
Every move keeps the plan legal: at most one heroic card per crew member, no tripped cards.
Fixed rows (hand-made plans kept by ``--fix``) are never touched.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from authoring.engine.plan import (
    BLANK,
    BOTS,
    HEROIC_BIT,
    HMOVE,
    KIND_MASK,
    LIFT,
    SLOTS,
    STATIONS,
    A,
    Action,
    B,
    C,
    encode,
)
from authoring.engine.plan import BLUE as MOVE_BLUE
from authoring.engine.plan import RED as MOVE_RED

Slots = list[list[int]]

NORMAL: tuple[int, ...] = tuple(encode(Action(k)) for k in
                                (BLANK, MOVE_RED, MOVE_BLUE, LIFT, A, B, C, BOTS))
HEROIC: tuple[int, ...] = (
    encode(Action(A, heroic=True)), encode(Action(B, heroic=True)),
    encode(Action(BOTS, heroic=True)),
    *(encode(Action(HMOVE, heroic=True, target=t)) for t in range(len(STATIONS))),
)
EMPTY = NORMAL[0]
# Random picks favour the cards a crew plays most: blanks, cannons, moves.
_WEIGHTED: tuple[int, ...] = (EMPTY, EMPTY, *NORMAL[1:], NORMAL[4], NORMAL[5])


def is_heroic(code: int) -> bool:
    """Tells whether an encoded action is a heroic card."""
    return bool(code & HEROIC_BIT)


def downgrade(code: int) -> int:
    """Returns the plain card a heroic one turns into (a heroic move becomes a blank)."""
    kind = code & KIND_MASK
    return EMPTY if kind == HMOVE else encode(Action(kind))


def alphabet(heroics: bool) -> tuple[int, ...]:
    """Returns every action a slot may hold."""
    return NORMAL + HEROIC if heroics else NORMAL


def fix_heroics(row: list[int], keep: int) -> None:
    """Downgrades every heroic card of a row but one: the one in slot ``keep`` if heroic."""
    heroic = [j for j, code in enumerate(row) if is_heroic(code)]
    if len(heroic) <= 1:
        return
    keeper = keep if keep in heroic else heroic[0]
    for j in heroic:
        if j != keeper:
            row[j] = downgrade(row[j])


class Mover:
    """Proposes random neighbours of a plan for the annealing search."""

    def __init__(self, free: Sequence[int], heroics: bool, rng: random.Random,
                 turns: int = SLOTS) -> None:
        self.free = list(free)  # crew indexes the search may change
        self.heroics = heroics
        self.rng = rng
        self.turns = turns  # slots after the rule level's last turn stay blank

    def random_action(self) -> int:
        """Returns a random action, heroic with a small probability when allowed."""
        if self.heroics and self.rng.random() < 0.12:
            return self.rng.choice(HEROIC)
        return self.rng.choice(_WEIGHTED)

    def propose(self, plan: Slots) -> Slots:
        """Returns a changed copy of the plan (the original is left as it was)."""
        rng = self.rng
        new = [row[:] for row in plan]
        who = rng.choice(self.free)
        row = new[who]
        i = rng.randrange(self.turns)
        roll = rng.random()
        two = len(self.free) > 1
        if roll < 0.40 or (roll >= 0.85 and not two):
            row[i] = self.random_action()
            fix_heroics(row, i)
        elif roll < 0.50:  # swap two cards
            j = rng.randrange(self.turns)
            row[i], row[j] = row[j], row[i]
        elif roll < 0.63:  # shift a card to another slot
            j = rng.randrange(self.turns)
            card = row.pop(i)
            row.insert(j, card)
        elif roll < 0.74:  # insert a delay: the cards from slot i on move one turn later
            row.insert(i, EMPTY)
            row.pop()
        elif roll < 0.85:  # pull the cards after slot i one turn earlier
            row.pop(i)
            row.append(EMPTY)
        else:
            other = rng.choice([m for m in self.free if m != who])
            if roll < 0.94:  # exchange the cards of one turn between two crew members
                row[i], new[other][i] = new[other][i], row[i]
            elif roll < 0.97:  # exchange whole sub-plans: everything from slot i on
                row[i:], new[other][i:] = new[other][i:], row[i:]
            else:  # copy a sub-plan: the other member follows this one up to slot i
                # (gets a second figure to the same station for the same action: three C's
                # at once disarm the Nuclear Device, more figures confirm more)
                new[other][:i + 1] = row[:i + 1]
            fix_heroics(row, i)
            fix_heroics(new[other], i)
        if self.turns < SLOTS:
            for changed in new:
                changed[self.turns:] = [EMPTY] * (SLOTS - self.turns)
        return new
