"""Computes exact win probabilities and expected scores by following every damage-token draw.

The damage tokens are the only chance in the Resolution Round (docs/rules.md §12.3). Turn by turn,
every state is replayed once per sequence of token choices of that turn; equal states are
merged (the order in which a zone's tokens were drawn no longer matters once drawn), so the
work grows with the number of distinct situations, not with the number of draw orders.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from authoring.engine.game import Game, initial_state
from authoring.engine.levels import RuleLevel, get_level
from authoring.engine.notation import notation
from authoring.engine.plan import KIND_MASK, LIFT, TOKEN_KINDS, A, B, Plan
from authoring.engine.scoring import score_state
from authoring.engine.setup import Setup
from authoring.engine.ship import (
    GRAVOLIFT,
    LOWER_CANNON,
    REACTOR,
    SHIELD,
    STRUCTURAL,
    UPPER_CANNON,
    ZONE_NAMES,
)
from authoring.engine.state import ACTIVE_THREAT, PENDING, State

# Threat operations that put energy into a shield (so shield capacity keeps mattering).
_FILLS_SHIELDS = frozenset({"push_central_to_shield"})


class _Branch(Exception):
    """Signals that the script ran out: the next draw's options, with their weights."""

    def __init__(self, weights: list[int], total: int) -> None:
        super().__init__(weights, total)
        self.weights = weights
        self.total = total


class _ScriptedGame(Game):
    """A game whose damage tokens follow a script of choices instead of the generator.

    Tokens whose identity cannot matter any more are one option, weighted by their number.
    """

    def __init__(self, state: State, script: tuple[int, ...], rules: RuleLevel,
                 forced: dict[int, list[int]], relevant: set[int]) -> None:
        super().__init__(state, random.Random(0), forced, record=False, rules=rules)
        self.script = script
        self.used = 0
        self.relevant = relevant

    def _options(self, zone: int, left: list[int]) -> list[tuple[int, int]]:
        relevant = set(self.relevant)
        st = self.state
        # A shield or reactor token drawn now would send energy back to the bank.
        if st.shields[zone] >= self.shield_cap(zone):
            relevant.add(SHIELD)
        if st.reactors[zone] >= self.reactor_cap(zone):
            relevant.add(REACTOR)
        options = [(kind, 1) for kind in left if kind in relevant]
        alike = [kind for kind in left if kind not in relevant]
        if alike:
            options.append((alike[0], len(alike)))
        return options

    def choose_token(self, zone: int, left: list[int]) -> int:
        """Returns the scripted choice, or stops the replay to branch on this draw."""
        options = self._options(zone, left)
        if self.used == len(self.script):
            raise _Branch([weight for _, weight in options], len(left))
        choice = self.script[self.used]
        self.used += 1
        return options[choice][0]


@dataclass(frozen=True)
class ExactOutcome:
    """The exact distribution of a plan's outcome over all damage-token draws."""

    win: Fraction
    expected_score: Fraction | None  # over the won games (None: never won or level 1)
    losses: dict[int, Fraction] = field(default_factory=dict)  # turn -> probability
    scores: dict[int, Fraction] = field(default_factory=dict)  # score -> probability

    def to_dict(self) -> dict[str, object]:
        """Returns a JSON-ready mapping (probabilities as strings like '5/6')."""
        return {
            "win": str(self.win),
            "expected_score": None if self.expected_score is None else str(self.expected_score),
            "losses": {str(t): str(p) for t, p in sorted(self.losses.items())},
            "scores": {str(s): str(p) for s, p in sorted(self.scores.items())},
        }


def _forced_left(plan: Plan, state: State) -> dict[int, list[int]]:
    # Forced tokens are drawn first, so after d draws in a zone the first d are used up.
    forced = {}
    for zone, kinds in plan.tokens.items():
        index = ZONE_NAMES.index(zone)
        forced[index] = [TOKEN_KINDS.index(k) for k in kinds][len(state.tokens[index]):]
    return forced


def _successors(state: State, plan: Plan, rules: RuleLevel,
                budget: list[int]) -> list[tuple[Fraction, State, bool]]:
    """Returns (probability, next state, still flying) for every draw sequence of one turn."""
    found = []
    relevant = _relevant_kinds(state)
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        budget[0] -= 1
        if budget[0] < 0:
            raise ValueError("expected a plan with fewer damage-draw sequences, got too many "
                             "to follow exactly; use estimate() instead")
        script, probability = stack.pop()
        game = _ScriptedGame(state.copy(), script, rules, _forced_left(plan, state), relevant)
        try:
            flying = game.play_next()
        except _Branch as branch:
            stack.extend(((*script, choice), probability * Fraction(weight, branch.total))
                         for choice, weight in enumerate(branch.weights))
            continue
        found.append((probability, game.state, flying and game.state.lost == 0))
    return found


def _relevant_kinds(state: State) -> set[int]:
    """Returns the token kinds whose identity can still change the game.

    Cannon tokens matter only while an A card is left, gravolift tokens while a lift card is
    left, shield and reactor tokens while a B card is left or a threat can still push energy
    into a shield (Crossed Wires): capacities only limit what flows in, and energy above a
    lowered capacity has already gone back to the bank. Structural never matters.
    """
    future = [code & KIND_MASK for member in state.crew for code in member.slots[state.turn:]]
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


def _merge_key(state: State) -> str:
    """Returns the notation with each zone's tokens sorted and irrelevant ones made alike.

    Two states with the same key play out alike: the draw order of tokens no longer matters
    once drawn, and a token that can no longer matter is as good as a structural one (the
    chances of the relevant tokens left in the stack are the same either way).
    """
    relevant = _relevant_kinds(state)
    original = state.tokens
    state.tokens = [sorted(k if k in relevant else STRUCTURAL for k in zone) for zone in original]
    try:
        return notation(state)
    finally:
        state.tokens = original


def exact_outcome(setup: Setup, plan: Plan, *, max_states: int = 20_000,
                  max_replays: int = 200_000) -> ExactOutcome:
    """Returns the exact win probability and expected score of a plan.

    Raises ``ValueError`` when more than ``max_states`` distinct situations would have to be
    followed in one turn, or more than ``max_replays`` turn replays in all (use ``estimate``
    for such plans).
    """
    budget = [max_replays]
    rules = get_level(setup.level)
    layer: dict[str, tuple[Fraction, State]] = {"": (Fraction(1), initial_state(setup, plan))}
    losses: dict[int, Fraction] = {}
    scores: dict[int, Fraction] = {}
    win = Fraction(0)
    while layer:
        following: dict[str, tuple[Fraction, State]] = {}
        for probability, state in layer.values():
            for share, after, flying in _successors(state, plan, rules, budget):
                weight = probability * share
                if after.lost:
                    losses[after.lost] = losses.get(after.lost, Fraction(0)) + weight
                elif not flying:  # the closing step is over: the ship made it
                    win += weight
                    if rules.scored:
                        total = score_state(after).total
                        scores[total] = scores.get(total, Fraction(0)) + weight
                else:
                    key = _merge_key(after)
                    old = following.get(key)
                    following[key] = (weight + (old[0] if old else 0), after)
                    if len(following) > max_states:
                        raise ValueError(f"expected at most {max_states} distinct states per "
                                         f"turn, got more in turn {after.turn}")
        layer = following
    expected = (sum((s * p for s, p in scores.items()), Fraction(0)) / win
                if scores and win else None)
    return ExactOutcome(win, expected, losses, scores)
