"""Scores a surviving ship (docs/rules.md §15)."""

from __future__ import annotations

from authoring.engine.rules.log import Score
from authoring.engine.rules.ship import DISABLED, VC_POINTS
from authoring.engine.rules.state import DESTROYED, SURVIVED, State


def score_state(state: State) -> Score:
    """Returns the score breakdown of a final state (threats still on a track score 0)."""
    threats = 0
    for th in state.threats:
        if th.status == DESTROYED:
            threats += th.card.points_destroyed
        elif th.status == SURVIVED:
            threats += th.card.points_survived
    vc = sum(VC_POINTS[n] for n in state.vc)
    damage = sum(len(t) for t in state.tokens)
    worst = max(len(t) for t in state.tokens)
    knocked = 2 * sum(1 for c in state.crew if c.out)
    disabled = sum(1 for c in state.crew if c.squad == DISABLED)
    disabled += sum(1 for s in state.stored if s == DISABLED)
    total = threats + vc - damage - worst - knocked - disabled
    return Score(threats, vc, damage, worst, knocked, disabled, total)
