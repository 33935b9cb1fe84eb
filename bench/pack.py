"""Times ``spacealert pack build`` on a pack of official missions: cold and warm clip cache.

Run: ``python bench/pack.py [--missions N] [--runs R]``. Prints the wall time of one build
with an empty clip cache, the median of R rebuilds with the warm cache, and the site size.
Everything is written to a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from authoring.publish import BuildOptions, build_pack  # noqa: E402


def make_pack(folder: Path, count: int) -> None:
    """Writes a pack of the first ``count`` official missions (MP3, briefing sheet)."""
    names = [f"mission-{n}.yaml" for n in range(1, 9)][:count]
    (folder / "missions").mkdir(parents=True)
    for name in names:
        shutil.copy(REPO / "missions" / "official" / name, folder / "missions" / name)
    listed = "\n".join(f"  - missions/{n}" for n in names)
    (folder / "pack.yaml").write_text(
        "format: 1\ntitle: Bench pack\nauthors: [bench]\nlicence: CC0-1.0\n"
        f"audio: [mp3]\nsheets: [briefing]\nmissions:\n{listed}\n", encoding="utf-8")


def timed_build(pack: Path, out: Path, cache: Path) -> float:
    start = time.perf_counter()
    build_pack(pack, out, BuildOptions(cache_dir=cache))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--missions", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    os.environ.setdefault("SOURCE_DATE_EPOCH", "1700000000")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        make_pack(root / "pack", args.missions)
        cache = root / "cache"
        cold = timed_build(root / "pack", root / "site", cache)
        warm = [timed_build(root / "pack", root / "site", cache) for _ in range(args.runs)]
        size = sum(p.stat().st_size for p in (root / "site").rglob("*") if p.is_file())
        print(f"{args.missions} missions: cold {cold:.1f} s, warm median "
              f"{statistics.median(warm):.1f} s over {args.runs} runs "
              f"({', '.join(f'{w:.1f}' for w in warm)}), site {size / 1e6:.1f} MB, "
              f"{cold / args.missions:.1f} s per mission cold")


if __name__ == "__main__":
    main()
