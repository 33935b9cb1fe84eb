"""The one plan evaluator: a plan's outcomes over every damage-token draw, or a sample of them.

The damage tokens are the only chance of the Resolution Round (docs/rules.md §12.3), so a plan's
value is a finite weighted sum over the draws. The evaluator plays the round through the
engine's ``Game`` with its own ``TokenSource`` (authoring/engine/rules/draws.py):

- a state is played on in place, turn after turn, until a turn draws tokens whose identity can
  matter; that turn is then replayed from its start once per *set* of tokens each attack can
  draw (C(n, k) sets of k tokens among n, each of weight 1/C(n, k): the order of one attack's
  tokens never matters again);
- the states that come out are merged across the whole tree, turn by turn, when their futures
  are equal (tokens as a set, tokens whose part the rest of the plan never uses counted as
  structural), so the work grows with the distinct situations, not with the draw orders;
- ``budget`` bounds the extra leaves, ``max_runs`` the turn replays. Past either, an attack
  draws one set with a generator seeded by ``sample_seed`` and keeps its whole weight: an
  unbiased stratified sample of the same tree. ``Tree.exact`` says whether any draw was
  sampled.

Weights are exact ``Fraction`` values or fast floats (``FRACTIONS`` / ``FLOATS``). The solver's
evaluator (authoring/solve/evaluate.py) and ``exact_outcome`` (``resolve --exact``) both run
on this one.

The plan search's soft rules (``SoftGame``, ``SoftState``) and its batch interface
(``PlanEvaluator``: many encoded plans per call, folded into objective, expected score and
survival) live here too, so that the native core (authoring/_native.py compiles this module)
runs a search's whole evaluation, not only its games.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any, Generic, TypeVar

from authoring.engine.odds.value import SURVIVED, of_lost_state
from authoring.engine.rules.game import Game, ShipDestroyed
from authoring.engine.rules.levels import RuleLevel
from authoring.engine.rules.plan import KIND_MASK, LIFT, A, B, second_kind
from authoring.engine.rules.scoring import score_state
from authoring.engine.rules.ship import (
    GRAVOLIFT,
    LOWER_CANNON,
    REACTOR,
    SHIELD,
    STRUCTURAL,
    UPPER_CANNON,
    VC_POINTS,
)
from authoring.engine.rules.state import (
    ACTIVE_THREAT,
    DESTROYED,
    PENDING,
    CrewMember,
    State,
    ThreatState,
)

W = TypeVar("W", float, Fraction)

#: Threat operations that put energy into a shield (so shield capacity keeps mattering).
_FILLS_SHIELDS = frozenset({"push_central_to_shield"})

Choice = tuple[int, bool]  # (index drawn among the tokens left, enumerated or sampled)
#: The part of what a game subclass keeps on a state (a ``State`` subclass whose ``copy``
#: carries it) beyond its fields which two mergeable states must share.
#: A node of the tree at rest between turns: state, weight, sampled on the way, the turn it
#: branches in (0: not probed yet).
Node = tuple[State, W, bool, int]
ExtraKey = Callable[[State], Hashable]

_NO_RNG = random.Random(0)  # the games here draw from a source, never from a generator


# Plain classes, not generic dataclasses: the native build (mypyc) cannot compile those.
class Leaf(Generic[W]):
    """One end of the draw tree: a finished (won or lost) state and its probability."""

    __slots__ = ("sampled", "state", "weight")

    def __init__(self, weight: W, state: State, sampled: bool) -> None:
        self.weight: W = weight
        self.state = state
        self.sampled = sampled  # some draw on the way was sampled, not enumerated


class Tree(Generic[W]):
    """The leaves of one evaluation; ``exact`` when no draw was sampled."""

    __slots__ = ("exact", "leaves", "runs")

    def __init__(self, leaves: list[Leaf[W]], exact: bool, runs: int) -> None:
        self.leaves: list[Leaf[W]] = leaves
        self.exact = exact
        self.runs = runs  # turn replays spent


#: One enumerated draw: (index chosen, enumerated?, the other indexes with the numerator and
#: denominator of their weight factor, this choice's numerator and denominator).
Drawn = tuple[int, bool, list[tuple[int, int, int]], int, int]
_NO_OTHERS: list[tuple[int, int, int]] = []  # shared, never changed


class _TreeTokens:
    """The evaluator's ``TokenSource``: replays a prefix of choices, then enumerates or samples.

    The tokens of one attack on one zone form a batch (``attack`` counts its draws down to 1).
    An enumerated batch visits each *set* of k tokens among the n left once, as a
    non-decreasing sequence of indexes into the shrinking list of tokens left, with weight
    k!/(n(n-1)…) spread as (j+1)/n over its j-th draw. Tokens whose identity can no longer
    matter (``relevant``) are alike: they are listed after the others and only the first of
    them is ever chosen, its i-th choice in the batch weighted (alike left)/i, so that a set
    with t alike tokens among a weighs C(a, t) sets. A batch that the budget cannot pay for is
    sampled uniformly and keeps its whole weight.

    In probe mode the first batch that would be enumerated sets ``branched``; the rest of that
    turn draws the lowest tokens without touching the generator or the budget (the caller
    throws the turn away and replays it once per set).
    """

    __slots__ = ("alike_drawn", "batch_j", "batch_k", "batch_mode", "batch_prev", "branched",
                 "budget", "extra", "game", "made", "pos", "prefix", "probe", "relevant",
                 "sampler")

    def __init__(self, prefix: list[Choice], sampler: random.Random, budget: list[int], *,
                 probe: bool = False) -> None:
        self.prefix = prefix
        self.pos = 0
        self.extra: list[Drawn] = []
        self.made: list[Choice] = []
        self.sampler = sampler
        self.budget = budget  # shared: [sibling runs still allowed, turn replays left]
        self.probe = probe
        self.branched = False
        self.batch_k = self.batch_j = self.batch_prev = self.alike_drawn = 0
        self.batch_mode = False
        self.relevant: set[int] | None = None  # None: every token counts apart
        self.game: Game | None = None  # set by the tree once the game exists

    def _relevant(self, zone: int) -> set[int]:
        """Returns the kinds whose identity matters from this draw on (see
        ``relevant_kinds``), plus shield or reactor while that energy is at its capacity (the
        token would send energy back to the bank)."""
        game = self.game
        assert game is not None, "the tree sets the game before it plays"
        st = game.state
        kinds = relevant_kinds(st)
        if st.shields[zone] >= game.shield_cap(zone):
            kinds.add(SHIELD)
        if st.reactors[zone] >= game.reactor_cap(zone):
            kinds.add(REACTOR)
        return kinds

    def _start_batch(self, zone: int, left: list[int], attack: int, replay: bool,
                     pos: int) -> bool:
        """Decides how an attack's batch is drawn; False when a probe must branch here."""
        self.batch_k = attack
        self.batch_j = self.batch_prev = self.alike_drawn = 0
        self.relevant = None
        n = len(left)
        plain = math.comb(n, attack)
        if replay:
            self.batch_mode = self.prefix[pos][1]
            if self.batch_mode and plain > 1:
                self.relevant = self._relevant(zone)
            return True
        if plain == 1:
            self.batch_mode = True
            return True
        if self.budget[0] == 0:  # the search's one sampled sequence: no relevance needed
            self.batch_mode = False
            return True
        relevant = self._relevant(zone)
        r = sum(1 for k in left if k in relevant)
        alike = n - r
        count = sum(math.comb(r, m) for m in range(max(0, attack - alike), min(attack, r) + 1))
        if count == 1:
            self.batch_mode = True
        elif self.budget[0] >= count - 1:
            if self.probe:
                self.branched = True
                return False
            self.budget[0] -= count - 1
            self.batch_mode = True
        else:
            self.batch_mode = False
            return True
        self.relevant = relevant
        return True

    def draw(self, zone: int, left: list[int], attack: int) -> int:
        """Returns the prefix's choice, the lowest token left to enumerate, or a sample."""
        if self.branched:
            return left[0]  # a probe past its branching draw: the turn is replayed anyway
        pos = self.pos
        self.pos += 1
        replay = pos < len(self.prefix)
        if self.batch_j >= self.batch_k and not self._start_batch(zone, left, attack, replay,
                                                                  pos):
            return left[0]
        n = len(left)
        j = self.batch_j
        self.batch_j += 1
        if not self.batch_mode:  # the search's common case: kept short
            if replay:
                chosen = self.prefix[pos][0]
            else:
                chosen = self.sampler.randrange(n)
                if not self.probe:  # a probe's draws are only replayed, never branched on
                    self.extra.append((chosen, False, _NO_OTHERS, 1, 1))
            self.made.append((chosen, False))
            return left[chosen]
        relevant = self.relevant
        order = left
        r = n
        if relevant is not None:
            order = [k for k in left if k in relevant] + [k for k in left if k not in relevant]
            r = sum(1 for k in left if k in relevant)
        chosen = self.prefix[pos][0] if replay else self.batch_prev
        alike_now = chosen >= r
        if alike_now:
            self.alike_drawn += 1
        if not replay:
            hi = n - self.batch_k + j  # room for the batch's later draws after this one
            others = [(q, j + 1, n) for q in range(chosen + 1, min(hi, r - 1) + 1)]
            if chosen < r <= hi:  # the alike tokens, as one choice worth all of them
                others.append((r, (j + 1) * (n - r), n))
            if alike_now:  # the i-th alike token of the batch: (alike left)/i of the sets
                self.extra.append((chosen, True, [], (j + 1) * (n - r),
                                   n * self.alike_drawn))
            else:
                self.extra.append((chosen, True, others, j + 1, n))
        self.batch_prev = chosen
        self.made.append((chosen, True))
        return order[chosen]


class DrawTree(Generic[W]):
    """Follows a plan's draws from a state (see the module's docstring).

    ``one`` and ``ratio`` make the weights: ``FRACTIONS`` for exact odds, ``FLOATS`` for speed.
    ``game`` is the ``Game`` class that plays (the search's soft rules subclass it) and
    ``extra_key`` what such a class keeps on a state beyond its fields.
    """

    def __init__(self, rules: RuleLevel, one: W, ratio: Callable[[int, int], W], *,
                 budget: int, max_runs: int | None = None, game: type[Game] = Game,
                 extra_key: ExtraKey | None = None) -> None:
        self.rules = rules
        self.last = rules.turns  # the closing step follows this turn
        self.one: W = one
        self.ratio: Callable[[int, int], W] = ratio
        self.budget = budget
        self.max_runs = 10 * budget + 100 if max_runs is None else max_runs
        self.game = game
        self.extra_key = extra_key

    def follow(self, state: State, *, forced: dict[int, list[int]] | None = None,
               sample_seed: int = 0, exact_only: bool = False) -> Tree[W]:
        """Plays ``state`` (owned: played on in place) to every end; returns the leaves.

        ``forced`` gives per zone the token kinds drawn first (a plan's ``tokens``), from the
        start of the round. ``exact_only`` stops at the first sampled draw (the tree is then
        not exact and its leaves are incomplete): for a caller that samples otherwise.
        """
        self.forced = forced or {}
        sampler = random.Random(sample_seed)
        budget = [self.budget, self.max_runs]  # sibling runs left, turn replays left
        leaves: list[Leaf[W]] = []
        # Nodes at rest after a turn, by that turn: (state, weight, sampled, the turn it
        # branches in or 0 while unknown). Equal futures merge into one entry.
        layers: dict[int, dict[Hashable, Node[W]]] = {state.turn: {"": (state, self.one,
                                                                       False, 0)}}
        runs = 0
        while layers:
            turn = min(layers)
            ready: list[Node[W]] = []
            for node, weight, sampled, branch_at in layers.pop(turn).values():
                if not branch_at:
                    branch_at, node, sampled_now = self._play_until_branch(node, sampler, budget)
                    sampled = sampled or sampled_now
                    if sampled and exact_only:
                        return Tree(leaves, False, runs)
                    if not branch_at:
                        leaves.append(Leaf(weight, node, sampled))
                        continue
                    if branch_at - 1 > turn:  # rests there first: other nodes may join it
                        self._insert(layers, (node, weight, sampled, branch_at), budget)
                        continue
                ready.append((node, weight, sampled, branch_at))
            for node, weight, sampled, branch_at in ready:
                children = self._branch_turn(node, branch_at, weight, sampler, budget)
                runs += len(children)
                for child, share, child_sampled in children:
                    if child_sampled and exact_only:
                        return Tree(leaves, False, runs)
                    self._insert(layers, (child, share, sampled or child_sampled, 0), budget)
        return Tree(leaves, not any(leaf.sampled for leaf in leaves), runs)

    def _insert(self, layers: dict[int, dict[Hashable, Node[W]]], node: Node[W],
                budget: list[int]) -> None:
        """Adds a node to the layer of its turn, merged into an equal one if there is one."""
        state = node[0]
        layer = layers.setdefault(state.turn, {})
        key = self._merge_key(state)
        old = layer.get(key)
        if old is None:
            layer[key] = node
        else:  # the same future: one node, and its leaf budget back
            layer[key] = (old[0], _plus(old[1], node[1]), old[2] or node[2], max(old[3], node[3]))
            budget[0] += 1

    def _new_game(self, state: State, source: _TreeTokens) -> Game:
        forced = {zone: kinds[len(state.tokens[zone]):] for zone, kinds in self.forced.items()}
        game = self.game(state, _NO_RNG, forced, record=False, rules=self.rules, tokens=source)
        source.game = game
        return game

    def _copy(self, state: State) -> State:
        return state.copy()

    def _play_until_branch(self, node: State, sampler: random.Random,
                           budget: list[int]) -> tuple[int, State, bool]:
        """Plays to the end, or stops at the turn whose draw branches.

        Returns (branching turn or 0, the state at the start of that turn or at the end,
        whether a draw was sampled on the way).
        """
        if node.lost or node.turn > self.last:
            return 0, node, False
        origin = self._copy(node)
        draws = _TreeTokens([], sampler, budget, probe=True)
        game = self._new_game(node, draws)
        made_before = 0
        turn = node.turn + 1
        while turn <= self.last + 1:
            made_before = len(draws.made)
            _play(game, node, turn, self.last)
            if draws.branched:
                # Replay the turns before the branching one, repeating their sampled draws.
                replay = _TreeTokens(draws.made[:made_before], sampler, budget)
                game = self._new_game(origin, replay)
                for earlier in range(origin.turn + 1, turn):
                    _play(game, origin, earlier, self.last)
                return turn, origin, any(not e for _, e in draws.made[:made_before])
            if node.lost:
                break
            turn += 1
        return 0, node, any(not e for _, e in draws.made)

    def _branch_turn(self, node: State, turn: int, weight: W, sampler: random.Random,
                     budget: list[int]) -> list[tuple[State, W, bool]]:
        """Plays one turn once per enumerated draw outcome; returns (state, weight, sampled)."""
        children: list[tuple[State, W, bool]] = []
        pending: list[tuple[list[Choice], W]] = [([], weight)]
        while pending:
            prefix, w = pending.pop()
            child = self._copy(node)
            budget[1] -= 1
            if budget[1] <= 0:
                budget[0] = 0  # out of replays: sample from now on
            draws = _TreeTokens(prefix, sampler, budget)
            _play(self._new_game(child, draws), child, turn, self.last)
            chosen: list[Choice] = list(prefix)
            sampled = False
            for pick, enumerated, others, num, den in draws.extra:
                if enumerated:
                    pending.extend(([*chosen, (other, True)], _times(w, self.ratio(o_num, o_den)))
                                   for other, o_num, o_den in others)
                    w = _times(w, self.ratio(num, den))
                else:
                    sampled = True
                chosen.append((pick, enumerated))
            children.append((child, w, sampled))
        return children

    def _merge_key(self, state: State) -> Hashable:
        """Returns a key equal for states whose futures are equal (see ``relevant_kinds``).

        Every field of the state as a tuple (quicker than its notation, and the nodes of one
        tree share their setup: each threat keeps its card, token and zone), with each zone's
        tokens sorted and the irrelevant ones counted as structural.
        """
        relevant = relevant_kinds(state)
        tokens = tuple(tuple(sorted(k if k in relevant else STRUCTURAL for k in zone))
                       for zone in state.tokens)
        key = (state.turn, state.lost, tokens, tuple(state.shields), tuple(state.reactors),
               state.fuel, state.rockets, state.rocket_flying, tuple(state.stored),
               tuple(state.maintained), tuple(state.vc), frozenset(state.broken),
               state.scout_bonus, frozenset(state.contaminated), tuple(state.hull),
               tuple((c.station, c.squad, c.out, tuple(c.slots)) for c in state.crew),
               tuple((t.status, t.square, t.damage, t.health, t.speed, t.shield, t.active,
                      t.cryo, t.passes, t.level, tuple(t.stations), tuple(t.spots), t.ended)
                     for t in state.threats))
        return key if self.extra_key is None else (key, self.extra_key(state))


def relevant_kinds(state: State) -> set[int]:
    """Returns the token kinds whose identity can still change the game.

    Cannon tokens matter only while an A card is left, gravolift tokens while a lift card is
    left, shield and reactor tokens while a B card is left or a threat can still push energy
    into a shield (Crossed Wires): capacities only limit what flows in, and energy above a
    lowered capacity has already gone back to the bank. Structural never matters.
    """
    future = [code & KIND_MASK for member in state.crew for code in member.slots[state.turn:]]
    future += [second_kind(code) for member in state.crew for code in member.slots[state.turn:]]
    kinds = set()
    for th in state.threats:
        if th.status in (PENDING, ACTIVE_THREAT) and any(
                op[0] in _FILLS_SHIELDS for op in (*th.card.x, *th.card.y, *th.card.z)):
            kinds |= {SHIELD, REACTOR}
    if A in future:
        kinds |= {UPPER_CANNON, LOWER_CANNON}
    if LIFT in future:
        kinds.add(GRAVOLIFT)
    if B in future:
        kinds |= {SHIELD, REACTOR}
    return kinds


def _play(game: Game, state: State, turn: int, last: int) -> None:
    """Plays a turn or, after the ``last``, the closing step; marks a lost ship on the state."""
    try:
        if turn <= last:
            game.play_turn(turn)
        else:
            game.closing_step()
    except ShipDestroyed:
        state.lost = turn


# The weight arithmetic in functions of their own: the native build (mypyc) checks a generic
# class's body once, not per constraint of ``W``, and would not see ``W * W`` as a ``W``.
def _plus(a: W, b: W) -> W:
    left: Any = a
    total: W = left + b
    return total


def _times(a: W, b: W) -> W:
    left: Any = a
    product: W = left * b
    return product


def _float_ratio(a: int, b: int) -> float:
    return a / b


#: The weights of exact odds and of fast evaluations: (one, ratio) for ``DrawTree``.
FRACTIONS: tuple[Fraction, Callable[[int, int], Fraction]] = (Fraction(1), Fraction)
FLOATS: tuple[float, Callable[[int, int], float]] = (1.0, _float_ratio)


# --- the plan search's soft rules and batch interface -----------------------------------------

#: In the soft rules of a search, damage past the 6th token of a zone does not end the
#: mission: each such point costs this much (plus ``OVERFLOW_BASE`` once), so the search can
#: tell a plan that misses survival by one damage from one that misses it by ten.
OVERFLOW_BASE = 30.0
OVERFLOW_PER = 10.0
#: A lost ship is worth what the one value function gives it (``value.of_lost_state``: 40 a
#: turn held, the points of the threats destroyed, less the damage), and in the search a
#: little more for what it nearly did (a slope for the search, far less than a turn):
LOST_PROGRESS = 4.0  # for a threat still in play, in proportion to the damage it took
#: For a surviving ship, each threat left alive may be credited this much in proportion to
#: the damage it took (``PlanEvaluator``'s ``progress``): a slope toward killing it (an
#: internal threat that fights back needs a squad fetched, several hits at moving stations and
#: costs a disabled squad on the way), never worth as much as a kill.
SURVIVOR_PROGRESS = 4.0


class SoftState(State):
    """A state under the soft rules: also the overflowing damage and, per threat index, the
    most repair hits it took in one turn (a threat that needs three at once rewards two)."""

    def __init__(self, crew: list[CrewMember], threats: list[ThreatState],
                 tracks: tuple[str, str, str, str]) -> None:
        super().__init__(crew, threats, tracks)
        self.overflow = 0
        self.hits: dict[int, int] = {}  # replaced, never changed in place: copies share it

    @staticmethod
    def of(state: State) -> SoftState:
        """Returns a soft copy of a state (no overflow, no hits yet)."""
        return state.copy_into(SoftState([c.copy() for c in state.crew],
                                         [t.copy() for t in state.threats], state.tracks))

    def copy(self) -> SoftState:
        """Returns an independent copy, with the overflow and hits."""
        other = self.copy_into(SoftState([c.copy() for c in self.crew],
                                         [t.copy() for t in self.threats], self.tracks))
        other.overflow = self.overflow
        other.hits = self.hits
        return other


class SoftGame(Game):
    """The round under the soft rules: damage past a zone's 6th token (through the game's
    ``damage_ship``) is counted on the ``SoftState``; same-turn repair hits are kept."""

    def play_turn(self, turn: int) -> None:
        """Plays the turn, then notes the same-turn hits of each threat."""
        try:
            super().play_turn(turn)
        finally:
            state = self.state
            if self.turn_hits and isinstance(state, SoftState):
                index = {id(th): n for n, th in enumerate(state.threats)}
                hits = dict(state.hits)  # copies share the old dict
                for key, count in self.turn_hits.items():
                    if key in index:
                        hits[index[key]] = max(hits.get(index[key], 0), count)
                state.hits = hits

    def damage_ship(self, zone: int, points: int, source: str) -> None:
        """Draws tokens while the zone has some left; counts the rest on the state."""
        state = self.state
        room = 6 - len(state.tokens[zone])
        if points > room and isinstance(state, SoftState):
            state.overflow += points - room
            points = room
        super().damage_ship(zone, points, source)


def soft_key(state: State) -> Hashable:
    """Returns what two mergeable soft states must share besides their fields."""
    if isinstance(state, SoftState):
        return state.overflow, tuple(sorted(state.hits.items()))
    return None


def lost_value(state: State) -> float:
    """Returns the search's value of a lost ship: the one value function's
    (``value.of_lost_state``) and the search's guidance.

    Visual confirmation counts (it rewards figures acting together at one station), and
    partial damage on threats still in play counts too: a threat whose Z destroys the ship
    (Fissure, Nemesis, Nuclear Device …) otherwise leaves a flat plateau until it dies.
    """
    worth = float(of_lost_state(state) + sum(VC_POINTS[n] for n in state.vc))
    hits: dict[int, int] = state.hits if isinstance(state, SoftState) else {}
    for n, th in enumerate(state.threats):
        if th.status == ACTIVE_THREAT and th.health > 0:
            worth += LOST_PROGRESS * min(th.damage, th.health) / th.health
            worth += LOST_PROGRESS * min(hits.get(n, 0), 3) / 3
    return worth


#: A plan's value: (objective, expected score, survival, exact, leaves played).
Valued = tuple[float, float, float, bool, int]


class PlanEvaluator:
    """Values encoded crew plans (per crew member, 12 encoded actions) from one start state.

    The batch interface of the search: ``evaluate_many`` takes many plans per call. ``soft``
    plays the soft rules: the objective then ranks lost ships by how far they are from
    surviving, and ``expected``/``survival`` count an overflowing ship as lost.
    """

    def __init__(self, rules: RuleLevel, start: State, *, budget: int, sample_seed: int,
                 soft: bool, max_runs: int | None = None, progress: float = 0.0) -> None:
        self.soft = soft
        self.progress = progress  # the soft rules' credit per threat left alive (0: none)
        self.start: State = SoftState.of(start) if soft else start
        self.sample_seed = sample_seed
        self.tree: DrawTree[float] = DrawTree(rules, 1.0, _float_ratio, budget=budget,
                                              max_runs=max_runs,
                                              game=SoftGame if soft else Game,
                                              extra_key=soft_key if soft else None)

    def follow(self, slots: list[list[int]]) -> Tree[float]:
        """Returns the draw tree of one plan."""
        state = self.start.copy()
        for member, row in zip(state.crew, slots, strict=True):
            member.slots = row[:]
        return self.tree.follow(state, sample_seed=self.sample_seed)

    def evaluate(self, slots: list[list[int]]) -> Valued:
        """Returns the value of one plan."""
        return fold(self.follow(slots), self.progress)

    def fold_tree(self, tree: Tree[float]) -> Valued:
        """Folds a tree of this evaluator (see ``fold``)."""
        return fold(tree, self.progress)

    def evaluate_many(self, plans: list[list[list[int]]]) -> list[Valued]:
        """Returns the value of each plan."""
        return [fold(self.follow(slots), self.progress) for slots in plans]


def _progress(state: State, weight: float) -> float:
    """Returns the soft rules' credit for damage on the threats a surviving ship left alive
    (0 outside the soft rules)."""
    if not weight or not isinstance(state, SoftState):
        return 0.0
    credit = 0.0
    for th in state.threats:
        if th.status != DESTROYED and th.health > 0 and th.damage > 0:
            credit += weight * min(th.damage, th.health) / th.health
    return credit


def fold(tree: Tree[float], progress: float = 0.0) -> Valued:
    """Folds a tree's leaves into (objective, expected score, survival, exact, leaves).

    The objective is the expected value of the one value function (``value.py``: a survivor
    ``SURVIVED`` + its score, a loss 40 a turn held and so on) plus the search's guidance:
    ``progress`` is the soft rules' credit per threat left alive (``SURVIVOR_PROGRESS``),
    overflowing damage costs ``OVERFLOW_BASE`` and ``OVERFLOW_PER`` a point, and a loss gets
    ``lost_value``'s small slope."""
    objective = expected = survival = 0.0
    for leaf in tree.leaves:
        node, weight = leaf.state, leaf.weight
        over = node.overflow if isinstance(node, SoftState) else 0
        if node.lost:
            objective += weight * lost_value(node)
        elif over:
            objective += weight * (SURVIVED + score_state(node).total - OVERFLOW_BASE
                                   - OVERFLOW_PER * over + _progress(node, progress))
        else:
            total = score_state(node).total
            objective += weight * (SURVIVED + total + _progress(node, progress))
            expected += weight * total
            survival += weight
    return objective, expected, survival, tree.exact, len(tree.leaves)
