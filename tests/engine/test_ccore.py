"""The C engine core (authoring/engine/cores/ccore.py, authoring/engine/cores/c/core.c): what it
plays itself, its generator against CPython's, its fallback to the reference and its errors.

Whole games are compared in tests/engine/test_differential.py and test_scenarios.py; here the
pieces a random game rarely reaches. Skipped when the C core is not built.
"""

from __future__ import annotations

import copy
import ctypes
import dataclasses
import gc
import pickle
import random
from array import array

import pytest

from authoring import _native
from authoring.engine import Plan, Setup, get_level, make_setup, parse_plan
from authoring.engine.cores import ccore
from authoring.engine.errors import PlanError, SetupError
from authoring.engine.rules import game
from authoring.engine.rules.plan import make_crew_plan
from authoring.engine.rules.threats.cards import load_cards
from tests.engine.golden import load_scenarios
from tests.engine.strategies import random_plan, random_setup

pytestmark = pytest.mark.skipif(not ccore.available(),
                                reason=f"C engine core {_native.c_status()}")


def test_every_base_card_is_played_by_the_c_core() -> None:
    base = [card for card in load_cards().values() if card.set == "base"]
    assert len(base) == 55
    assert all(ccore.card_record(card) is not None for card in base)
    assert ccore.unsupported_cards() == frozenset()


def test_every_operation_and_ability_of_the_reference_is_ported() -> None:
    from authoring.engine.rules.threats import abilities

    assert set(abilities.OPS) == set(ccore.OPERATIONS[1:]) - {"activate"} | set(ccore._ACTIVATE)
    names = {ability.partition(":")[0] for ability in abilities.ABILITIES}
    assert names == set(ccore.FLAGS) | set(ccore.ARGUMENT_ABILITIES)


def test_a_card_the_port_does_not_know_is_refused() -> None:
    card = load_cards()["E1-01"]
    assert ccore.card_record(dataclasses.replace(card, x=(("warp", 2),))) is None
    assert ccore.card_record(dataclasses.replace(card, abilities=("teleports",))) is None
    assert ccore.card_record(dataclasses.replace(card, y=(("attack", 1),) * 4)) is None
    assert ccore.card_record(card) is not None


def test_golden_scenarios_are_played_in_c_not_handed_back() -> None:
    played = 0
    for scenario in load_scenarios():
        if scenario.following:  # campaigns: not the C core's
            continue
        setup, plan = scenario.setup(), parse_plan("\n".join(scenario.plan_lines))
        batch = ccore.play([(setup, plan)], trace=True)
        assert batch.fallback == {}, scenario.id
        assert ccore.result(batch, 0) == game.resolve(setup, plan, record=False, trace=True)
        played += 1
    assert played > 100


def _draws(seed: int, bounds: list[int]) -> list[int]:
    lib = ctypes.CDLL(_native.c_library())
    key = array("I", ccore._key(seed))
    wanted = array("i", bounds)
    out = array("i", bytes(4 * len(bounds)))
    assert lib.sa_randbelow(ctypes.c_void_p(key.buffer_info()[0]), len(bounds),
                            ctypes.c_void_p(wanted.buffer_info()[0]),
                            ctypes.c_void_p(out.buffer_info()[0])) == len(bounds)
    return list(out)


@pytest.mark.parametrize("seed", [0, 1, -1, 7, 2**31, 2**32 - 1, 2**32, -(2**40) - 7, 2**64 + 3,
                                  2**100 + 12345, 3**90, 2**20000 + 5],
                         ids=lambda seed: f"{'-' if seed < 0 else ''}{seed % 1000}/"
                                          f"{abs(seed).bit_length()}bits")
def test_the_generator_draws_what_cpython_draws(seed: int) -> None:
    # 3,000 draws with rejections: several twists of the state, one- and many-word keys (the
    # last longer than the generator's 624 words of state).
    rng = random.Random(99)
    bounds = [rng.randint(1, 6) for _ in range(3000)]
    reference = random.Random(seed)
    assert _draws(seed, bounds) == [reference.randrange(n) for n in bounds]


def test_explicit_seeds_repeated_and_large_give_the_reference_results() -> None:
    # Games sharing a seed share one seeding; seeds of several words are seeded one by one:
    # all must draw as the reference.
    rng = random.Random(4)
    setup = random_setup(rng, threats=8)
    plan = random_plan(rng, crew=5)
    seeds = [5, 5, 2**40 + 1, 5, -5, 0, 9, 9, 5, 2**40 + 1, 11, 12, 13, 14, 15, 16, 17, 5, 0,
             2**20000 + 5]
    games = [(setup, plan)] * len(seeds)
    expected = game.resolve_batch(games, seeds, trace=True)
    assert ccore.resolve_batch(games, seeds, trace=True) == expected
    assert len({r.trace for r in expected}) > 3  # the seeds really change the games


def test_a_long_batch_of_mixed_seeds_gives_the_reference_results() -> None:
    # The batch keeps the generators of the latest seeds (two blocks of 32) and seeds the others
    # a block of games at a time: seeds that come back after other blocks, blocks that read
    # both kept blocks and still need new seeds (some kept ones are seeded again), long keys,
    # and the plans' own seeds.
    rng = random.Random(12)
    setup = random_setup(rng, threats=8)
    plans = [random_plan(rng, crew=4) for _ in range(5)]
    pool = [rng.randrange(2**32) for _ in range(70)] + [2**40 + 3, -(2**70) - 1]
    seeds = [rng.choice(pool) if rng.random() < 0.7 else rng.randrange(2**32)
             for _ in range(1500)]
    games = [(setup, plans[i % 5]) for i in range(len(seeds))]
    assert ccore.resolve_batch(games, seeds) == game.resolve_batch(games, seeds)
    games = [(random_setup(rng), random_plan(rng)) for _ in range(300)]
    games = [games[rng.randrange(300)] for _ in range(1500)]
    assert ccore.resolve_batch(games) == game.resolve_batch(games)


def test_the_cached_encodings_do_not_travel() -> None:
    # The C core keeps each setup's and plan's encoding (with its address) in caches of its
    # own, by identity, never on the reference's objects: a copy made by pickle (a worker
    # process) or deepcopy encodes its own, and the reference's types hold no core state.
    rng = random.Random(5)
    setup, plan = random_setup(rng), random_plan(rng)
    first = ccore.resolve_batch([(setup, plan)])
    assert ccore._SETUP_CODES.get(setup) is not None and ccore._PLAN_CODES.get(plan) is not None
    assert not any("code" in name for name in vars(setup)) and "_c_code" not in vars(Plan)
    for copy_setup, copy_plan in ((pickle.loads(pickle.dumps(setup)),
                                   pickle.loads(pickle.dumps(plan))),
                                  (copy.deepcopy(setup), copy.deepcopy(plan))):
        assert ccore._SETUP_CODES.get(copy_setup) is None
        assert ccore._PLAN_CODES.get(copy_plan) is None
        assert (copy_setup, copy_plan) == (setup, plan)
        assert ccore.resolve_batch([(copy_setup, copy_plan)]) == first


def test_a_code_goes_with_its_object() -> None:
    # An entry dies with its object, so a later object given the same id finds no old code.
    rng = random.Random(6)
    plan = random_plan(rng)
    ccore.resolve_batch([(random_setup(rng), plan)])
    entries = ccore._PLAN_CODES._entries
    key = id(plan)
    assert key in entries
    del plan
    gc.collect()
    assert key not in entries


def test_a_setup_the_c_core_cannot_play_goes_to_the_reference(
        monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(8)
    games = [(random_setup(rng, threats=6), random_plan(rng, crew=4)) for _ in range(30)]
    index, _, table = ccore._card_table()
    hidden = games[3][0].appearance_order[0][0].id  # as if the port lacked this card
    monkeypatch.setattr(ccore, "_card_table",
                        lambda: ({k: v for k, v in index.items() if k != hidden},
                                 frozenset({hidden}), table))
    batch = ccore.play(games, trace=True)
    uses = [i for i, (setup, _) in enumerate(games)
            if any(card.id == hidden for card, _, _ in setup.appearance_order)]
    assert sorted(batch.fallback) == uses and 3 in uses
    expected = game.resolve_batch(games, trace=True)
    assert [ccore.result(batch, i) for i in range(len(games))] == expected
    for i in uses:  # the compact record is filled from the reference's result too
        assert batch.survived(i) == expected[i].survived
        score = expected[i].score
        assert batch.total(i) == (score.total if score else 0)


def test_illegal_games_raise_the_references_errors() -> None:
    setup = make_setup([(1, "white", "E1-10")], "T1 T2 T3 T4", level=1)
    heroic = parse_plan("P1: A+\nP2:\nP3:\nP4:")
    with pytest.raises(PlanError, match="expected no heroic card at rule level 1"):
        game.resolve(setup, heroic)
    with pytest.raises(PlanError, match="expected no heroic card at rule level 1"):
        ccore.resolve_batch([(setup, heroic)])
    four = make_setup([(1, "white", "E1-10")], "T1 T2 T3 T4", players=4)
    with pytest.raises(SetupError, match="expected 4 or 5 crew members"):
        ccore.resolve_batch([(four, parse_plan("P1: A"))])
    with pytest.raises(ValueError, match="one seed per game"):
        ccore.resolve_batch([(four, parse_plan("P1: A"))], [1, 2])


def test_a_resolution_with_its_log_is_the_references() -> None:
    setup = make_setup([(1, "white", "E1-10")], "T1 T2 T3 T4")
    plan = parse_plan("P1: A A\nP2: B")
    logged = ccore.resolve(setup, plan)  # record=True: only the Python modules write a log
    assert logged.log and logged == game.resolve(setup, plan)
    assert ccore.resolve(setup, plan, record=False) == game.resolve(setup, plan, record=False)


def _level_game(rng: random.Random, level: int) -> tuple[Setup, Plan]:
    """A random legal game at a rule level (docs/rules.md §17): its threats, its cards."""
    rules = get_level(level)
    cards = [c for c in load_cards().values() if c.playable
             and (rules.serious_threats or not c.serious)
             and (rules.internal_threats or c.external)]
    events = [(rng.randint(1, rules.turns), "internal" if not card.external
               else rng.choice(["red", "white", "blue"]), card.id)
              for card in rng.sample(cards, rng.randint(1, 8))]
    setup = make_setup(events, " ".join(rng.sample([f"T{n}" for n in range(1, 8)], 4)),
                       level=level)
    simple = ["-", "r", "b", "l", "A", "A", "B", "C", "R"] + (["A!", "C!"] if rules.delays else [])
    crew = []
    for index in range(rng.randint(1, 5)):
        tokens = [rng.choice(simple) for _ in range(rules.turns)]
        if rules.heroics and rng.random() < 0.5:
            tokens[rng.randrange(len(tokens))] = rng.choice(["A+", "B+", "R+", ">LB", ">UR"])
        crew.append(make_crew_plan(f"P{index + 1}", tokens))
    return setup, Plan(tuple(crew), seed=rng.randrange(2**32))


@pytest.mark.parametrize("level", [1, 2, 3, 4])
def test_every_rule_level_plays_as_the_reference(level: int) -> None:
    rng = random.Random(level)
    games = [_level_game(rng, level) for _ in range(300)]
    batch = ccore.play(games, trace=True)
    assert batch.fallback == {}
    expected = game.resolve_batch(games, trace=True)
    assert [ccore.result(batch, i) for i in range(len(games))] == expected
    assert any(r.survived for r in expected) and not all(r.survived for r in expected)


def test_more_threats_than_the_c_core_holds_go_to_the_reference() -> None:
    externals = [c.id for c in load_cards().values() if c.playable and c.external]
    events = [(1 + i % 8, ("red", "white", "blue")[i % 3], card)
              for i, card in enumerate(externals[:ccore.MAX_THREATS + 1])]
    setup = make_setup(events, "T1 T2 T3 T4")
    plan = parse_plan("P1: A A A\nP2: B C\nP3: r A\nP4: b A")
    batch = ccore.play([(setup, plan)], trace=True)
    assert list(batch.fallback) == [0]
    assert ccore.result(batch, 0) == game.resolve(setup, plan, record=False, trace=True)
