"""Counts what ``kill -9`` at random moments leaves behind, and what the next normal runs remove.

Run ``python bench/leftovers.py [--kills N] [--seed S]`` from the repository root. In a fresh
folder (its own ``$TMPDIR`` and a cold clip cache), each writer (``render``, ``sheets``,
``pack build``, ``generate --count``) is started ``N`` times and killed with SIGKILL (the
command's own process only, as ``kill -9 PID`` does) at a random moment of its normal run time;
then every writer runs once normally. Prints the leftovers (temporary files and folders in the
output folders, in ``$TMPDIR`` and in the clip cache) after the kills and after the normal runs.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MISSION = ROOT / "missions/official/mission-1.yaml"
SITE_MARKER = ".spacealert-site"  # authoring.publish.build.MARKER


def _commands(base: Path) -> dict[str, list[str]]:
    out = base / "out"
    return {
        "render": ["render", str(MISSION), "-o", str(out / "m1.mp3")],
        "sheets": ["sheets", str(MISSION), "-o", str(out / "m1.pdf")],
        "pack build": ["pack", "build", str(base / "pack"), "-o", str(out / "site")],
        "generate": ["generate", "--count", "300", "--seed", "1", "-o", str(out / "gen")],
    }


def _environment(base: Path) -> dict[str, str]:
    for name in ("tmpdir", "cache", "out"):
        (base / name).mkdir(exist_ok=True)
    return {**os.environ, "PYTHONPATH": str(ROOT), "TMPDIR": str(base / "tmpdir"),
            "SPACEALERT_CACHE_DIR": str(base / "cache")}


def _prepare(base: Path, env: dict[str, str]) -> None:
    subprocess.run([sys.executable, "-m", "authoring", "pack", "new", str(base / "pack")],
                   env=env, check=True, capture_output=True)


def _run(args: list[str], env: dict[str, str]) -> float:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "authoring", *args], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(args)} failed: {done.stderr}")
    return time.monotonic() - start


def _kill_at(args: list[str], env: dict[str, str], moment: float) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "authoring", *args], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(moment)
    proc.send_signal(signal.SIGKILL)
    proc.wait()


def _leftovers(base: Path) -> dict[str, list[str]]:
    """Temporary entries: dot names in the outputs and the cache, anything in $TMPDIR."""
    found: dict[str, list[str]] = {"outputs": [], "tmpdir": [], "cache": []}
    for path in sorted((base / "out").rglob(".*")):
        if path.name == SITE_MARKER:
            continue  # an output: the mark of a site pack build wrote
        if not any(part.startswith(".") for part in path.relative_to(base / "out").parts[:-1]):
            found["outputs"].append(str(path.relative_to(base)))
    found["tmpdir"] = sorted(str(p.relative_to(base)) for p in (base / "tmpdir").iterdir())
    for path in sorted((base / "cache").rglob("*")):
        if path.name.startswith("."):
            found["cache"].append(str(path.relative_to(base)))
    return found


def _settle() -> None:
    """Waits for the killed commands' orphaned children (flite, ffmpeg) to end."""
    time.sleep(3)


def main() -> None:
    """Runs the experiment."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=3, help="kills per writer (default 3)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--keep", action="store_true", help="keep the experiment's folder")
    options = parser.parse_args()
    draw = random.Random(options.seed)
    # each writer's normal run time, measured in a folder of its own (cold cache, like below)
    with tempfile.TemporaryDirectory(prefix="leftovers-timing-") as timing:
        env = _environment(Path(timing))
        _prepare(Path(timing), env)
        times = {name: _run(args, env) for name, args in _commands(Path(timing)).items()}
    base = Path(tempfile.mkdtemp(prefix="leftovers-"))
    try:
        env = _environment(base)
        _prepare(base, env)
        commands = _commands(base)
        plan = [(name, draw.uniform(0.05, 0.95) * times[name])
                for name in commands for _ in range(options.kills)]
        draw.shuffle(plan)
        for name, moment in plan:
            _kill_at(commands[name], env, moment)
        _settle()
        after_kills = _leftovers(base)
        for args in commands.values():
            _run(args, env)
        _settle()
        after_runs = _leftovers(base)
        print("normal run times: " + ", ".join(f"{n} {t:.1f} s" for n, t in times.items()))
        print(f"{len(plan)} kills: " + ", ".join(f"{n} at {m:.2f} s" for n, m in plan))
        for label, found in (("after the kills", after_kills),
                             ("after one normal run of each", after_runs)):
            total = sum(len(v) for v in found.values())
            parts = ", ".join(f"{where} {len(names)}" for where, names in found.items())
            print(f"{label}: {total} leftovers ({parts})")
            for names in found.values():
                for name in names:
                    print(f"    {name}")
    finally:
        if options.keep:
            print(f"kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
