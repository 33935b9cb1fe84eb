"""Regenerates the golden site pages: ``python -m tests.site.make_golden`` (from the repo root).

Run it after an intended change to the theme templates, then review ``git diff tests/site/golden``.
"""

from __future__ import annotations

import shutil

from authoring.render.site import render_pages
from tests.site.helpers import GOLDEN, golden_model


def main() -> None:
    """Writes every HTML page of the golden model into ``tests/site/golden``."""
    shutil.rmtree(GOLDEN, ignore_errors=True)
    for relative, data in render_pages(golden_model()).items():
        if relative.endswith(".html"):
            target = GOLDEN / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            print(target)


if __name__ == "__main__":
    main()
