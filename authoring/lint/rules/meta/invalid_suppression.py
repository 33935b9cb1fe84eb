"""Reports suppression comments that cannot be understood.

**What it does.** Flags a ``# spacealert:`` comment that is not
``disable=CODE[,CODE…]`` or ``disable-file=CODE[,CODE…]``, and codes that are neither ``ALL``
nor a code prefix such as ``T1`` or ``T104``.

**Why it matters.** A misspelt directive suppresses nothing, silently.

**Options.** None.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}  # spacealert: disable-file=T108

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}  # spacealert: ignore=T104  # <- S202
      - {at: "0:20", incoming_data: {}}  # spacealert: disable=early  # <- S202
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.suppress import parse_directives

CODE = "S202"
NAME = "invalid-suppression"
SEVERITY = "warning"
NEEDS = "document"
DEFAULTS: dict[str, object] = {}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding per malformed ``# spacealert:`` comment."""
    if ctx.document is None:
        return
    _, bad = parse_directives(ctx.document.text)
    for item in bad:
        yield Finding((), item.message, line=item.line, col=item.col,
                      hint="write '# spacealert: disable=T104' (or disable-file=…)")
