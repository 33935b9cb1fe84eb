"""Reports suppression comments that suppress nothing.

**What it does.** Flags each code of a ``# spacealert: disable=…`` or
``# spacealert: disable-file=…`` comment that matched no problem although a rule it names ran.
A code whose rules are all switched off by the configuration is left alone: it may matter
under another configuration.

**Why it matters.** A stale suppression hides the next real problem on that line and tells
readers something about the mission that is no longer true.

**Options.** None.

Passes::

    # also-select: T104
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:05", incoming_data: {}}  # spacealert: disable=T104

Fails::

    # also-select: T104
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}  # spacealert: disable=T104  # <- S201
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options

CODE = "S201"
NAME = "unused-suppression"
SEVERITY = "warning"
NEEDS = "document"
DEFAULTS: dict[str, object] = {}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding per unused directive code (the linter fills ``ctx.cache``)."""
    for directive, code in ctx.cache.get("unused", []):
        where = "this file" if directive.target is None else f"line {directive.target}"
        yield Finding((), f"unused suppression of {code}: no {code} problem on {where}",
                      hint="remove the code from the comment", line=directive.line,
                      col=directive.col)
