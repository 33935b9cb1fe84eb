"""Estimates a plan's win rate and mean score over many damage-token draws (Monte Carlo).

The damage tokens are the only chance in the Resolution Round (docs/rules.md §12.3); resolving the
same plan with seeds ``seed``, ``seed + 1``, … gives a deterministic estimate.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from authoring.engine.rules.game import resolve
from authoring.engine.rules.plan import Plan
from authoring.engine.rules.setup import Setup


@dataclass(frozen=True)
class Estimate:
    """Win rate and score statistics over ``samples`` resolutions."""

    samples: int
    wins: int
    mean_score: Fraction | None  # over the won games; None if none was won
    worst_score: int | None
    best_score: int | None

    @property
    def win_rate(self) -> Fraction:
        """Returns the share of won games."""
        return Fraction(self.wins, self.samples)

    def to_dict(self) -> dict[str, object]:
        """Returns a JSON-ready mapping (fractions as floats)."""
        return {
            "samples": self.samples,
            "wins": self.wins,
            "win_rate": float(self.win_rate),
            "mean_score": None if self.mean_score is None else float(self.mean_score),
            "worst_score": self.worst_score,
            "best_score": self.best_score,
        }


def estimate(setup: Setup, plan: Plan, *, samples: int = 200, seed: int = 0) -> Estimate:
    """Resolves the plan with ``samples`` consecutive seeds and summarises the outcomes."""
    if samples < 1:
        raise ValueError(f"expected at least 1 sample, got {samples}")
    scores = []
    wins = 0
    for offset in range(samples):
        result = resolve(setup, plan, seed=seed + offset, record=False)
        wins += result.survived
        if result.score is not None:  # level 1 wins carry no score
            scores.append(result.score.total)
    return Estimate(
        samples=samples,
        wins=wins,
        mean_score=Fraction(sum(scores), len(scores)) if scores else None,
        worst_score=min(scores) if scores else None,
        best_score=max(scores) if scores else None,
    )
