"""Random deals and plans for the C projection's differential test (tests/engine/
test_hands_c.py) and bench/hands.py.

A case is dealt hands and one plan, as ``hands.project_codes`` takes it (rows of 12
``plan.encode`` codes). The deals are the rules' (``hands.deal``): 2-5 players, androids up to
five figures, heroic cards on and off, the base deck or (one deal in four) the double-action
deck, random incoming data and data transfers in every phase.
Per deal, a walk of plans as a search proposes them: a random plan (blanks, ordinary cards,
heroic and tripped cards), sometimes one with a card in every slot (gifts are asked for and
refused), then plans a few cards away from the projection of one before (near-playable: what a
local search tries next). Everything is drawn from the caller's seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

from authoring.engine.rules.hands import DATA_TRANSFER, INCOMING_DATA, Hands, deal
from authoring.engine.rules.plan import DOUBLE_PAIRS, SLOTS, TRIP_BIT, encode, parse_action

#: (players, androids): every crew of 2-5 players the rules seat, up to five figures.
CREWS = ((5, 0), (4, 0), (4, 1), (3, 1), (3, 2), (2, 2), (2, 3))
ORDINARY = (1, 2, 3, 4, 5, 6, 7)  # r b l A B C R
HEROIC = (16 | 4, 16 | 5, 16 | 7, *(16 | 8 | (station + 1) << 8 for station in range(6)))
DOUBLES = tuple(encode(parse_action(pair)) for pair in DOUBLE_PAIRS)
#: Plans walked per deal (a search projects many plans onto one deal).
PLANS_PER_DEAL = 25

Rows = list[list[int]]
Project = Callable[[Hands, Sequence[Sequence[int]]], Rows]


def random_hands(rng: random.Random) -> Hands:
    """Deals a random crew with random events (1-6 of them, transfers more often)."""
    players, androids = rng.choice(CREWS)
    labels = [f"P{i + 1}" for i in range(players)] + [f"A{i + 1}" for i in range(androids)]
    events = [(rng.randint(1, 3), rng.choice((INCOMING_DATA, DATA_TRANSFER, DATA_TRANSFER)))
              for _ in range(rng.randint(0, 6))]
    events.sort(key=lambda event: event[0])  # time order: by phase (stable within one)
    doubles = rng.random() < 0.25
    return deal(labels, events, random.Random(rng.getrandbits(32)), heroics=rng.random() < 0.5,
                double_actions=doubles)


def is_double_deal(hands: Hands) -> bool:
    """Tells a deal of the double-action deck."""
    return any(card.double for held in hands.held for card, _ in held)


def random_code(rng: random.Random, blank: float = 0.3, doubles: bool = False) -> int:
    """One slot: a blank, an ordinary card, with ``doubles`` often a double action, or
    (rarely) a heroic card; one in twenty tripped."""
    roll = rng.random()
    if roll < blank:
        return 0
    code = rng.choice(HEROIC) if roll > 0.95 else \
        rng.choice(DOUBLES) if doubles and rng.random() < 0.6 else rng.choice(ORDINARY)
    return code | (TRIP_BIT if rng.random() < 0.05 else 0)


def random_rows(rng: random.Random, hands: Hands) -> Rows:
    """A random plan: in one plan out of three a card in every slot."""
    blank = 0.0 if rng.random() < 1 / 3 else rng.choice((0.2, 0.4, 0.6))
    doubles = is_double_deal(hands)
    return [[random_code(rng, blank, doubles) for _ in range(SLOTS)] for _ in hands.labels]


def neighbour(rng: random.Random, rows: Sequence[Sequence[int]], doubles: bool = False) -> Rows:
    """The plan with 1-3 random slots changed to random cards (a search's next proposal)."""
    changed = [list(row) for row in rows]
    for _ in range(rng.randint(1, 3)):
        changed[rng.randrange(len(changed))][rng.randrange(SLOTS)] = \
            random_code(rng, 0.1, doubles)
    return changed


def walk(rng: random.Random, hands: Hands, project: Project,
         plans: int = PLANS_PER_DEAL) -> Iterator[tuple[Rows, Rows]]:
    """Plans for one deal with their projections by ``project`` (the reference): a random
    plan, then neighbours of the projections of recent ones, now and then a fresh random
    plan."""
    projected: list[Rows] = []
    for index in range(plans):
        if index == 0 or rng.random() < 0.1:
            rows = random_rows(rng, hands)
        else:
            rows = neighbour(rng, rng.choice(projected[-4:]), is_double_deal(hands))
        projected.append(project(hands, rows))
        yield rows, projected[-1]


def cases(seed: int, count: int, project: Project) -> Iterator[tuple[Hands, Rows, Rows]]:
    """``count`` cases from one seed: deals, each with a walk of plans; each case is the
    hands, the plan and its projection by ``project``."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        hands = random_hands(rng)
        for rows, projected in walk(rng, hands, project, min(PLANS_PER_DEAL, count - made)):
            made += 1
            yield hands, rows, projected


def search_walk(rng: random.Random, hands: Hands, project: Project, plans: int
                ) -> Iterator[Rows]:
    """Plans as a crew's descent proposes them (``localsearch.neighbour`` in its order): each
    a neighbour of the current plan, which starts as a playable plan (the projection by
    ``project`` of a random one, as the searches start from plans laid from the hands), is
    not projected later (``descend`` keeps the candidate it rated, blanks and all) and moves
    on to a neighbour now and then, as an improvement would move it."""
    from authoring.simulation.localsearch import block_size, neighbour
    from authoring.simulation.moves import alphabet

    doubles = is_double_deal(hands)
    cards = alphabet(heroics=any(card is not None for card in hands.heroic), doubles=doubles)
    current = project(hands, random_rows(rng, hands))
    size = len(current) * SLOTS * block_size(cards)
    k = rng.randrange(size)
    made = 0
    while made < plans:
        candidate = neighbour(current, k, cards=cards, first=0, turns=SLOTS, doubles=doubles)
        k = (k + 1) % size
        if candidate is None or candidate == current:
            continue
        made += 1
        yield candidate
        if rng.random() < 0.02:
            current = candidate
