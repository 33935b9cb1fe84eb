"""Checks a generated mission against the bugs seen in published generators (docs/soundtrack.md §7).

The self-checks: the threat points placed equal the points requested (unconfirmed ones too);
no two sounds collide in the compiled five-player timeline, fixed announcements included; every
phase keeps its one-minute warning, twenty-second warning and countdown (the last phase's
too); nothing sounds after the mission end; events are a list in time order with no two on one
second. Returns readable problems; an empty list means the mission is sound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from authoring.crew import FULL_CREW
from authoring.mission.heard import Heard, heard, overlaps
from authoring.mission.model import CommsDown, Mission, Threat
from authoring.mission.timeline import Timeline, compile_timeline


def _overlaps(spans: Sequence[Heard]) -> list[str]:
    # parts of one announcement (a transfer's count, a comms-down's static) may overlap
    return [f"{a.cue.kind} at {a.start_ms} ms (until {a.end_ms} ms) overlaps {b.cue.kind} at "
            f"{b.start_ms} ms"
            for a, b, _ in overlaps(spans, same_event=False)]


def self_check(mission: Mission, points: int, unconfirmed: int,
               lengths: Callable[[Timeline], Sequence[int]] | None = None) -> list[str]:
    """Returns the self-check problems of a generated mission (none for a sound one).

    Sounds are checked for overlaps with their nominal lengths, or with the real lengths
    ``lengths(timeline)`` gives (one per cue of the five-player timeline: a voice's clips).
    """
    problems: list[str] = []
    threats = [e for e in mission.events if isinstance(e, Threat)]
    placed = sum(t.points for t in threats)
    if placed != points:
        problems.append(f"placed {placed} threat points, requested {points}")
    placed_unconfirmed = sum(t.points for t in threats if t.unconfirmed)
    if placed_unconfirmed != unconfirmed:
        problems.append(f"placed {placed_unconfirmed} unconfirmed points, requested {unconfirmed}")
    times = [e.at for e in mission.events]
    if times != sorted(times) or len(set(times)) != len(times):
        problems.append("events are not in strictly increasing time order")
    turns = [t.turn for t in threats]
    if turns != sorted(turns):
        problems.append("threats are not announced in turn order")
    end_ms = mission.length * 1000
    timeline = compile_timeline(mission, FULL_CREW)
    spans = heard(timeline.cues, None if lengths is None else lengths(timeline))
    for span in spans:
        if span.cue.event is not None and span.end_ms > end_ms - 8_000:
            problems.append(f"{span.cue.kind} of event {span.cue.event} runs into the final "
                            f"countdown or past the mission end")
    for event in mission.events:
        if isinstance(event, CommsDown) and mission.phase_of(event.at) != mission.phase_of(
                event.end - 1):
            problems.append(f"communications down at {event.at} s crosses a phase end")
    announced: dict[object, list[tuple[str, str]]] = {}  # phase -> its fixed announcements
    for cue in timeline.cues:
        if cue.event is None:
            announced.setdefault(cue.params.get("phase"), []).append(
                (cue.kind, str(cue.params.get("left", ""))))
    for phase in range(1, len(mission.phases) + 1):
        kinds = sorted(announced.get(phase, []))
        expected = sorted([("warning", "1min"), ("warning", "20s"), ("countdown", ""),
                           ("operation_ended" if phase == len(mission.phases)
                            else "phase_ended", "")])
        if kinds != expected:
            problems.append(f"phase {phase} announcements are {kinds}, expected {expected}")
    problems.extend(_overlaps(spans))
    return problems
