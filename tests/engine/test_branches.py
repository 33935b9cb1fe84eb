"""Checks the probabilistic claims of rules.md §21 by forcing each first damage token in turn.

Each of the six tokens of a zone is equally likely to be drawn first, so averaging over the
six forced draws gives the exact expectation when only the first token can matter.
"""

from __future__ import annotations

from fractions import Fraction

from authoring.engine import make_setup, parse_plan, resolve
from authoring.engine.plan import TOKEN_KINDS


def test_l3_gunship_expected_score_is_two_thirds() -> None:
    setup = make_setup([(1, "white", "E1-05")], "T1 T2 T3 T4")
    scores = []
    for kind in TOKEN_KINDS:
        result = resolve(setup, parse_plan(f"P1: C - A A\ntokens: white={kind}"))
        assert result.survived and result.score is not None
        scores.append(result.score.total)
    assert sorted(scores) == [-6, 2, 2, 2, 2, 2]
    assert Fraction(sum(scores), 6) == Fraction(2, 3)


def test_l4_nemesis_wins_five_times_in_six_with_score_zero() -> None:
    setup = make_setup([(1, "white", "SE2-05"), (2, "blue", "E1-05")], "T6 T1 T3 T4")
    outcomes = []
    for kind in TOKEN_KINDS:
        plan = parse_plan(f"P1: A A\nP2: l A\nP3: C b B\nA1:\ntokens: blue={kind}")
        result = resolve(setup, plan)
        outcomes.append((result.survived, result.score.total if result.score else None))
    assert sorted(outcomes, key=str) == sorted([(True, 0)] * 5 + [(False, None)], key=str)
