"""Measures how long ``spacealert sheets`` takes per kind (HTML and PDF), as medians.

Run ``python bench/sheets.py [MISSION] [--repeat N]`` from the repository root. Prints one line
per kind and format: median seconds, pages, bytes. WeasyPrint's first call (import, fonts) is
timed separately as the warm-up.
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from authoring.mission import load_mission
from authoring.render.build import build_sheet
from authoring.render.sheets import SHEET_KINDS


def _pages(pdf: Path) -> int:
    """Returns the page count from pdfinfo (0 when poppler-utils is not installed)."""
    exe = shutil.which("pdfinfo")
    if not exe:
        return 0
    info = subprocess.run([exe, str(pdf)], capture_output=True, text=True, check=True).stdout
    found = re.search(r"Pages:\s+(\d+)", info)
    return int(found.group(1)) if found else 0


def main() -> None:
    """Runs the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("mission", nargs="?", default="missions/official/mission-7.yaml")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    mission = load_mission(args.mission)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        build_sheet(mission, Path(folder) / "warm.pdf", kind="comms-officer")
        print(f"warm-up (WeasyPrint import + first PDF): {time.perf_counter() - start:.2f} s")
        for kind in SHEET_KINDS:
            for suffix in (".html", ".pdf"):
                out = Path(folder) / f"{kind}{suffix}"
                times = []
                for _ in range(args.repeat):
                    start = time.perf_counter()
                    build_sheet(mission, out, kind=kind, seed=1)
                    times.append(time.perf_counter() - start)
                pages = _pages(out) if suffix == ".pdf" else 0
                print(f"{kind:<14} {suffix:<5} median {statistics.median(times):6.3f} s  "
                      f"min {min(times):6.3f} s  {out.stat().st_size:>8} bytes"
                      + (f"  {pages} pages" if pages else ""))


if __name__ == "__main__":
    main()
