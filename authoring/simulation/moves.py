"""The plan alphabet and the local-search moves over encoded crew plans.

A plan is a list of rows, one per crew member, of 12 encoded actions (``engine.game.encode``).
Every move keeps the plan legal: at most one heroic card per crew member, no tripped cards.
Fixed rows (hand-made plans kept by ``--fix``) are never touched.

Besides single-card changes the search makes *errands*: a crew member walks to a station,
plays an action there and walks back, so that the rest of the row still plays where it did
(docs/rules.md §8.1: a move card changes the station of every later card, which makes a lone
card change a poor step toward "someone fetches the battlebots, then flies the interceptors").
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from authoring.engine.rules.plan import (
    BLANK,
    BOTS,
    DOUBLE_PAIRS,
    FIRST_MASK,
    HEROIC_BIT,
    HMOVE,
    KIND_MASK,
    LIFT,
    SECOND_SHIFT,
    SLOTS,
    STATIONS,
    A,
    Action,
    B,
    C,
    encode,
    parse_action,
    second_kind,
)
from authoring.engine.rules.plan import BLUE as MOVE_BLUE
from authoring.engine.rules.plan import RED as MOVE_RED

_START = STATIONS.index("UW")  # every crew member starts on the bridge (docs/rules.md §3)

Slots = list[list[int]]

NORMAL: tuple[int, ...] = tuple(encode(Action(k)) for k in
                                (BLANK, MOVE_RED, MOVE_BLUE, LIFT, A, B, C, BOTS))
HEROIC: tuple[int, ...] = (
    encode(Action(A, heroic=True)), encode(Action(B, heroic=True)),
    encode(Action(BOTS, heroic=True)),
    *(encode(Action(HMOVE, heroic=True, target=t)) for t in range(len(STATIONS))),
)
#: The double-action cards (double-action tracks only, docs/rules.md §19.2).
DOUBLES: tuple[int, ...] = tuple(encode(parse_action(pair)) for pair in DOUBLE_PAIRS)
_DOUBLE_SET = frozenset(DOUBLES)
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


def alphabet(heroics: bool, doubles: bool = False) -> tuple[int, ...]:
    """Returns every action a slot may hold (double actions on double-action tracks)."""
    return NORMAL + (DOUBLES if doubles else ()) + (HEROIC if heroics else ())


def merged(first: int, second: int) -> int | None:
    """Returns the double action playing two plain cards in one turn, if the deck has it."""
    code = first | (second << SECOND_SHIFT) if second and not (first | second) & ~KIND_MASK else -1
    return code if code in _DOUBLE_SET else None


def join_or_split(row: list[int], i: int, turns: int) -> bool:
    """Plays the cards of slots i and i+1 as one double action (the later cards one slot
    earlier), or splits a double action over two slots (the later cards one slot later, cut
    at ``turns``); returns False when neither applies."""
    code = row[i]
    if code in _DOUBLE_SET:
        row[i] = code & FIRST_MASK
        row.insert(i + 1, second_kind(code))
        del row[turns:]
        row.extend([EMPTY] * (SLOTS - len(row)))
        return True
    if i + 1 < turns:
        joined = merged(code, row[i + 1])
        if joined is not None:
            row[i] = joined
            del row[i + 1]
            row.append(EMPTY)
            return True
    return False


def fix_heroics(row: list[int], keep: int) -> None:
    """Downgrades every heroic card of a row but one: the one in slot ``keep`` if heroic."""
    heroic = [j for j, code in enumerate(row) if is_heroic(code)]
    if len(heroic) <= 1:
        return
    keeper = keep if keep in heroic else heroic[0]
    for j in heroic:
        if j != keeper:
            row[j] = downgrade(row[j])


_RED_CODE = encode(Action(MOVE_RED))
_BLUE_CODE = encode(Action(MOVE_BLUE))
_LIFT_CODE = encode(Action(LIFT))
_ERRANDS: tuple[int, ...] = tuple(encode(Action(k)) for k in (A, A, B, C, C, BOTS))
_HEROIC_ERRANDS: tuple[int, ...] = tuple(encode(Action(k, heroic=True)) for k in (A, B, BOTS))


def errand_actions(heroics: bool) -> tuple[int, ...]:
    """Returns the actions an errand may play (each once)."""
    plain = tuple(encode(Action(k)) for k in (A, B, C, BOTS))
    return plain + _HEROIC_ERRANDS if heroics else plain


def stations(row: Sequence[int]) -> list[int]:
    """Returns where the crew member stands before each slot (and after the last), following
    the move cards only: a sketch that ignores delays, interceptor flights and lift damage."""
    here = _START
    where = [here]
    for code in row:
        for half in (code & FIRST_MASK, second_kind(code)):
            kind = half & KIND_MASK
            if kind in (MOVE_RED, MOVE_BLUE):
                zone = here % 3 + (-1 if kind == MOVE_RED else 1)
                if 0 <= zone <= 2:
                    here = here - here % 3 + zone
            elif kind == LIFT:
                here = (here + 3) % 6
            elif kind == HMOVE:
                here = (half >> 8) - 1
        where.append(here)
    return where


def walk(start: int, goal: int) -> list[int]:
    """Returns the move cards from one station to another: across the deck, then the lift."""
    cards = []
    zone, target = start % 3, goal % 3
    cards += [_BLUE_CODE if target > zone else _RED_CODE] * abs(target - zone)
    if start // 3 != goal // 3:
        cards.append(_LIFT_CODE)
    return cards


def errand(row: list[int], slot: int, station: int, action: int, turns: int, *,
           insert: bool) -> bool:
    """Rewrites a row so that the member walks from slot ``slot`` to ``station``, plays
    ``action`` there and walks back; returns False when it does not fit before ``turns``.

    ``insert``: the errand comes before the old cards, which play that much later (cut at
    ``turns``). Otherwise it replaces cards, and the walk back ends where the old row stood
    at that slot, so the later cards still play at their stations.
    """
    where = stations(row)
    going = [*walk(where[slot], station), action]
    done = slot + len(going)
    if done > turns:
        return False
    if insert:
        trip = going + walk(station, where[slot])
        row[slot:slot] = trip
        del row[turns:]
        row.extend([EMPTY] * (SLOTS - len(row)))
        return True
    for rejoin in range(done, turns + 1):
        back = walk(station, where[rejoin])
        if len(back) <= rejoin - done:
            row[slot:rejoin] = going + back + [EMPTY] * (rejoin - done - len(back))
            return True
    row[slot:done] = going
    return True


class Mover:
    """Proposes random neighbours of a plan for the annealing search."""

    def __init__(self, free: Sequence[int], heroics: bool, rng: random.Random,
                 turns: int = SLOTS, errands: float = 0.0, doubles: bool = False) -> None:
        self.free = list(free)  # crew indexes the search may change
        self.heroics = heroics
        self.rng = rng
        self.turns = turns  # slots after the rule level's last turn stay blank
        self.errands = errands  # the share of proposals that are errands (see ``errand``)
        self.doubles = doubles  # double-action cards may be played

    def random_action(self) -> int:
        """Returns a random action, heroic with a small probability when allowed, a double
        action often when they are played."""
        if self.heroics and self.rng.random() < 0.12:
            return self.rng.choice(HEROIC)
        if self.doubles and self.rng.random() < 0.4:
            return self.rng.choice(DOUBLES)
        return self.rng.choice(_WEIGHTED)

    def propose(self, plan: Slots) -> Slots:
        """Returns a changed copy of the plan (the original is left as it was)."""
        rng = self.rng
        new = [row[:] for row in plan]
        who = rng.choice(self.free)
        row = new[who]
        i = rng.randrange(self.turns)
        if rng.random() < self.errands:
            heroic = self.heroics and rng.random() < 0.12
            action = rng.choice(_HEROIC_ERRANDS if heroic else _ERRANDS)
            if errand(row, i, rng.randrange(len(STATIONS)), action, self.turns,
                      insert=rng.random() < 0.5):
                fix_heroics(row, i)
                return new
        if self.doubles and rng.random() < 0.15 and join_or_split(row, i, self.turns):
            return new
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
