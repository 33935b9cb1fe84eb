"""Renders one sheet of a mission to an HTML or PDF file (atomically)."""

from __future__ import annotations

from pathlib import Path
from typing import cast

from authoring._files import write_atomic
from authoring.mission.model import Mission
from authoring.render.catalogue import load_faces
from authoring.render.pdf import html_to_pdf
from authoring.render.sheets import Difficulty, Paper, SheetKind, SheetOptions, render_html


def build_sheet(mission: Mission, target: Path, *, kind: str, paper: str = "a4",
                seed: int | None = None, players: int | None = None,
                templates: tuple[Path, ...] = (),
                difficulty: Difficulty | None = None, figures: int | None = None) -> None:
    """Writes the sheet to ``target``: PDF for ``.pdf``, HTML otherwise.

    ``difficulty`` (from the linter's simulation) adds the difficulty box to the briefing.
    """
    options = SheetOptions(cast(SheetKind, kind), cast(Paper, paper), players, seed,
                           difficulty, templates, figures)
    faces = load_faces() if kind in ("threats", "answer-key") else None
    html = render_html(mission, options, faces)
    if target.suffix.lower() == ".pdf":
        write_atomic(target, html_to_pdf(html))
    else:
        write_atomic(target, html.encode("utf-8"))
