"""Expected score of a crew plan over the damage-token draws, for the solver's search.

The draws are followed by the engine's one evaluator (``authoring.engine.evaluator``): each
attack's token *sets* are enumerated while the budget lasts, equal futures are merged, and past
the budget an attack draws one set with a generator seeded per evaluation and keeps the whole
weight (an unbiased stratified sample of the same tree, with the same samples for every plan:
common random numbers keep comparisons between plans fair). Good plans take little damage, so
their trees are small and their value is exact; the search itself uses budget 0 (one sampled
draw) and only the final candidates get the full tree. This module adds the search's soft
rules and folds the leaves into a ``Value``.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from authoring.engine import Plan, Setup, initial_state
from authoring.engine.evaluator import FLOATS, DrawTree
from authoring.engine.game import Game
from authoring.engine.levels import get_level
from authoring.engine.plan import BLANK_ACTION, SLOTS, CrewPlan, encode
from authoring.engine.scoring import score_state
from authoring.engine.ship import VC_POINTS
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


class Evaluator:
    """Evaluates many crew plans against one setup without building ``Plan`` objects.

    ``labels`` are the crew labels in seat order; a plan is given as encoded slots
    (``encode_plan``). ``budget`` bounds the extra leaves of the draw tree (0: one sampled
    draw sequence); ``sample_seed`` seeds the sampled branches past the budget. ``soft``
    plays the search's soft rules (see ``OVERFLOW_BASE``): the objective then ranks plans
    that lose the ship by how far they are from surviving, and ``expected``/``survival``
    count an overflowing ship as lost. ``max_runs`` caps the turn replays of one evaluation
    (merged outcomes give budget back, so leaves alone do not bound the work); past it every
    draw is sampled. The draw tree is the engine's one evaluator
    (``authoring.engine.evaluator.DrawTree``).
    """

    def __init__(self, setup: Setup, labels: tuple[str, ...], *, budget: int = 64,
                 sample_seed: int = 0, soft: bool = False, max_runs: int | None = None) -> None:
        self.setup = setup
        self.labels = labels
        self.budget = budget
        self.sample_seed = sample_seed
        one, ratio = FLOATS
        self.tree = DrawTree(get_level(setup.level), one, ratio, budget=budget,
                             max_runs=max_runs, game=_SoftGame if soft else Game,
                             carry=_carry_soft if soft else None,
                             extra_key=_soft_key if soft else None)
        self.max_runs = self.tree.max_runs
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
        tree = self.tree.follow(state, sample_seed=self.sample_seed)
        objective = expected = survival = 0.0
        for leaf in tree.leaves:
            node, weight = leaf.state, leaf.weight
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
        return Value(objective, expected, survival, tree.exact, len(tree.leaves))


def _carry_soft(state: State, copy: State) -> None:
    """Copies the soft rules' overflow and same-turn hits onto a copy of the state."""
    for name in ("overflow", "hits"):
        if hasattr(state, name):
            setattr(copy, name, getattr(state, name))  # replaced, never changed in place


def _soft_key(state: State) -> Hashable:
    """Returns what two mergeable soft-rule states must share besides their notation."""
    hits: dict[int, int] = getattr(state, "hits", {})
    return getattr(state, "overflow", 0), tuple(sorted(hits.items()))


class _SoftGame(Game):
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
