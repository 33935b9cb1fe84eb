"""Plays the same games through the pure-Python reference and the other engine cores (mypyc,
C) and compares them.

Shared by tests/engine/test_differential.py (bounded, every CI run) and bench/differential.py
(the full 100,000-game run). A game is a generated mission (profiles ``base``, ``training``,
``test-run`` and ``double-action``; 4 or 5 players), a random legal plan of that many figures
(with double actions on double-action tracks, docs/rules.md §19) with
a random seed, random forced damage tokens and, in half the games, cards pinned through the
plan's ``draw`` (the rest drawn by the engine with the plan's seed); in three games out of
ten the draw also pins the expansion's cards the engine plays (docs/rules.md §19.8) into
about half the slots of their kind, since the engine never draws them from a deck.
Compared: the whole
``Result`` (outcome, cause, damage per zone, threat fates, score breakdown) and the state
notation after every turn; a mismatch names the first turn that differs and writes a
reproducing mission and plan file.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from authoring.engine import Plan, Result, Setup, make_crew_plan, setup_from_mission
from authoring.engine.cores import Core
from authoring.engine.errors import EngineError
from authoring.engine.rules.plan import DOUBLE_PAIRS, TOKEN_KINDS, ZONES
from authoring.engine.rules.threats.cards import load_cards
from authoring.generate import GenerateOptions, generate_mission, generated_text
from authoring.mission.model import Mission

PROFILES = ("base", "training", "test-run", "double-action")
MISSION_SEEDS = range(1, 5)
SIMPLE = ["-", "-", "r", "b", "l", "A", "A", "B", "C", "R", "A!", "r!"]
LEVEL_1 = ["-", "-", "r", "b", "l", "A", "A", "B", "C", "R"]  # no heroic, no tripped cards
HEROIC = ["A+", "B+", "R+", ">UR", ">UW", ">UB", ">LR", ">LW", ">LB"]
#: Double-action cards, each also tripped
DOUBLE = [*DOUBLE_PAIRS, *(pair + "!" for pair in DOUBLE_PAIRS[::5])]


@dataclass(frozen=True)
class Case:
    """One game: which generated mission, and the plan (seed, forced tokens, pinned cards)."""

    profile: str
    players: int
    mission_seed: int
    plan: Plan

    @property
    def options(self) -> GenerateOptions:
        return GenerateOptions(profile=self.profile,  # type: ignore[arg-type]
                               players=self.players, seed=self.mission_seed)

    def mission(self) -> Mission:
        return _mission(self.profile, self.players, self.mission_seed)

    def setup(self) -> Setup:
        return setup_from_mission(self.mission(), self.plan)


@cache
def _mission(profile: str, players: int, seed: int) -> Mission:
    options = GenerateOptions(profile=profile, players=players, seed=seed)  # type: ignore[arg-type]
    return generate_mission(options).mission


def crew_tokens(rng: random.Random, figures: int, level_1: bool,
                doubles: bool = False) -> list[list[str]]:
    """Returns random legal tokens: 12 per figure, at most one heroic card each (none, and
    blanks after turn 7, at rule level 1); with ``doubles`` about half the cards are double
    actions."""
    crew = []
    for _ in range(figures):
        if level_1:
            tokens = [rng.choice(LEVEL_1) for _ in range(7)] + ["-"] * 5
        else:
            tokens = [rng.choice(DOUBLE) if doubles and rng.random() < 0.5
                      else rng.choice(SIMPLE) for _ in range(12)]
            if rng.random() < 0.5:
                tokens[rng.randrange(12)] = rng.choice(HEROIC)
        crew.append(tokens)
    return crew


def forced_tokens(rng: random.Random) -> dict[str, tuple[str, ...]]:
    """Returns random forced damage-token draws for some zones (often none)."""
    forced = {}
    for zone in ZONES[:3]:
        if rng.random() < 0.3:
            forced[zone] = tuple(rng.sample(TOKEN_KINDS, rng.randint(1, 3)))
    return forced


def pinned_draw(rng: random.Random, mission: Mission, figures: int) -> tuple[str | None, ...]:
    """Returns a ``draw`` pinning some of the mission's cards (drawn with another seed)."""
    blank = Plan(tuple(make_crew_plan(f"P{i + 1}", "") for i in range(figures)),
                 seed=rng.randrange(2**31))
    cards = iter(e.card for e in setup_from_mission(mission, blank).threats)
    draw: list[str | None] = []
    for threat in mission.threats():
        if threat.unconfirmed and figures < 5:
            draw.append(None)  # not played with 4 figures
            continue
        card = next(cards)
        draw.append(card if rng.random() < 0.7 else None)
    return tuple(draw)


@cache
def expansion_cards() -> dict[tuple[bool, bool], tuple[str, ...]]:
    """Returns the expansion's played cards by (external, serious), in data order."""
    kinds: dict[tuple[bool, bool], list[str]] = {}
    for card in load_cards().values():
        if card.set != "base" and card.playable:
            kinds.setdefault((card.external, card.serious), []).append(card.id)
    return {kind: tuple(ids) for kind, ids in kinds.items()}


def expansion_draw(rng: random.Random, mission: Mission, figures: int,
                   draw: tuple[str | None, ...]) -> tuple[str | None, ...]:
    """Returns ``draw`` (or an open draw) with an expansion card pinned, in about half the
    slots of a kind that has one, each card once (a slot's kind: external or internal,
    serious or not, as the engine checks a pinned card)."""
    threats = list(mission.threats())
    pinned: list[str | None] = list(draw) if draw else [None] * len(threats)
    used = {card for card in pinned if card}
    for index, threat in enumerate(threats):
        if threat.unconfirmed and figures < 5:
            continue  # not played with 4 figures
        kind = (threat.zone != "internal", bool(threat.serious))
        options = [c for c in expansion_cards().get(kind, ()) if c not in used]
        if options and rng.random() < 0.5:
            pinned[index] = rng.choice(options)
            used.add(pinned[index] or "")
    return tuple(pinned)


def make_case(profile: str, players: int, mission_seed: int, tokens: list[list[str]], seed: int,
              forced: dict[str, tuple[str, ...]], draw: tuple[str | None, ...] = ()) -> Case:
    """Builds a case from its parts (shared by the seeded loop and Hypothesis)."""
    crew = tuple(make_crew_plan(f"P{i + 1}", t) for i, t in enumerate(tokens))
    return Case(profile, players, mission_seed, Plan(crew, draw=draw, seed=seed, tokens=forced))


def random_case(rng: random.Random) -> Case:
    """Returns one random game."""
    profile = rng.choice(PROFILES)
    players = rng.choice((4, 5))
    mission_seed = rng.choice(MISSION_SEEDS)
    mission = _mission(profile, players, mission_seed)
    draw = pinned_draw(rng, mission, players) if rng.random() < 0.5 else ()
    if rng.random() < 0.3:
        draw = expansion_draw(rng, mission, players, draw)
    return make_case(profile, players, mission_seed,
                     crew_tokens(rng, players, profile == "test-run",
                                 profile == "double-action"), rng.randrange(2**32),
                     forced_tokens(rng), draw)


# --- comparison ----------------------------------------------------------------------------

Outcome = Result | str  # a result, or the engine error a core raised


def _play_one(core: Core, setup: Setup, plan: Plan) -> Outcome:
    try:
        return core.resolve(setup, plan, record=False, trace=True)
    except EngineError as error:
        return f"{type(error).__name__}: {error}"


def play(core: Core, games: Sequence[tuple[Setup, Plan]]) -> list[Outcome]:
    """Plays the games in one batch call (one by one only when some game raises)."""
    try:
        return list(core.resolve_batch(games, trace=True))
    except EngineError:
        return [_play_one(core, setup, plan) for setup, plan in games]


def difference(reference: Outcome, native: Outcome, name: str = "native") -> str | None:
    """Returns where two outcomes first differ (None when equal): the turn, then the field.
    ``name`` labels the second core in the text."""
    if reference == native:
        return None
    if isinstance(reference, str) or isinstance(native, str):
        return f"python: {reference if isinstance(reference, str) else 'a result'}; " \
               f"{name}: {native if isinstance(native, str) else 'a result'}"
    for turn, (a, b) in enumerate(zip(reference.trace, native.trace, strict=False)):
        if a != b:
            return f"state after turn {turn} differs:\n  python: {a}\n  {name}: {b}"
    if len(reference.trace) != len(native.trace):
        return f"python traced {len(reference.trace)} states, {name} {len(native.trace)}"
    for field in ("survived", "turn", "cause", "threats", "damage", "score"):
        a, b = getattr(reference, field), getattr(native, field)
        if a != b:
            return f"{field} differs:\n  python: {a}\n  {name}: {b}"
    return "the results differ"  # pragma: no cover - a field above always differs


def write_reproduction(case: Case, setup: Setup, folder: Path) -> Path:
    """Writes the mission and a plan pinning its cards and trajectories; returns the plan."""
    folder.mkdir(parents=True, exist_ok=True)
    mission_path = folder / "mission.yaml"
    mission_path.write_text(generated_text(generate_mission(case.options)), encoding="utf-8")
    cards = iter(e.card for e in setup.threats)
    draw = tuple(None if t.unconfirmed and case.players < 5 else next(cards)
                 for t in case.mission().threats())
    plan = dataclasses.replace(case.plan, draw=draw, trajectories=dict(setup.trajectories))
    plan_path = folder / "plan.txt"
    plan_path.write_text(plan.text(), encoding="utf-8")
    return plan_path


def compare_cases(cases: Sequence[Case], reference: Core, native: Core,
                  failures: Path) -> list[str]:
    """Plays the cases through both cores; returns one report per differing game (with the
    reproduction files written under ``failures``)."""
    return compare_cores(cases, reference, {"native": native}, failures)


def compare_cores(cases: Sequence[Case], reference: Core, cores: Mapping[str, Core],
                  failures: Path) -> list[str]:
    """Plays the cases through the reference once and through each named core; returns one
    report per differing game and core (reproduction files under ``failures``)."""
    games = [(case.setup(), case.plan) for case in cases]
    expected = play(reference, games)
    reports = []
    for name, core in cores.items():
        for index, (case, a, b) in enumerate(zip(cases, expected, play(core, games),
                                                 strict=True)):
            found = difference(a, b, name)
            if found is not None:
                folder = failures / f"{name}-game-{index}"
                plan_path = write_reproduction(case, games[index][0], folder)
                reports.append(f"{name} core: {found}\n  reproduce: spacealert resolve "
                               f"{plan_path.parent / 'mission.yaml'} {plan_path} (and the same "
                               f"through authoring.engine.cores.get_core({name!r}))")
    return reports


def check_chunk(job: tuple[int, int, str, tuple[str, ...]]) -> tuple[int, list[str]]:
    """Plays ``count`` random cases drawn from their own seed through the reference and the
    named cores (a worker process's share of the bulk run); returns the count and the reports.

    Each chunk has its own seed, so the games played do not depend on how many workers share
    the run (``tests/engine/test_differential.py``)."""
    from authoring.engine.cores import PYTHON, get_core

    seed, count, failures, names = job
    rng = random.Random(seed)
    cases = [random_case(rng) for _ in range(count)]
    reports = compare_cores(cases, get_core(PYTHON), {name: get_core(name) for name in names},
                            Path(failures))
    return count, reports

