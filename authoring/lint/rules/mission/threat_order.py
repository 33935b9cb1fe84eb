"""Reports threat announcements that go back in turn order.

**What it does.** Threats must be announced in non-decreasing T+ order (lint checklist item
11): a T+3 announced after a T+4 is flagged at the later announcement.

**Why it matters.** Officers put the T+ token on each card as it is announced; a threat for
an earlier turn after a later one reads as a mistake and breaks the draw order the crew
expects (official tracks never do it).

**Options.** None.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: red}}
      - {at: "1:00", threat: {turn: 2, zone: internal}}
      - {at: "2:00", threat: {turn: 3, zone: blue}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 3, zone: red}}
      - {at: "1:00", threat: {turn: 2, zone: blue}}  # <- M104
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats

CODE = "M104"
NAME = "threats-out-of-turn-order"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat with a lower turn than one announced before it."""
    latest: tuple[int, int] | None = None  # (turn, at)
    for index, threat in threats(ctx):
        if latest is not None and threat.turn < latest[0]:
            yield Finding(event_path(index, "threat", "turn"),
                          f"T+{threat.turn} announced at {clock(threat.at)} after T+{latest[0]} "
                          f"at {clock(latest[1])}: expected non-decreasing turns",
                          hint="swap the turns or the announcement times")
        if latest is None or threat.turn >= latest[0]:
            latest = (threat.turn, threat.at)
