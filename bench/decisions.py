"""Measures what the project's rule decisions on action cards cost a simulated crew.

The rule texts leave some things open that make a mission harder or easier for a crew that
plays from its cards (docs/rules.md §16.1, docs/simulation.md "Decisions that make missions
harder"). This script plays the same games of a mission (default: Mission 1, the planner
crew, 200 games, seed 0) under each choice and prints survival and difficulty with their
95 % intervals:

- ``as decided``: the box's deck (10/8/7/5 cards of A/B/C/battlebots per movement half) and
  one card given per player at each data transfer;
- ``no card passing``: the data transfers give nothing;
- ``even deck``: the 90 cards spread evenly over the 12 movement/action pairs (8 or 7 each)
  instead of the box's counts;
- ``free play``: no hands at all (any action in any turn).

Every variant deals through the reference ``authoring/engine/rules/hands.py`` (the same deals as
the native build, which cannot be changed from here), in this process. Run from the
repository root: ``python bench/decisions.py [MISSION] [--games N] [--crew C]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.engine import cores  # noqa: E402
from authoring.engine.rules import hands as reference  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.simulation import dealing, heuristic  # noqa: E402
from authoring.simulation.montecarlo import simulate  # noqa: E402
from authoring.simulation.rating import rate  # noqa: E402


@contextmanager
def patched(owner: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, saved)


BOX = reference.load_deck()


def even_deck() -> reference.Deck:
    """The box's 90 cards spread evenly: 8 of each of the first 6 pairs, 7 of the others."""
    box = BOX
    pairs = sorted({(c.move, c.action) for c in box.cards})
    cards = tuple(reference.Card(move, action) for i, (move, action) in enumerate(pairs)
                  for _ in range(8 if i < len(box.cards) - 7 * len(pairs) else 7))
    assert len(cards) == len(box.cards)
    return reference.Deck(cards, box.heroics)


def no_transfers(mission: Any) -> list[tuple[int, str]]:
    return [(phase, kind) for phase, kind in reference.mission_events(mission)
            if kind != reference.DATA_TRANSFER]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mission", type=Path, nargs="?",
                        default=ROOT / "missions" / "official" / "mission-1.yaml")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--crew", default="planner")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    mission = load_mission(args.mission)
    plain: Callable[[], Any] = lambda: patched(dealing, "mission_events",  # noqa: E731
                                               reference.mission_events)
    variants: dict[str, tuple[Callable[[], Any], bool]] = {
        "as decided": (plain, True),
        "no card passing": (lambda: patched(dealing, "mission_events", no_transfers), True),
        "even deck": (lambda: patched(reference, "load_deck", even_deck), True),
        "free play": (plain, False),
    }
    print(f"{mission.id}: {args.games} games, {args.crew} crew, seed {args.seed}")
    # the reference hands module for every variant: the patches reach its deals
    with patched(cores, "hands_module", lambda: reference), \
            patched(dealing, "hands_module", lambda: reference), \
            patched(heuristic, "hands_module", lambda: reference):
        for name, (patch, hands) in variants.items():
            began = time.process_time()
            with patch():
                stats = simulate(mission, games=args.games, crew=args.crew, seed=args.seed,
                                 hands=hands)
            rating = rate(stats, calibrated=False)
            low, high = rating.survival_interval
            print(f"  {name:<16} survived {rating.survival:5.1%} ({low:.0%}-{high:.0%})  "
                  f"difficulty {rating.value:5.1f} ± {rating.margin:.1f}  "
                  f"({time.process_time() - began:.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
