"""The one plan evaluator (authoring/engine/odds/evaluator.py) against brute force over draw orders.

The brute force plays whole games through the engine's ``Game`` with a token source of its own
that walks every *order* of draws (no sets, no merging, no relevance): an independent count of
the same probabilities (docs/rules.md §12.3), in exact fractions.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from authoring.engine import Odds, Plan, Setup, exact_outcome, initial_state, make_setup, parse_plan
from authoring.engine.rules.game import Game
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.scoring import score_state
from tests.engine.strategies import random_plan


class _Odometer:
    """Replays a script of indexes, then draws the first token left; records every choice."""

    def __init__(self, script: list[int]) -> None:
        self.script = script
        self.choices: list[tuple[int, int]] = []  # (index chosen, tokens left)

    def draw(self, zone: int, left: list[int], attack: int) -> int:
        position = len(self.choices)
        index = self.script[position] if position < len(self.script) else 0
        self.choices.append((index, len(left)))
        return left[index]


def _brute_force(setup: Setup, plan: Plan, limit: int = 4000) -> Odds | None:
    """Returns the exact odds by playing every draw order (None past ``limit`` games)."""
    rules = get_level(setup.level)
    win = Fraction(0)
    losses: dict[int, Fraction] = {}
    scores: dict[int, Fraction] = {}
    script: list[int] | None = []
    games = 0
    while script is not None:
        games += 1
        if games > limit:
            return None
        source = _Odometer(script)
        game = Game(initial_state(setup, plan), random.Random(0), record=False, rules=rules,
                    tokens=source)
        game.run()
        weight = Fraction(1)
        for _, left in source.choices:
            weight /= left
        state = game.state
        if state.lost:
            losses[state.lost] = losses.get(state.lost, Fraction(0)) + weight
        else:
            win += weight
            if rules.scored:
                total = score_state(state).total
                scores[total] = scores.get(total, Fraction(0)) + weight
        # The next order: raise the last choice that can be raised, drop the ones after it.
        script = None
        for position in range(len(source.choices) - 1, -1, -1):
            index, left = source.choices[position]
            if index + 1 < left:
                script = [c for c, _ in source.choices[:position]] + [index + 1]
                break
    expected = (sum((s * p for s, p in scores.items()), Fraction(0)) / win
                if scores and win else None)
    return Odds(win, expected, losses, scores)


# Fighters and Gunships in the white zone hitting the ship in attacks of several tokens while
# the crew fires, lifts and moves energy: which tokens come up changes score and survival.
DESIGNED = [
    ([(1, "white", "E1-07")], "- - - - - - A A A", "-"),
    ([(2, "white", "E1-06"), (1, "white", "E1-02")], "- A A A l - - - C B - -",
     "C - l l C C l C B B - B"),
    ([(2, "white", "E1-07"), (1, "white", "E1-06")], "B - - B - - C B C - A C",
     "- - l l - l l C - l C B"),
    ([(1, "white", "E1-05")], "C - A A", "-"),
]


def _small_cases(count: int, seed: int) -> list[tuple[Setup, Plan, Odds]]:
    """Returns the designed games and random small ones whose draws change the outcome."""
    cases: list[tuple[Setup, Plan, Odds]] = []
    for events, first, second in DESIGNED:
        setup = make_setup(events, "T1 T2 T3 T4")
        plan = parse_plan(f"P1: {first}\nP2: {second}")
        brute = _brute_force(setup, plan)
        assert brute is not None
        cases.append((setup, plan, brute))
    rng = random.Random(seed)
    for _ in range(400):  # random plans against the designed threats: about 1 in 15 fits
        if len(cases) >= count:
            break
        setup = make_setup(rng.choice(DESIGNED)[0], "T1 T2 T3 T4")
        plan = random_plan(rng, crew=2)
        brute = _brute_force(setup, plan, limit=3000)
        if brute is not None and len(brute.scores) + len(brute.losses) > 1:
            cases.append((setup, plan, brute))
    return cases


def test_the_exact_odds_equal_brute_force_over_every_draw_order() -> None:
    cases = _small_cases(10, 4)
    assert len(cases) == 10
    assert sum(len(b.scores) + len(b.losses) > 1 for _, _, b in cases) >= 7  # draws matter
    for setup, plan, brute in cases:
        odds = exact_outcome(setup, plan)
        assert odds.method == "exact" and odds.exact
        assert (odds.win, odds.expected_score) == (brute.win, brute.expected_score)
        assert odds.losses == brute.losses and odds.scores == brute.scores


def test_the_section_21_l3_case_equals_brute_force() -> None:
    setup = make_setup([(1, "white", "E1-05")], "T1 T2 T3 T4")
    plan = parse_plan("P1: C - A A")
    assert exact_outcome(setup, plan) == _brute_force(setup, plan)


def test_forced_tokens_are_drawn_first_in_the_exact_odds() -> None:
    setup = make_setup([(1, "white", "E1-05")], "T1 T2 T3 T4")
    forced = exact_outcome(setup, parse_plan("P1: C - A A\ntokens: white=upper-cannon"))
    assert (forced.win, forced.expected_score, forced.scores) == (1, -6, {-6: 1})


def _damaging_cases() -> list[tuple[Setup, Plan, Odds]]:
    """Small games with an exact answer whose draws spread the outcome (for sampling)."""
    cases = [(setup, plan, exact_outcome(setup, plan)) for setup, plan, brute in
             _small_cases(10, 4) if len(brute.scores) + len(brute.losses) >= 2]
    assert len(cases) >= 6
    return cases


def test_the_sampled_interval_contains_the_exact_answer() -> None:
    spread = 0
    for setup, plan, exact in _damaging_cases():
        sampled = exact_outcome(setup, plan, max_leaves=0, samples=60, sample_budget=0,
                                seed=3)
        assert sampled.method == "sampled" and sampled.samples == 60
        assert sampled.win_error is not None
        # Four standard errors (a deterministic seed: this is not a flaky bound).
        assert abs(sampled.win - exact.win) <= 4 * sampled.win_error + 1e-12
        if exact.expected_score is not None and sampled.expected_score is not None:
            assert sampled.score_error is not None
            assert abs(sampled.expected_score - exact.expected_score) \
                <= 4 * sampled.score_error + 1e-9
        spread += sampled.win_error > 0 or (sampled.score_error or 0) > 0
        assert sum(sampled.losses.values()) + sampled.win == pytest.approx(1)
    assert spread >= 2  # the samples really differed


def test_sampled_odds_are_deterministic_and_say_so_in_json() -> None:
    setup, plan, _ = _damaging_cases()[0]
    first = exact_outcome(setup, plan, max_leaves=0, samples=20, seed=7)
    assert first == exact_outcome(setup, plan, max_leaves=0, samples=20, seed=7)
    data = first.to_dict()
    assert data["method"] == "sampled" and data["samples"] == 20
    assert set(data) >= {"win", "expected_score", "losses", "scores", "win_error",
                         "expected_score_error"}


def test_a_game_draws_from_the_token_source_it_is_given() -> None:
    setup = make_setup([(1, "white", "E1-07")], "T1 T2 T3 T4")
    plan = parse_plan("P1: - - - - - - A A A\nP2: -")
    source = _Odometer([5, 4, 3])
    game = Game(initial_state(setup, plan), random.Random(0), record=False, tokens=source)
    game.run()
    assert [left for _, left in source.choices] == [6, 5, 4][:len(source.choices)]
    assert game.state.tokens[1][:3] == [5, 4, 3][:len(game.state.tokens[1])]
