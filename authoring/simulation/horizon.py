"""Phase by phase: a crew fixes a phase's cards when the phase ends, knowing only what was heard.

A table plays the Action Round in three phases (turns 1-3, 4-7 and 8-12, ``ship.phase_of``;
docs/rules.md §2): the cards of a phase are played face down while the soundtrack runs, and
when the phase ends they can no longer be changed. Threats are heard as the soundtrack
announces them, so the cards of phase 1 are chosen knowing only the threats announced in
phase 1 of the mission's timeline. This module plays that *rolling horizon* for any crew:

1. at the end of phase ``p`` the crew plans the whole remaining mission (turns from the start
   of phase ``p`` on) against the threats announced up to the end of phase ``p`` — the
   unannounced ones are simply absent from the board it pictures;
2. the phase's turns are fixed; its later turns are only a sketch, planned again in the next
   phase with more threats known (when nothing new was announced, the crew plays on with its
   sketch).

A hand of action cards (docs/rules.md §16) constrains which cards a phase may hold: a crew
gets the dealt ``hands`` (to lay its cards from) and a ``playable`` projection (``Playable``,
``dealing.playable_for``) that turns rows of tokens into rows the hands can play in a range
of turns; this module applies it to every phase it fixes, and the searching crews apply it to
every candidate they rate.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Protocol

from authoring.crew import plays_unconfirmed
from authoring.engine import Plan, make_crew_plan
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.setup import Setup
from authoring.engine.rules.ship import phase_of
from authoring.mission.model import Mission

SLOTS = 12

#: Rows of tokens (one list of 12 per figure) and a phase's first and last turn (1-based) ->
#: the rows with that phase's slots replaced by ones the crew can play (e.g. from its hands).
Playable = Callable[[Sequence[Sequence[str]], int, int], list[list[str]]]


class Crew(Protocol):
    """A crew model: plans a mission's 12 turns for a number of figures."""

    name: str
    #: ``True`` for a crew that sees the whole draw, damage tokens too (planned once, not
    #: phase by phase: no table plays like this).
    omniscient: bool
    #: A crew whose phase-by-phase plan of the same game this one starts from (so it is
    #: never worse on that game), or ``None``.
    builds_on: Crew | None

    def plan(self, setup: Setup, figures: int, *, fixed: Sequence[Sequence[str]] = (),
             first_turn: int = 1, seed: int = 0, last_turn: int = SLOTS,
             playable: Playable | None = None, damage_seed: int | None = None,
             hands: Hands | None = None) -> Plan:
        """Returns the crew's plan; turns before ``first_turn`` are played and kept as in
        ``fixed`` (whose later turns are the previous phase's sketch, a starting point a crew
        may use), turns ``first_turn`` … ``last_turn`` are the ones that will be kept."""


def phase_turns(level: int) -> list[tuple[int, int]]:
    """Returns each phase's first and last turn with actions at a rule level (1-based)."""
    last = min(SLOTS, get_level(level).turns)
    spans: list[tuple[int, int]] = []
    for turn in range(1, last + 1):
        if spans and phase_of(turn) == phase_of(spans[-1][0]):
            spans[-1] = (spans[-1][0], turn)
        else:
            spans.append((turn, turn))
    return spans


def announced_by(mission: Mission, figures: int, phase: int) -> list[bool]:
    """For each threat in play (the setup's order), whether it was announced by the end of
    ``phase`` (0-based engine phase; a mission with fewer phases has announced everything)."""
    played = [t for t in mission.threats() if not t.unconfirmed or plays_unconfirmed(figures)]
    return [mission.phase_of(t.at) <= phase + 1 for t in played]


def known_setup(setup: Setup, known: Sequence[bool]) -> Setup:
    """Returns the setup with only the known threats (the board a crew pictures)."""
    if len(known) != len(setup.threats):
        raise ValueError(f"expected {len(setup.threats)} known flags, got {len(known)}")
    return dataclasses.replace(
        setup, threats=tuple(e for e, k in zip(setup.threats, known, strict=True) if k))


def tokens_of(plan: Plan) -> list[list[str]]:
    """Returns each crew member's 12 tokens."""
    return [[a.token() for a in member.actions] for member in plan.crew]


def plan_of(rows: Sequence[Sequence[str]]) -> Plan:
    """Returns the plan of token rows (crew labels P1, P2 …)."""
    return Plan(tuple(make_crew_plan(f"P{i + 1}", list(row)) for i, row in enumerate(rows)))


def plan_by_phase(mission: Mission, setup: Setup, crew: Crew, figures: int, *, seed: int,
                  playable: Playable | None = None, hands: Hands | None = None) -> Plan:
    """Lets ``crew`` plan ``setup`` phase by phase, each phase knowing the threats announced
    by its end; returns the plan of the fixed phases. ``seed`` is the crew's own seed (its
    picture of the damage tokens), one per phase derived from it."""
    fixed: list[list[str]] = [["-"] * SLOTS for _ in range(figures)]
    sketch = fixed  # the previous phase's plan of the turns not yet played (a search start)
    heard: list[bool] | None = None
    for phase, (first, last) in enumerate(phase_turns(setup.level)):
        known = announced_by(mission, figures, phase)
        if known == heard:
            # nothing new was announced: the crew plays on with the sketch it made for these
            # turns (official tracks announce nothing in phase 3, which saves a third)
            rows = [row[:] for row in sketch]
        else:
            given = [row[:first - 1] + later[first - 1:]
                     for row, later in zip(fixed, sketch, strict=True)]
            rows = tokens_of(crew.plan(known_setup(setup, known), figures, fixed=given,
                                       first_turn=first, seed=seed + phase, last_turn=last,
                                       playable=playable, hands=hands))
        heard = known
        if playable is not None:
            rows = playable(rows, first, last)
        for member in range(figures):
            fixed[member][first - 1:last] = rows[member][first - 1:last]
        sketch = rows
    return plan_of(fixed)
