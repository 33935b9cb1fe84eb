"""Inline suppression comments in mission files, and which of them did nothing.

Two directives, written as YAML comments::

    - {at: "0:05", incoming_data: {}}  # spacealert: disable=T104
    # spacealert: disable=T108,T113    (a comment line on its own: applies to the next line)
    # spacealert: disable-file=M112     (anywhere: applies to the whole file)

Codes may be full codes, prefixes (``T1``) or ``ALL``. A suppressed problem is dropped. A
directive code that suppressed nothing although its rules ran is reported by ``S201``
(unused-suppression); a malformed directive or an unknown code by ``S202``
(invalid-suppression).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from authoring.lint.problem import Problem

_DIRECTIVE = re.compile(r"^#\s*spacealert\s*:\s*(?P<body>.*)$")
_BODY = re.compile(r"^(?P<kind>disable|disable-file)\s*=\s*(?P<codes>[^#]*?)\s*$")
_CODE = re.compile(r"^(ALL|[A-Z][0-9]{0,3})$")


@dataclass(frozen=True)
class Directive:
    """One suppression comment: where it is written, what it covers, which codes."""

    line: int          # where the comment is (1-based)
    col: int
    target: int | None  # the line it covers; None for the whole file
    codes: tuple[str, ...]
    text: str


@dataclass(frozen=True)
class BadDirective:
    """A ``# spacealert:`` comment that cannot be understood."""

    line: int
    col: int
    message: str


def comment_start(line: str) -> int | None:
    """Returns the index of the ``#`` that starts a YAML comment on ``line``, if any.

    A ``#`` starts a comment at the line start or after whitespace, outside quoted scalars.
    """
    quote: str | None = None
    index = 0
    while index < len(line):
        char = line[index]
        if quote:
            if char == quote:
                if quote == "'" and index + 1 < len(line) and line[index + 1] == "'":
                    index += 2
                    continue
                quote = None
            elif char == "\\" and quote == '"':
                index += 2
                continue
        elif char in "'\"" and (index == 0 or line[index - 1] in " \t[{,:-"):
            quote = char
        elif char == "#" and (index == 0 or line[index - 1] in " \t"):
            return index
        index += 1
    return None


def parse_directives(text: str) -> tuple[list[Directive], list[BadDirective]]:
    """Finds every suppression directive in a mission file's text."""
    lines = text.splitlines()
    directives: list[Directive] = []
    bad: list[BadDirective] = []
    for number, line in enumerate(lines, start=1):
        if "spacealert" not in line:
            continue
        start = comment_start(line)
        if start is None:
            continue
        match = _DIRECTIVE.match(line[start:])
        if not match:
            continue
        col = start + 1
        body = _BODY.match(match.group("body").split("#", 1)[0].strip())
        if not body:
            bad.append(BadDirective(number, col, "malformed suppression comment "
                                    f"{line[start:].strip()!r}: expected "
                                    "'# spacealert: disable=CODE[,CODE]' or "
                                    "'# spacealert: disable-file=CODE[,CODE]'"))
            continue
        codes = tuple(c.strip().upper() for c in body.group("codes").split(",") if c.strip())
        wrong = [c for c in codes if not _CODE.match(c)]
        if wrong or not codes:
            bad.append(BadDirective(number, col, f"invalid code {wrong[0]!r} in suppression"
                                    if wrong else "suppression comment names no code"))
            continue
        target: int | None
        if body.group("kind") == "disable-file":
            target = None
        elif line[:start].strip():
            target = number
        else:
            target = _next_content_line(lines, number)
        directives.append(Directive(number, col, target, codes, line[start:].strip()))
    return directives, bad


def _next_content_line(lines: list[str], number: int) -> int:
    for later in range(number, len(lines)):
        stripped = lines[later].strip()
        if stripped and not stripped.startswith("#"):
            return later + 1
    return number


def _covers(code_selector: str, problem_code: str) -> bool:
    return code_selector == "ALL" or problem_code.startswith(code_selector)


@dataclass(frozen=True)
class SuppressionResult:
    """Problems that remain, and the directive codes that suppressed nothing."""

    kept: list[Problem]
    unused: list[tuple[Directive, str]]


def apply(problems: Iterable[Problem], directives: list[Directive],
          enabled: Collection[str]) -> SuppressionResult:
    """Drops suppressed problems and lists unused directive codes.

    A directive code counts as unused only if a rule it names ran (``enabled``): a
    suppression for rules that are all switched off may matter under another configuration.
    """
    used: set[tuple[int, str]] = set()
    kept: list[Problem] = []
    for problem in problems:
        suppressed = False
        for index, directive in enumerate(directives):
            if directive.target is not None and directive.target != problem.line:
                continue
            for code in directive.codes:
                if _covers(code, problem.code):
                    used.add((index, code))
                    suppressed = True
        if not suppressed:
            kept.append(problem)
    unused: list[tuple[Directive, str]] = []
    for index, directive in enumerate(directives):
        for code in directive.codes:
            if (index, code) in used:
                continue
            named = [c for c in enabled if _covers(code, c)]
            if named:
                unused.append((directive, code))
    return SuppressionResult(kept, unused)
