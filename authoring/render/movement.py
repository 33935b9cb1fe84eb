"""When each threat reaches its X, Y and Z squares, as the rules engine moves it.

The printed speed is not the whole story: abilities change it while a threat travels (a
Man-of-War speeds up at X, a Scout advances the others, a Kamikaze or a Juggernaut changes
its pace), so the sheets ask the engine. The crew does nothing, which is the movement a
sheet can promise: destroying a threat early only stops it. The idle ship would soon be lost,
so its damage tokens are put back after every turn (damage changes no threat's movement);
should it still be lost within one turn, each threat is moved again on its own.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from authoring.engine import Plan, make_crew_plan
from authoring.engine.rules.game import Game, initial_state
from authoring.engine.rules.setup import Setup, ThreatEvent
from authoring.engine.rules.state import ACTIVE_THREAT, PENDING, SURVIVED, ThreatState
from authoring.engine.rules.trajectories import Trajectory, get_trajectory

#: Square number -> the turn the threat lands on or passes it (absent: not reached); the
#: squares it stands on at the end of a turn are there too, as negative keys (``-square``),
#: so that the drawing puts its dots where the engine's threat stands.
Reaches = dict[int, int]


def _idle_plan(figures: int) -> Plan:
    return Plan(tuple(make_crew_plan(f"P{n}", "") for n in range(1, figures + 1)))


def _play(events: Sequence[ThreatEvent], trajectories: Mapping[str, str],
          figures: int) -> tuple[list[Reaches], bool]:
    """Plays the idle game; returns the reaches per event and whether the ship was lost."""
    setup = Setup(tuple(events), dict(trajectories), players=None)
    game = Game(initial_state(setup, _idle_plan(figures)), random.Random(0), record=False)
    by_event: list[ThreatState] = []
    pool = list(game.state.threats)
    for event in events:  # the state lists threats in appearance order, not event order
        match = next(th for th in pool if th.token == event.turn and th.card.id == event.card)
        pool.remove(match)
        by_event.append(match)
    boards = [get_trajectory(trajectories[event.zone]) for event in events]
    reaches: list[Reaches] = [{} for _ in events]
    while game.play_next():
        _record(game.state.turn, by_event, boards, reaches)
        game.state.tokens = [[], [], []]  # an idle crew's ship must outlast the threats
    _record(game.state.turn, by_event, boards, reaches)
    return reaches, bool(game.state.lost)


def _record(turn: int, threats: list[ThreatState], boards: list[Trajectory],
            reaches: list[Reaches]) -> None:
    for th, board, found in zip(threats, boards, reaches, strict=True):
        if th.status == PENDING:
            continue
        lowest = th.square if th.status == ACTIVE_THREAT else 1 if th.status == SURVIVED else None
        if lowest is None:
            continue  # destroyed (by itself): no further squares
        if th.status == ACTIVE_THREAT:
            found.setdefault(-th.square, min(turn, 13))  # negative: a square it stands on
        elif th.status == SURVIVED:
            found.setdefault(-1, min(turn, 13))  # it reached Z and left the board
        for square in range(board.length, 0, -1):
            if board.action_at(square) and square >= lowest:
                found.setdefault(square, min(turn, 13))


def reach_turns(events: Sequence[ThreatEvent], trajectories: Mapping[str, str], *,
                figures: int = 5) -> list[Reaches]:
    """Returns, for each event, the turn each of its action squares is reached."""
    reaches, lost = _play(events, trajectories, figures)
    if lost:
        for index, event in enumerate(events):
            alone, _ = _play([event], trajectories, figures)
            reaches[index] = {**alone[0], **reaches[index]}
    return reaches
