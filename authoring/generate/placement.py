"""Places events on the mission clock so that no two sounds ever overlap, by construction.

Every length used here is read from the compiled timeline (``compile_timeline``): the fixed
announcements of a phase skeleton (start, warnings, countdowns, phase ends) and, for each
event, the span from its start to the nominal end of its last cue (a data transfer's closing
line, a communications-down's "restored"; an unconfirmed report's "Unconfirmed report" words are
part of its threat cue).

A time is free for an event when, on the 5-second grid, the event's sound keeps a guard from
every fixed cue and from every placed event's *hold*: the time after an event's start during
which nothing else may start (its span plus the guard, rounded up to the grid, never less than
the 10-second minimum gap of the official tracks, 15 seconds after a data transfer).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

from authoring.crew import FULL_CREW
from authoring.mission.model import (
    CommsDown,
    DataTransfer,
    Event,
    IncomingData,
    Mission,
    Threat,
)
from authoring.mission.timeline import compile_timeline

GRID = 5
GUARD_MS = 500                  # silence kept between two sounds
MIN_GAP = 10                    # smallest start-to-start gap of the official tracks
TRANSFER_GAP = 15               # lint item 26: next event >= 15 s after a transfer
FIRST_EVENT = 10                # no event before 0:10 (lint item 6)
WARNING_LEAD = 60               # the one-minute warning starts 60 s before the phase end
_PROBE_AT = 100


def _ceil_grid(ms: int) -> int:
    """Returns ``ms`` in whole seconds rounded up to the 5-second grid."""
    seconds = -(-ms // 1000)
    return -(-seconds // GRID) * GRID


def _grid_up(seconds: int) -> int:
    """Returns the first grid time at or after ``seconds``."""
    return -(-seconds // GRID) * GRID


def normalised(event: Event) -> Event:
    """Returns ``event`` at time 0, the key under which its lengths are cached."""
    return event if event.at == 0 else _at(event, 0)


@functools.lru_cache(maxsize=512)
def event_span_ms(event: Event) -> int:
    """Returns how long ``event`` sounds, from its start to the end of its last cue (in ms).

    Only the kind and parameters of ``event`` count, not its time.
    """
    probe = _at(event, _PROBE_AT)
    mission = Mission(id="probe", title="probe", profile="base", players=5,
                      phases=(300, 600, 900), events=(probe,))
    cues = [c for c in compile_timeline(mission, FULL_CREW).cues if c.event == 0]
    return max(c.nominal_end_ms for c in cues) - _PROBE_AT * 1000


def _at(event: Event, at: int) -> Event:
    if isinstance(event, Threat):
        return Threat(at, event.turn, event.zone, event.serious, event.unconfirmed)
    if isinstance(event, CommsDown):
        return CommsDown(at, event.seconds)
    if isinstance(event, DataTransfer):
        return DataTransfer(at)
    if isinstance(event, IncomingData):
        return IncomingData(at)
    raise TypeError(f"the generator does not place {type(event).__name__}")


def moved(event: Event, at: int) -> Event:
    """Returns ``event`` at time ``at``."""
    return _at(event, at)


@functools.lru_cache(maxsize=512)
def _hold(event: Event) -> int:
    floor = TRANSFER_GAP if isinstance(event, DataTransfer) else MIN_GAP
    return max(floor, _ceil_grid(event_span_ms(event) + GUARD_MS))


def hold_seconds(event: Event) -> int:
    """Returns how long after ``event`` starts nothing else may start."""
    return _hold(normalised(event))


@functools.lru_cache(maxsize=512)
def _room(event: Event) -> tuple[int, int]:
    # (span in ms, hold in s) of an event at 0: one cache look-up (one hash of the event)
    # for the two questions every placement test asks
    return event_span_ms(event), _hold(event)


@functools.lru_cache(maxsize=4096)
def fixed_intervals(phases: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Returns (start_ms, end_ms) of every fixed announcement of a phase skeleton."""
    skeleton = Mission(id="skeleton", title="skeleton", profile="base", players=5,
                       phases=phases, events=())
    return tuple((c.start_ms, c.nominal_end_ms) for c in compile_timeline(skeleton, FULL_CREW).cues)


@functools.lru_cache(maxsize=8192)
def _clear_of_fixed(phases: tuple[int, ...], end_margin: int, phase: int,
                    span: int) -> tuple[int, ...]:
    """Returns the grid times of ``phase`` where a sound of ``span`` ms may start: inside the
    phase's bounds and keeping its guard from every fixed announcement.

    Cached: the events of one mission ask it again and again with the same few spans.
    """
    start = 0 if phase == 1 else phases[phase - 2]
    first = max(FIRST_EVENT, _grid_up(start))
    last = phases[phase - 1] - end_margin
    blocked: set[int] = set()
    for a, b in fixed_intervals(phases):
        # t is blocked when t*1000 + span + GUARD > a and t*1000 < b + GUARD
        low = (a - span - GUARD_MS) // 1000 + 1
        high = -(-(b + GUARD_MS) // 1000) - 1
        if high < first or low > last:
            continue
        blocked.update(range(_grid_up(max(low, first)), min(high, last) + 1, GRID))
    return tuple(t for t in range(first, last + 1, GRID) if t not in blocked)


class Slot(NamedTuple):
    """A placed event with the room it keeps (a named tuple: made for every event placed)."""

    at: int
    event: Event
    hold: int


class Board:
    """The mission clock being filled: fixed cues plus placed events."""

    def __init__(self, phases: tuple[int, ...], end_margin: int) -> None:
        self.phases = phases
        self.end_margin = end_margin
        self.fixed = fixed_intervals(phases)
        self.slots: list[Slot] = []

    def phase_bounds(self, phase: int) -> tuple[int, int]:
        """Returns (start, end) of the 1-based ``phase`` in seconds."""
        start = 0 if phase == 1 else self.phases[phase - 2]
        return start, self.phases[phase - 1]

    def clear_of_fixed(self, at: int, event: Event) -> bool:
        """Tells whether ``event`` at ``at`` keeps its guard from every fixed announcement."""
        start = at * 1000
        end = start + event_span_ms(normalised(event))
        return all(end + GUARD_MS <= a or start >= b + GUARD_MS for a, b in self.fixed)

    def clear_of_events(self, at: int, hold: int) -> bool:
        """Tells whether an event at ``at`` holding ``hold`` s keeps clear of the placed ones."""
        return all(at >= s.at + s.hold or at + hold <= s.at for s in self.slots)

    def fits(self, at: int, event: Event) -> bool:
        """Tells whether ``event`` may start at ``at`` (grid, bounds, fixed cues, events)."""
        span, hold = _room(normalised(event))
        # the grid times of its phase that are in bounds and clear of the fixed cues
        allowed = _clear_of_fixed(self.phases, self.end_margin, self._phase_of(at), span)
        return at in allowed and self.clear_of_events(at, hold)

    def free_times(self, event: Event, phase: int) -> list[int]:
        """Returns every time in ``phase`` where ``event`` fits, in increasing order.

        Same answer as testing ``fits`` at every grid time, computed from blocked ranges.
        """
        span, hold = _room(normalised(event))
        candidates = _clear_of_fixed(self.phases, self.end_margin, phase, span)
        if not candidates:
            return []
        first, last = candidates[0], candidates[-1]
        # only grid times can be chosen, so only they are marked
        blocked: set[int] = set()
        for slot in self.slots:
            if slot.at + slot.hold <= first or slot.at - hold >= last:
                continue
            blocked.update(range(_grid_up(slot.at - hold + 1), slot.at + slot.hold, GRID))
        return [t for t in candidates if t not in blocked]

    def latest_before_warning(self, event: Event, phase: int) -> int:
        """Returns the latest grid time where ``event`` ends before the one-minute warning."""
        _, end = self.phase_bounds(phase)
        span = event_span_ms(normalised(event))
        latest_ms = (end - WARNING_LEAD) * 1000 - GUARD_MS - span
        return (latest_ms // 1000) // GRID * GRID

    def place(self, at: int, event: Event) -> Event:
        """Puts ``event`` at ``at`` and returns it with its time."""
        placed = _at(event, at)
        self.slots.append(Slot(at, placed, hold_seconds(event)))
        return placed

    def _phase_of(self, at: int) -> int:
        for index, end in enumerate(self.phases, start=1):
            if at < end:
                return index
        return len(self.phases)
