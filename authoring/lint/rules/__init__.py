"""The rule modules, listed explicitly (the registry is this tuple, not a directory scan).

Families: S (suppression bookkeeping and portable YAML; the validator's own S0xx/S1xx parse
and schema problems are reported before any rule runs), M (mission structure), T (timing),
A (audio), G (game simulation), C (campaigns: their check takes a ``CampaignContext`` and
runs once per campaign file, see ``authoring/lint/campaign.py``). Codes start at 101 within a
family so that they never collide with the validator's S001-S006, S100-S104, M001-M006 and
C001-C002.
"""

from __future__ import annotations

from types import ModuleType

from authoring.lint.rules.audio import audio_overlap
from authoring.lint.rules.campaign import (
    damaged_unsurvivable,
    difficulty_falls_off,
    repeated_mission,
)
from authoring.lint.rules.game import difficulty, undestroyable, unsurvivable
from authoring.lint.rules.meta import invalid_suppression, unquoted_time, unused_suppression
from authoring.lint.rules.mission import (
    adjacent_internal,
    comms_budget,
    crowded_zone,
    data_events,
    fixed_announcements,
    profile_phases,
    shared_turn,
    threat_balance,
    threat_mix,
    threat_order,
    threat_phase,
    threat_points,
    turn_window,
    unconfirmed_reports,
)
from authoring.lint.rules.timing import (
    ambush,
    close_events,
    close_threats,
    comms_conflict,
    crowded_transfer,
    early_event,
    first_threat,
    late_event,
    mission_length,
    off_grid,
    overlapping,
    phase_length,
    transfer_room,
)

RULE_MODULES: tuple[ModuleType, ...] = (
    unused_suppression,     # S201
    invalid_suppression,    # S202
    unquoted_time,          # S203
    profile_phases,         # M101
    fixed_announcements,    # M102
    threat_phase,           # M103
    threat_order,           # M104
    shared_turn,            # M105
    threat_points,          # M106
    threat_mix,             # M107
    unconfirmed_reports,    # M108
    turn_window,            # M109
    adjacent_internal,      # M110
    threat_balance,         # M111
    crowded_zone,           # M112
    data_events,            # M113
    comms_budget,           # M114
    mission_length,         # T101
    phase_length,           # T102
    off_grid,               # T103
    early_event,            # T104
    late_event,             # T105
    overlapping,            # T106
    crowded_transfer,       # T107
    close_events,           # T108
    first_threat,           # T109
    close_threats,          # T110
    ambush,                 # T111
    comms_conflict,         # T112
    transfer_room,          # T113
    unsurvivable,           # G101
    undestroyable,          # G102
    difficulty,             # G103
    audio_overlap,          # A101
    difficulty_falls_off,   # C101
    repeated_mission,       # C102
    damaged_unsurvivable,   # C103
)
