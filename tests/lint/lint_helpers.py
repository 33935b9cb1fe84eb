"""Helpers for the lint tests: build a mission from a docstring snippet and lint it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from authoring.lint import LintConfig, Linter, lint_paths
from authoring.lint.problem import Problem
from authoring.mission.load import parse_document

#: The bundled official missions: campaign examples name them as ``../official/NAME.yaml``.
OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"
CAMPAIGN_HEADER = {"campaign": "1", "id": "example", "title": "Example"}

HEADER = {"format": "1", "id": "example", "title": "Example", "profile": "base",
          "players": "5"}


#: A base mission whose only event comes too early (T104 early-event).
EARLY = """\
format: 1
id: early
title: Early
profile: base
phases: ["3:45", "7:30", "10:00"]
events:
  - {at: "0:05", incoming_data: {}}
"""


def complete(snippet: str, header: Mapping[str, str] = HEADER) -> str:
    """Appends the header keys a snippet leaves out (after it, so its line numbers hold)."""
    present = {line.split(":", 1)[0].strip() for line in snippet.splitlines()
               if line and not line.startswith((" ", "#", "-"))}
    extra = [f"{key}: {value}" for key, value in header.items() if key not in present]
    return snippet + "\n".join(extra) + "\n"


def lint_text(text: str, select: Iterable[str], *, options: Mapping[str, Mapping[str, Any]]
              | None = None, profile: str | None = None, file: str = "example.yaml"
              ) -> list[Problem]:
    """Lints mission text with only the ``select``ed rules."""
    config = LintConfig(select=tuple(select), rules=dict(options or {}))
    return Linter(config, profile=profile).lint_document(parse_document(text, file))




def lint_campaign_text(text: str, select: Iterable[str], folder: Path, *,
                       options: Mapping[str, Mapping[str, Any]] | None = None
                       ) -> list[Problem]:
    """Lints campaign text written to ``folder/examples/campaign.yaml`` next to a link
    ``folder/official`` to the bundled official missions; returns every problem found (the
    campaign's and its missions')."""
    (folder / "examples").mkdir(exist_ok=True)
    if not (folder / "official").exists():
        (folder / "official").symlink_to(OFFICIAL, target_is_directory=True)
    path = folder / "examples" / "campaign.yaml"
    path.write_text(complete(text, CAMPAIGN_HEADER), "utf-8")
    config = LintConfig(select=tuple(select), rules=dict(options or {}))
    results = lint_paths([(str(path), path)], config=config)
    return [problem for result in results for problem in result.problems]
