"""A plan's odds over the damage-token draws: exact when the draw tree fits, else sampled.

The damage tokens are the only chance in the Resolution Round (docs/rules.md §12.3). The one
evaluator (authoring/engine/odds/evaluator.py) follows every draw outcome with exact fractions; when
the tree is larger than its budget, the odds are the mean of ``samples`` independent stratified
samples of the same tree (each enumerates what a small budget allows and samples the rest, so
each is unbiased), with their standard errors. ``Odds.method`` says which.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from authoring.engine.odds.evaluator import FLOATS, FRACTIONS, DrawTree, Leaf, W
from authoring.engine.rules.game import initial_state
from authoring.engine.rules.levels import RuleLevel, get_level
from authoring.engine.rules.plan import TOKEN_KINDS, Plan
from authoring.engine.rules.scoring import score_state
from authoring.engine.rules.setup import Setup
from authoring.engine.rules.ship import ZONE_NAMES

EXACT = "exact"
SAMPLED = "sampled"

#: The exact tree's budget: extra leaves, and turn replays in all.
MAX_LEAVES = 20_000
MAX_REPLAYS = 200_000
#: Past it: independent samples, each a small tree of this many extra leaves.
SAMPLES = 200
SAMPLE_BUDGET = 16


@dataclass(frozen=True)
class Odds:
    """The distribution of a plan's outcome over the damage-token draws.

    Exact (``method == "exact"``): fractions. Sampled: floats, the mean of ``samples``
    independent estimates, with the standard errors of ``win`` and ``expected_score``.
    """

    win: Fraction | float
    expected_score: Fraction | float | None  # over the won games (None: never won or level 1)
    losses: dict[int, Fraction | float] = field(default_factory=dict)  # turn -> probability
    scores: dict[int, Fraction | float] = field(default_factory=dict)  # score -> probability
    method: str = EXACT
    samples: int = 0  # sampled: the number of independent estimates averaged
    win_error: float | None = None  # sampled: standard error of ``win``
    score_error: float | None = None  # sampled: standard error of ``expected_score``

    @property
    def exact(self) -> bool:
        """Tells whether every draw outcome was followed."""
        return self.method == EXACT

    def to_dict(self) -> dict[str, object]:
        """Returns a JSON-ready mapping (exact probabilities as strings like '5/6', sampled
        ones as decimal strings, with the standard errors)."""
        data: dict[str, object] = {
            "method": self.method,
            "win": _text(self.win),
            "expected_score": None if self.expected_score is None else
            _text(self.expected_score),
            "losses": {str(t): _text(p) for t, p in sorted(self.losses.items())},
            "scores": {str(s): _text(p) for s, p in sorted(self.scores.items())},
        }
        if not self.exact:
            data["samples"] = self.samples
            data["win_error"] = self.win_error
            data["expected_score_error"] = self.score_error
        return data


#: The name the odds had when they were always exact.
ExactOutcome = Odds


def _text(value: Fraction | float) -> str:
    return str(value) if isinstance(value, Fraction) else f"{value:.6g}"


def _forced(plan: Plan) -> dict[int, list[int]]:
    return {ZONE_NAMES.index(zone): [TOKEN_KINDS.index(k) for k in kinds]
            for zone, kinds in plan.tokens.items()}


def _fold(leaves: list[Leaf[W]], zero: W,
          rules: RuleLevel) -> tuple[W, dict[int, W], dict[int, W]]:
    """Returns the win probability, losses by turn and scores of won games of a tree."""
    win = zero
    losses: dict[int, W] = {}
    scores: dict[int, W] = {}
    for leaf in leaves:
        state, weight = leaf.state, leaf.weight
        if state.lost:
            losses[state.lost] = losses.get(state.lost, zero) + weight
            continue
        win += weight
        if rules.scored:
            total = score_state(state).total
            scores[total] = scores.get(total, zero) + weight
    return win, losses, scores


def exact_outcome(setup: Setup, plan: Plan, *, max_leaves: int = MAX_LEAVES,
                  max_replays: int = MAX_REPLAYS, samples: int = SAMPLES,
                  sample_budget: int = SAMPLE_BUDGET, seed: int = 0) -> Odds:
    """Returns the odds of a plan: exact, or past the budget sampled (``Odds.method``).

    ``max_leaves`` and ``max_replays`` bound the exact tree; past them the odds are the mean
    of ``samples`` stratified samples (trees of ``sample_budget`` extra leaves) seeded
    ``seed``, ``seed + 1``, … (deterministic).
    """
    if samples < 2:
        raise ValueError(f"expected at least 2 samples (for a standard error), got {samples}")
    rules = get_level(setup.level)
    forced = _forced(plan)
    one, ratio = FRACTIONS
    tree = DrawTree(rules, one, ratio, budget=max_leaves, max_runs=max_replays).follow(
        initial_state(setup, plan), forced=forced, exact_only=True)
    if tree.exact:
        win, losses, scores = _fold(tree.leaves, Fraction(0), rules)
        expected = (sum((s * p for s, p in scores.items()), Fraction(0)) / win
                    if scores and win else None)
        return Odds(win, expected, dict(losses), dict(scores))
    return _sampled(setup, plan, forced, rules, samples, sample_budget, seed)


def _sampled(setup: Setup, plan: Plan, forced: dict[int, list[int]], rules: RuleLevel,
             samples: int, budget: int, seed: int) -> Odds:
    """Averages independent stratified samples of the draw tree (floats, standard errors)."""
    one, ratio = FLOATS
    sampler = DrawTree(rules, one, ratio, budget=budget)
    wins: list[float] = []
    won_scores: list[float] = []  # per sample: the expected score times the win probability
    losses: dict[int, float] = {}
    scores: dict[int, float] = {}
    for offset in range(samples):
        tree = sampler.follow(initial_state(setup, plan), forced=forced, sample_seed=seed + offset)
        win, lost, scored = _fold(tree.leaves, 0.0, rules)
        wins.append(win)
        won_scores.append(sum(s * p for s, p in scored.items()))
        for turn, p in lost.items():
            losses[turn] = losses.get(turn, 0.0) + p / samples
        for total, p in scored.items():
            scores[total] = scores.get(total, 0.0) + p / samples
    win = sum(wins) / samples
    win_error = _standard_error(wins)
    expected: float | None = None
    score_error: float | None = None
    if scores and win:
        # The ratio of two means: its standard error by the delta method.
        expected = sum(won_scores) / samples / win
        score_error = _standard_error([s - expected * w for s, w in zip(won_scores, wins,
                                                                        strict=True)]) / win
    return Odds(win, expected, dict(sorted(losses.items())), dict(sorted(scores.items())),
                SAMPLED, samples, win_error, score_error)


def _standard_error(values: list[float]) -> float:
    """Returns the standard error of the mean of ``values`` (at least two)."""
    mean = sum(values) / len(values)
    variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    return math.sqrt(variance / len(values))
