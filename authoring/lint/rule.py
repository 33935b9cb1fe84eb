"""What a lint rule is: a module with a code, a name, a severity, options and ``check()``.

Each rule is one module under ``authoring/lint/rules/``. Its module docstring is its
documentation: what it reports, why it matters, its options with their defaults per profile,
and examples that pass and fail (the rule tests parse and run those examples, so the
documentation cannot drift from the behaviour). ``Rule.from_module`` reads the module's
constants into a value the registry holds.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, cast

from authoring.lint.problem import Severity
from authoring.mission.load import plain_data

if TYPE_CHECKING:
    from authoring.lint.context import LintContext

#: What a rule needs before it can run: the parsed document (with its comments), the built
#: mission (and its compiled timeline), the rules engine's simulation, rendered audio, or a
#: whole campaign (family C: its check takes a ``CampaignContext``).
Needs = Literal["document", "mission", "simulation", "audio", "campaign"]
Options = Mapping[str, Any]
PathStep = str | int


@dataclass(frozen=True)
class Finding:
    """What a rule reports: where (a JSON path into the mission file) and what is wrong.

    The linter adds the file, line, column, code, name and severity. ``key`` points at the
    mapping key rather than its value; ``line`` overrides the position for findings that are
    about a line of text (suppression comments).
    """

    path: tuple[PathStep, ...]
    message: str
    hint: str | None = None
    key: bool = False
    line: int | None = None
    col: int | None = None


Check = Callable[["LintContext", Options], Iterator[Finding]]


@dataclass(frozen=True)
class Example:
    """A docstring example: a mission snippet, its options, and the codes it must raise."""

    title: str
    snippet: str
    options: Mapping[str, Any]
    expected: tuple[tuple[int, str], ...]  # (1-based line in the snippet, code)
    profile: str | None = None  # lint under this profile instead of the mission's
    also_select: tuple[str, ...] = ()  # other rules the example needs to run

    @property
    def passes(self) -> bool:
        """Tells whether the example is one that must lint clean."""
        return not self.expected


@dataclass(frozen=True)
class Rule:
    """A registered rule: identity, default severity, needs, options per profile, check."""

    code: str
    name: str
    severity: Severity
    needs: Needs
    defaults: Mapping[str, Any]
    profiles: Mapping[str, Mapping[str, Any]]
    check: Check
    doc: str
    summary: str = field(default="")

    @classmethod
    def from_module(cls, module: ModuleType) -> Rule:
        """Builds a ``Rule`` from a rule module's constants and docstring."""
        doc = inspect.cleandoc(module.__doc__ or "")
        return cls(
            code=cast(str, module.CODE),
            name=cast(str, module.NAME),
            severity=cast(Severity, module.SEVERITY),
            needs=cast(Needs, getattr(module, "NEEDS", "mission")),
            defaults=dict(cast(Mapping[str, Any], getattr(module, "DEFAULTS", {}))),
            profiles=dict(cast(Mapping[str, Mapping[str, Any]], getattr(module, "PROFILES", {}))),
            check=cast(Check, module.check),
            doc=doc,
            summary=doc.splitlines()[0] if doc else "",
        )

    def options_for(self, profile: str,
                    overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Returns the rule's options for ``profile``, with configured ``overrides`` on top."""
        options = dict(self.defaults)
        options.update(self.profiles.get(profile, {}))
        if overrides:
            options.update(overrides)
        return options

    def examples(self) -> list[Example]:
        """Returns the PASS and FAIL examples written in the rule's docstring."""
        return parse_examples(self.doc)


_EXAMPLE_HEAD = re.compile(r"^(Passes|Fails)\b.*::\s*$")
_MARKER = re.compile(r"#\s*<-\s*([A-Z][0-9]{3}(?:\s*,\s*[A-Z][0-9]{3})*)\s*$")
_OPTIONS = re.compile(r"^#\s*options:\s*(\{.*\})\s*$")
_PROFILE = re.compile(r"^#\s*lint-profile:\s*([a-z-]+)\s*$")
_ALSO = re.compile(r"^#\s*also-select:\s*([A-Z0-9, ]+)$")


def parse_examples(doc: str) -> list[Example]:
    """Parses ``Passes::`` / ``Fails::`` literal blocks out of a rule docstring.

    A block is the indented text after the heading line. Its first line may be a comment
    ``# options: {name: value}`` (a YAML flow mapping of rule options) and a line may be
    ``# lint-profile: NAME`` (lint as with ``--profile NAME``) or ``# also-select: T104``
    (run another rule too, for rules about other rules); a trailing comment
    ``# <- T104`` marks a line where the example must raise that code (several codes are
    separated by commas).
    """
    from authoring.mission.load import parse_document  # the only YAML reader

    lines = doc.splitlines()
    examples: list[Example] = []
    index = 0
    while index < len(lines):
        head = _EXAMPLE_HEAD.match(lines[index].strip())
        if not head:
            index += 1
            continue
        title = lines[index].strip().removesuffix("::").strip()
        index += 1
        block: list[str] = []
        while index < len(lines) and (not lines[index].strip() or lines[index].startswith(" ")):
            block.append(lines[index])
            index += 1
        snippet = textwrap.dedent("\n".join(block)).strip("\n") + "\n"
        options: dict[str, Any] = {}
        expected: list[tuple[int, str]] = []
        profile: str | None = None
        also: tuple[str, ...] = ()
        for number, line in enumerate(snippet.splitlines(), start=1):
            extra = _ALSO.match(line.strip())
            if extra:
                also = tuple(c.strip() for c in extra.group(1).split(",") if c.strip())
            wanted = _PROFILE.match(line.strip())
            if wanted:
                profile = wanted.group(1)
            found = _OPTIONS.match(line.strip())
            if found:
                parsed = parse_document(found.group(1)).data
                options = {str(k): plain_data(v) for k, v in dict(parsed).items()}
            marker = _MARKER.search(line)
            if marker:
                expected.extend((number, c.strip()) for c in marker.group(1).split(","))
        examples.append(Example(title, snippet, options, tuple(sorted(expected)), profile,
                                also))
    return examples

