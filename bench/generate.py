"""Measures generator throughput and compares generated statistics with the official tracks.

Run: ``python bench/generate.py [--missions 2000] [--repeat 5] [--profile base]``. Prints the
median missions/second per profile (generation with its built-in self-check, plus the text),
then, for the chosen profile, a Markdown table of the generated statistics against the
official ones (official values: the bundled official tracks; the ranges of docs/soundtrack.md §5).

``--process-count N`` times ``spacealert generate --count N -o DIR`` as a whole process, both
without ``.pyc`` files (this environment sets ``PYTHONDONTWRITEBYTECODE=1``) and with them (as a
user's install has them; written into a temporary ``PYTHONPYCACHEPREFIX``).
``--jsamg CLASSPATH`` adds JSpaceAlertMissionGenerator (JSAMG, the Java generator other groups
use; not part of this repository: give its compiled classes or jar) side by side: the driver
``bench/jsamg/JsamgBatch.java`` runs it for the same N seeds in one JVM, writing each mission's
text output into a folder as ``generate --count`` does; the processes alternate, the medians of
wall and CPU time are compared (with ``.pyc``, as a user runs it, and without), and the load
average and the cost of creating a file on the output disk are printed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from authoring.generate import GenerateOptions, generate_mission, generated_text
from authoring.generate.stats import (
    OFFICIAL_AMBUSH_RATE,
    OFFICIAL_RANGES,
    MissionStats,
    mission_stats,
)
from authoring.mission import load_mission

OFFICIAL = Path(__file__).resolve().parents[1] / "missions" / "official"
PROFILES = ("base", "training", "test-run", "double-action")
#: The official tracks of each profile among the bundled ones (none for double-action).
OFFICIAL_FILES = {"base": "mission-*.yaml", "training": "*simulation-*.yaml",
                  "test-run": "test-run-*.yaml"}
ROWS = ("threats", "serious", "internal", "internal_points", "points", "length", "phase1",
        "phase2", "phase3", "incoming", "transfers", "comms_count", "comms_total",
        "comms_last_phase", "first_threat_p1", "first_threat_p2", "min_threat_gap",
        "max_threat_gap", "last_threat_p1", "last_threat_p2")


def run(profile: str, seeds: range) -> float:
    """Generates (and renders) one mission per seed; returns the seconds it took."""
    start = time.perf_counter()
    for seed in seeds:
        generated_text(generate_mission(GenerateOptions(profile=profile,  # type: ignore[arg-type]
                                                        seed=seed)))
    return time.perf_counter() - start


def _describe(values: Sequence[int]) -> str:
    if not values:
        return "-"
    low, high = min(values), max(values)
    mean = statistics.fmean(values)
    return f"{low}-{high} (mean {mean:.2f})" if low != high else f"{low}"


def _ambush_rate(stats: Sequence[MissionStats]) -> float:
    phases = sum(s.threat_phases for s in stats)
    return sum(s.ambushes for s in stats) / phases if phases else 0.0


def compare(profile: str, count: int) -> str:
    """Returns a Markdown table: generated vs official statistics of ``profile``."""
    generated = [mission_stats(generate_mission(GenerateOptions(
        profile=profile, seed=seed)).mission) for seed in range(count)]  # type: ignore[arg-type]
    pattern = OFFICIAL_FILES.get(profile)
    official = [mission_stats(load_mission(p)) for p in sorted(OFFICIAL.glob(pattern))] \
        if pattern else []
    ranges = OFFICIAL_RANGES[profile]
    lines = [f"| quantity ({profile}) | official ({len(official)} tracks) | official range | "
             f"generated ({count} seeds) | inside range |",
             "|---|---|---|---|---|"]
    for row in ROWS:
        values = [getattr(s, row) for s in generated]
        if row not in ranges or all(v < 0 for v in values):
            continue
        low, high = ranges[row]
        inside = sum(1 for v in values if low <= v <= high) / len(values)
        known = [getattr(s, row) for s in official if getattr(s, row) >= 0]
        lines.append(f"| {row} | {_describe(known)} | {low}-{high} | {_describe(values)} | "
                     f"{100 * inside:.1f} % |")
    lines.append(f"| ambushes per threat phase | "
                 f"{_ambush_rate(official):.3f} | - | {_ambush_rate(generated):.3f} | "
                 f"(target {OFFICIAL_AMBUSH_RATE[profile]:.3f}) |")
    return "\n".join(lines)


def _timed(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Runs ``cmd`` to completion; returns its (wall, CPU) seconds, its children included."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime


def _jsamg_command(classpath: str, build: Path, count: int, out: str) -> list[str]:
    driver = Path(__file__).resolve().parent / "jsamg" / "JsamgBatch.java"
    if not (build / "JsamgBatch.class").is_file():
        subprocess.run(["javac", "-d", str(build), "-cp", classpath, str(driver)], check=True)
    return ["java", "-cp", f"{build}{os.pathsep}{classpath}", "JsamgBatch", "1", str(count), out]


def _create_cost_us(folder: Path, files: int = 300) -> float:
    """Microseconds to create one empty file in a fresh folder under ``folder`` right now."""
    probe = Path(tempfile.mkdtemp(dir=folder))
    start = time.perf_counter()
    for number in range(files):
        os.close(os.open(probe / f"f{number}", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    return (time.perf_counter() - start) / files * 1e6


def _quiet_disk(folder: Path, wait_s: float = 90.0) -> float:
    """Waits (up to ``wait_s``) until creating a file costs under 100 us; returns its cost.

    ext4 skips inodes deleted in the last 30 s (5 min until synced) when it creates a file:
    after thousands of files were deleted nearby (an earlier bench run, a test suite's temp
    folders) creating one can cost 0.3-0.8 ms instead of 0.02-0.05 ms, for both tools alike,
    and the comparison then measures the disk rather than the generators.
    """
    deadline = time.monotonic() + wait_s
    os.sync()
    cost = _create_cost_us(folder)
    while cost > 100 and time.monotonic() < deadline:
        time.sleep(5)
        os.sync()
        cost = _create_cost_us(folder)
    return cost


def _medians(runs: list[tuple[float, float]]) -> tuple[float, float]:
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)


def whole_process(count: int, repeat: int, jsamg: str | None) -> None:
    """Times ``generate --count`` as a whole process (and JSAMG, alternating); prints medians.

    Ours runs twice a round: with the environment as it is (here ``PYTHONDONTWRITEBYTECODE=1``:
    every module of the toolkit compiled again at each start) and with bytecode allowed, as on
    a user's install (``.pyc`` files written once by a warm-up run into a temporary
    ``PYTHONPYCACHEPREFIX``, never into the tree). The second is the one compared with JSAMG,
    which runs compiled classes.
    """
    root = OFFICIAL.parents[1]
    as_is = {**os.environ, "PYTHONPATH": str(root)}
    loads = [os.getloadavg()]
    runs: dict[str, list[tuple[float, float]]] = {"as-is": [], "bytecode": [], "jsamg": []}
    # every run writes into a folder of its own, all removed at the end, and the disk is
    # synced before each run: deleting or flushing 3,000 files of the previous run while the
    # next one writes made single runs 2-3x slower (ext4), whichever tool came next
    with tempfile.TemporaryDirectory() as build, tempfile.TemporaryDirectory() as outs:
        pyc = {**as_is, "PYTHONPYCACHEPREFIX": str(Path(build) / "pycache")}
        pyc.pop("PYTHONDONTWRITEBYTECODE", None)
        ours = [sys.executable, "-m", "authoring", "generate", "--count", str(count),
                "--seed", "1", "-o"]
        _timed([*ours, str(Path(outs) / "warm-up")], pyc)  # writes the .pyc files
        create_us = _quiet_disk(Path(outs))
        for run in range(repeat):
            for mode, env in (("as-is", as_is), ("bytecode", pyc)):
                mine = Path(outs) / f"spacealert-{mode}-{run}"
                mine.mkdir()
                os.sync()
                runs[mode].append(_timed([*ours, str(mine)], env))
            if jsamg is not None:
                other = Path(outs) / f"jsamg-{run}"
                other.mkdir()
                command = _jsamg_command(jsamg, Path(build), count, str(other))
                os.sync()
                runs["jsamg"].append(_timed(command))
        create_after_us = _create_cost_us(Path(outs))
    loads.append(os.getloadavg())
    labels = {"as-is": "spacealert (no .pyc)", "bytecode": "spacealert (.pyc)",
              "jsamg": "JSAMG (one JVM)"}
    for mode, label in labels.items():
        if runs[mode]:
            wall, cpu = _medians(runs[mode])
            print(f"{label:21} --count {count}: median wall {wall:.2f} s "
                  f"({count / wall:.0f} missions/s), CPU {cpu:.2f} s, over {len(runs[mode])} runs")
    if runs["jsamg"]:
        theirs = _medians(runs["jsamg"])[0]
        for mode in ("bytecode", "as-is"):
            note = "as a user runs it" if mode == "bytecode" else "this environment's default"
            print(f"wall time spacealert / JSAMG, {labels[mode]} ({note}): "
                  f"{_medians(runs[mode])[0] / theirs:.2f}x (goal <= 1.0)")
    print("load average (1, 5, 15 min) before: {:.2f} {:.2f} {:.2f}, after: "
          "{:.2f} {:.2f} {:.2f}".format(*loads[0], *loads[1]))
    print(f"creating one file in the output folder: {create_us:.0f} us before the runs, "
          f"{create_after_us:.0f} us after (well under 100 us on a quiet disk)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--missions", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--profile", default="base", choices=PROFILES)
    parser.add_argument("--process-count", type=int, default=0, metavar="N",
                        help="only time `spacealert generate --count N -o DIR` as a whole "
                        "process (start-up included)")
    parser.add_argument("--jsamg", metavar="CLASSPATH",
                        help="with --process-count: JSAMG's compiled classes or jar, timed "
                        "side by side (needs javac and java)")
    args = parser.parse_args()
    if args.process_count:
        whole_process(args.process_count, args.repeat, args.jsamg)
        return
    for profile in PROFILES:
        run(profile, range(20))  # warm caches
        times = [run(profile, range(args.missions)) for _ in range(args.repeat)]
        median = statistics.median(times)
        print(f"{profile:14} {args.missions} missions: median {median:.3f} s "
              f"({args.missions / median:.0f} missions/s, "
              f"{1000 * median / args.missions:.2f} ms/mission) over {args.repeat} runs; "
              f"min {min(times):.3f} s, max {max(times):.3f} s")
    print()
    print(compare(args.profile, args.missions))


if __name__ == "__main__":
    main()
