"""Helpers for the lint tests: build a mission from a docstring snippet and lint it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from authoring.lint import LintConfig, Linter
from authoring.lint.problem import Problem
from authoring.mission.load import parse_document

HEADER = {"format": "1", "id": "example", "title": "Example", "profile": "base",
          "players": "5"}


def complete(snippet: str) -> str:
    """Appends the header keys a snippet leaves out (after it, so its line numbers hold)."""
    present = {line.split(":", 1)[0].strip() for line in snippet.splitlines()
               if line and not line.startswith((" ", "#", "-"))}
    extra = [f"{key}: {value}" for key, value in HEADER.items() if key not in present]
    return snippet + "\n".join(extra) + "\n"


def lint_text(text: str, select: Iterable[str], *, options: Mapping[str, Mapping[str, Any]]
              | None = None, profile: str | None = None, file: str = "example.yaml"
              ) -> list[Problem]:
    """Lints mission text with only the ``select``ed rules."""
    config = LintConfig(select=tuple(select), rules=dict(options or {}))
    return Linter(config, profile=profile).lint_document(parse_document(text, file))


