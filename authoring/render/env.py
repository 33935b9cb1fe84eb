"""Builds the one Jinja environment that every printed sheet (and later the website) uses.

Template search path, first match wins:

1. the user's override folders, in the order given (``--templates DIR``), so a group can restyle
   a sheet or replace one block without forking the toolkit;
2. the packaged templates in ``authoring/render/templates``.

The packaged templates live inside the ``render`` package rather than in the top-level
``site/`` folder because they are code: each one is a contract with the context builder in
``authoring/render/sheets.py`` (StrictUndefined turns a missing variable into an error), so they
are versioned, type-checked and tested together and ship with the package without the
``_data`` copy step. ``site/`` stays the home of the website's static theme (CSS, scripts,
icons); the site builder will call :func:`make_environment` with the same overrides and reuse
these templates and macros.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path
from urllib.parse import quote

import jinja2

from authoring.mission.timecode import format_clock, format_ms

#: The folder of the packaged templates.
TEMPLATE_DIR = Path(__file__).resolve().parent / "templates"


def _clock_ms(ms: int) -> str:
    """Formats milliseconds as ``m:ss`` when whole seconds, ``m:ss.mmm`` otherwise."""
    return format_clock(ms // 1000) if ms % 1000 == 0 else format_ms(ms)


def _data_uri(svg: str) -> str:
    """Returns an SVG document as a ``data:`` URI (percent-encoded, so inert in an attribute).

    WeasyPrint caches images by URL, so repeated drawings (the same board at the same speed on
    many cards) are parsed once and never enter the HTML style cascade.
    """
    return "data:image/svg+xml;charset=utf-8," + quote(str(svg).strip(), safe="")


def template_path(overrides: Sequence[Path] = ()) -> list[Path]:
    """Returns the template search path: the override folders, then the packaged templates."""
    return [*overrides, TEMPLATE_DIR]


def make_environment(overrides: Sequence[Path] = ()) -> jinja2.Environment:
    """Returns a Jinja environment with autoescaping, StrictUndefined and the sheet filters.

    Autoescaping is on for every template (HTML, inline SVG and CSS alike): all mission text is
    user input, so nothing is ever marked safe by name. Environments are shared per search path
    so that templates are compiled once per process (Jinja re-checks file times on each load).
    """
    return _environment(tuple(Path(p).resolve() for p in overrides))


@cache
def _environment(overrides: tuple[Path, ...]) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in template_path(overrides)]),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["clock"] = format_clock
    env.filters["clock_ms"] = _clock_ms
    env.filters["data_uri"] = _data_uri
    env.filters["count"] = count_of
    return env


def count_of(count: int, noun: str, plural: str = "") -> str:
    """Returns "1 warning" / "2 warnings" (``plural`` for nouns that take more than an s)."""
    return f"{count} {noun}" if count == 1 else f"{count} {plural or noun + 's'}"
