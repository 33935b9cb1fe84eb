"""Publishing: builds a mission pack into a static website and previews it.

This layer sits above ``render`` and ``audio`` (which must not know each other): it checks the
missions with the linter, renders soundtracks and captions with ``audio``, prints sheets and
hands a site model to ``render.site``, which writes the HTML.
"""

from __future__ import annotations

from authoring.publish.build import BuildOptions, BuildResult, build_pack
from authoring.publish.manifest import MANIFEST, Pack, load_pack
from authoring.publish.scaffold import new_pack
from authoring.publish.serve import PreviewServer, RangeRequestHandler, parse_range

__all__ = [
    "MANIFEST",
    "BuildOptions",
    "BuildResult",
    "Pack",
    "PreviewServer",
    "RangeRequestHandler",
    "build_pack",
    "load_pack",
    "new_pack",
    "parse_range",
]
