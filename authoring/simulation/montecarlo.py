"""Monte Carlo play of a mission: threat draws, trajectories, crew plans and resolutions.

Each game draws the threat cards from the mission's decks (its difficulty colours) and the
trajectories (unless the mission pins them), lets a crew model plan, and resolves the plan
with the engine and a damage-token seed. Game ``i`` of a run with seed ``s`` uses only
``random.Random(f"{s}:{i}")``, so results do not depend on how games are spread over
processes (``jobs``).

The crews and what each models are in docs/simulation.md: ``heuristic`` (rules of thumb) and
``planner`` (the solver's local search) play phase by phase, knowing only the threats
announced so far (``horizon.plan_by_phase``); ``informed`` plans once knowing the whole
draw, damage tokens too, from the planner's plan of the same game.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import random
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from authoring._workers import worker_pool
from authoring.engine import Plan, make_crew_plan
from authoring.engine.cores import resolve_batch
from authoring.engine.rules.hands import Hands
from authoring.engine.rules.setup import Setup, setup_from_mission
from authoring.mission.model import Mission
from authoring.simulation.dealing import crew_labels, deal_for, dealt_deck, playable_for
from authoring.simulation.heuristic import SLOTS, HeuristicCrew
from authoring.simulation.horizon import Crew, Playable, plan_by_phase, plan_of, tokens_of
from authoring.simulation.informed import InformedCrew
from authoring.simulation.planner import PlanningCrew

T = TypeVar("T")

CREW_SIMPLIFICATION = (
    "action cards are modelled: each crew member plays only the double-sided cards the rules "
    "deal (cards per phase, incoming data draws, one card given per data transfer, its own "
    "heroic card; docs/rules.md §16), every crew member a player; no tripping, and heroic "
    "actions only for the planner and informed crews. Information is modelled: the heuristic "
    "and planner crews fix each phase's cards knowing only the threats announced so far; the "
    "informed crew knows the whole draw, damage tokens too (not an upper bound: its search is "
    "short).")

__all__ = ["CREWS", "CREW_SIMPLIFICATION", "Crew", "GameOutcome", "SimulationStats",
           "make_crew", "plan_game", "simulate", "simulate_with"]

CREWS: dict[str, type] = {"heuristic": HeuristicCrew, "planner": PlanningCrew,
                          "informed": InformedCrew}
#: Former crew names that still select a crew (``omniscient`` claimed a bound it is not).
ALIASES = {"omniscient": "informed"}
#: The options each crew takes (``simulate_with`` passes only these on).
CREW_OPTIONS: dict[str, tuple[str, ...]] = {
    "heuristic": (), "planner": ("iterations", "seeds", "styles"),
    "informed": ("iterations", "styles")}


def make_crew(name: str, **options: Any) -> Crew:
    """Returns a crew model by name (``heuristic``, ``planner`` or ``informed``)."""
    name = ALIASES.get(name, name)
    if name not in CREWS:
        raise ValueError(f"unknown crew {name!r}: expected one of {', '.join(CREWS)}")
    crew: Crew = CREWS[name](**options)
    return crew


@dataclass(frozen=True)
class GameOutcome:
    """One simulated game."""

    survived: bool
    turn: int                         # 13 when the ship survived, else the turn it was lost
    score: int | None
    killers: tuple[str, ...]          # threat labels blamed for a loss
    destroyed: tuple[int, ...]        # event indexes of threats destroyed
    damage: tuple[int, int, int]      # damage tokens in red, white, blue
    best_points: int                  # points if every threat were destroyed


@dataclass
class SimulationStats:
    """What a Monte Carlo run found."""

    mission: str
    crew: str
    games: int
    seed: int
    outcomes: list[GameOutcome] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)  # one per mission threat (event order)
    #: the deck the crew's hands were dealt from ("base", "double-action"); "" in free play
    dealt: str = "base"

    @property
    def survival_rate(self) -> float:
        """The share of games the ship survived."""
        return sum(o.survived for o in self.outcomes) / max(1, len(self.outcomes))

    @property
    def scores(self) -> list[int]:
        """The scores of the games the ship survived."""
        return [o.score for o in self.outcomes if o.score is not None]

    def killers(self) -> Counter[str]:
        """How often each threat was blamed for a loss."""
        return Counter(k for o in self.outcomes for k in o.killers)

    def destroyed_rate(self) -> list[float]:
        """For each mission threat, the share of games in which it was destroyed."""
        counts = Counter(i for o in self.outcomes for i in o.destroyed)
        n = max(1, len(self.outcomes))
        return [counts[i] / n for i in range(len(self.labels))]

    def mean_damage(self) -> dict[str, float]:
        """Mean damage tokens per zone over all games."""
        n = max(1, len(self.outcomes))
        return {zone: sum(o.damage[i] for o in self.outcomes) / n
                for i, zone in enumerate(("red", "white", "blue"))}

    def progress(self) -> list[float]:
        """Each game's progress from 0 to 1 (see ``difficulty``)."""
        values = []
        for o in self.outcomes:
            if o.score is None:
                values.append(0.5 * (o.turn - 1) / 12)
            else:
                banked = (min(max(o.score, 0), o.best_points) / o.best_points
                          if o.best_points > 0 else 1.0)
                values.append(0.5 + 0.5 * banked)
        return values

    def difficulty(self) -> float:
        """Returns the difficulty 0-100: how far the crew falls short, on average.

        Each game rates the crew's progress from 0 to 1: a lost game ``0.5 x (turn - 1) / 12``
        (how long the ship held), a survived one ``0.5 + 0.5 x banked`` where ``banked`` is
        its score clamped to 0 … the destroyed value of all its threats. The difficulty is
        ``100 x (1 - mean progress)``: 0 is a walk-over, 100 a ship lost in turn 1. Its 95 %
        interval is ``authoring/simulation/rating.py``'s.
        """
        progress = self.progress()
        if not progress:
            return 0.0
        return 100.0 * (1 - sum(progress) / len(progress))


def threat_labels(mission: Mission) -> list[str]:
    """Names the mission's threats: "T+3 red", "T+5 internal (serious)"."""
    return [f"T+{t.turn} {t.zone}" + (" serious" if t.serious else "")
            + (" unconfirmed" if t.unconfirmed else "") for t in mission.threats()]


def figures_for(mission: Mission) -> int:
    """The crew size simulated: the figures the mission is written for (``mission.crew``:
    5 with 5 players, else 4 unless the mission seats a fifth figure)."""
    return mission.crew.figures


def _blank_plan(figures: int, seed: int) -> Plan:
    return Plan(tuple(make_crew_plan(f"P{i + 1}", "") for i in range(figures)), seed=seed)


@dataclass(frozen=True)
class GameDraw:
    """What chance decides in one game before the crew plans: the board, the crew's seed,
    its dealt hands and the damage-token seed the game is resolved with."""

    setup: Setup
    figures: int
    plan_seed: int
    hands: Hands | None
    damage_seed: int


def draw_game(mission: Mission, rng: random.Random, *, hands: bool = True) -> GameDraw:
    """Draws a game's threats, trajectories, hands and damage-token seed from ``rng``.

    Draws in a fixed order (setup seed, plan seed) and leaves ``rng`` before the damage seed,
    which it reads ahead: the caller draws the same seed for the resolution (the informed
    crew is shown it beforehand without changing the order). The hands are dealt with a
    generator of their own seeded from the plan seed (``dealing.py``), so a game's threats and
    damage tokens are the same with and without hands.
    """
    figures = figures_for(mission)
    setup = setup_from_mission(mission, _blank_plan(figures, rng.randrange(1 << 30)),
                               figures=figures)
    plan_seed = rng.randrange(1 << 30)
    dealt = deal_for(mission, crew_labels(mission.players, figures), plan_seed, setup.level) \
        if hands else None
    ahead = rng.getstate()
    damage_seed = rng.randrange(1 << 30)
    rng.setstate(ahead)
    return GameDraw(setup, figures, plan_seed, dealt, damage_seed)


def plan_drawn(mission: Mission, crew: Crew, game: GameDraw, *,
               playable: Playable | None = None) -> Plan:
    """Lets the crew plan a drawn game: the heuristic and planner crews phase by phase
    (``horizon.plan_by_phase``), the informed crew once, shown the damage-token seed and
    starting from the plan of the crew it ``builds_on``. With hands every card is laid from
    them."""
    if game.hands is not None and playable is None:
        playable = playable_for(game.hands)
    if crew.omniscient:
        start: list[list[str]] = []
        if crew.builds_on is not None:
            start = tokens_of(plan_drawn(mission, crew.builds_on, game, playable=playable))
        plan = crew.plan(game.setup, game.figures, fixed=start, seed=game.plan_seed,
                         playable=playable, damage_seed=game.damage_seed, hands=game.hands)
        return plan if playable is None else plan_of(playable(tokens_of(plan), 1, SLOTS))
    return plan_by_phase(mission, game.setup, crew, game.figures, seed=game.plan_seed,
                         playable=playable, hands=game.hands)


def plan_game(mission: Mission, crew: Crew, rng: random.Random, *,
              playable: Playable | None = None, hands: bool = True) -> tuple[Setup, Plan]:
    """Draws a game (``draw_game``) and lets the crew plan it (``plan_drawn``); returns the
    board and the plan. The caller draws the damage-token seed from ``rng`` next."""
    game = draw_game(mission, rng, hands=hands)
    return game.setup, plan_drawn(mission, crew, game, playable=playable)


def play_game(mission: Mission, crew: Crew, seed: int, index: int, *,
              hands: bool = True) -> GameOutcome:
    """Plays game ``index`` of a run: draw, (deal,) plan phase by phase, resolve."""
    rng = random.Random(f"{seed}:{index}")
    setup, plan = plan_game(mission, crew, rng, hands=hands)
    threats = mission.threats()
    # one game per call here; the crews' searches batch their evaluations
    result = resolve_batch([(setup, plan)], [rng.randrange(1 << 30)])[0]
    index_of: dict[tuple[int, str], int] = {(t.turn, str(t.zone)): i
                                            for i, t in enumerate(threats)}
    labels = threat_labels(mission)
    destroyed = tuple(sorted(index_of[(o.token, o.zone)] for o in result.threats
                             if o.fate == "destroyed" and (o.token, o.zone) in index_of))
    killers: tuple[str, ...] = ()
    if not result.survived:
        zone = next((z for z in ("red", "white", "blue") if z in result.cause), None)
        blamed = [o for o in result.threats if o.fate == "on-track"
                  and (o.name in result.cause or o.zone in (zone, "internal"))]
        if any(o.name in result.cause for o in blamed):
            blamed = [o for o in blamed if o.name in result.cause]
        killers = tuple(labels[index_of[(o.token, o.zone)]] for o in blamed
                        if (o.token, o.zone) in index_of)
    damage = tuple(len(result.damage.get(z, ())) for z in ("red", "white", "blue"))
    from authoring.engine.rules.threats.cards import get_card

    best = sum(get_card(e.card).points_destroyed for e in setup.threats)
    return GameOutcome(result.survived, result.turn,
                       result.score.total if result.score else None,
                       killers, destroyed, (damage[0], damage[1], damage[2]), best)


def _play_chunk(args: tuple[Mission, str, dict[str, Any], int, bool, list[int]]
                ) -> list[GameOutcome]:
    mission, crew_name, options, seed, hands, indexes = args
    crew = make_crew(crew_name, **options)
    return [play_game(mission, crew, seed, i, hands=hands) for i in indexes]


#: Told after each chunk of games: (games played, games in all, crew). It may raise to
#: cancel the run (the studio's Rate does): the workers are stopped on the way out.
GameProgress = Callable[[int, int, str], None]
#: The progress callback of every simulation run inside ``reporting`` in this thread (or
#: task): commands show a bar without threading a callback through the linter's G rules.
_REPORTING: contextvars.ContextVar[GameProgress | None] = contextvars.ContextVar(
    "simulation_progress", default=None)
#: With a progress callback, each worker's games are cut into this many chunks, so that the
#: figure moves about every tenth of the run (results do not depend on the chunks).
PROGRESS_STEPS = 10


@contextlib.contextmanager
def reporting(progress: GameProgress | None) -> Iterator[None]:
    """Makes every simulation started inside report its progress to ``progress``."""
    token = _REPORTING.set(progress)
    try:
        yield
    finally:
        _REPORTING.reset(token)


def simulate(mission: Mission, *, games: int = 100, crew: str = "heuristic", seed: int = 0,
             jobs: int = 1, crew_options: dict[str, Any] | None = None,
             hands: bool = True, progress: GameProgress | None = None,
             executor: Executor | None = None) -> SimulationStats:
    """Plays ``games`` games and returns the statistics (deterministic for a seed).

    ``hands``: the crew plays only the action cards dealt to it (docs/rules.md §16);
    ``False`` lets it play any action in any turn (for comparison). ``progress`` (default:
    the one of ``reporting``) is told after each chunk of games.

    With ``jobs > 1`` the games run in spawned worker processes: a script that calls this
    must guard its entry point with ``if __name__ == "__main__":`` as usual. An ``executor``
    (any ``concurrent.futures.Executor``: a thread or process pool, or a distributed one such
    as Dask's ``Client.get_executor()``, docs/simulation.md "Beyond one machine") plays them
    instead, in chunks of ``CHUNK`` games; the results are the same whoever plays them.
    """
    options = crew_options or {}
    report = progress or _REPORTING.get()
    stats = SimulationStats(mission.id, crew, games, seed, labels=threat_labels(mission),
                            dealt=dealt_deck(mission) if hands else "")
    indexes = list(range(games))
    if executor is not None:
        told = None if report is None else (lambda done: report(done, games, crew))
        stats.outcomes = in_executor(executor, _play_chunk,
                                     (mission, crew, options, seed, hands), indexes, told)
        return stats
    if jobs <= 1 or games < 2:
        if report is None:
            stats.outcomes = _play_chunk((mission, crew, options, seed, hands, indexes))
            return stats
        step = max(1, games // PROGRESS_STEPS)
        for start in range(0, games, step):
            stats.outcomes += _play_chunk((mission, crew, options, seed, hands,
                                           indexes[start:start + step]))
            report(len(stats.outcomes), games, crew)
        return stats
    # A mission the engine cannot set up fails in every game: say so here, in game 0's words,
    # rather than in those of whichever worker happens to fail first.
    setup_from_mission(mission, _blank_plan(figures_for(mission), random.Random(
        f"{seed}:0").randrange(1 << 30)), figures=figures_for(mission))
    told = None if report is None else (lambda done: report(done, games, crew))
    stats.outcomes = in_workers(_play_chunk, (mission, crew, options, seed, hands), indexes,
                                jobs, progress=told)
    return stats


def in_workers(play: Callable[[tuple[Any, ...]], list[T]], fixed: tuple[Any, ...],
               indexes: list[int], jobs: int,
               progress: Callable[[int], None] | None = None) -> list[T]:
    """Plays the games ``indexes`` in ``jobs`` worker processes; returns them in that order.

    ``play`` (a module-level function, so that it pickles) gets ``(*fixed, chunk)`` and
    returns one result per index of ``chunk``. Game ``i`` must depend only on its index and
    the fixed arguments: then the results are the same for every ``jobs``. ``progress`` is
    told the games done after each chunk (then the games come in smaller chunks).
    """
    if progress is None:
        chunks = [indexes[i::jobs] for i in range(jobs)]
    else:
        step = max(1, len(indexes) // (jobs * PROGRESS_STEPS))
        chunks = [indexes[i:i + step] for i in range(0, len(indexes), step)]
    # spawn, not fork: safe in threaded parents and the same on every platform. A Pool, whose
    # exit terminates the workers, so an interrupted parent leaves none running (_workers.py).
    parts: list[list[T]] = []
    with worker_pool(jobs) as pool:
        if progress is None:
            parts = pool.map(play, [(*fixed, chunk) for chunk in chunks], chunksize=1)
        else:
            done = 0
            for part in pool.imap(play, [(*fixed, chunk) for chunk in chunks], chunksize=1):
                parts.append(part)
                done += len(part)
                progress(done)
    by_index: dict[int, T] = {}
    for chunk, part in zip(chunks, parts, strict=True):
        by_index.update(zip(chunk, part, strict=True))
    return [by_index[i] for i in indexes]


#: Games per task handed to an executor: small enough to spread 500 games over many
#: workers, large enough that a task's start (a crew, a mission's setup) is paid rarely.
CHUNK = 20


def in_executor(executor: Executor, play: Callable[[tuple[Any, ...]], list[T]],
                fixed: tuple[Any, ...], indexes: list[int],
                progress: Callable[[int], None] | None = None) -> list[T]:
    """Plays the games ``indexes`` through ``executor`` in chunks of ``CHUNK`` consecutive
    games; returns them in that order (``play`` as for ``in_workers``), telling ``progress``
    the games done as each chunk comes back in order."""
    chunks = [indexes[i:i + CHUNK] for i in range(0, len(indexes), CHUNK)]
    played: list[T] = []
    for part in executor.map(play, [(*fixed, chunk) for chunk in chunks]):
        played += part
        if progress is not None:
            progress(len(played))
    return played


SLOT_COUNT = SLOTS


def crew_options(settings: Mapping[str, Any]) -> dict[str, int]:
    """Returns the crew's options among G-rule style settings (a negative value: the
    crew's calibrated default, ``calibration.CREW_SETTINGS``)."""
    from authoring.simulation.calibration import CREW_SETTINGS

    crew = ALIASES.get(str(settings["crew"]), str(settings["crew"]))
    if crew not in CREWS:
        raise ValueError(f"unknown crew {crew!r}: expected one of {', '.join(CREWS)}")
    calibrated = CREW_SETTINGS[crew]
    options = {}
    for name in CREW_OPTIONS[crew]:
        value = int(settings.get(name, -1))
        options[name] = value if value >= 0 else int(calibrated[name])
    return options


def search_settings(settings: Mapping[str, Any]) -> dict[str, Any]:
    """What a rating's crew searched, to reproduce it or to double its budget: the crew,
    its search options as played (``crew_options``), the search's algorithm, the engine core
    that ran it and whether hands were dealt (docs/simulation.md "The search")."""
    from authoring.engine.cores import fastest

    crew = ALIASES.get(str(settings["crew"]), str(settings["crew"]))
    options = crew_options(settings)
    searched: dict[str, Any] = {"crew": crew, **options, "hands": bool(settings.get("hands", True)),
                                "engine": fastest()}
    if crew != "heuristic":
        searched["algorithm"] = "descent to a local optimum from each start"
        searched["budget"] = "styles"
    return searched


def simulate_with(mission: Mission, settings: Mapping[str, Any], *,
                  jobs: int = 1) -> SimulationStats:
    """Runs ``simulate`` with G-rule style settings (crew, games, seed and crew options).

    The one place that turns those settings into a run, so that the linter, ``simulate``,
    the calibration and the ratings of sheets and pack pages always simulate alike and stay on
    one scale. The last few runs are kept: the G rules, the studio's Rate and a pack build ask
    for several figures of one mission (G101, G102, G103, the rating), which is one
    simulation. Nobody changes a ``SimulationStats`` once made, so one object can answer them
    all. ``jobs`` 0 uses every core this process may use.
    """
    from authoring._workers import default_jobs

    crew = ALIASES.get(str(settings["crew"]), str(settings["crew"]))
    key = (crew, int(settings["games"]), int(settings["seed"]),
           tuple(sorted(crew_options(settings).items())), bool(settings.get("hands", True)))
    return _simulated(mission, key, jobs if jobs > 0 else default_jobs())


@functools.lru_cache(maxsize=8)
def _simulated(mission: Mission,
               key: tuple[str, int, int, tuple[tuple[str, int], ...], bool],
               jobs: int) -> SimulationStats:
    crew, games, seed, options, hands = key
    return simulate(mission, games=games, crew=crew, seed=seed, jobs=jobs,
                    crew_options=dict(options), hands=hands)
