"""The one value function: what a played game is worth, on one scale.

Every search over plans ranks them by it: the crews' plan search (``authoring/simulation/
localsearch.py``, and ``sa_objective`` of the C core, which mirrors ``game_value``), the
solver's draw-tree folds (``evaluator.fold``, which adds its own search guidance on top of
it), and so the ratings that lint, sheets and pack pages show. One scale, so that a plan the
solver prefers is one the crews prefer, and ``bench/bound.py`` compares like with like
(docs/simulation.md "The search").

* A survived game is worth ``SURVIVED`` plus its score: survival comes first, then the score.
* A lost game is worth ``PER_TURN`` per turn the ship lasted, plus the points of the threats
  destroyed before, minus the damage tokens taken: a later loss is always better (40 points a
  turn is more than any difference of destroyed points or damage), and at equal turns the
  crew that fought more and was hit less did better. Every loss is worth less than every
  survival (at most 12 x 40 + the points of every threat < 1000 - the lowest score).
* A win without a score (rule level 1 scores nothing, docs/rules.md §17) counts as a game
  held 13 turns: above every loss, and among such wins the one that destroyed more and took
  less damage is better.
"""

from __future__ import annotations

from typing import Final

from authoring.engine.rules.log import Result
from authoring.engine.rules.state import DESTROYED, State

#: The value of a survived game before its score.
SURVIVED: Final = 1000
#: The value of each turn a lost ship lasted.
PER_TURN: Final = 40


def game_value(scored: bool, turn: int, score: int, destroyed: int, damage: int) -> int:
    """Returns a game's value from its outcome: a scored win (``score``), or a game that
    lasted ``turn`` turns (13: an unscored win) with ``destroyed`` points of threats
    destroyed and ``damage`` tokens taken."""
    if scored:
        return SURVIVED + score
    return PER_TURN * turn + destroyed - damage


def of_result(result: Result) -> int:
    """Returns the value of a resolved game."""
    if result.survived and result.score is not None:
        return game_value(True, result.turn, result.score.total, 0, 0)
    destroyed = sum(t.points for t in result.threats if t.fate == "destroyed")
    damage = sum(len(tokens) for tokens in result.damage.values())
    return game_value(False, result.turn, 0, destroyed, damage)


def of_lost_state(state: State) -> int:
    """Returns the value of a game lost in ``state`` (its ``lost`` turn set)."""
    destroyed = sum(th.card.points_destroyed for th in state.threats if th.status == DESTROYED)
    damage = sum(len(tokens) for tokens in state.tokens)
    return game_value(False, state.lost, 0, destroyed, damage)
