"""Validation throughput of ``spacealert validate`` side by side with ``check-jsonschema``.

Run from the repository root: ``python bench/validate.py [--files 1000] [--repeat 3]``.

The corpus is ``spacealert generate --count N`` (random missions, valid by construction). Each
tool runs as a whole process, as a user (or pre-commit) runs it, on the same files:

* ``spacealert validate -q DIR`` — YAML, the mission schema and every semantic check;
* ``check-jsonschema --schemafile schemas/mission.schema.json FILES`` — the schema alone;
* ``spacealert validate`` on ONE file next to ``check-jsonschema`` on the same file.

It prints the medians and the ratio spacealert / check-jsonschema (goal, issue 18: <= 0.5 for
the corpus, <= 1.0 for one file). ``--in-process`` also times the library loop without
start-up (``check_mission_files``).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "mission.schema.json"


def _seconds(cmd: list[str]) -> tuple[float, float]:
    """Runs ``cmd``; returns its (wall, CPU) seconds.

    Bytecode caches are allowed (``PYTHONDONTWRITEBYTECODE`` dropped) as on a user's machine,
    where pip compiles installed packages and Python caches the toolkit's own modules: a
    shell that sets it would charge the toolkit's editable sources a compile on every run and
    not check-jsonschema's installed ones."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    stderr = proc.stderr.read() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{cmd[:4]}… failed ({os.waitstatus_to_exitcode(status)}): "
                         f"{stderr[-500:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def _medians(ours: list[str], theirs: list[str], repeat: int
             ) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall, CPU) of each command, run alternately (a load change hits both)."""
    _seconds(ours)  # warm the file cache and the .pyc files
    _seconds(theirs)
    mine, other = [], []
    for _ in range(repeat):
        mine.append(_seconds(ours))
        other.append(_seconds(theirs))
    return ((statistics.median(w for w, _ in mine), statistics.median(c for _, c in mine)),
            (statistics.median(w for w, _ in other), statistics.median(c for _, c in other)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--in-process", action="store_true")
    args = parser.parse_args()
    checker = shutil.which("check-jsonschema")
    if checker is None:
        raise SystemExit("check-jsonschema is missing: pip install -e '.[dev]'")
    spacealert = [sys.executable, "-m", "authoring"]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "missions"
        corpus.mkdir()
        subprocess.run([*spacealert, "generate", "--count", str(args.files), "--seed", "1",
                        "-o", str(corpus)], env={**os.environ, "PYTHONPATH": str(ROOT)},
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        files = sorted(str(p) for p in corpus.glob("*.yaml"))
        rows = [
            (f"{len(files)} files", [*spacealert, "validate", "-q", str(corpus)],
             [checker, "--schemafile", str(SCHEMA), *files]),
            ("1 file", [*spacealert, "validate", "-q", files[0]],
             [checker, "--schemafile", str(SCHEMA), files[0]]),
        ]
        for name, ours, theirs in rows:
            (mine, mine_cpu), (other, other_cpu) = _medians(ours, theirs, args.repeat)
            print(f"{name:>11}: spacealert validate {mine:6.2f} s, check-jsonschema "
                  f"{other:6.2f} s, ratio {mine / other:.2f}; CPU {mine_cpu:.2f} s vs "
                  f"{other_cpu:.2f} s, ratio {mine_cpu / other_cpu:.2f} "
                  f"(medians of {args.repeat}, load {os.getloadavg()[0]:.1f})")
        if args.in_process:
            sys.path.insert(0, str(ROOT))
            from authoring.cli._common import expand_paths
            from authoring.mission.fast import check_mission_files

            def loop() -> float:
                start = time.perf_counter()
                for _ in check_mission_files(expand_paths([str(corpus)])):
                    pass
                return time.perf_counter() - start

            loop()
            took = statistics.median(loop() for _ in range(args.repeat))
            print(f" in-process: {took:.2f} s ({len(files) / took:.0f} files/s)")


if __name__ == "__main__":
    main()
