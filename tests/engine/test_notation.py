"""Tests the canonical state notation: exact text, parse round trip, bad input."""

from __future__ import annotations

import pytest

from authoring.engine import NotationError, make_setup, parse_plan, resolve
from authoring.engine.rules.game import initial_state
from authoring.engine.rules.notation import notation, parse_notation

START = ("t=0 tracks=T1.T2.T3.T4 sh=1.1.1 re=2.3.2 fuel=3 rk=3.0 bots=aa comp=... vc=0.0.0 "
         "dmg=-.-.- broken=- contam=- scout=0 lost=0 crew=P1@UW,A1@UW slots=P1:r.A+|A1: "
         "thr=E1-07#1w-,SI2-04#3i-")


def test_initial_notation() -> None:
    setup = make_setup([(1, "white", "E1-07"), (3, "internal", "SI2-04")], "T1 T2 T3 T4")
    state = initial_state(setup, parse_plan("P1: r A+\nA1:"))
    assert notation(state) == START
    assert parse_notation(START) == state


def test_every_traced_state_round_trips() -> None:
    setup = make_setup([(1, "blue", "E1-09"), (3, "red", "SE2-03"), (4, "internal", "SI2-01"),
                        (5, "white", "E1-06"), (7, "red", "E1-01"), (8, "white", "E2-02"),
                        (2, "internal", "I2-01")], "T7 T6 T4 T3")
    plan = parse_plan("P1: l C B b C C b - C r - C\nP2: B R - C r A A - l - b C\n"
                      "P3: C b A A - - r B l - - C\nP4: b - C R C R r R A l C -")
    for line in resolve(setup, plan, trace=True).trace:
        assert notation(parse_notation(line)) == line


@pytest.mark.parametrize("bad", ["t=1", "foo=1", "t=0 tracks=T1 sh=1"])
def test_bad_notation_is_rejected(bad: str) -> None:
    with pytest.raises(NotationError):
        parse_notation(bad)


def test_copy_is_equal_and_independent() -> None:
    setup = make_setup([(1, "internal", "I2-01"), (1, "white", "E1-07")], "T1 T2 T3 T4")
    line = resolve(setup, parse_plan("P1: l b A\nP2: C R"), trace=True).trace[5]
    state = parse_notation(line)
    other = state.copy()
    assert other == state and notation(other) == line
    other.shields[0] = 0
    other.crew[0].slots[11] = 4
    other.threats[0].stations.append(0)
    other.tokens[1].append(0)
    assert notation(state) == line


def test_fork_continues_like_the_original() -> None:
    import random

    from authoring.engine.rules.game import Game

    setup = make_setup([(1, "blue", "E1-09"), (3, "red", "SE2-03"), (4, "internal", "SI2-01"),
                        (5, "white", "E1-06"), (7, "red", "E1-01"), (8, "white", "E2-02")],
                       "T7 T6 T4 T3")
    plan = parse_plan("P1: l C B b C C b - C r - C\nP2: B R - C r A A - l - b C\n"
                      "P3: C b A A - - r B l - - C\nP4: b - C R C R r R A l C -")
    whole = resolve(setup, plan, seed=9, trace=True)
    game = Game(initial_state(setup, plan), random.Random(9), trace=True)
    for _ in range(5):
        assert game.play_next()
    branch = game.fork()
    branch.play_next()
    assert notation(game.state) == whole.trace[5]  # the fork left the original alone
    assert game.run() == whole == branch.run()
    assert not game.play_next()
