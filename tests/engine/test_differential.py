"""Differential test: the native (mypyc) and C engine cores play every game exactly as the
Python reference.

A seeded bulk loop (``GAMES`` random games from generated missions, 100,000 by default, see
differential.py; bench/differential.py times the same run) and Hypothesis-driven plans, so a
failure shrinks to a small plan; each game is played once by the reference and compared with
every other core built. Skipped when no other core is built (``python -m authoring._native build``;
``.ci/setup`` builds both), failed when one is built but older than its sources.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import re
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from authoring import _native
from authoring.engine import (
    Plan,
    Result,
    Setup,
    initial_state,
    make_setup,
    parse_plan,
    resolve,
    resolve_mission,
)
from authoring.engine.cores import NATIVE, PYTHON, C, available, get_core, module
from authoring.engine.rules.plan import DOUBLE_PAIRS, TOKEN_KINDS
from authoring.engine.rules.state import CrewMember, State, ThreatState
from authoring.engine.rules.threats.cards import get_card
from authoring.mission import load_mission
from tests.engine.differential import (
    DOUBLE,
    HEROIC,
    MISSION_SEEDS,
    PROFILES,
    SIMPLE,
    check_chunk,
    compare_cases,
    compare_cores,
    make_case,
    random_case,
)

# The 100,000 games every run: the reference with its notation every turn costs most
# (about 680 games/s compared, python against native and C, since notation keeps the text of
# slot codes; 430 before), so the chunks go to a worker per core (two in CI: about two and a
# half minutes). The variable changes the count.
GAMES = int(os.environ.get("SPACEALERT_DIFFERENTIAL_GAMES", "100000"))
CHUNK = 1000
OTHERS = tuple(core for core in available() if core != PYTHON)  # compared with the reference

needs_native = pytest.mark.skipif(
    not OTHERS, reason=f"native engine core {_native.status()}, C core {_native.c_status()}")


def test_the_native_core_is_usable_where_it_was_built() -> None:
    # A build that is stale, for another Python or incomplete is not loaded (the toolkit falls
    # back to Python); here it must fail loudly, or the differential tests below would skip.
    # In CI (CI=true, where .ci/setup builds it) a core that is not built at all fails too, as
    # the browser tests do without Chromium.
    allowed = {None} if os.environ.get("CI") else {None, "not built"}
    for name, status in (("native engine core", _native.status()),
                         ("C engine core", _native.c_status())):
        if status not in allowed:
            pytest.fail(f"{name} {status}: run `{_native.BUILD_COMMAND}`", pytrace=False)


def test_state_copies_are_field_by_field_complete() -> None:
    # state.py copies and compares field by field (the native core compiles it, so no
    # __dict__): every attribute must be in the copy and in the comparison.
    setup = make_setup([(1, "white", "E1-10"), (2, "internal", "SI1-01")], "T1 T2 T3 T4")
    state = initial_state(setup, parse_plan("P1: A\nP2: B"))
    objects: list[State | ThreatState | CrewMember] = [state, *state.threats, *state.crew]
    for obj in objects:
        for name, value in vars(obj).items():  # every field to a non-default value
            if isinstance(value, bool):
                setattr(obj, name, not value)
            elif isinstance(value, int):
                setattr(obj, name, value + 7)
        copy = obj.copy()
        assert vars(copy) == vars(obj)
        assert len(obj._fields()) == len(vars(obj))
        assert copy == obj
    card = get_card("E1-01")
    assert ThreatState(card, 1, 0) != ThreatState(card, 2, 0)


def test_the_cores_are_listed_when_built() -> None:
    assert available()[0] == PYTHON
    assert (NATIVE in available()) == (_native.status() is None)
    assert (C in available()) == (_native.c_status() is None)
    assert module(PYTHON, "game").__file__.endswith("engine/rules/game.py")  # type: ignore[union-attr]
    if NATIVE in available():  # really compiled code, not the reference under another name
        for name in ("game", "state", "threats.abilities", "threats.cards", "campaign"):
            assert Path(module(NATIVE, name).__file__ or "").suffix == ".so", name


@pytest.mark.slow  # the 100,000 games: about 150 s (README: the quick set leaves it out)
@needs_native
def test_seeded_bulk_games_agree(tmp_path: Path) -> None:
    rng = random.Random(int(os.environ.get("SPACEALERT_DIFFERENTIAL_SEED", "13")))
    jobs = []
    for first in range(0, GAMES, CHUNK):  # a seed per chunk: the same games on any worker count
        jobs.append((rng.getrandbits(64), min(CHUNK, GAMES - first),
                     str(tmp_path / f"chunk-{first}"), OTHERS))
    start = time.monotonic()
    played = 0
    workers = min(os.cpu_count() or 1, 4)
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
        for first, (count, reports) in zip(range(0, GAMES, CHUNK), pool.map(check_chunk, jobs),
                                          strict=True):
            played += count
            if reports:
                pool.shutdown(cancel_futures=True)
                pytest.fail(f"{len(reports)} of the games {first}..{first + count - 1} differ "
                            f"between the cores; the first:\n{reports[0]}", pytrace=False)
    seconds = time.monotonic() - start
    print(f"differential: {played} games agree between python and {', '.join(OTHERS)} "
          f"({seconds:.0f} s on {workers} workers, {played / seconds:.0f} games/s compared)")


def _with_heroic(drawn: tuple[list[str], tuple[int, str] | None]) -> list[str]:
    tokens, heroic = drawn
    if heroic is not None:  # at most one heroic card per member (its gold card)
        tokens[heroic[0]] = heroic[1]
    return tokens


tokens = st.tuples(st.lists(st.sampled_from(SIMPLE + DOUBLE), min_size=12, max_size=12),
                   st.none() | st.tuples(st.integers(0, 11), st.sampled_from(HEROIC))
                   ).map(_with_heroic)
zones = st.sampled_from(["red", "white", "blue"])
forced = st.dictionaries(zones, st.lists(
    st.sampled_from(TOKEN_KINDS),
    min_size=1, max_size=3, unique=True).map(tuple), max_size=3)


@needs_native
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          database=None)
@given(profile=st.sampled_from([p for p in PROFILES if p != "test-run"]),
       players=st.sampled_from([4, 5]), mission_seed=st.sampled_from(list(MISSION_SEEDS)),
       crew=st.lists(tokens, min_size=5, max_size=5), seed=st.integers(0, 2**32 - 1),
       forced_draws=forced)
def test_hypothesis_plans_agree(tmp_path_factory: pytest.TempPathFactory, profile: str,
                                players: int, mission_seed: int, crew: list[list[str]],
                                seed: int, forced_draws: dict[str, tuple[str, ...]]) -> None:
    if profile != "double-action":  # double actions only on double-action tracks: one half
        crew = [[t if t[:2] not in DOUBLE_PAIRS else t[0] for t in row] for row in crew]
    case = make_case(profile, players, mission_seed, crew[:players], seed, forced_draws)
    folder = tmp_path_factory.mktemp("differential")
    reports = compare_cores([case], get_core(PYTHON), {name: get_core(name) for name in OTHERS},
                            folder)
    if reports:
        raise AssertionError(f"the cores differ:\n{reports[0]}")


class _OtherSeeds:
    """A stand-in core that really differs: the Python engine with other damage draws."""

    def resolve(self, setup: Setup, plan: Plan, *, seed: int | None = None,
                record: bool = True, trace: bool = False) -> Result:
        return resolve(setup, plan, seed=plan.seed + 1, record=record, trace=trace)

    def resolve_batch(self, games: Sequence[tuple[Setup, Plan]],
                      seeds: Sequence[int] | None = None, *,
                      trace: bool = False) -> list[Result]:
        return [self.resolve(s, p, trace=trace) for s, p in games]


@pytest.mark.parametrize("name", ["native", "c"])
def test_a_mismatch_names_the_first_turn_and_writes_a_reproduction(tmp_path: Path,
                                                                   name: str) -> None:
    rng = random.Random(5)
    python = get_core(PYTHON)
    cases = [random_case(rng) for _ in range(40)]
    reports = (compare_cases(cases, python, _OtherSeeds(), tmp_path) if name == "native"
               else compare_cores(cases, python, {name: _OtherSeeds()}, tmp_path))
    assert reports, "other damage draws changed no game"
    first = reports[0]
    assert re.match(rf"{name} core: (state after turn \d+ differs:\n  python: t=\d+ .*\n  "
                    rf"{name}: t=\d+ |python traced)", first), first
    plan_file = Path(re.search(r"reproduce: spacealert resolve \S+ (\S+)", first)[1])  # type: ignore[index]
    assert f"get_core({name!r})" in first
    index = int(plan_file.parent.name.rsplit("-", 1)[1])
    # The files replay the reference game exactly: the same mission, cards, trajectories.
    replayed = resolve_mission(load_mission(plan_file.parent / "mission.yaml"),
                               parse_plan(plan_file.read_text(encoding="utf-8")),
                               record=False, trace=True)
    assert replayed == python.resolve(cases[index].setup(), cases[index].plan, record=False,
                                      trace=True)

