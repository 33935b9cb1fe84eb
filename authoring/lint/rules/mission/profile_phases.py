"""Reports a phase count that does not fit the profile the mission is linted under.

**What it does.** Checks that the mission has 3 phases (2 under the ``test-run`` profile).
The validator already checks the count against the mission's own ``profile`` (``M001``); this
rule matters when ``--profile`` lints a mission under another profile. Phase ends that do
not increase, and a mission that does not start at 0:00, are validator problems (``M002``;
the start is fixed by the format).

**Why it matters.** Threat turns, warnings and the whole timing model are defined per phase
(docs/soundtrack.md §4, lint checklist item 1).

**Options.** None; the count comes from the profile (test-run 2, others 3).

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events: []

Fails (linted with ``--profile base``)::

    # lint-profile: base
    profile: test-run
    phases: ["4:10", "7:00"]  # <- M101
    events: []
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import PHASES_KEY
from authoring.mission.model import PHASE_COUNT

CODE = "M101"
NAME = "profile-phases"
SEVERITY = "error"
DEFAULTS: dict[str, object] = {}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding when the phase count differs from the lint profile's."""
    expected = PHASE_COUNT[ctx.profile]
    got = len(ctx.mission.phases)
    if got != expected:
        yield Finding(PHASES_KEY, f"the {ctx.profile} profile has {expected} phases, got "
                      f"{got} phase ends", key=True,
                      hint=f"lint it under its own profile ({ctx.mission.profile}) or "
                           f"give it {expected} phase ends")
