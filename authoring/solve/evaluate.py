"""Expected score of a crew plan over the damage-token draws, by branching the draw tree.

The damage-token draw is the only random element of the Resolution Round, so a plan's value is
a finite weighted sum over the possible draws. The evaluator plays the round on one state until
an attack draws tokens, then replays that turn once per *set* of tokens the attack can draw
(C(n, k) sets for k tokens among n, not the n!/(n-k)! orders), and merges the resulting states
whose futures are equal (same tokens as a set, ignoring tokens whose part the rest of the plan
never uses). The result is **exact** while the tree fits the budget (``exact`` says so). Past
the budget an attack draws one set with a generator seeded per evaluation and keeps the whole
weight: an unbiased stratified sample of the same tree, with the same samples for every plan
(common random numbers keep comparisons between plans fair). Good plans take little damage,
so their trees are small and their value is exact; the search itself uses budget 0 (one
sampled draw) and only the final candidates get the full tree.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

from authoring.engine import Plan, Setup, initial_state
from authoring.engine.game import Game, ShipDestroyed
from authoring.engine.levels import get_level
from authoring.engine.plan import BLANK_ACTION, KIND_MASK, LIFT, SLOTS, CrewPlan, encode
from authoring.engine.plan import A as ACT_A
from authoring.engine.scoring import score_state
from authoring.engine.ship import GRAVOLIFT, LOWER_CANNON, STRUCTURAL, UPPER_CANNON, VC_POINTS
from authoring.engine.state import ACTIVE_THREAT, DESTROYED, State

#: In the soft rules of the search, damage past the 6th token of a zone does not end the
#: mission: each such point costs this much (plus ``OVERFLOW_BASE`` once), so the search can
#: tell a plan that misses survival by one damage from one that misses it by ten.
OVERFLOW_BASE = 30.0
OVERFLOW_PER = 10.0
#: Shaped value of a lost ship in the search: far below any surviving score, but better the
#: later the ship falls and the more threats it destroyed first (a slope for the search).
LOST_BASE = -100.0
LOST_PER_TURN = 3.0
LOST_PROGRESS = 4.0  # for a threat still in play, in proportion to the damage it took

Slots = list[list[int]]  # per crew member, 12 encoded actions


@dataclass(frozen=True)
class Value:
    """A plan's value: search objective, expected score, survival probability, exactness."""

    objective: float  # expected shaped value (lost ships below every surviving one)
    expected: float  # expected score, a lost ship scoring 0 (docs/rules.md §15)
    survival: float  # probability that the ship survives
    exact: bool  # True when every draw outcome was played
    leaves: int  # draw sequences played to the end


class _Branch(Exception):
    """Raised by a probing run at the first draw that the evaluator will enumerate."""


Choice = tuple[int, bool]  # (index drawn among the tokens left, enumerated or sampled)


class _Draws:
    """Stands in for ``random.Random`` inside ``Game``: replays a prefix, then branches.

    The tokens of one attack on one zone (a batch, announced by ``new_batch``) are drawn
    together, so only the *set* drawn matters: an enumerated batch of k draws among n tokens
    visits each of the C(n, k) sets once, as its increasing sequence of indexes, with weight
    k!/(n(n-1)…) spread as (j+1)/n over its j-th draw. A batch that the budget cannot pay for
    is sampled as the engine would draw it, keeping its whole weight.

    In probe mode (``probe=True``) a batch that would be enumerated raises ``_Branch`` so
    that the caller can go back to the start of that turn; every choice is recorded in
    ``made`` so that a replay repeats it.
    """

    __slots__ = ("batch_j", "batch_k", "batch_mode", "batch_prev", "budget", "extra", "made",
                 "pos", "prefix", "probe", "sampler")

    def __init__(self, prefix: list[Choice], sampler: random.Random, budget: list[int], *,
                 probe: bool = False) -> None:
        self.prefix = prefix
        self.pos = 0
        self.extra: list[tuple[int, bool, int, float]] = []  # (chosen, enumerated, hi, factor)
        self.made: list[Choice] = []
        self.sampler = sampler
        self.budget = budget  # shared: [sibling runs still allowed, turn replays left]
        self.probe = probe
        self.new_batch(1)

    def new_batch(self, k: int) -> None:
        """Announces that the next ``k`` draws are one attack's tokens in one zone."""
        self.batch_k = k
        self.batch_j = 0
        self.batch_prev = 0
        self.batch_mode: bool | None = None

    def randrange(self, n: int) -> int:
        """Returns the prefix's choice, the lowest index left to enumerate, or a sample."""
        pos = self.pos
        self.pos += 1
        replay = pos < len(self.prefix)
        if self.batch_j >= self.batch_k:  # a draw nobody announced: a batch of its own
            self.new_batch(1)
        j = self.batch_j
        self.batch_j += 1
        if self.batch_mode is None:
            if replay:
                self.batch_mode = self.prefix[pos][1]
            else:
                count = math.comb(n, self.batch_k)
                if count == 1:
                    self.batch_mode = True
                elif self.budget[0] >= count - 1:
                    if self.probe:
                        raise _Branch
                    self.budget[0] -= count - 1
                    self.batch_mode = True
                else:
                    self.batch_mode = False
        if self.batch_mode:
            chosen = self.prefix[pos][0] if replay else self.batch_prev
            if not replay:
                self.extra.append((chosen, True, n - self.batch_k + j, (j + 1) / n))
            self.batch_prev = chosen
        else:
            chosen = self.prefix[pos][0] if replay else self.sampler.randrange(n)
            if not replay:
                self.extra.append((chosen, False, chosen, 1.0))
        self.made.append((chosen, self.batch_mode))
        return chosen


class Evaluator:
    """Evaluates many crew plans against one setup without building ``Plan`` objects.

    ``labels`` are the crew labels in seat order; a plan is given as encoded slots
    (``encode_plan``). ``budget`` bounds the extra leaves of the draw tree (0: one sampled
    draw sequence); ``sample_seed`` seeds the sampled branches past the budget. ``soft``
    plays the search's soft rules (see ``OVERFLOW_BASE``): the objective then ranks plans
    that lose the ship by how far they are from surviving, and ``expected``/``survival``
    count an overflowing ship as lost. ``max_runs`` caps the turn replays of one evaluation
    (merged outcomes give budget back, so leaves alone do not bound the work); past it every
    draw is sampled.
    """

    def __init__(self, setup: Setup, labels: tuple[str, ...], *, budget: int = 64,
                 sample_seed: int = 0, soft: bool = False, max_runs: int | None = None) -> None:
        self.setup = setup
        self.max_runs = 10 * budget + 100 if max_runs is None else max_runs
        self.game: type[Game] = _SoftGame if soft else _BatchGame
        self.rules = get_level(setup.level)
        self.last = self.rules.turns  # the closing step follows this turn
        self.labels = labels
        self.budget = budget
        self.sample_seed = sample_seed
        blank = Plan(tuple(CrewPlan(label, (BLANK_ACTION,) * SLOTS) for label in labels))
        self.start: State = initial_state(setup, blank)
        self.evaluations = 0

    def evaluate(self, slots: Slots,
                 leaves_out: list[tuple[float, list[list[int]]]] | None = None) -> Value:
        """Returns the value of a plan given as encoded slots per crew member.

        ``leaves_out`` receives each played draw sequence: its weight and the damage tokens
        drawn per zone in order (for replaying it through the engine's ``resolve``).
        """
        self.evaluations += 1
        state = self.start.copy()
        for member, row in zip(state.crew, slots, strict=True):
            member.slots = row[:]
        sampler = random.Random(self.sample_seed)
        budget = [self.budget, self.max_runs]  # sibling runs left, turn replays left
        exact = True
        objective = expected = survival = 0.0
        leaves = 0
        # Each node owns its state: it is played on in place until a draw must branch.
        nodes: list[tuple[State, float, bool]] = [(state, 1.0, False)]
        while nodes:
            node, weight, sampled = nodes.pop()
            branch_turn, node, sampled_now = self._play_until_branch(node, sampler, budget)
            sampled = sampled or sampled_now
            if branch_turn:
                for child, share, child_sampled in self._branch_turn(
                        node, branch_turn, weight, sampler, budget):
                    nodes.append((child, share, sampled or child_sampled))
                continue
            exact = exact and not sampled
            leaves += 1
            if leaves_out is not None:
                leaves_out.append((weight, [tokens[:] for tokens in node.tokens]))
            over: int = getattr(node, "overflow", 0)
            if node.lost:
                objective += weight * _lost_value(node)
            elif over:
                total = score_state(node).total
                objective += weight * (total - OVERFLOW_BASE - OVERFLOW_PER * over)
            else:
                total = score_state(node).total
                objective += weight * total
                expected += weight * total
                survival += weight
        return Value(objective, expected, survival, exact, leaves)

    def _play_until_branch(self, node: State, sampler: random.Random,
                           budget: list[int]) -> tuple[int, State, bool]:
        """Plays to the end, or stops at the turn whose draw branches.

        Returns (branching turn or 0, the state at the start of that turn or at the end,
        whether a draw was sampled on the way).
        """
        if node.lost or node.turn > self.last:
            return 0, node, False
        origin = node.copy()
        draws = _Draws([], sampler, budget, probe=True)
        game = self.game(node, draws, record=False, rules=self.rules)  # type: ignore[arg-type]
        made_before = 0
        turn = node.turn + 1
        try:
            while turn <= self.last + 1:
                made_before = len(draws.made)
                _play(game, node, turn, self.last)
                if node.lost:
                    break
                turn += 1
        except _Branch:
            # Replay the turns before the branching one, repeating their sampled draws.
            replay = _Draws(draws.made[:made_before], sampler, budget)
            game = self.game(origin, replay, record=False, rules=self.rules)  # type: ignore[arg-type]
            for earlier in range(origin.turn + 1, turn):
                _play(game, origin, earlier, self.last)
            return turn, origin, any(not e for _, e in draws.made[:made_before])
        return 0, node, any(not e for _, e in draws.made)

    def _branch_turn(self, node: State, turn: int, weight: float, sampler: random.Random,
                     budget: list[int]) -> list[tuple[State, float, bool]]:
        """Plays one turn once per enumerated draw outcome; returns (state, weight, sampled)."""
        children: list[tuple[State, float, bool]] = []
        pending: list[tuple[list[Choice], float]] = [([], weight)]
        while pending:
            prefix, w = pending.pop()
            child = node.copy()
            budget[1] -= 1
            if budget[1] <= 0:
                budget[0] = 0  # out of replays: sample from now on
            draws = _Draws(prefix, sampler, budget)
            _play(self.game(child, draws, record=False, rules=self.rules), child, turn, self.last)  # type: ignore[arg-type]
            chosen = list(prefix)
            sampled = False
            for pick, enumerated, hi, factor in draws.extra:
                if enumerated:
                    w *= factor
                    pending.extend(([*chosen, (other, True)], w)
                                   for other in range(pick + 1, hi + 1))
                else:
                    sampled = True
                chosen.append((pick, enumerated))
            children.append((child, w, sampled))
        merged = _merge_equivalent(children, turn)
        budget[0] += len(children) - len(merged)  # fewer leaves than reserved
        return merged


class _BatchGame(Game):
    """The engine's round, telling the draws how many tokens each attack takes at once."""

    def damage_ship(self, zone: int, points: int, source: str) -> None:
        """Announces the batch of draws, then lets the engine draw them."""
        if points > 0:
            draws: _Draws = self.rng  # type: ignore[assignment]
            draws.new_batch(min(points, 6 - len(self.state.tokens[zone])))
        super().damage_ship(zone, points, source)


class _SoftGame(_BatchGame):
    """The round with the search's soft rule: damage past a zone's 6th token is counted.

    It also keeps, per threat, the most repair hits it took in one turn (on the state as
    ``hits``), so that a threat that needs three hits in the same turn rewards two.
    """

    def play_turn(self, turn: int) -> None:
        """Plays the turn, then notes the same-turn hits of each threat."""
        try:
            super().play_turn(turn)
        finally:
            if self.turn_hits:
                index = {id(th): n for n, th in enumerate(self.state.threats)}
                hits = dict(getattr(self.state, "hits", {}))  # copies share the old dict
                for key, count in self.turn_hits.items():
                    if key in index:
                        hits[index[key]] = max(hits.get(index[key], 0), count)
                self.state.hits = hits  # type: ignore[attr-defined]

    def damage_ship(self, zone: int, points: int, source: str) -> None:
        """Draws tokens while the zone has some left; counts the rest on the state."""
        room = 6 - len(self.state.tokens[zone])
        if points > room:
            over: int = getattr(self.state, "overflow", 0)
            self.state.overflow = over + points - room  # type: ignore[attr-defined]
            points = room
        super().damage_ship(zone, points, source)


def _merge_equivalent(children: list[tuple[State, float, bool]],
                      turn: int) -> list[tuple[State, float, bool]]:
    """Merges sibling states whose futures are the same, adding up their weights.

    Drawn tokens count as a set (the order never matters again), and a token whose part the
    rest of the plan never uses is as good as a structural one: a gravolift token when no
    crew member has a gravolift card left, cannon tokens when nobody has an A card left.
    """
    if len(children) < 2:
        return children
    lift = cannon = False
    for member in children[0][0].crew:
        for code in member.slots[min(turn, 12):]:
            kind = code & KIND_MASK
            lift = lift or kind == LIFT
            cannon = cannon or kind == ACT_A
    inert = {STRUCTURAL}
    if not lift:
        inert.add(GRAVOLIFT)
    if not cannon:
        inert.update((UPPER_CANNON, LOWER_CANNON))
    groups: dict[tuple[tuple[int, ...], ...], list[list[Any]]] = {}
    for state, weight, sampled in children:
        key = tuple(tuple(sorted(STRUCTURAL if k in inert else k for k in zone))
                    for zone in state.tokens)
        for entry in groups.setdefault(key, []):
            if _same_but_tokens(entry[0], state):
                entry[1] += weight
                entry[2] = entry[2] or sampled
                break
        else:
            groups[key].append([state, weight, sampled])
    return [(e[0], e[1], e[2]) for entries in groups.values() for e in entries]


def _same_but_tokens(a: State, b: State) -> bool:
    tokens_a, tokens_b = a.tokens, b.tokens
    a.tokens = b.tokens = []
    try:
        return a == b
    finally:
        a.tokens, b.tokens = tokens_a, tokens_b


def _play(game: Game, state: State, turn: int, last: int) -> None:
    """Plays a turn or, after the ``last``, the closing step; marks a lost ship on the state."""
    try:
        if turn <= last:
            game.play_turn(turn)
        else:
            game.closing_step()
    except ShipDestroyed:
        state.lost = turn


def _lost_value(state: State) -> float:
    # Visual confirmation counts (it rewards figures acting together at one station), and
    # partial damage on threats still in play counts too: a threat whose Z destroys the ship
    # (Fissure, Nemesis, Nuclear Device …) otherwise leaves a flat plateau until it dies.
    value = LOST_BASE + LOST_PER_TURN * state.lost + sum(VC_POINTS[n] for n in state.vc)
    hits: dict[int, int] = getattr(state, "hits", {})
    for n, th in enumerate(state.threats):
        if th.status == DESTROYED:
            value += th.card.points_destroyed
        elif th.status == ACTIVE_THREAT and th.health > 0:
            value += LOST_PROGRESS * min(th.damage, th.health) / th.health
            value += LOST_PROGRESS * min(hits.get(n, 0), 3) / 3
    return value


def encode_plan(plan: Plan) -> Slots:
    """Returns the encoded slots of each crew member of a plan."""
    return [[encode(a) for a in member.actions] for member in plan.crew]
