"""Measures the statistics of missions that the generator is calibrated to (docs/soundtrack.md §5).

``mission_stats`` returns one flat record per mission; ``OFFICIAL_RANGES`` gives, per profile,
the range each quantity takes over the official tracks (base missions 1-8, the training and
test-run tracks, the aggregate double-action figures). The distribution test and
``bench/generate.py`` compare generated missions against these ranges.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from itertools import pairwise

from authoring.mission.model import CommsDown, DataTransfer, IncomingData, Mission, Threat

Bounds = tuple[int, int]


@dataclass(frozen=True)
class MissionStats:
    """The calibrated quantities of one mission (seconds for times)."""

    threats: int
    serious: int
    internal: int
    internal_points: int
    points: int
    unconfirmed: int
    length: int
    phase1: int
    phase2: int
    phase3: int
    incoming: int
    transfers: int
    comms_count: int
    comms_total: int
    comms_last_phase: int
    first_threat_p1: int
    first_threat_p2: int
    min_threat_gap: int
    max_threat_gap: int
    last_threat_p1: int
    last_threat_p2: int
    ambushes: int
    threat_phases: int
    shared_turns: int

    def as_dict(self) -> dict[str, int]:
        """Returns the record as a plain mapping."""
        return asdict(self)


def mission_stats(mission: Mission) -> MissionStats:
    """Returns the statistics of ``mission`` (-1 where a quantity does not apply)."""
    threats = [e for e in mission.events if isinstance(e, Threat)]
    downs = [e for e in mission.events if isinstance(e, CommsDown)]
    starts = [mission.phase_start(p) for p in range(1, len(mission.phases) + 1)]
    lengths = [end - start for start, end in zip(starts, mission.phases, strict=True)]
    lengths += [-1] * (3 - len(lengths))

    def first_in(phase: int) -> int:
        found = [t.at for t in threats if mission.phase_of(t.at) == phase]
        return found[0] - mission.phase_start(phase) if found else -1

    def last_in(phase: int) -> int:
        found = [t.at for t in threats if mission.phase_of(t.at) == phase]
        return mission.phases[phase - 1] - found[-1] if found else -1

    gaps = [b.at - a.at for a, b in pairwise(threats)
            if mission.phase_of(a.at) == mission.phase_of(b.at)]
    ambushes = sum(1 for t in threats if 0 < mission.phases[mission.phase_of(t.at) - 1] - t.at
                   < 60)
    turns = [t.turn for t in threats]
    last = len(mission.phases)
    return MissionStats(
        threats=len(threats),
        serious=sum(1 for t in threats if t.serious),
        internal=sum(1 for t in threats if t.internal),
        internal_points=sum(t.points for t in threats if t.internal),
        points=sum(t.points for t in threats),
        unconfirmed=sum(1 for t in threats if t.unconfirmed),
        length=mission.length,
        phase1=lengths[0], phase2=lengths[1], phase3=lengths[2],
        incoming=sum(1 for e in mission.events if isinstance(e, IncomingData)),
        transfers=sum(1 for e in mission.events if isinstance(e, DataTransfer)),
        comms_count=len(downs),
        comms_total=sum(d.seconds for d in downs),
        comms_last_phase=sum(d.seconds for d in downs if mission.phase_of(d.at) == last),
        first_threat_p1=first_in(1),
        first_threat_p2=first_in(2) if len(mission.phases) > 2 else -1,
        min_threat_gap=min(gaps, default=-1),
        max_threat_gap=max(gaps, default=-1),
        last_threat_p1=last_in(1),
        last_threat_p2=last_in(2) if len(mission.phases) > 2 else -1,
        ambushes=ambushes,
        threat_phases=len({mission.phase_of(t.at) for t in threats}),
        shared_turns=len({t for t in turns if turns.count(t) > 1}),
    )


#: The range of each quantity over the official tracks of each profile (docs/soundtrack.md §5).
OFFICIAL_RANGES: Mapping[str, Mapping[str, Bounds]] = {
    "base": {
        "threats": (5, 7), "serious": (1, 3), "internal": (1, 2), "internal_points": (1, 3),
        "points": (8, 8), "unconfirmed": (1, 1), "length": (580, 620), "phase1": (205, 240),
        "phase2": (215, 235), "phase3": (140, 155), "incoming": (2, 3), "transfers": (3, 4),
        "comms_count": (2, 5), "comms_total": (45, 65), "comms_last_phase": (20, 40),
        "first_threat_p1": (10, 20), "first_threat_p2": (5, 40), "min_threat_gap": (25, 90),
        "max_threat_gap": (25, 90), "last_threat_p1": (55, 160), "last_threat_p2": (55, 140),
    },
    "training": {
        "threats": (4, 5), "serious": (1, 2), "internal": (0, 2), "points": (6, 6),
        "unconfirmed": (1, 1), "length": (600, 600), "phase1": (220, 250),
        "phase2": (200, 230), "phase3": (140, 150), "incoming": (2, 2), "transfers": (3, 5),
        "comms_total": (25, 55), "comms_last_phase": (10, 30), "first_threat_p1": (10, 20),
    },
    "test-run": {
        "threats": (3, 3), "serious": (0, 0), "internal": (0, 0), "points": (3, 3),
        "unconfirmed": (0, 0), "length": (420, 420), "phase1": (220, 250),
        "phase2": (170, 200), "incoming": (1, 2), "transfers": (2, 3), "comms_count": (0, 0),
    },
    "double-action": {
        "threats": (7, 10), "points": (10, 12), "unconfirmed": (1, 3), "length": (750, 840),
        "phase1": (280, 310), "phase2": (250, 290), "phase3": (210, 270), "incoming": (1, 3),
        "transfers": (4, 7), "comms_count": (3, 6), "comms_total": (45, 95),
        "min_threat_gap": (20, 90), "shared_turns": (0, 2),
    },
}

#: Late threats ("ambushes") per phase that holds threats: official 3 of 16, DA 17 of 36.
OFFICIAL_AMBUSH_RATE: Mapping[str, float] = {"base": 3 / 16, "double-action": 17 / 36,
                                             "training": 0.0, "test-run": 0.0}
