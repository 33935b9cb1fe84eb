"""The C action-card projection on the plans a crew's search proposes (docs/rules.md §16.1).

``python bench/projection.py`` prints, per official mission (default 1, 4 and 7), what one
``deal_project`` costs on the neighbours of a playable plan, the search's actual inputs
(``authoring/engine/cores/c/search.c``, ``descend``): a few boards are drawn with hands
(``montecarlo.draw_game``, the first phase's knowledge as the crews plan it), each is searched
once as the crews search it (``PlanSearch.run``: heuristic starts laying their cards from the
hands, each descended to a local optimum over ``localsearch.neighbour``) in Python, which
proposes the same plans in the same order as search.c, and every plan the search projected
is projected again in C in one foreign call (``sa_deal_project_timed``: each projection's own
nanoseconds, no call around it). With ``--cached`` it projects them also through one
``DealCache`` per board, as the search would (``sa_deal_project_cached_timed``), without and
with its memo of projections, and checks that every build blanks as many slots.

Printed per mission: the plans, the share the reference sends through the exact check
(the greedy laying missed a slot after refusing a second gift, ``hands._greedy``), and the
median, mean and 90th percentile of the microseconds per projection (each plan's best of
``--rounds``). Wall-clock on one core; the machine's other load shows in the figures.
"""

from __future__ import annotations

import argparse
import ctypes
import pickle
import random
import statistics
import sys
from array import array
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring._native import c_library  # noqa: E402
from authoring.engine.cores import chands  # noqa: E402
from authoring.engine.rules import hands as reference  # noqa: E402
from authoring.engine.rules.hands import Hands  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.simulation import montecarlo  # noqa: E402
from authoring.simulation.dealing import playable_for  # noqa: E402
from authoring.simulation.horizon import announced_by, known_setup  # noqa: E402
from authoring.simulation.localsearch import PlanSearch  # noqa: E402

Rows = list[list[int]]


class _Recording(PlanSearch):
    """The search in Python (the same candidates in the same order as search.c, tests/
    simulation/test_native_search.py), keeping every plan it hands to the projection."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.proposed: list[Rows] = []

    def _playable(self, rows: Rows) -> Rows:
        self.proposed.append([row[:] for row in rows])
        return super()._playable(rows)


def boards(number: int, count: int, styles: int) -> list[tuple[Hands, list[Rows]]]:
    """``count`` boards of a mission, each its hands and the plans one whole search of it
    projects (``styles`` heuristic starts, two seeds, each descended to a local optimum)."""
    mission = load_mission(ROOT / "missions" / "official" / f"mission-{number}.yaml")
    out = []
    for board in range(count):
        game = montecarlo.draw_game(mission, random.Random(f"{number}:{board}"), hands=True)
        hands = game.hands
        assert hands is not None, f"mission {number} deals no hands"
        setup = known_setup(game.setup, announced_by(mission, game.figures, 0))
        search = _Recording(setup, game.figures, [11, 22], playable=playable_for(hands),
                            hands=hands)
        search.run(styles, board, native=False)
        out.append((hands, search.proposed))
    return out


def _searched(cache: Path | None, number: int, count: int, styles: int
              ) -> list[tuple[Hands, list[Rows]]]:
    """``boards``, kept in ``cache`` (one file per mission and settings) when given."""
    if cache is None:
        return boards(number, count, styles)
    path = cache.with_name(f"{cache.stem}-{number}-{count}-{styles}{cache.suffix}")
    if path.exists():
        with path.open("rb") as kept:
            loaded: list[tuple[Hands, list[Rows]]] = pickle.load(kept)
        return loaded
    dealt = boards(number, count, styles)
    with path.open("wb") as kept:
        pickle.dump(dealt, kept)
    return dealt


def _timed(memo: int | None, hands: Hands, plans: list[Rows], rounds: int
           ) -> tuple[list[float], list[int]]:
    """Each plan's best microseconds over ``rounds`` and its blanked count: through
    ``deal_project`` (``memo`` None) or one ``DealCache`` with a memo of ``memo``."""
    library = chands._library()
    assert library is not None
    deal = chands._deal(library, hands)
    lib = ctypes.CDLL(c_library())
    pointer = ctypes.c_void_p
    tail = [pointer, ctypes.c_int, ctypes.c_int, pointer, pointer]
    call = lib.sa_deal_project_timed if memo is None else lib.sa_deal_project_cached_timed
    call.restype = ctypes.c_int
    call.argtypes = [pointer, *([] if memo is None else [ctypes.c_int]), *tail]
    head = (deal,) if memo is None else (deal, memo)
    best = [float("inf")] * len(plans)
    blanked = array("i", [0] * len(plans))
    for _ in range(rounds):
        flat = array("i", [code for rows in plans for row in rows for code in row])
        nanos = array("q", [0] * len(plans))
        call(*head, flat.buffer_info()[0], len(hands.labels), len(plans),
             blanked.buffer_info()[0], nanos.buffer_info()[0])
        best = [min(b, n / 1000) for b, n in zip(best, nanos, strict=True)]
    return best, blanked.tolist()


def through_exact(hands: Hands, plans: list[Rows]) -> int:
    """How many of the plans the reference sends through the exact check."""
    count = 0
    for rows in plans:
        missed, refused = reference._greedy(hands, reference.decode_rows(hands, rows))
        count += bool(missed and refused)
    return count


def _summary(micros: list[float]) -> str:
    ordered = sorted(micros)
    p90 = ordered[int(0.9 * (len(ordered) - 1))]
    return (f"{statistics.median(ordered):.2f} | {statistics.fmean(ordered):.2f} | "
            f"{p90:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("missions", type=int, nargs="*", default=[1, 4, 7])
    parser.add_argument("--boards", type=int, default=3, help="boards per mission")
    parser.add_argument("--styles", type=int, default=8, help="heuristic starts per board")
    parser.add_argument("--rounds", type=int, default=3, help="timings per plan (best kept)")
    parser.add_argument("--cached", action="store_true", help="also through a DealCache")
    parser.add_argument("--plans", type=Path, help="a pickle of the searched plans: read when "
                        "it exists (the searches take a minute per mission), else written")
    args = parser.parse_args()
    print("| mission | plans | through exact | projection | median µs | mean µs | p90 µs |")
    print("|---|---|---|---|---|---|---|")
    for number in args.missions:
        dealt = _searched(args.plans, number, args.boards, args.styles)
        plans = sum(len(p) for _, p in dealt)
        exact = sum(through_exact(hands, p) for hands, p in dealt)
        builds: list[tuple[str, int | None]] = [("deal_project", None)]
        if args.cached:
            builds += [("cached, no memo", 0), (f"cached, memo {chands.MEMO}", chands.MEMO)]
        results = {}
        for name, memo in builds:
            micros: list[float] = []
            blanked: list[int] = []
            for hands, p in dealt:
                times, counts = _timed(memo, hands, p, args.rounds)
                micros += times
                blanked += counts
            results[name] = blanked
            print(f"| {number} | {plans} | {exact / plans:.1%} | {name} | {_summary(micros)} |",
                  flush=True)
        assert all(blanked == results["deal_project"] for blanked in results.values()), \
            "the cache changed a projection"


if __name__ == "__main__":
    main()
