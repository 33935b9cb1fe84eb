"""Reports incoming-data and data-transfer counts outside the profile's norm.

**What it does.** Counts incoming data and data transfers in the whole mission and per
phase and compares them with the profile's ranges (lint checklist item 23). Each count out of
range is one finding.

**Why it matters.** Incoming data adds cards and transfers let the crew repair a bad hand:
both change how hard the mission is. The official missions have 2-3 incoming data and 3-4
transfers.

**Options** (``[min, max]``; per-phase tables have one range per phase, ``null`` to skip):

* ``incoming`` — base and training ``[2, 3]``, test-run ``[1, 2]``, double-action ``[1, 3]``.
* ``incoming_per_phase`` — base and training ``[[1, 3], [0, 2], [0, 1]]``, test-run
  ``[[0, 2], [0, 2]]``, double-action ``null``.
* ``transfers`` — base and training ``[3, 4]``, test-run ``[2, 3]``, double-action ``[4, 7]``.
* ``transfers_per_phase`` — base ``[[0, 1], [1, 2], [0, 2]]``, training
  ``[[0, 2], [1, 2], [0, 2]]`` (simulations 1 and 2 have two transfers in phase 1), test-run
  ``[[0, 2], [0, 2]]``, double-action ``[[1, 3], [1, 3], [1, 3]]``.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}
      - {at: "1:00", data_transfer: {}}
      - {at: "4:00", incoming_data: {}}
      - {at: "4:30", data_transfer: {}}
      - {at: "8:00", data_transfer: {}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:  # <- M113, M113, M113, M113
      - {at: "0:10", incoming_data: {}}
      - {at: "1:00", data_transfer: {}}
      - {at: "2:00", data_transfer: {}}
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import EVENTS_KEY, describe_range, in_range, of_kind, plural
from authoring.mission.model import DataTransfer, IncomingData

CODE = "M113"
NAME = "data-event-count"
SEVERITY = "warning"
DEFAULTS: dict[str, object] = {
    "incoming": [2, 3], "incoming_per_phase": [[1, 3], [0, 2], [0, 1]],
    "transfers": [3, 4], "transfers_per_phase": [[0, 1], [1, 2], [0, 2]],
}
PROFILES = {
    "training": {"transfers_per_phase": [[0, 2], [1, 2], [0, 2]]},
    "test-run": {"incoming": [1, 2], "incoming_per_phase": [[0, 2], [0, 2]],
                 "transfers": [2, 3], "transfers_per_phase": [[0, 2], [0, 2]]},
    "double-action": {"incoming": [1, 3], "incoming_per_phase": None,
                      "transfers": [4, 7], "transfers_per_phase": [[1, 3], [1, 3], [1, 3]]},
}


def _counted(count: int, label: str) -> str:
    # "incoming data" is a mass noun; "data transfer" counts
    return f"{count} {label}" if label == "incoming data" else plural(count, label)


def _check(ctx: LintContext, kind: type, label: str, total: Sequence[Any] | None,
           per_phase: Sequence[Any] | None) -> Iterator[Finding]:
    events = of_kind(ctx, kind)
    if not in_range(len(events), total):
        yield Finding(EVENTS_KEY, f"{_counted(len(events), label)} in the mission: expected "
                      f"{describe_range(total or [None, None])} for the {ctx.profile} profile",
                      key=True)
    if per_phase is None:
        return
    for phase, bounds in enumerate(per_phase, start=1):
        if phase > len(ctx.mission.phases):
            break
        count = sum(1 for _, e in events if ctx.mission.phase_of(e.at) == phase)
        if not in_range(count, bounds):
            yield Finding(EVENTS_KEY, f"{_counted(count, label)} in phase {phase}: expected "
                          f"{describe_range(bounds)}", key=True)


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding per count (total or per phase) outside its range."""
    yield from _check(ctx, IncomingData, "incoming data", options["incoming"],
                      options["incoming_per_phase"])
    yield from _check(ctx, DataTransfer, "data transfer", options["transfers"],
                      options["transfers_per_phase"])
