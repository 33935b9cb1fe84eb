"""Measures mission validation throughput: 1,000 mission files read, parsed, schema-checked, built.

Run: ``python bench/validate.py [--files 1000] [--repeat 5]``. Prints the median files/second
over the repeats; the files are the bundled missions copied under new ids into a temp folder.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from authoring.mission import check_mission, read_document

MISSIONS = Path(__file__).resolve().parents[1] / "missions"


def make_corpus(folder: Path, count: int) -> list[Path]:
    """Writes ``count`` mission files cycling through the bundled missions."""
    sources = sorted(MISSIONS.rglob("*.yaml"))
    paths = []
    for index in range(count):
        source = sources[index % len(sources)].read_text("utf-8")
        lines = [f"id: bench-{index}" if line.startswith("id: ") else line
                 for line in source.splitlines()]
        path = folder / f"m{index:05d}.yaml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def run(paths: list[Path]) -> float:
    """Validates every file once and returns the seconds it took."""
    start = time.perf_counter()
    for path in paths:
        mission, problems = check_mission(read_document(path))
        if mission is None:
            raise SystemExit(f"benchmark corpus is invalid: {problems[0]}")
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        paths = make_corpus(Path(tmp), args.files)
        run(paths[:20])  # warm the schema and import caches
        times = [run(paths) for _ in range(args.repeat)]
    median = statistics.median(times)
    print(f"validated {args.files} files: median {median:.3f} s "
          f"({args.files / median:.0f} files/s, {1000 * median / args.files:.2f} ms/file) "
          f"over {args.repeat} runs; min {min(times):.3f} s, max {max(times):.3f} s")


if __name__ == "__main__":
    main()
