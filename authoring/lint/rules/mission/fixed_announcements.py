"""Reports phases too short to hold their fixed announcements.

**What it does.** Every phase has exactly one one-minute warning (at ``E - 60 s``), one
twenty-second warning (``E - 20 s``) and one end countdown (from ``E - 8 s``); the mission
start is announced at 0:00. The timeline compiler derives them, so they always exist — but in
a phase shorter than about 64 s the one-minute warning falls before the phase starts, on top
of the mission start or of the previous phase's closing line. This rule checks, on the
compiled timeline, that each phase's warning starts after the previous phase's closing line
(or the start announcement) has ended.

**Why it matters.** A lost or garbled warning is the best-known failure of published
generators (docs/soundtrack.md §6.2; lint checklist item 2).

**Options.** None.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events: []

Fails::

    phases: ["0:50", "4:30", "7:00"]  # <- M102
    events: []
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, phase_path
from authoring.lint.rule import Finding, Options
from authoring.mission.timecode import format_ms

CODE = "M102"
NAME = "fixed-announcements"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each phase whose one-minute warning comes too early."""
    cues = ctx.timeline.cues
    for phase in range(1, len(ctx.mission.phases) + 1):
        if phase == 1:
            before = [c for c in cues if c.kind == "mission_start"]
            what = "the mission start announcement"
        else:
            before = [c for c in cues if c.kind == "phase_ended" and c.phase == phase - 1]
            what = f"the end of phase {phase - 1}"
        warning = next(c for c in cues if c.kind == "warning" and c.phase == phase
                       and c.params.get("left") == "1min")
        free_from = max(c.nominal_end_ms for c in before)
        if warning.start_ms < free_from:
            length = ctx.mission.phases[phase - 1] - ctx.phase_start(phase)
            yield Finding(phase_path(phase),
                          f"phase {phase} lasts {length} s: its one-minute warning at "
                          f"{format_ms(warning.start_ms)} would start before {what} is over "
                          f"({format_ms(free_from)})",
                          hint="a phase needs at least 65 s to hold its warnings and countdown")
