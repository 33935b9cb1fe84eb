"""Differential test: the C projection (authoring/engine/cores/c/hands.c through chands.py) blanks
exactly the slots the Python reference (hands.project_codes) blanks.

A seeded bulk loop of random deals and plans (tests/engine/hands_cases.py: random plans with
heroic and tripped cards, plans with a card in every slot, and near-playable neighbours of
projections, as a search proposes them), counting how many went through the exact check and
how many ran out of its 64 branches; then hand-written cases for gifts, the exact branching,
androids, heroic cards and the inputs the C side refuses. Skipped when the C library is not
built (``python -m authoring._native build``); test_differential.py fails on a stale one.
"""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Sequence

import pytest

from authoring import _native
from authoring.engine import make_crew_plan
from authoring.engine.cores import chands
from authoring.engine.rules import hands as reference
from authoring.engine.rules.hands import DATA_TRANSFER, INCOMING_DATA, Card, Hands, deal, timeline
from authoring.engine.rules.plan import A, Action, CrewPlan, encode, parse_action
from tests.engine.hands_cases import cases, random_hands, search_walk

pytestmark = pytest.mark.skipif(not chands.available(),
                                reason=f"C library {_native.c_status() or 'does not load'}: "
                                       f"run `{_native.BUILD_COMMAND}`")

CASES = int(os.environ.get("SPACEALERT_HANDS_CASES", "20000"))


def _codes(*rows: str) -> list[list[int]]:
    return [[encode(parse_action(token)) for token in (row.split() + ["-"] * 12)[:12]]
            for row in rows]


#: A double action of two A halves: no card of the deck has it (docs/rules.md §19.2).
_NO_CARD = [[encode(Action(A, second=A))] + [0] * 11, [0] * 12]


def _both(hands: Hands, rows: Sequence[Sequence[int]]) -> list[list[int]]:
    """The projection, asserted the same in C and in Python."""
    expected = reference.project_codes(hands, rows)
    assert chands.project_c(hands, rows) == expected
    return expected


def test_c_projects_every_random_case_as_the_reference(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]
                                                       ) -> None:
    counted = {"exact": 0, "playable": 0, "limit": 0}
    exact = reference._exact

    def counting(hands: Hands, crew: Sequence[CrewPlan], forbid: dict[tuple[int, int], str],
                 budget: list[int]) -> bool:
        top = not forbid and budget[0] == reference._BRANCH_LIMIT
        fits = exact(hands, crew, forbid, budget)
        if top:
            counted["exact"] += 1
            counted["playable"] += fits
            counted["limit"] += budget[0] < 0
        return fits

    monkeypatch.setattr(reference, "_exact", counting)
    blanked = mismatches = 0
    for hands, rows, expected in cases(2024, CASES, reference.project_codes):
        got = chands.project_c(hands, rows)
        blanked += expected != rows
        if got != expected:
            mismatches += 1
            assert mismatches > 3, (hands.describe(), rows, expected, got)  # the first three
    with capsys.disabled():
        print(f"\n{CASES} cases: {blanked} projected with blanks, {counted['exact']} through "
              f"the exact branch ({counted['playable']} found playable there, "
              f"{counted['limit']} past its {reference._BRANCH_LIMIT} branches)")
    assert mismatches == 0
    # the generator must keep reaching the rare paths, or this test would prove little
    assert blanked > CASES // 4
    assert counted["exact"] > CASES // 100
    assert counted["playable"] > 0 and counted["limit"] > 0


def _search_cases(seed: int, count: int, per_deal: int = 400
                  ) -> list[tuple[Hands, list[list[list[int]]]]]:
    """Random deals, each with a walk of a descent's plans (hands_cases.search_walk)."""
    rng = random.Random(seed)
    out = []
    while count > 0:
        hands = random_hands(rng)
        plans = list(search_walk(rng, hands, reference.project_codes, min(per_deal, count)))
        count -= len(plans)
        out.append((hands, plans))
    return out


def test_c_projects_a_searchs_neighbour_plans_as_the_reference_with_and_without_cache(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # the plans search.c projects: neighbours of its current plan in the neighbourhood's
    # order; through deal_project, and through one DealCache per deal with and without memo
    counted = {"exact": 0, "playable": 0, "limit": 0}
    exact = reference._exact

    def counting(hands: Hands, crew: Sequence[CrewPlan], forbid: dict[tuple[int, int], str],
                 budget: list[int]) -> bool:
        top = not forbid and budget[0] == reference._BRANCH_LIMIT
        fits = exact(hands, crew, forbid, budget)
        if top:
            counted["exact"] += 1
            counted["playable"] += fits
            counted["limit"] += budget[0] < 0
        return fits

    monkeypatch.setattr(reference, "_exact", counting)
    total = blanked = 0
    for hands, plans in _search_cases(77, CASES):
        expected = [reference.project_codes(hands, rows) for rows in plans]
        assert chands.project_many(hands, plans) == expected
        assert chands.ProjectionCache(0).project(hands, plans) == expected
        assert chands.ProjectionCache().project(hands, plans) == expected
        total += len(plans)
        blanked += sum(e != rows for e, rows in zip(expected, plans, strict=True))
    with capsys.disabled():
        print(f"\n{total} neighbour plans: {blanked} projected with blanks, {counted['exact']} "
              f"through the exact branch ({counted['playable']} found playable there, "
              f"{counted['limit']} past its {reference._BRANCH_LIMIT} branches)")
    assert total >= CASES
    assert blanked > total // 4
    assert counted["exact"] > total // 50
    assert counted["playable"] > 0 and counted["limit"] > 0


def test_a_cache_gives_each_plan_its_own_projection_whatever_came_before() -> None:
    # one cache, plans of two deals interleaved and in shuffled orders: every plan gets what
    # it gets projected alone (deal_project), and the memo answers a plan seen before
    rng = random.Random(31)
    (one, first), (two, second) = _search_cases(5, 600, per_deal=300)[:2]
    alone = {id(rows): chands.project_c(hands, rows)
             for hands, plans in ((one, first), (two, second)) for rows in plans}
    for memo in (0, 16, chands.MEMO):
        cache = chands.ProjectionCache(memo)
        for _ in range(3):
            mixed = [(one, rows) for rows in first] + [(two, rows) for rows in second]
            rng.shuffle(mixed)
            for start in range(0, len(mixed), 7):
                batch = mixed[start:start + 7]
                for hands, rows in batch:
                    assert cache.project(hands, [rows]) == [alone[id(rows)]]
                same = [rows for hands, rows in batch if hands is one]
                assert cache.project(one, same) == [alone[id(rows)] for rows in same]
        cache.close()
    with pytest.raises(ValueError, match="closed"):
        cache.project(one, first[:1])


def test_the_cache_refuses_what_deal_project_refuses() -> None:
    hands = _hands({"P1": [("r/A", 0)], "P2": [("l/B", 0)]})
    cache = chands.ProjectionCache()
    assert cache.project(hands, [_NO_CARD, _codes("A", "B")]) == \
        [None, _codes("A", "B")]  # a pair no card has: refused, the next plan still projects
    assert cache.project(hands, [_codes("rA", ""), _codes("A", "B")]) == \
        [_codes("", ""), _codes("A", "B")]  # a base deal has no double action: blank
    assert cache.project(hands, [[[32] * 12, [0] * 12], _codes("A")]) == [None, None]


def _hands(cards: dict[str, list[tuple[str, int]]], events: Sequence[tuple[int, str]] = (),
           heroic: dict[str, str] | None = None, androids: tuple[str, ...] = ()) -> Hands:
    """Hand-made hands (as tests/engine/test_hands.py makes them)."""
    labels = (*cards, *androids)
    held = tuple(tuple((Card(*text.split("/")), when) for text, when in own)
                 for own in cards.values())
    gold = tuple(Card(*(heroic[label].split("/")[::-1])) if heroic and label in heroic
                 else None for label in labels)
    return Hands(labels, timeline(events), held, gold)


def test_gifts_rerouted_by_the_exact_check() -> None:
    # P1 needs an A and a b from the one transfer: the greedy play takes P2's A first and
    # refuses P2's second gift; the exact check gives the A from P3 and the b from P2
    hands = _hands({"P1": [], "P2": [("r/A", 0), ("b/C", 0)], "P3": [("l/A", 0)]},
                   [(1, DATA_TRANSFER)])
    rows = _codes("A b", "", "")
    assert reference._greedy(hands, reference.decode_rows(hands, rows))[1]  # refused
    assert _both(hands, rows) == rows
    # no C to give: unplayable, so the slots the greedy play missed are blanked (b and C)
    assert _both(hands, _codes("A b C", "", "")) == _codes("A", "", "")
    assert _both(hands, _codes("A b - - C", "", "")) == _codes("A", "", "")
    two = _hands({"P1": [], "P2": [("r/A", 0), ("b/C", 0)], "P3": [("l/A", 0)]},
                 [(1, DATA_TRANSFER), (2, DATA_TRANSFER)])
    # a second transfer: P2 gives its b/C there, but b and C are the halves of one card
    assert _both(two, _codes("A b - - C", "", "")) == _codes("A - - - C", "", "")
    assert _both(two, _codes("A b", "", "")) == _codes("A b", "", "")


def test_the_exact_check_past_its_branch_limit_blanks_as_the_reference() -> None:
    # five players giving at five transfers: plans with a card in every slot make many givers
    # give two halves at once, and the exact check runs out of branches
    events = [(1, DATA_TRANSFER), (1, DATA_TRANSFER), (2, INCOMING_DATA), (2, DATA_TRANSFER),
              (3, DATA_TRANSFER), (3, DATA_TRANSFER)]
    labels = ["P1", "P2", "P3", "P4", "P5"]
    hands = deal(labels, events, random.Random(7), heroics=False)
    rng = random.Random(1)
    limited = 0
    for _ in range(40):
        rows = [[rng.choice((1, 2, 3, 4, 4, 5, 6, 7)) for _ in range(12)] for _ in labels]
        crew = reference.decode_rows(hands, rows)
        missed, refused = reference._greedy(hands, crew)
        budget = [reference._BRANCH_LIMIT]
        if missed and refused:
            reference._exact(hands, crew, {}, budget)
        limited += budget[0] < 0
        _both(hands, rows)
    assert limited > 0


def test_androids_heroics_trips_and_blank_rows() -> None:
    hands = _hands({"P1": [("r/A", 0)], "P2": [("l/B", 0), ("b/C", 1)]},
                   heroic={"P1": "A+/>LB", "A1": "R+/>UW"}, androids=("A1",))
    assert _both(hands, _codes("", "", "")) == _codes("", "", "")
    # an android plays the players' cards (pooled): both its slots find one, P1's then none
    assert _both(hands, _codes("A", "", "A B")) == _codes("A", "", "- B")
    assert _both(hands, _codes("- A+ A+", "", "R+ >UW")) == _codes("- A+", "", "R+")
    assert _both(hands, _codes("A!", "B! - - C!", "")) == _codes("A!", "B! - - C!", "")
    assert _both(hands, _codes("R+", "A+", "A+")) == _codes("", "", "")  # not their heroics
    assert _both(hands, _codes("- - C", "", "")) == _codes("", "", "")  # C comes in phase 2


def test_inputs_the_c_side_refuses_fall_back_to_the_reference() -> None:
    hands = _hands({"P1": [("r/A", 0)], "P2": [("l/B", 0)]})
    assert chands.project_c(hands, _NO_CARD) is None  # AA: no card has it (docs/rules.md §19.2)
    with pytest.raises(KeyError):
        chands.project_codes(hands, _NO_CARD)  # the reference's own answer: decode_rows
    assert _both(hands, _codes("rA", "")) == _codes("", "")  # no double action in a base deal
    assert chands.project_c(hands, [[32] * 12, [0] * 12]) is None  # a tripped blank
    assert chands.project_c(hands, _codes("A")) is None  # not the crew's rows
    assert chands.project_c(hands, [[4] * 11, [0] * 11]) is None  # not 12 slots
    short = [[4, 1], [0]]
    assert chands.project_codes(hands, short) == reference.project_codes(hands, short)
    rows = _codes("r A", "B")
    assert chands.project_codes(hands, rows, prefer={(0, 2)}) == \
        reference.project_codes(hands, rows, prefer={(0, 2)}) == _codes("- A", "B")


def test_one_deal_projects_from_many_threads_at_once() -> None:
    # the foreign call releases the GIL: hands.c keeps no state outside its stack
    hands = deal(["P1", "P2", "P3", "P4"], [(1, DATA_TRANSFER), (2, DATA_TRANSFER)],
                 random.Random(5))
    rng = random.Random(9)
    plans = [[[rng.choice((0, 1, 2, 3, 4, 5, 6, 7)) for _ in range(12)] for _ in range(4)]
             for _ in range(200)]
    expected = [reference.project_codes(hands, rows) for rows in plans]
    results: dict[int, list[list[list[int]] | None]] = {}

    def run(worker: int) -> None:
        results[worker] = [chands.project_c(hands, rows) for rows in plans * 5]

    threads = [threading.Thread(target=run, args=(worker,)) for worker in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results[worker] == expected * 5 for worker in range(4))


def test_the_crews_project_through_the_fastest_projection() -> None:
    from authoring.engine.cores import hands_projection
    from authoring.simulation.dealing import playable_for

    assert getattr(hands_projection(), "func", None) is chands.project_codes
    hands = _hands({"P1": [("r/A", 0), ("b/A", 1)], "P2": [("l/B", 0)]})
    rows = [["A", "r", "A", "b"] + ["-"] * 8, ["B", "B"] + ["-"] * 10]
    crew = tuple(make_crew_plan(label, row) for label, row in zip(hands.labels, rows,
                                                                   strict=True))
    projected = reference.project(hands, crew)
    assert playable_for(hands)(rows, 1, 12) == [[a.token() for a in row.actions]
                                                for row in projected]
    # r/A serves turn 1; b/A arrives in phase 2 (turn 4), too late for turn 3
    assert playable_for(hands)(rows, 1, 12)[0][:4] == ["A", "-", "-", "b"]
    assert playable_for(hands)(rows, 3, 12)[0][:4] == ["A", "r", "-", "b"]  # turns 1-2 kept
