"""Reports spoken announcements that overlap on the compiled timeline.

**What it does.** Compiles the mission's soundtrack (with five players, so unconfirmed
reports are heard) and checks every pair of spoken cues — including the fixed ones: the
start, the warnings, the countdowns and the closing lines — for overlap, using the nominal
length of the official recording of each line (lint checklist item 8). Sound effects are
left to other rules: the transfer beep to ``T107``, the static of a communications-down to
``T112``.

**Why it matters.** Two lines spoken at once are lost; published generators key events by
second and silently drop one, or check only against the latest start (soundtrack.md §6.2).
Real synthesized lengths differ from the nominal ones: ``A101`` repeats this check with the
rendered voice.

**Options.**

* ``gap_ms`` — silence required between two spoken cues, in ms: ``0``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}
      - {at: "0:20", threat: {turn: 1, zone: red}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:15", incoming_data: {}}  # <- T106
      - {at: "3:00", comms_down: {seconds: 28}}  # <- T106
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from authoring.lint.context import LintContext, event_path, phase_path
from authoring.lint.rule import Finding, Options, PathStep
from authoring.mission.heard import heard
from authoring.mission.heard import overlaps as heard_overlaps
from authoring.mission.timecode import format_ms
from authoring.mission.timeline import Cue

CODE = "T106"
NAME = "overlapping-announcements"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {"gap_ms": 0}

_LABELS = {
    "mission_start": "the start announcement", "threat": "the threat announcement",
    "incoming_data": "'incoming data'", "data_transfer": "'data transfer'",
    "data_transfer_complete": "'data transfer complete'", "comms_down": "'communication "
    "system down'", "comms_restored": "'communications restored'", "countdown": "the "
    "countdown", "count": "the countdown", "phase_ended": "the phase-end line",
    "operation_ended": "'mission complete'", "announcement": "the announcement",
    "chirp": "the start chirp",
}


def cue_label(cue: Cue) -> str:
    """Names a cue for messages."""
    if cue.kind == "warning":
        return "the " + ("one-minute" if cue.params.get("left") == "1min" else
                         "twenty-second") + " warning"
    if cue.kind == "count" and cue.event is not None:
        return "the data-transfer countdown"
    if cue.kind == "threat":
        return f"the T+{cue.params['turn']} threat announcement"
    return _LABELS.get(cue.kind, cue.kind)


def cue_path(cue: Cue) -> tuple[PathStep, ...]:
    """Returns where a cue comes from in the mission file."""
    if cue.event is not None:
        return event_path(cue.event, "at")
    return phase_path(cue.phase)


def overlaps(cues: Sequence[Cue], lengths: Sequence[int] | None, gap_ms: int
             ) -> Iterator[tuple[Cue, Cue, int]]:
    """Yields (earlier, later, overlap in ms) for every overlapping pair of cues.

    ``lengths`` are the cues' measured lengths in ms, in the order of ``cues`` (``None``:
    nominal), through the one model of what is heard when (``authoring.mission.heard``).
    Cues of one event that follow each other by design (a countdown's numbers) are checked
    too: they only overlap when something is wrong.
    """
    for first, second, overlap in heard_overlaps(heard(cues, lengths), gap_ms=gap_ms):
        yield first.cue, second.cue, overlap


def spoken(cues: Sequence[Cue]) -> list[Cue]:
    """Returns the cues that are heard as speech (plus the start chirp)."""
    return [c for c in cues if c.speech or c.kind == "chirp"]


def _finding(first: Cue, second: Cue, overlap: int, what: str) -> Finding:
    # point at the mission event that can move: the later one if it is an event
    anchor = second if second.event is not None else first
    return Finding(cue_path(anchor),
                   f"{cue_label(second)} at {format_ms(second.start_ms)} overlaps "
                   f"{cue_label(first)} at {format_ms(first.start_ms)} by "
                   f"{overlap / 1000:.1f} s ({what})",
                   hint="move one of them; every announcement needs its own time")


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each overlapping pair of spoken cues (nominal lengths)."""
    cues = spoken(ctx.full_timeline.cues)
    seen: set[tuple[int | None, int | None, str, str]] = set()
    for first, second, overlap in overlaps(cues, None, int(options["gap_ms"])):
        key = (first.event, second.event, first.kind, second.kind)
        if key in seen:
            continue
        seen.add(key)
        yield _finding(first, second, overlap, "nominal lengths")
