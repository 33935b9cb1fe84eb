"""Draws a mission's threat cards and trajectories for the answer key, with the engine's draw.

The engine's ``setup_from_mission`` owns the seeded draw (per pile: external/internal x
normal/serious, pinned cards kept out of the piles; unpinned trajectories four different boards
of T1-T7), so ``--seed N`` on the answer key gives the very cards the engine, the linter's
simulation and any other tool deal for seed N. Same mission, player count and seed → same draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from authoring.crew import CrewSize
from authoring.engine import EngineError, Plan, make_crew_plan, setup_from_mission
from authoring.errors import InvalidInputError
from authoring.mission.model import Mission, Threat
from authoring.render.cards import CardFace, pinned_face, played_threats


@dataclass(frozen=True)
class DrawnThreat:
    """One announced threat with the card it gets and the board it travels on."""

    threat: Threat
    card: CardFace
    trajectory: str
    pinned: bool
    bonus: str | None = None  # a carrier's bonus threat card (docs/rules.md §19.8)


@dataclass(frozen=True)
class Draw:
    """The cards and trajectories of one play of a mission."""

    seed: int | None
    trajectories: Mapping[str, str]
    trajectories_pinned: bool
    threats: tuple[DrawnThreat, ...]


def needs_seed(mission: Mission, crew: CrewSize) -> bool:
    """Tells whether anything of the mission is left to chance (an unpinned card or board)."""
    return mission.trajectories is None or any(
        t.card is None for t in played_threats(mission, crew))


def empty_plan(crew: CrewSize, seed: int) -> Plan:
    """Returns a plan with no actions for ``crew``: its players (P rows), then its androids,
    so that the engine plays unconfirmed reports exactly when the soundtrack announces them."""
    return Plan(crew=tuple(make_crew_plan(label, "") for label in crew.labels()), seed=seed)


def draw_mission(mission: Mission, faces: Mapping[str, CardFace], *, crew: CrewSize,
                 seed: int | None) -> Draw:
    """Returns the cards and boards of one play; ``seed`` may be None only if all is pinned."""
    if seed is None and needs_seed(mission, crew):
        raise ValueError("a seed is needed: the mission leaves cards or trajectories to chance")
    threats = played_threats(mission, crew)
    for threat in threats:
        if threat.card:
            pinned_face(threat, faces, mission)  # a located message before the engine's
    try:
        setup = setup_from_mission(mission, empty_plan(crew, seed or 0))
    except EngineError as error:
        raise InvalidInputError(f"{mission.source or mission.id}: {error}") from None
    if len(setup.threats) != len(threats):  # the engine and the timeline disagree on who plays
        raise AssertionError(f"engine drew {len(setup.threats)} threats, expected {len(threats)}")
    drawn = tuple(
        DrawnThreat(threat, faces[event.card], setup.trajectories[threat.zone],
                    threat.card is not None, event.bonus)
        for threat, event in zip(threats, setup.threats, strict=True))
    return Draw(seed, dict(setup.trajectories), mission.trajectories is not None, drawn)
