"""Reports turns that carry more threats than the profile allows.

**What it does.** In the base game every turn carries at most one threat. Double-action
tracks allow two threats on a turn, but then exactly one internal and one external, announced
separately 20-90 s apart (lint checklist item 12).

**Why it matters.** Two threats on one turn resolve in the same step; the base game's
difficulty and its cards assume one. On double-action tracks the 20-90 s spacing gives the
officers time to place each card.

**Options.**

* ``max_per_turn`` — base, training, test-run ``1``; double-action ``2``.
* ``pair_gap`` — ``[min, max]`` seconds between the two announcements of a shared turn
  (double-action ``[20, 90]``; ``null`` elsewhere, where pairs are not allowed).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: blue}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: internal}}  # <- M105

Passes (double-action)::

    profile: double-action
    phases: ["5:00", "9:30", "13:30"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: internal}}

Fails (double-action: two external threats, then a pair too close)::

    profile: double-action
    phases: ["5:00", "9:30", "13:30"]
    events:
      - {at: "0:10", threat: {turn: 2, zone: red}}
      - {at: "0:40", threat: {turn: 2, zone: blue}}  # <- M105
      - {at: "1:30", threat: {turn: 3, zone: red}}
      - {at: "1:40", threat: {turn: 3, zone: internal}}  # <- M105
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator

from authoring.lint.context import LintContext, clock, event_path
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import threats
from authoring.mission.model import Threat

CODE = "M105"
NAME = "shared-threat-turn"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {"max_per_turn": 1, "pair_gap": None}
PROFILES = {"double-action": {"max_per_turn": 2, "pair_gap": [20, 90]}}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each threat beyond the allowed count or pairing of its turn."""
    by_turn: dict[int, list[tuple[int, Threat]]] = defaultdict(list)
    for index, threat in threats(ctx):
        by_turn[threat.turn].append((index, threat))
    limit = int(options["max_per_turn"])
    gap = options["pair_gap"]
    for turn, group in sorted(by_turn.items()):
        _, first = group[0]
        for position, (index, threat) in enumerate(group[1:], start=2):
            where = event_path(index, "threat", "turn")
            if position > limit:
                yield Finding(where, f"threat number {position} on turn T+{turn} (at "
                              f"{clock(threat.at)}): expected at most {limit} per turn",
                              hint="move it to a free turn")
            elif threat.internal == first.internal:
                side = "internal" if threat.internal else "external"
                yield Finding(where, f"two {side} threats on turn T+{turn} (at {clock(first.at)} "
                              f"and {clock(threat.at)}): expected one internal and one external")
            elif gap is not None and not gap[0] <= threat.at - first.at <= gap[1]:
                yield Finding(where, f"the two threats of turn T+{turn} are announced "
                              f"{threat.at - first.at} s apart: expected {gap[0]}-{gap[1]} s")
