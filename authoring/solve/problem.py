"""What a solve works on: the mission's setup for a draw, the crew and the fixed crew plans.

Turns the user's inputs (a mission, a draw file or a seed, a player count, a plan file of
fixed crew members) into a ``Request`` for the search, and turns the search's encoded plan
back into an engine ``Plan`` that ``spacealert resolve`` replays.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring.crew import CrewSizeError, choose_crew, crew_size, plays_unconfirmed
from authoring.engine import EngineError, Plan, Setup, setup_from_mission
from authoring.engine.cores import hands_module, resolve_batch
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.plan import (
    BLANK_ACTION,
    SLOTS,
    TOKEN_KINDS,
    ZONES,
    CrewPlan,
    decode,
    parse_action,
)
from authoring.errors import InvalidInputError, UsageError
from authoring.mission import Mission, load_document
from authoring.simulation.dealing import deal_for
from authoring.solve.evaluate import Evaluator, encode_plan
from authoring.solve.search import FINAL_BUDGET, FINAL_RUNS, Request


@dataclass(frozen=True)
class Draw:
    """Threat cards (one per mission threat, None = not fixed) and trajectory boards."""

    threats: tuple[str | None, ...] = ()
    trajectories: Mapping[str, str] | None = None


@dataclass(frozen=True)
class Problem:
    """A prepared solve: mission, setup, crew labels, fixed rows and the draw actually used."""

    mission: Mission
    setup: Setup
    labels: tuple[str, ...]
    fixed: Mapping[int, tuple[int, ...]]
    draw: tuple[str | None, ...]  # one entry per mission threat ('-' = not in play)
    seed: int
    hands: Hands | None = None  # the action cards dealt with the seed (``solve --hands``)

    def request(self, **search: Any) -> Request:
        """Returns the search request (``iterations``, ``time_limit``, ``jobs`` …).

        The mission's rule level bounds it: no heroic cards below the full game, no cards
        after the level's last turn.
        """
        rules = get_level(self.setup.level)
        search["heroics"] = search.get("heroics", True) and rules.heroics
        return Request(self.setup, self.labels, self.fixed, seed=self.seed, turns=rules.turns,
                       hands=self.hands, doubles=self.setup.double_actions, **search)


def load_draw(path: str | Path) -> Draw:
    """Reads a draw file (``schemas/draw.schema.json``); raises ``InvalidInputError``."""
    data = load_document(path, "draw").data
    threats = tuple(None if t in (None, "-") else str(t) for t in data.get("threats", ()))
    trajectories = data.get("trajectories")
    return Draw(threats, {str(k): str(v) for k, v in trajectories.items()}
                if trajectories else None)


def load_plan(path: str | Path) -> Plan:
    """Reads a plan file (``schemas/plan.schema.json``); raises ``InvalidInputError``."""
    doc = load_document(path, "plan")
    try:
        return Plan.from_mapping(doc.data)
    except EngineError as error:
        raise InvalidInputError(f"{path}: {error}") from None


def crew_labels(players: int, figures: int | None = None) -> tuple[str, ...]:
    """Returns the crew labels for a player count: players P1.., then androids A1..

    ``figures`` defaults to the smallest legal crew (5 for 5 players): androids fill the
    seats the rules require and no more (``authoring.crew.crew_size``).
    """
    try:
        return crew_size(players, figures).labels()
    except CrewSizeError as error:
        raise UsageError(str(error)) from None


def prepare(mission: Mission, *, seed: int = 0, players: int | None = None,
            figures: int | None = None, draw: Draw | None = None,
            fixed: Plan | None = None, hands: bool = False) -> Problem:
    """Builds the setup for the draw (cards not given are drawn with ``seed``) and the crew.

    The fixed plan's crew members are kept as they are (matched by label); its draw is used
    when no ``draw`` is given. With ``hands`` the crew is dealt its action cards with
    ``seed`` (docs/rules.md §16) and the fixed members must be playable from them. Raises
    ``InvalidInputError`` for a draw or plan that does not fit the mission, ``UsageError``
    for an impossible crew.
    """
    try:
        crew = choose_crew(mission.crew, players, figures)
    except CrewSizeError as error:
        raise UsageError(str(error)) from None
    if crew != mission.crew:
        mission = dataclasses.replace(mission, players=crew.players, figures=crew.figures)
    labels = crew.labels()
    if draw is None and fixed is not None and (fixed.draw or fixed.trajectories):
        draw = Draw(fixed.draw, fixed.trajectories)
    draw = draw or Draw()
    blank = tuple(CrewPlan(label, (BLANK_ACTION,) * SLOTS) for label in labels)
    try:
        probe = Plan(blank, draw.threats, dict(draw.trajectories) if draw.trajectories
                     else None, seed)
        setup = setup_from_mission(mission, probe)
    except EngineError as error:
        raise InvalidInputError(f"the draw does not fit {mission.id}: {error}") from None
    rows: dict[int, tuple[int, ...]] = {}
    if fixed is not None:
        for member in fixed.crew:
            if member.label not in labels:
                raise InvalidInputError(
                    f"expected fixed crew members among {' '.join(labels)}, got {member.label}")
            if any(a.tripped for a in member.actions):
                raise InvalidInputError(f"expected no tripped cards in the fixed plan of "
                                        f"{member.label}, got one")
            rows[labels.index(member.label)] = tuple(encode_plan(Plan((member,)))[0])
        if len(rows) == len(labels):
            raise UsageError("every crew member is fixed: nothing left to solve")
    dealt = deal_for(mission, labels, seed, setup.level) if hands else None
    if dealt is not None and fixed is not None:
        only_fixed = tuple(next((m for m in fixed.crew if m.label == label), blank[index])
                           for index, label in enumerate(labels))
        try:
            hands_module().check(dealt, only_fixed)  # the module that dealt them
        except EngineError as error:
            raise InvalidInputError(f"the fixed plan does not fit the hands dealt with seed "
                                    f"{seed}: {error}") from None
    return Problem(mission, setup, labels, rows, _used_draw(mission, setup, len(labels)), seed,
                   dealt)


def _used_draw(mission: Mission, setup: Setup, figures: int) -> tuple[str | None, ...]:
    cards = iter(setup.threats)
    used: list[str | None] = []
    for threat in mission.threats():
        if threat.unconfirmed and not plays_unconfirmed(figures):
            used.append(None)
        else:
            used.append(next(cards).card)
    return tuple(used)


@functools.cache
def token(code: int) -> str:
    """Returns the plan-notation token of an encoded action."""
    return decode(code).token()


def to_plan(problem: Problem, slots: Sequence[Sequence[int]]) -> Plan:
    """Returns the engine plan of encoded slots, with the draw, boards and seed of the solve."""
    crew = tuple(CrewPlan(label, tuple(parse_action(token(c)) for c in row))
                 for label, row in zip(problem.labels, slots, strict=True))
    return Plan(crew, problem.draw, dict(problem.setup.trajectories), problem.seed)


def resolved_expectation(problem: Problem, plan: Plan, *, budget: int = FINAL_BUDGET,
                         max_runs: int = FINAL_RUNS) -> float:
    """Returns the plan's expected score replayed through the engine's ``resolve``.

    Every draw sequence the evaluator plays is forced into a copy of the plan (its ``tokens``)
    and resolved by the engine; the weighted mean of those scores must equal the evaluator's
    expected score (an independent check of the branching).
    """
    evaluator = Evaluator(problem.setup, problem.labels, budget=budget, sample_seed=problem.seed,
                          max_runs=max_runs)
    leaves: list[tuple[float, list[list[int]]]] = []
    evaluator.evaluate(encode_plan(plan), leaves)
    games = []
    for _, tokens in leaves:
        forced = {ZONES[z]: tuple(TOKEN_KINDS[k] for k in tokens[z]) for z in range(3)
                  if tokens[z]}
        games.append((problem.setup, dataclasses.replace(plan, tokens=forced)))
    total = 0.0
    # One batch call: the native engine core when it is built (the same results, faster).
    for (weight, _), result in zip(leaves, resolve_batch(games), strict=True):
        if result.survived and result.score is not None:
            total += weight * result.score.total
    return total
