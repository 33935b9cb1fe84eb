"""Fuzzes every reader of the toolkit with structure-aware mutants and reports crashes.

Run: ``python bench/fuzz.py [--count 100000] [--seed 0] [--kinds mission,ps-json]``. Each
input is a seed file of one kind (missions, plans, voices, packs, lint configs and the five
import formats) mutated by 1-4 operations of ``tests/fuzz/harness.py``, fed through the
functions behind validate, lint, timeline, export, import, resolve, pack and voices. Prints
inputs/s, refusals, crashes grouped by exception and place (0 expected) and the slowest
inputs; writes each crashing input to ``--crashes DIR`` to turn into a regression file.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
import traceback
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzz.harness import KINDS, Op, Unlocated, mutate, run, seeds


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
    args = parser.parse_args()
    kinds = tuple(args.kinds.split(","))
    rng = random.Random(args.seed)
    crashes: dict[str, list[str]] = defaultdict(list)
    outcomes: Counter[str] = Counter()
    slowest: list[tuple[float, str]] = []
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
            start = time.perf_counter()
            try:
                error = run(kind, text, folder)
                outcomes["refused" if error is not None else "accepted"] += 1
            except Unlocated as problem:
                crashes[f"unlocated refusal ({kind})"].append(f"{label}: {problem}")
                _keep(args.crashes, kind, done, text)
            except Exception as crash:  # counting crashes is the point
                crashes[_site(crash)].append(label)
                _keep(args.crashes, kind, done, text)
            spent = time.perf_counter() - start
            total += spent
            slowest = sorted([*slowest, (spent, label)], reverse=True)[:5]
            done += 1
            if args.report_every and done % args.report_every == 0:
                print(f"{done} inputs, {sum(map(len, crashes.values()))} crashes, "
                      f"{done / total:.0f} inputs/s", flush=True)
    print(f"inputs: {args.count} (seed {args.seed}), {args.count / total:.1f} inputs/s, "
          f"accepted {outcomes['accepted']}, refused {outcomes['refused']}")
    print(f"crashes: {sum(map(len, crashes.values()))} in {len(crashes)} sites")
    for site, labels in sorted(crashes.items(), key=lambda item: -len(item[1])):
        print(f"  {len(labels):6}  {site}   e.g. {labels[0][:160]}")
    print("slowest inputs:")
    for spent, label in slowest:
        print(f"  {spent:7.3f} s  {label[:160]}")
    return 1 if crashes else 0


def _keep(folder: Path | None, kind: str, number: int, text: str) -> None:
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{number:06d}.{kind}").write_text(text, "utf-8", newline="")


if __name__ == "__main__":
    raise SystemExit(main())
