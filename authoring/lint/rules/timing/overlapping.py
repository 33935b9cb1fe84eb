"""Reports spoken announcements that overlap on the compiled timeline.

**What it does.** Compiles the mission's soundtrack (with five players, so unconfirmed
reports are heard) and checks every pair of spoken cues — including the fixed ones: the
start, the warnings, the countdowns and the closing lines — for overlap, using the nominal
length of the official recording of each line (lint checklist item 8). Sound effects are
left to other rules: the transfer beep to ``T107``, the static of a communications-down to
``T112``. Overlapping cues form clusters; a cluster of more than four announcements is
reported once (how many, from when, the first few) instead of pair by pair.

**Why it matters.** Two lines spoken at once are lost; published generators key events by
second and silently drop one, or check only against the latest start (docs/soundtrack.md §6.2).
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
#: A cluster of up to this many announcements is reported pair by pair (each finding names
#: the two to pull apart); a larger one is a single finding, not every pair.
MAX_CLUSTER = 4

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


def overlap_clusters(cues: Sequence[Cue], lengths: Sequence[int], gap_ms: int
                     ) -> Iterator[list[tuple[Cue, Cue, int]]]:
    """Yields the overlapping pairs of ``overlaps`` grouped by cluster.

    A cluster is a run of cues (in start order) where each one starts before some earlier
    cue of the run has ended; every overlapping pair lies inside one cluster. Two hundred
    announcements at one second are one cluster of 19,900 pairs, reported once.
    """
    spans = sorted(zip(cues, lengths, strict=True), key=lambda p: p[0].start_ms)
    run: list[tuple[Cue, int]] = []
    reach = 0
    for cue, length in [*spans, (None, 0)]:
        if run and (cue is None or cue.start_ms >= reach):
            if len(run) > 1:
                pairs = list(overlaps([c for c, _ in run], [n for _, n in run], gap_ms))
                if pairs:
                    yield pairs
            run = []
        if cue is None:
            break
        end = cue.start_ms + length + gap_ms
        reach = max(reach, end) if run else end
        run.append((cue, length))


def distinct_pairs(pairs: Sequence[tuple[Cue, Cue, int]]) -> list[tuple[Cue, Cue, int]]:
    """Drops repeats of a pair of events (a countdown's numbers overlap one cue alike)."""
    seen: set[tuple[int | None, int | None, str, str]] = set()
    kept: list[tuple[Cue, Cue, int]] = []
    for first, second, overlap in pairs:
        key = (first.event, second.event, first.kind, second.kind)
        if key not in seen:
            seen.add(key)
            kept.append((first, second, overlap))
    return kept


def _cluster_cues(pairs: Sequence[tuple[Cue, Cue, int]]) -> list[Cue]:
    found: dict[int, Cue] = {}
    for first, second, _ in pairs:
        found.setdefault(id(first), first)
        found.setdefault(id(second), second)
    return sorted(found.values(), key=lambda c: c.start_ms)


def cluster_size(pairs: Sequence[tuple[Cue, Cue, int]]) -> int:
    """Returns how many cues the overlapping pairs of one cluster involve."""
    return len(_cluster_cues(pairs))


def cluster_message(pairs: Sequence[tuple[Cue, Cue, int]], what: str
                    ) -> tuple[tuple[PathStep, ...], str]:
    """Returns where to point and what to say for a cluster of many overlapping cues."""
    cues = _cluster_cues(pairs)
    named = ", ".join(f"{cue_label(c)} at {format_ms(c.start_ms)}" for c in cues[:3])
    more = f" and {len(cues) - 3} more" if len(cues) > 3 else ""
    anchor = next((c for c in cues[1:] if c.event is not None), cues[0])
    return cue_path(anchor), (f"{len(cues)} announcements overlap ({len(pairs)} pairs) from "
                              f"{format_ms(cues[0].start_ms)}: {named}{more} ({what})")


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
    """Yields a finding for each overlapping pair of spoken cues (nominal lengths), or one for a
    cluster of more than two pairs."""
    cues = spoken(ctx.full_timeline.cues)
    for cluster in overlap_clusters(cues, [c.nominal_ms for c in cues], int(options["gap_ms"])):
        pairs = distinct_pairs(cluster)
        if cluster_size(pairs) <= MAX_CLUSTER:
            for first, second, overlap in pairs:
                yield _finding(first, second, overlap, "nominal lengths")
            continue
        path, message = cluster_message(pairs, "nominal lengths")
        yield Finding(path, message, hint="space them out; every announcement needs its own "
                                          "time")
