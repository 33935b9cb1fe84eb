"""Formatters for lint results: full, concise, json, github and sarif.

Each formatter is a pure function of the results (problems plus each file's text) and
returns the text to print; none of them prints, exits or reads files. ``FORMATS`` maps the
``--output-format`` names to them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from authoring.report.formats import (
    format_concise,
    format_full,
    format_github,
    format_json,
    format_sarif,
    summary,
    summary_line,
    worst,
)
from authoring.report.types import FileText

Formatter = Callable[[Sequence[FileText]], str]

FORMATS: dict[str, Formatter] = {
    "full": format_full,
    "concise": format_concise,
    "json": format_json,
    "github": format_github,
    "sarif": format_sarif,
}

__all__ = ["FORMATS", "FileText", "Formatter", "summary", "summary_line", "worst"]
