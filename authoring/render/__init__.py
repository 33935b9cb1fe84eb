"""Printable sheets (HTML and PDF) built from one Jinja template set shared with the website."""

from __future__ import annotations

from authoring.render.env import make_environment
from authoring.render.sheets import (
    PAPERS,
    SHEET_KINDS,
    Difficulty,
    SheetOptions,
    render_html,
    sheet_context,
)

__all__ = [
    "PAPERS",
    "SHEET_KINDS",
    "Difficulty",
    "SheetOptions",
    "make_environment",
    "render_html",
    "sheet_context",
]
