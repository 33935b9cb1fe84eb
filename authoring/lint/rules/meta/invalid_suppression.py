"""Reports suppression comments that cannot be understood.

**What it does.** Flags a ``# spacealert:`` comment that is not
``disable=CODE[,CODE…]`` or ``disable-file=CODE[,CODE…]``, and codes that are neither ``ALL``
nor a prefix of a known rule code such as ``T1`` or ``T104``.

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
      - {at: "0:30", incoming_data: {}}  # spacealert: disable=X12  # <- S202
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options

CODE = "S202"
NAME = "invalid-suppression"
SEVERITY = "warning"
NEEDS = "document"
DEFAULTS: dict[str, object] = {}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding per malformed ``# spacealert:`` comment."""
    if ctx.document is None:
        return
    from authoring.lint.registry import VALIDATOR_CODES, all_rules  # the registry lists us

    known = [*all_rules(), *VALIDATOR_CODES]
    directives, bad = ctx.directives
    for item in bad:
        yield Finding((), item.message, line=item.line, col=item.col,
                      hint="write '# spacealert: disable=T104' (or disable-file=…)")
    for directive in directives:
        for code in directive.codes:
            if code != "ALL" and not any(k.startswith(code) for k in known):
                yield Finding((), f"unknown rule code {code!r} in suppression comment",
                              line=directive.line, col=directive.col,
                              hint="run 'spacealert rules' to list every rule")
