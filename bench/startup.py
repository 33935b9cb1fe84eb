"""Measures how long the command line takes to start: ``--version``, ``--help``, one ``validate``.

Run from the repository root: ``python bench/startup.py [--runs 15]``. Each measurement is a
fresh process (as a user's command is); the report gives the median wall time of each, next to
a bare ``python -c pass`` (the interpreter's own floor on this machine). Goal (issue 18):
``--version`` <= 150 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MISSION = ROOT / "missions" / "official" / "mission-1.yaml"

CASES: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "spacealert --version": [sys.executable, "-m", "authoring", "--version"],
    "spacealert --help": [sys.executable, "-m", "authoring", "--help"],
    "spacealert validate (1 file)": [sys.executable, "-m", "authoring", "validate", "-q",
                                     str(MISSION)],
}


def _seconds(cmd: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for name, cmd in CASES.items():
        _seconds(cmd, env)  # warm the file cache and the .pyc files
        times = [_seconds(cmd, env) for _ in range(args.runs)]
        print(f"{name:32s} median {statistics.median(times) * 1000:7.1f} ms  "
              f"(min {min(times) * 1000:.1f}, {args.runs} runs)")


if __name__ == "__main__":
    main()
