"""Fuzzes every reader of the toolkit with structure-aware mutants and reports crashes.

Run: ``python bench/fuzz.py [--count 100000] [--seed 0] [--kinds mission,ps-json]``. Each
input is a seed file of one kind (missions, plans, voices, packs, lint configs and the five
import formats) mutated by 1-4 operations of ``tests/fuzz/harness.py``, fed through the
functions behind validate, lint, timeline, export, import, resolve, pack and voices. Prints
inputs/s, refusals, crashes grouped by exception and place (0 expected) and the slowest
inputs (CPU and wall seconds: on a shared machine wall time mostly measures the others);
writes each crashing input to ``--crashes DIR`` to turn into a regression file.

``--bounds`` first times the parse of the worst files the YAML reader still accepts or must
refuse under the 1 MiB limit (median of 3); the target is at most 1 s each.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from authoring.mission import parse_document
from authoring.mission.load import MAX_FILE_BYTES
from authoring.mission.yaml_guard import (
    MAX_CONTENT_CHARS,
    MAX_DEPTH,
    MAX_LINE_CHARS,
    MAX_LINES,
    MAX_NODES,
)
from tests.fuzz.harness import KINDS, REPO, Op, Unlocated, mutate, run, seeds


def worst_files() -> dict[str, str]:
    """Returns the costliest YAML files under the size limit, by what makes them costly."""
    mission = (REPO / "missions" / "official" / "mission-1.yaml").read_text("utf-8")
    head = mission.split("events:")[0]
    room = MAX_FILE_BYTES - len(head) - 200

    def fill(unit: str, limit: int = MAX_LINES - 100) -> str:
        return unit * min(room // len(unit), limit)

    long_comment = "#" + "x" * (MAX_LINE_CHARS - 2) + "\n"
    return {
        "1 MiB comment line (refused)": mission + "# " + "x" * room + "\n",
        "comment lines at the length limit": head + fill(long_comment),
        "19,900 short comment lines": head + fill("# " + "x" * 48 + "\n"),
        "a million blank lines (refused)": head + "\n" * room,
        "values just under the limit": head + "events:\n" + '  - {at: "0:10", '
        'incoming_data: {}}\n' * ((MAX_NODES - 30) // 5),
        "values over the limit (refused)": head + "x: [" + ",\n".join(["1"] * 19_000) + "]\n",
        "folded text at the line limit": head + "description:\n" + fill(
            "  " + "word " * ((MAX_LINE_CHARS - 4) // 5) + "\n"),
        "escaped quoted text": head + 'description: "\n' + fill(
            "\\u00e9" * ((MAX_LINE_CHARS - 4) // 6) + "\n") + '"\n',
        "256 KiB of text, then comments": head + "description:\n" + fill(
            "  " + "word " * 1000 + "\n", MAX_CONTENT_CHARS // 5004) + fill(
            "# " + "x" * 48 + "\n", 14_000),
        "nesting at the limit": head + "x: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1)
        + "\n",
        "hex number of 1 MiB (refused)": head + "x: 0x" + "f" * room + "\n",
    }


def bounds() -> None:
    """Prints the parse time of each worst file (median of 3; CPU and wall seconds)."""
    print("parse time of the worst files under the 1 MiB limit (median of 3):")
    for name, text in worst_files().items():
        walls, cpus = [], []
        for _ in range(3):
            wall, cpu = time.perf_counter(), time.process_time()
            doc = parse_document(text, "worst.yaml")
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        verdict = f"{doc.problems[0].code} at {doc.problems[0].line}" if doc.problems else "ok"
        print(f"  {name:36} {len(text.encode()):8} B  cpu {statistics.median(cpus):6.3f} s"
              f"  wall {statistics.median(walls):6.3f} s  {verdict}")


def draw(rng: random.Random) -> tuple[str, int, list[Op]]:
    """Returns (kind, seed index, operations) for one input."""
    kind = rng.choice(KINDS)
    index = rng.randrange(len(seeds()[kind]))
    ops = [(rng.randrange(64), rng.randrange(1 << 20), rng.randrange(1 << 20))
           for _ in range(rng.randint(1, 4))]
    return kind, index, ops


def _site(error: BaseException) -> str:
    """Names a crash by its exception and the innermost frame of the toolkit."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if "authoring" in f.filename]
    where = f"{Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else "?"
    return f"{type(error).__name__} at {where}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--crashes", type=Path, default=None)
    parser.add_argument("--report-every", type=int, default=0)
    parser.add_argument("--bounds", action="store_true",
                        help="first time the parse of the worst files under the size limit")
    args = parser.parse_args()
    if args.bounds:
        bounds()
    kinds = tuple(args.kinds.split(","))
    rng = random.Random(args.seed)
    crashes: dict[str, list[str]] = defaultdict(list)
    outcomes: Counter[str] = Counter()
    slowest: list[tuple[float, float, str]] = []
    total = 0.0
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        folder = Path(tmp)
        done = 0
        while done < args.count:
            kind, index, ops = draw(rng)
            if kind not in kinds:
                continue
            seed = seeds()[kind][index]
            text = mutate(seed.text, ops)
            label = f"{kind} {seed.name} {ops}"
            start, cpu = time.perf_counter(), time.process_time()
            try:
                error = run(kind, text, folder)
                outcomes["refused" if error is not None else "accepted"] += 1
            except Unlocated as problem:
                crashes[f"unlocated refusal ({kind})"].append(f"{label}: {problem}")
                _keep(args.crashes, kind, done, text)
            except Exception as crash:  # counting crashes is the point
                crashes[_site(crash)].append(label)
                _keep(args.crashes, kind, done, text)
            spent, cpu = time.perf_counter() - start, time.process_time() - cpu
            total += spent
            slowest = sorted([*slowest, (cpu, spent, label)], reverse=True)[:5]
            done += 1
            if args.report_every and done % args.report_every == 0:
                print(f"{done} inputs, {sum(map(len, crashes.values()))} crashes, "
                      f"{done / total:.0f} inputs/s", flush=True)
    if not done:  # --bounds --count 0: the bounds alone
        return 0
    print(f"inputs: {args.count} (seed {args.seed}), {args.count / total:.1f} inputs/s, "
          f"accepted {outcomes['accepted']}, refused {outcomes['refused']}")
    print(f"crashes: {sum(map(len, crashes.values()))} in {len(crashes)} sites")
    for site, labels in sorted(crashes.items(), key=lambda item: -len(item[1])):
        print(f"  {len(labels):6}  {site}   e.g. {labels[0][:160]}")
    print("slowest inputs (CPU seconds, wall seconds):")
    for cpu, spent, label in slowest:
        print(f"  {cpu:7.3f} s  {spent:7.3f} s  {label[:150]}")
    return 1 if crashes else 0


def _keep(folder: Path | None, kind: str, number: int, text: str) -> None:
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{number:06d}.{kind}").write_text(text, "utf-8", newline="")


if __name__ == "__main__":
    raise SystemExit(main())
