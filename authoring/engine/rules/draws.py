"""Where a game's damage tokens come from: the one chance of the Resolution Round.

Every point of damage draws one of a zone's remaining tokens at random (docs/rules.md §12.3).
The ``Game`` asks a ``TokenSource`` for each draw, so the same engine plays a seeded game (the
default ``SeededTokens``) and lets the plan evaluator (``authoring/engine/odds/evaluator.py``)
follow every draw outcome, without subclassing the game or escaping from it.
"""

from __future__ import annotations

import random
from typing import Protocol


class TokenSource(Protocol):
    """Chooses each damage token a game draws."""

    def draw(self, zone: int, left: list[int], attack: int) -> int:
        """Returns the token kind drawn in ``zone`` among the kinds ``left`` there.

        ``attack`` counts the draws still to come from the same damage in that zone, this one
        included (1: the last): the tokens of one attack are drawn together, so a source that
        follows every outcome can enumerate the *sets* drawn, not the orders.
        """
        ...


class SeededTokens:
    """Draws uniformly with a seeded generator: what every resolved game uses."""

    __slots__ = ("rng",)

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def draw(self, zone: int, left: list[int], attack: int) -> int:
        """Returns a uniform choice among ``left`` (one ``randrange`` call per draw)."""
        return left[self.rng.randrange(len(left))]
