"""Defines the rule levels (docs/rules.md §17), the training steps from the first to the full game.

A level is a set of switches the turn loop reads; the full game (level 4) turns them all on.
"""

from __future__ import annotations

from dataclasses import dataclass

from authoring.engine.errors import SetupError


@dataclass(frozen=True)
class RuleLevel:
    """The switches of one rule level."""

    level: int
    name: str
    turns: int  # last turn with player actions (the closing step follows it)
    c_actions: bool  # C buttons exist (rockets, computer maintenance)
    computer_check: bool
    delays: bool  # gravolift rule, tripping (cards face down)
    damage_effects: bool  # damage tokens act; level 1 counts plain cubes
    serious_threats: bool
    internal_threats: bool  # with battlebots, interceptors and knock-outs
    heroics: bool
    visual_confirmation: bool
    scored: bool  # level 1 is won or lost, without a score


LEVELS: dict[int, RuleLevel] = {
    1: RuleLevel(1, "first game", 7, False, False, False, False, False, False, False, False,
                 False),
    2: RuleLevel(2, "simulation", 12, True, True, True, True, True, False, False, False, True),
    3: RuleLevel(3, "advanced simulation", 12, True, True, True, True, True, True, False, False,
                 True),
    4: RuleLevel(4, "full game", 12, True, True, True, True, True, True, True, True, True),
}
FULL_GAME = LEVELS[4]


def get_level(level: int) -> RuleLevel:
    """Returns the rule level 1-4, raising ``SetupError`` otherwise."""
    try:
        return LEVELS[level]
    except KeyError:
        raise SetupError(f"expected a rule level 1 to 4, got {level!r}") from None
