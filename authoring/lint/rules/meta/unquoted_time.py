"""Reports times written without quotes.

**What it does.** Flags every phase end and every event ``at:`` written as a plain (unquoted)
scalar such as ``at: 1:30``.

**Why it matters.** This toolkit reads YAML 1.2, where ``1:30`` is the string "1:30" and the
mission means what it says. YAML 1.1 tools (PyYAML, many editors' formatters, older
generators) read the same text as the base-60 number 90, so the file changes meaning, or
stops validating, as soon as one of them touches it. Quoted, ``"1:30"`` is a string
everywhere.

**Options.** None.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "1:30", incoming_data: {}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: 1:30, incoming_data: {}}  # <- S203
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.mission.load import Document

CODE = "S203"
NAME = "unquoted-time"
SEVERITY = "warning"
NEEDS = "document"
DEFAULTS: dict[str, object] = {}

HINT = 'quote it: YAML 1.1 tools read an unquoted 1:30 as the number 90'


def _plain_at(doc: Document, path: tuple[str | int, ...]) -> str | None:
    """The scalar's text when it is written without quotes at ``path``, else None."""
    line, col = doc.locate(path)
    lines = doc.text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1][col - 1:]
    if not text or text[0] in "\"'":
        return None
    return text.split(",")[0].split("}")[0].split("]")[0].split("#")[0].strip()


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding per time written as a plain scalar."""
    doc = ctx.document
    if doc is None or not doc.text:
        return
    paths: list[tuple[str | int, ...]] = [("phases", i) for i in range(len(doc.data["phases"]))]
    paths += [("events", i, "at") for i in range(len(doc.data["events"]))]
    for path in paths:
        plain = _plain_at(doc, path)
        if plain is not None:
            yield Finding(path, f"unquoted time {plain}: write it as \"{plain}\"", hint=HINT)
