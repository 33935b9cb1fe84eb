"""Returns the calibration of each generator profile: the official figures it reproduces.

Every number here comes from docs/soundtrack.md §5 (statistics of the official
tracks) and ``official-missions.tsv``; the comment beside a table names the official figure it
is fitted to. Weights are relative (they need not sum to 1). Times are whole seconds.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from authoring.mission.model import Profile

Range = tuple[int, int]
Weights = Mapping[int, float]


@dataclass(frozen=True)
class ProfileSpec:
    """What a profile's missions look like: structure, threat mix, data and communications."""

    name: Profile
    phase_ranges: tuple[Range, ...]
    total_range: Range
    # threats
    threat_level: int                 # threat points including unconfirmed reports
    unconfirmed: int                  # points of unconfirmed reports
    threat_count: Range
    serious_weights: Weights          # serious-threat count -> weight
    internal_weights: Weights         # internal-threat count -> weight
    internal_points_max: int
    phase_turns: tuple[Range, ...]    # turns announced in each phase (empty phase: (0, -1))
    skip_weights: Weights             # turn -> weight of being left without a threat
    shared_turn_weights: Weights      # turns carrying two threats -> weight
    unconfirmed_serious_p: float      # chance that unconfirmed points go to a serious report
    # timing
    first_threat: tuple[Weights, ...]  # offset of a phase's first threat -> weight
    gap_weights: Weights               # threat start-to-start spacing -> weight
    min_threat_gap: int
    last_threat_max: tuple[int, ...]   # latest a phase's last threat may come before its end
    ambush_p: float                    # chance per threat phase of one late threat
    ambush_offsets: Weights            # seconds before the phase end -> weight
    end_margin: int                    # no event starts later than end - end_margin
    # data and communications
    incoming_totals: Weights
    incoming_caps: tuple[int, ...]
    incoming_phase_weights: tuple[float, ...]
    incoming_first_phase: int          # incoming data phase 1 always gets
    transfer_totals: Weights
    transfer_caps: tuple[int, ...]
    transfer_phase_weights: tuple[float, ...]
    transfer_mins: tuple[int, ...]      # transfers every phase gets
    transfer_last_phase_p: float       # chance that the last phase gets one more
    comms_totals: Weights              # total seconds of communications down -> weight
    comms_last_phase: Weights          # seconds of it in the last phase -> weight
    comms_phase_caps: tuple[int, ...]
    comms_count: Range
    comms_piece_weights: Weights       # piece length -> weight
    comms_piece_max: int

    @property
    def phases(self) -> int:
        """Returns the number of phases."""
        return len(self.phase_ranges)


# Threat spacing of the official missions: min 25, median 55, mean 55, max 90 s.
_GAPS: Weights = {25: 1, 30: 2, 35: 3, 40: 4, 45: 5, 50: 6, 55: 6, 60: 6, 65: 5, 70: 4,
                  75: 3, 80: 2, 85: 1.5, 90: 1}
# Comms-down piece lengths of the official missions: 5 s x3, 10 s x12, 15 s x3, 20 s x7,
# 25 s x2, 30 s x2.
_PIECES: Weights = {5: 3, 10: 12, 15: 3, 20: 7, 25: 2, 30: 2}

BASE = ProfileSpec(
    name="base",
    phase_ranges=((205, 240), (215, 235), (140, 155)),
    total_range=(580, 620),
    threat_level=8,                    # 7 confirmed + 1 unconfirmed in every mission
    unconfirmed=1,
    threat_count=(5, 7),
    # 1, 1, 2, 2, 2, 2, 3, 3; weighted against how often each mix needs a redraw
    serious_weights={1: 1.5, 2: 3.1, 3: 2.4},
    internal_weights={1: 3, 2: 5},       # 1-2 per mission, 13 in 8 missions
    internal_points_max=3,
    phase_turns=((1, 4), (5, 8), (0, -1)),
    # threats per turn over the 8 missions: T+1 4, T+2 5, T+3 8, T+4 7, T+5..8 6
    skip_weights={1: 4, 2: 3, 3: 0.25, 4: 1, 5: 2, 6: 2, 7: 2, 8: 2},
    shared_turn_weights={0: 1},
    unconfirmed_serious_p=0.0,         # always a normal report
    # phase 1: 10 s x6, 20 s x2; phase 2: 5, 5, 5, 10, 15, 15, 25, 40 s
    first_threat=({10: 6, 20: 2}, {5: 3, 10: 1.5, 15: 2, 20: 1, 25: 1, 30: 0.5, 35: 0.5, 40: 1},
                  {}),
    gap_weights=_GAPS,
    min_threat_gap=25,
    last_threat_max=(160, 140),  # phase 1: 55-160 s, phase 2: 55-140 s before the end
    ambush_p=0.21,                     # 3 of 16 threat phases (only phases with 3+ threats)
    ambush_offsets={55: 1},            # each exactly 55 s before the phase end
    end_margin=40,
    incoming_totals={2: 1, 3: 1},      # 2 x4, 3 x4
    incoming_caps=(3, 2, 1),
    incoming_phase_weights=(0.25, 0.55, 0.2),
    incoming_first_phase=1,
    transfer_totals={3: 1, 4: 1},      # 3 x4, 4 x4
    transfer_caps=(1, 2, 2),
    transfer_phase_weights=(0.45, 0.45, 0.1),
    transfer_mins=(0, 1, 0),
    transfer_last_phase_p=0.875,       # 7 of 8 missions
    comms_totals={45: 1, 50: 3, 55: 2, 60: 1, 65: 1},
    comms_last_phase={20: 1, 25: 0.5, 30: 4, 35: 2, 40: 1},
    comms_phase_caps=(25, 25, 40),
    comms_count=(2, 5),
    comms_piece_weights=_PIECES,
    comms_piece_max=30,
)

TRAINING = ProfileSpec(
    name="training",
    # simulations and advanced simulations: 3 phases, 10:00
    phase_ranges=((220, 250), (200, 230), (140, 150)),
    total_range=(600, 600),
    threat_level=6,                    # 5 confirmed + 1 unconfirmed
    unconfirmed=1,
    threat_count=(4, 5),
    serious_weights={1: 1, 2: 1},
    internal_weights={0: 3, 1: 1, 2: 2},
    internal_points_max=3,
    phase_turns=((1, 4), (5, 8), (0, -1)),
    skip_weights={1: 2, 2: 1, 3: 0.5, 4: 1, 5: 1, 6: 1.5, 7: 1, 8: 3},
    shared_turn_weights={0: 1},
    unconfirmed_serious_p=0.0,
    first_threat=({10: 4, 20: 2}, {5: 1, 10: 3, 15: 1, 20: 1, 30: 1, 35: 1}, {}),
    gap_weights=_GAPS,
    min_threat_gap=25,
    last_threat_max=(170, 150),
    ambush_p=0.0,
    ambush_offsets={55: 1},
    end_margin=40,
    incoming_totals={2: 1},
    incoming_caps=(1, 1, 1),
    incoming_phase_weights=(0.5, 0.5, 0.0),
    incoming_first_phase=1,
    transfer_totals={3: 1, 4: 4},
    transfer_caps=(2, 2, 2),
    transfer_phase_weights=(0.4, 0.4, 0.2),
    transfer_mins=(0, 1, 1),
    transfer_last_phase_p=1.0,
    comms_totals={25: 1, 30: 1, 40: 2, 45: 1, 55: 1},
    comms_last_phase={10: 2, 20: 2, 30: 1},
    comms_phase_caps=(15, 30, 30),
    comms_count=(2, 4),
    comms_piece_weights={5: 1, 10: 10, 15: 3, 20: 1, 30: 1},
    comms_piece_max=30,
)

TEST_RUN = ProfileSpec(
    name="test-run",
    # two phases, ends 4:10 / 3:40 and 7:00
    phase_ranges=((220, 250), (170, 200)),
    total_range=(420, 420),
    threat_level=3,                    # three normal external threats
    unconfirmed=0,
    threat_count=(3, 3),
    serious_weights={0: 1},
    internal_weights={0: 1},
    internal_points_max=0,
    phase_turns=((1, 4), (0, -1)),
    skip_weights={1: 0.5, 2: 0.5, 3: 1, 4: 1},
    shared_turn_weights={0: 1},
    unconfirmed_serious_p=0.0,
    first_threat=({10: 1, 15: 1}, {}),
    gap_weights=_GAPS,
    min_threat_gap=25,
    last_threat_max=(170,),
    ambush_p=0.0,
    ambush_offsets={55: 1},
    end_margin=40,
    incoming_totals={1: 1, 2: 1},
    incoming_caps=(1, 1),
    incoming_phase_weights=(0.5, 0.5),
    incoming_first_phase=0,
    transfer_totals={2: 1, 3: 1},
    transfer_caps=(2, 1),
    transfer_phase_weights=(0.5, 0.5),
    transfer_mins=(1, 1),
    transfer_last_phase_p=1.0,
    comms_totals={0: 1},
    comms_last_phase={0: 1},
    comms_phase_caps=(0, 0),
    comms_count=(0, 0),
    comms_piece_weights=_PIECES,
    comms_piece_max=30,
)

DOUBLE_ACTION = ProfileSpec(
    name="double-action",
    # 18 New Frontier tracks: 12:30-14:00; phases 280-310, 250-290, 210-270 s
    phase_ranges=((280, 310), (250, 290), (210, 270)),
    total_range=(750, 840),
    threat_level=12,                   # standard tracks: 10 confirmed + 2 unconfirmed
    unconfirmed=2,
    threat_count=(7, 10),
    serious_weights={2: 1, 3: 3, 4: 4, 5: 2},
    internal_weights={2: 2, 3: 2},
    internal_points_max=5,
    phase_turns=((1, 4), (5, 8), (0, -1)),
    skip_weights={1: 2, 2: 1, 3: 0.5, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1},
    # 26 shared turns in 18 tracks, at most 2 per track
    shared_turn_weights={0: 2, 1: 4, 2: 3},
    unconfirmed_serious_p=0.3,
    first_threat=({10: 4, 15: 3, 20: 2},
                  {5: 2, 10: 3, 15: 2, 20: 2, 25: 1, 30: 1, 40: 1, 50: 0.5, 65: 0.5}, {}),
    gap_weights={20: 1, 25: 2, 30: 3, 35: 4, 40: 5, 45: 5, 50: 5, 55: 4, 60: 3, 70: 2, 80: 1,
                 90: 1},
    min_threat_gap=20,
    last_threat_max=(180, 160),
    ambush_p=0.58,                     # 17 of 36 phases (shared last turns never ambush)
    ambush_offsets={45: 1, 50: 1, 55: 1},
    end_margin=35,
    incoming_totals={1: 1, 2: 2, 3: 1},
    incoming_caps=(2, 2, 1),
    incoming_phase_weights=(0.45, 0.45, 0.1),
    incoming_first_phase=1,
    transfer_totals={4: 1, 5: 2, 6: 3, 7: 1},
    transfer_caps=(3, 3, 3),
    transfer_phase_weights=(1.0, 1.0, 1.0),
    transfer_mins=(1, 1, 1),
    transfer_last_phase_p=1.0,
    comms_totals={45: 1, 50: 1, 55: 2, 60: 2, 65: 2, 70: 2, 75: 1, 80: 1, 85: 0.5, 90: 0.5,
                  95: 0.5},
    comms_last_phase={20: 2, 25: 1, 30: 3, 35: 1, 40: 2, 50: 1},
    comms_phase_caps=(30, 35, 50),
    comms_count=(3, 6),
    comms_piece_weights={5: 1, 10: 8, 15: 4, 20: 6, 25: 1, 30: 2},
    comms_piece_max=30,
)

PROFILE_SPECS: Mapping[str, ProfileSpec] = {
    "base": BASE, "training": TRAINING, "test-run": TEST_RUN, "double-action": DOUBLE_ACTION,
}


def profile_spec(name: str) -> ProfileSpec:
    """Returns the calibration of the profile called ``name``."""
    return PROFILE_SPECS[name]
