"""The search the planning and informed crews share: the solver's moves, batched evaluations.

A plan is a list of rows of encoded actions (``engine.plan.encode``), one row of 12 per
figure, as in the solver (authoring/simulation/moves.py). The search:

1. starts from the best of a few heuristic crews (``heuristic.Style`` variations) planning the
   same board;
2. climbs: each round proposes ``batch`` neighbours with the solver's ``Mover`` (change, swap,
   shift or delay cards, trade sub-plans between figures) and keeps the best one when it
   rates at least as well as the current plan (a plateau move keeps the search walking).

Every round is one ``resolve_batch`` call over all neighbours and all damage-token seeds, so
the search runs on the fastest engine core with one foreign call per round. The seeds are
the crew's picture of the damage tokens (the planning crew: a few seeds of its own, never the
real draw; the informed crew: the real draw's seed). Slots before ``first_turn`` are
fixed (played phases) and never change.

**Two implementations, one truth.** ``PlanSearch.run`` is the whole search of one board:
the best start, the sweeps, the climb. It runs in C (``authoring/engine/c/search.c``, through
``ccore.plan_search``) when the C core is built and can play the board, and here otherwise;
the moves draw from SplitMix64 (``prng.py``) and values are integer sums over the seeds, so
both choose the same plan (tests/simulation/test_native_search.py compares them on many
random boards). The Python methods are the reference.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from authoring.engine import ccore
from authoring.engine.cores import resolve_batch
from authoring.engine.hands import Hands
from authoring.engine.levels import get_level
from authoring.engine.log import Result
from authoring.engine.plan import (
    SLOTS,
    Action,
    CrewPlan,
    Plan,
    encode,
    parse_action,
)
from authoring.engine.plan import decode as plan_decode
from authoring.engine.setup import Setup
from authoring.simulation.heuristic import HeuristicCrew, styles
from authoring.simulation.horizon import Playable
from authoring.simulation.moves import (
    DOUBLES,
    HEROIC,
    WEIGHTED,
    Mover,
    alphabet,
    fix_heroics,
    is_heroic,
)
from authoring.simulation.prng import SplitMix

Rows = list[list[int]]

#: The value of a lost game at its best (survival always rates above any loss).
SURVIVED = 1000


def objective(result: Result) -> int:
    """Rates a resolution: survival first, then the score; a loss is better the later it is."""
    if result.survived and result.score is not None:
        return SURVIVED + result.score.total
    destroyed = sum(t.points for t in result.threats if t.fate == "destroyed")
    damage = sum(len(tokens) for tokens in result.damage.values())
    return 40 * result.turn + destroyed - damage


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

    def run(self, styles: int, seed: int, *, rounds: int, batch: int, rng_seed: int,
            sweeps: int = 0, last_turn: int = SLOTS, native: bool = True) -> Rows:
        """The whole search of this board: the best of ``styles`` heuristic starts (and the
        previous phase's sketch), ``sweeps`` sweeps up to ``last_turn``, then ``rounds``
        rounds of ``batch`` neighbours drawn with SplitMix64 seeded ``rng_seed``. Runs in C
        when it can (``native``), else with the methods below; the same plan either way."""
        candidates = self.candidates(styles, seed)
        if native:
            found = self._native(candidates, sweeps, rounds, batch, rng_seed, last_turn)
            if found is not None:
                return found
        values = self.evaluate(candidates)
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        current, value = candidates[best], values[best]
        for _ in range(sweeps):
            current, value = self.sweep(current, value, last_turn=last_turn)
        current, value = self.climb(current, value, rounds=rounds, batch=batch,
                                    rng=SplitMix(rng_seed))
        self.value = value
        return current

    def _native(self, candidates: Sequence[Rows], sweeps: int, rounds: int, batch: int,
                rng_seed: int, last_turn: int) -> Rows | None:
        if self.playable is not None:  # the projection onto dealt hands is not in C yet
            return None
        cards = alphabet(self.heroics, self.doubles)
        params = [self.figures, self.first_turn, self.turns, last_turn, sweeps, rounds, batch,
                  len(self.seeds), len(candidates), int(self.heroics), int(self.doubles),
                  len(HEROIC), len(DOUBLES), len(WEIGHTED), len(cards),
                  *HEROIC, *DOUBLES, *WEIGHTED, *cards]
        found = ccore.plan_search(self.setup, params, self.seeds, candidates, rng_seed)
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

    def best_start(self, count: int, seed: int) -> tuple[Rows, int]:
        """Returns the best of ``candidates`` and its value (ties: the first)."""
        candidates = self.candidates(count, seed)
        values = self.evaluate(candidates)
        best = max(range(len(candidates)), key=lambda i: (values[i], -i))
        return candidates[best], values[best]

    def sweep(self, start: Rows, value: int, *, last_turn: int = SLOTS) -> tuple[Rows, int]:
        """One pass of coordinate descent: for each turn from ``first_turn`` to ``last_turn``
        and each figure, every other card of the alphabet in one batch; the best one is kept
        when it rates higher (the solver's greedy start, from a plan instead of blanks)."""
        cards = alphabet(self.heroics, self.doubles)
        current, current_value = [row[:] for row in start], value
        for slot in range(self.first_turn - 1, min(last_turn, self.turns)):
            for member in range(self.figures):
                keep = current[member][slot]
                neighbours = []
                for card in cards:
                    if card == keep:
                        continue
                    candidate = [row[:] for row in current]
                    candidate[member][slot] = card
                    fix_heroics(candidate[member], slot)
                    self._keep_fixed(candidate, current)
                    neighbours.append(candidate)
                values = self.evaluate(neighbours)
                best = max(range(len(values)), key=lambda i: (values[i], -i))
                if values[best] > current_value:
                    current, current_value = neighbours[best], values[best]
        return current, current_value

    def climb(self, start: Rows, value: int, *, rounds: int, batch: int,
              rng: SplitMix) -> tuple[Rows, int]:
        """Improves ``start`` by ``rounds`` rounds of ``batch`` neighbours; returns the best."""
        if self.first_turn > self.turns or rounds <= 0:
            return start, value
        mover = Mover(range(self.figures), self.heroics, rng, self.turns, doubles=self.doubles)
        current, current_value = start, value
        for _ in range(rounds):
            seen = {_key(current)}
            neighbours = []
            for _ in range(batch):
                candidate = self._keep_fixed(mover.propose(current), current)
                key = _key(candidate)
                if key not in seen:
                    seen.add(key)
                    neighbours.append(candidate)
            values = self.evaluate(neighbours)
            if not values:
                continue
            best = max(range(len(values)), key=lambda i: (values[i], -i))
            if values[best] >= current_value:
                current, current_value = neighbours[best], values[best]
        return current, current_value

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
