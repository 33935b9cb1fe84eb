"""The search the planning and informed crews share: descent to a local optimum, in C or here.

A plan is a list of rows of encoded actions (``engine.plan.encode``), one row of 12 per
figure, as in the solver (authoring/simulation/moves.py). ``PlanSearch.run`` searches one
board for one crew picture of the damage tokens (docs/simulation.md "The search"):

1. the start plans: a few heuristic crews (``heuristic.Style`` variations) planning the same
   board, and the previous phase's sketch when there is one;
2. each start is improved by **first-improvement descent**: its neighbours (``neighbour``:
   every other card in a slot, swaps, shifts, delays, pulls, joined or split double actions,
   cards exchanged or followed between two crew members) are rated in a fixed order, from
   where the last improvement was found, and the first one that rates higher is kept, until
   a whole round of the neighbourhood finds none: a plan that no single change improves;
3. the best of those local optima is the crew's plan (ties: the first start's).

With dealt hands every plan is projected onto them (``playable``) before it is rated, and the
descent goes on from the projected plan: the current plan is always one the crew can play.

A descent stops by itself, so a rating does not depend on how long the crew may search: the
budget (``cap``, plans rated per descent) only guards against a pathological board, and
bench/convergence.py shows that the calibrated one is not reached (docs/simulation.md
"Convergence"). The seeds are the crew's picture of the damage tokens (the planning crew: a
few seeds of its own, never the real draw; the informed crew: the real draw's seed). Slots
before ``first_turn`` are fixed (played phases) and never change.

**Two implementations, one truth.** The search runs in C (``authoring/engine/cores/c/search.c``,
through ``ccore.plan_search``) when the C core is built and can play the board, and here
otherwise. Values are integer sums of ``objective`` over the seeds and the neighbourhood is
one fixed order, so both choose the same plan, value and count of plans rated
(tests/simulation/test_native_search.py compares them on many random boards). The Python
below is the reference.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from authoring.engine.cores import ccore, chands, resolve_batch
from authoring.engine.odds import value
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.plan import (
    SLOTS,
    Action,
    CrewPlan,
    Plan,
    encode,
    parse_action,
)
from authoring.engine.rules.plan import decode as plan_decode
from authoring.engine.rules.setup import Setup
from authoring.simulation.heuristic import HeuristicCrew, styles
from authoring.simulation.horizon import Playable
from authoring.simulation.moves import (
    DOUBLES,
    EMPTY,
    alphabet,
    fix_heroics,
    is_heroic,
    join_or_split,
)

Rows = list[list[int]]

#: The value of a survived game before its score (``authoring.engine.odds.value``).
SURVIVED = value.SURVIVED
#: Plans rated per descent at most, unless a crew says otherwise (see the module docstring).
DEFAULT_CAP = 16384
#: The changes per crew member and slot beyond the alphabet: a swap and a shift to each other
#: slot, a delay, a pull, a join or split; and three per other crew member (``neighbour``).
_SWAPS = _SHIFTS = SLOTS
_EXTRA = 3
_MAX_ROWS = 6
_WITH = 3 * _MAX_ROWS


#: Rates a resolution: the engine's one value function (survival first, then the score; a
#: loss is better the later it is), which ``sa_objective`` of the C core mirrors.
objective = value.of_result


#: The action of an encoded slot: actions are immutable, so one object per code serves
#: every plan.
decode = functools.cache(plan_decode)


def to_plan(rows: Sequence[Sequence[int]]) -> Plan:
    """Returns the engine plan of encoded rows (crew labels P1, P2 …)."""
    crew = []
    for i, row in enumerate(rows):
        codes = tuple(row)
        member = CrewPlan(f"P{i + 1}", _decoded(codes))
        member.__dict__["codes"] = codes  # the cached encoding: the rows already are it
        crew.append(member)
    return Plan(tuple(crew))


@functools.lru_cache(maxsize=1 << 14)
def _decoded(codes: tuple[int, ...]) -> tuple[Action, ...]:
    """A row's actions: neighbouring plans share most rows, so most are decoded once."""
    return tuple(decode(c) for c in codes)


def block_size(cards: Sequence[int]) -> int:
    """The neighbours of one crew member and slot (``neighbour``)."""
    return len(cards) + _SWAPS + _SHIFTS + _EXTRA + _WITH


def neighbour(plan: Rows, k: int, *, cards: Sequence[int], first: int, turns: int,
              doubles: bool) -> Rows | None:
    """Returns neighbour ``k`` of a plan, or None when ``k`` makes no other plan.

    ``k // block_size`` is a crew member and a slot from ``first`` (0-based) to ``turns``,
    ``k % block_size`` one change there, in this order: each card of ``cards``; a swap with
    each later slot; a shift to each other slot (the cards between close up); a delay (the
    cards from the slot on one turn later); a pull (one turn earlier); a join or split of a
    double action; then per other crew member an exchange of the slot's cards, an exchange of
    everything from the slot on, and the other member following this one up to the slot.
    """
    block = block_size(cards)
    span = turns - first
    within, cell = k % block, k // block
    member, slot = cell // span, first + cell % span
    out = [row[:] for row in plan]
    row = out[member]
    if within < len(cards):
        if cards[within] == row[slot]:
            return None
        row[slot] = cards[within]
        fix_heroics(row, slot)
        return out
    within -= len(cards)
    if within < _SWAPS:
        j = within
        if j <= slot or j >= turns or row[j] == row[slot]:
            return None
        row[j], row[slot] = row[slot], row[j]
        return out
    within -= _SWAPS
    if within < _SHIFTS:
        j = within
        if j == slot or j < first or j >= turns:
            return None
        row.insert(j, row.pop(slot))
        return out if row != plan[member] else None
    within -= _SHIFTS
    if within == 2:
        return out if doubles and join_or_split(row, slot, turns) else None
    if within == 0:  # a delay
        row.insert(slot, EMPTY)
        row.pop()
        row[turns:] = [EMPTY] * (SLOTS - turns)
        return out if row != plan[member] else None
    if within == 1:  # a pull
        row.pop(slot)
        row.append(EMPTY)
        return out if row != plan[member] else None
    within -= _EXTRA
    other, how = divmod(within, 3)
    if other >= len(plan) or other == member:
        return None
    row2 = out[other]
    if how == 2:  # the other follows this one up to the slot
        row2[:slot + 1] = row[:slot + 1]
        if row2 == plan[other]:
            return None
    elif how == 0:  # exchange the slot's cards
        if row[slot] == row2[slot]:
            return None
        row[slot], row2[slot] = row2[slot], row[slot]
    else:  # exchange everything from the slot on (once per pair of members)
        if other < member:
            return None
        row[slot:], row2[slot:] = row2[slot:], row[slot:]
        if row == plan[member]:
            return None
    fix_heroics(row, slot)
    fix_heroics(row2, slot)
    return out


class PlanSearch:
    """Searches plans of one board for one crew picture of the damage tokens."""

    def __init__(self, setup: Setup, figures: int, seeds: Sequence[int], *,
                 fixed: Sequence[Sequence[str]] = (), first_turn: int = 1,
                 playable: Playable | None = None, hands: Hands | None = None) -> None:
        self.setup = setup
        self.hands = hands  # the heuristic starts lay their cards from them
        self.figures = figures
        self.seeds = list(seeds)
        self.fixed = [list(row) for row in fixed]
        self.first_turn = first_turn
        self.playable = playable
        rules = get_level(setup.level)
        self.turns = min(SLOTS, rules.turns)
        self.heroics = rules.heroics
        self.doubles = setup.double_actions
        self.evaluations = 0
        self.value = 0  # the value of the plan ``run`` returned
        self._projected: dict[tuple[tuple[int, ...], ...], Rows] = {}

    def evaluate(self, candidates: Sequence[Rows]) -> list[int]:
        """Returns each candidate's objective summed over the seeds (one batch call): an
        integer, so that both implementations compare values exactly."""
        if not candidates:
            return []
        plans = [to_plan(self._playable(rows)) for rows in candidates]
        games = [(self.setup, plan) for plan in plans for _ in self.seeds]
        results = resolve_batch(games, self.seeds * len(plans))
        self.evaluations += len(plans)
        n = len(self.seeds)
        return [sum(objective(r) for r in results[i * n:(i + 1) * n])
                for i in range(len(plans))]

    def run(self, styles: int, seed: int, *, cap: int = DEFAULT_CAP,
            native: bool = True) -> Rows:
        """The whole search of this board (see the module docstring): ``styles`` heuristic
        starts and the sketch, each descended to a local optimum (at most ``cap`` plans rated
        per descent), the best one returned and its value kept in ``value``. Runs in C when it
        can (``native``), else here; the same plan either way."""
        candidates = self.candidates(styles, seed)
        if native:
            found = self._native(candidates, cap)
            if found is not None:
                return found
        best: Rows = []
        best_value = 0
        for i, start in enumerate(candidates):
            start = self._playable(start)
            rows, value = self.descend(start, self.evaluate([start])[0], cap)
            if i == 0 or value > best_value:
                best, best_value = rows, value
        self.value = best_value
        return best

    def descend(self, start: Rows, value: int, cap: int) -> tuple[Rows, int]:
        """First-improvement descent from ``start`` (see the module docstring): returns a
        plan no neighbour improves, or the best after ``cap`` plans rated, with its value."""
        current = [row[:] for row in start]
        first, turns = self.first_turn - 1, self.turns
        if first >= turns:
            return current, value
        cards = alphabet(self.heroics, self.doubles)
        size = len(current) * (turns - first) * block_size(cards)
        k = since = rated = 0
        while since < size and rated < cap:
            candidate = neighbour(current, k, cards=cards, first=first, turns=turns,
                                  doubles=self.doubles)
            if candidate is not None:
                self._keep_fixed(candidate, current)
                if candidate != current:
                    # the plan as the crew can play it: the descent goes on from there
                    candidate = self._playable(candidate)
                    v = self.evaluate([candidate])[0]
                    rated += 1
                    if v > value:
                        current, value, since = candidate, v, 0
            since += 1
            k = (k + 1) % size
        return current, value

    def _native(self, candidates: Sequence[Rows], cap: int) -> Rows | None:
        deal = None
        if self.playable is not None:
            # the C search projects onto the hands themselves: the crews' ``playable`` is
            # ``dealing.playable_for(hands)``, the projection the reference applies here
            if self.hands is None:
                return None
            deal = chands.deal_of(self.hands)
            if deal is None:
                return None
        cards = alphabet(self.heroics, self.doubles)
        params = [self.figures, self.first_turn, self.turns, cap, len(self.seeds),
                  len(candidates), int(self.doubles), len(DOUBLES), len(cards),
                  *DOUBLES, *cards]
        found = ccore.plan_search(self.setup, params, self.seeds, candidates, deal)
        if found is None:
            return None
        rows, self.value, evaluations = found
        self.evaluations += evaluations
        return rows

    def _playable(self, rows: Rows) -> Rows:
        if self.playable is None:
            return rows
        key = _key(rows)
        known = self._projected.get(key)
        if known is not None:  # a neighbour proposed again, or the start rated once more
            return known
        tokens = [[_token(c) for c in row] for row in rows]
        # the turns still to plan in one projection: it lays the cards in turn order, so the
        # result is the same as projecting phase after phase, for a third of the cost
        tokens = self.playable(tokens, self.first_turn, self.turns)
        projected = [[_code(t) for t in row] for row in tokens]
        if len(self._projected) < 4096:
            self._projected[key] = projected
        return projected

    def starts(self, count: int, seed: int) -> list[Rows]:
        """Returns the plans of ``count`` heuristic styles on this board (the default first)."""
        out = []
        for style in styles(random.Random(f"styles:{seed}"), max(1, count)):
            plan = HeuristicCrew(style=style).plan(
                self.setup, self.figures, fixed=self.fixed, first_turn=self.first_turn,
                seed=seed, hands=self.hands)
            out.append([list(member.codes) for member in plan.crew])
        return out

    def candidates(self, count: int, seed: int) -> list[Rows]:
        """Returns the plans the search starts from: ``count`` heuristic styles, and the
        previous phase's sketch (the later slots of ``fixed``; with ``first_turn`` 1, a whole
        plan to start from) when there is one, so the result rates at least as well as it."""
        candidates = self.starts(count, seed)
        if self.fixed and any(
                token != "-" for row in self.fixed for token in row[self.first_turn - 1:]):
            candidates.append([[_code(t) for t in row] for row in self.fixed])
        return candidates

    def _keep_fixed(self, candidate: Rows, current: Rows) -> Rows:
        """Restores the played slots a move touched (their heroic card stays the one kept)."""
        keep = self.first_turn - 1
        if keep <= 0:
            return candidate
        for row, old in zip(candidate, current, strict=True):
            row[:keep] = old[:keep]
            heroic = [j for j, code in enumerate(row) if is_heroic(code)]
            if len(heroic) > 1:
                fix_heroics(row, heroic[0])
        return candidate


def _key(rows: Rows) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(row) for row in rows)


@functools.cache
def _token(code: int) -> str:
    return decode(code).token()


@functools.cache
def _code(token: str) -> int:
    return encode(parse_action(token))
