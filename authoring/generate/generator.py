"""Generates random missions calibrated to the official tracks, sound by construction.

One ``random.Random(seed)`` drives every draw, in a fixed order, so a seed gives the same
mission on every machine. A draw that cannot be completed (a turn assignment or a placement
that does not fit) is redrawn from the same generator, which keeps the result deterministic;
after ``MAX_ATTEMPTS`` the seed is reported as a ``GenerationError`` instead of crashing.
Every finished mission passes ``self_check`` (docs/soundtrack.md §7, "self-checks") before it is
returned.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from authoring.errors import GenerationError as GenerationError
from authoring.generate.options import GenerateOptions, check_options
from authoring.generate.placement import GRID, Board
from authoring.generate.profiles import ProfileSpec
from authoring.generate.selfcheck import self_check
from authoring.generate.threats import PlannedThreat, RetryError, draw_threats, weighted
from authoring.mission.model import (
    CommsDown,
    DataTransfer,
    Decks,
    Event,
    IncomingData,
    Mission,
    Threat,
)

#: Bump when the same seed and options would give a different mission.
GENERATOR_VERSION = 1
MAX_ATTEMPTS = 100
_PLACEMENT_TRIES = 12


@dataclass(frozen=True)
class Generated:
    """A generated mission with how it was obtained."""

    mission: Mission
    options: GenerateOptions
    attempts: int
    self_check_rejections: int
    notes: dict[int, str] = field(default_factory=dict)  # event index -> comment


# -- phase lengths --------------------------------------------------------------------------

def _grid_choice(rng: random.Random, low: int, high: int) -> int:
    return rng.randrange(low, high + 1, GRID)


def draw_phases(rng: random.Random, spec: ProfileSpec, length: int | None) -> tuple[int, ...]:
    """Returns the phase ends: lengths inside the official ranges, total inside its range."""
    low, high = spec.total_range
    for _ in range(200):
        lengths = [_grid_choice(rng, a, b) for a, b in spec.phase_ranges]
        if low <= sum(lengths) <= high:
            break
    else:  # pragma: no cover - the ranges always admit a total; kept as a safe fallback
        lengths = [a for a, _ in spec.phase_ranges]
    if length is not None:
        total = sum(lengths)
        lengths = [round(x * length / total / GRID) * GRID for x in lengths]
        lengths[1] += length - sum(lengths)
    ends: list[int] = []
    for value in lengths:
        ends.append((ends[-1] if ends else 0) + value)
    return tuple(ends)


# -- counts of data and communications ----------------------------------------------------------

def _spread(rng: random.Random, counts: list[int], total: int, caps: tuple[int, ...],
            weights: tuple[float, ...]) -> list[int]:
    while sum(counts) < total:
        open_phases = {i: weights[i] for i in range(len(counts))
                       if counts[i] < caps[i] and weights[i] > 0}
        if not open_phases:
            raise RetryError("no phase left for data")
        counts[weighted(rng, open_phases)] += 1
    return counts


def draw_incoming(rng: random.Random, spec: ProfileSpec) -> list[int]:
    """Returns the number of incoming data per phase."""
    total = weighted(rng, spec.incoming_totals)
    counts = [0] * spec.phases
    counts[0] = min(spec.incoming_first_phase, total)
    return _spread(rng, counts, total, spec.incoming_caps, spec.incoming_phase_weights)


def draw_transfers(rng: random.Random, spec: ProfileSpec) -> list[int]:
    """Returns the number of data transfers per phase."""
    total = weighted(rng, spec.transfer_totals)
    counts = list(spec.transfer_mins)
    if counts[-1] == 0 and rng.random() < spec.transfer_last_phase_p:
        counts[-1] = 1
    total = max(total, sum(counts))
    return _spread(rng, counts, total, spec.transfer_caps, spec.transfer_phase_weights)


def _pieces(rng: random.Random, seconds: int, spec: ProfileSpec) -> list[int]:
    pieces: list[int] = []
    left = seconds
    while left > 0:
        # finishing the phase's share in one piece is favoured: the official tracks have
        # 2-5 pieces (mean 3.6) of 5-30 s
        sizes = {s: w * (10 if s == left else 1) for s, w in spec.comms_piece_weights.items()
                 if s <= min(left, spec.comms_piece_max)}
        piece = weighted(rng, sizes)
        pieces.append(piece)
        left -= piece
    return pieces


def draw_comms(rng: random.Random, spec: ProfileSpec) -> list[list[int]]:
    """Returns the communications-down pieces (seconds) of each phase."""
    phases = spec.phases
    total = weighted(rng, spec.comms_totals)
    if total == 0:
        return [[] for _ in range(phases)]
    last = weighted(rng, {s: w for s, w in spec.comms_last_phase.items() if s <= total})
    rest = total - last
    seconds = [0] * phases
    seconds[-1] = last
    # the earlier phases share the rest within their caps
    if phases == 3:
        low = max(0, rest - spec.comms_phase_caps[1])
        high = min(spec.comms_phase_caps[0], rest)
        if low > high:
            raise RetryError("communications-down total does not fit the phase caps")
        seconds[0] = _grid_choice(rng, low, high)
        seconds[1] = rest - seconds[0]
    elif rest:
        seconds[0] = rest
    for _ in range(20):
        pieces = [_pieces(rng, s, spec) for s in seconds]
        count = sum(len(p) for p in pieces)
        if spec.comms_count[0] <= count <= spec.comms_count[1]:
            return pieces
    raise RetryError("communications-down pieces do not fit the count")


# -- timing -------------------------------------------------------------------------------------

def _threat_event(planned: PlannedThreat, at: int = 0) -> Threat:
    return Threat(at, planned.turn, planned.zone, planned.serious, planned.unconfirmed)


def _threat_times(rng: random.Random, spec: ProfileSpec, board: Board, phase: int,
                  threats: list[PlannedThreat], ambush: bool) -> list[int]:
    start, end = board.phase_bounds(phase)
    times: list[int] = []
    calm = threats[:-1] if ambush else threats
    ambush_at = end - weighted(rng, spec.ambush_offsets) if ambush else None
    first = start + weighted(rng, spec.first_threat[phase - 1])
    if calm:
        latest = board.latest_before_warning(_threat_event(calm[-1]), phase)
        if ambush_at is not None:
            latest = min(latest, ambush_at - spec.min_threat_gap)
        gaps = [weighted(rng, spec.gap_weights) for _ in calm[1:]]
        over = first + sum(gaps) - latest
        while over > 0:
            widest = max(range(len(gaps)), key=lambda i: (gaps[i], -i), default=None)
            if widest is not None and gaps[widest] > spec.min_threat_gap:
                gaps[widest] -= GRID
            elif first - GRID >= start + min(spec.first_threat[phase - 1]):
                first -= GRID
            else:
                raise RetryError("threats do not fit before the one-minute warning")
            over -= GRID
        if ambush_at is None and phase <= len(spec.last_threat_max):
            # nor do the threats of a phase stop long before its end: widen the gaps, then
            # start later, until the last threat is within the official distance of the end
            short = end - spec.last_threat_max[phase - 1] - (first + sum(gaps))
            latest_first = start + max(spec.first_threat[phase - 1])
            while short > 0:
                open_gaps = [i for i, g in enumerate(gaps) if g < max(spec.gap_weights)]
                if open_gaps:
                    gaps[rng.choice(open_gaps)] += GRID
                elif first + GRID <= latest_first:
                    first += GRID
                else:
                    break
                short -= GRID
        if ambush_at is not None:
            # the late threat follows the others like any threat (official spacing <= 90 s):
            # widen the earlier gaps, as far as the drawn spacings allow, to close the gap
            widest = max(spec.gap_weights)
            short = ambush_at - (first + sum(gaps)) - widest
            while short > 0:
                open_gaps = [i for i, g in enumerate(gaps) if g < widest]
                if not open_gaps:
                    break
                gaps[rng.choice(open_gaps)] += GRID
                short -= GRID
        times.append(first)
        for gap in gaps:
            times.append(times[-1] + gap)
    if ambush_at is not None:
        times.append(ambush_at)
    return times


def _place_threats(rng: random.Random, spec: ProfileSpec, board: Board,
                   threats: list[PlannedThreat], ambush_p: float,
                   ) -> tuple[list[Event], set[int], int | None]:
    """Places the threats phase by phase; returns them, the ambush times and phase 1's first."""
    placed: list[Event] = []
    ambushes: set[int] = set()
    first_threat: int | None = None
    for phase, (low, high) in enumerate(spec.phase_turns, start=1):
        mine = [t for t in threats if low <= t.turn <= high]
        if not mine:
            continue
        # an ambush never splits the two threats of a shared turn (announced <= 90 s apart)
        # and, as in MA's generator, needs at least three threats in the phase
        ambush = (len(mine) >= 3 and mine[-1].turn != mine[-2].turn
                  and rng.random() < ambush_p)
        times = _threat_times(rng, spec, board, phase, mine, ambush)
        for index, (planned, at) in enumerate(zip(mine, times, strict=True)):
            event = _threat_event(planned)
            if not board.fits(at, event):
                raise RetryError("a threat collides")
            placed.append(board.place(at, event))
            if ambush and index == len(mine) - 1:
                ambushes.add(at)
        if phase == 1:
            first_threat = times[0]
    return placed, ambushes, first_threat


def _draw(rng: random.Random, options: GenerateOptions,
          ) -> tuple[Mission, dict[int, str]]:
    spec = options.spec
    threats = draw_threats(rng, options)
    incoming = draw_incoming(rng, spec)
    transfers = draw_transfers(rng, spec)
    comms = draw_comms(rng, spec)
    ambush_p = spec.ambush_p if options.ambush is None else options.ambush
    phases = draw_phases(rng, spec, options.length)
    for _ in range(_PLACEMENT_TRIES):
        board = Board(phases, spec.end_margin)
        try:
            events, ambushes = _fill(rng, spec, board, threats, incoming, transfers, comms,
                                     ambush_p)
        except RetryError:
            continue
        break
    else:
        raise RetryError("placement failed")
    events.sort(key=lambda e: e.at)
    mission = Mission(
        id=f"gen-{spec.name}-{options.seed}",
        title=f"Generated {spec.name} mission, seed {options.seed}",
        profile=spec.name,
        players=options.players,
        figures=options.figures,
        phases=phases,
        events=tuple(events),
        decks=Decks(options.decks, options.decks, options.expansion),
        author="spacealert generate",
        tags=("generated", spec.name),
    )
    notes = {i: "ambush: after the one-minute warning" for i, e in enumerate(events)
             if isinstance(e, Threat) and e.at in ambushes}
    crew = options.crew
    if not crew.plays_unconfirmed:
        fewer = "fewer than 5 " + ("figures" if crew.androids else "players")
        notes.update({i: f"unconfirmed report: not played with {fewer}"
                      for i, e in enumerate(events) if isinstance(e, Threat) and e.unconfirmed})
    return mission, notes


def _fill(rng: random.Random, spec: ProfileSpec, board: Board, threats: list[PlannedThreat],
          incoming: list[int], transfers: list[int], comms: list[list[int]], ambush_p: float,
          ) -> tuple[list[Event], set[int]]:
    events, ambushes, first_threat = _place_threats(rng, spec, board, threats, ambush_p)
    todo: list[tuple[int, Event]] = []
    for phase in range(1, spec.phases + 1):
        index = phase - 1
        todo += [(phase, CommsDown(0, s)) for s in sorted(comms[index], reverse=True)]
        todo += [(phase, DataTransfer(0)) for _ in range(transfers[index])]
        todo += [(phase, IncomingData(0)) for _ in range(incoming[index])]
    # the first event of every official mission is at 0:10: a later first threat is
    # preceded by an incoming data there, as on the CD
    if first_threat is not None and first_threat > 10:
        opener = next((i for i, (p, e) in enumerate(todo)
                       if p == 1 and isinstance(e, IncomingData)), None)
        if opener is not None and board.fits(10, IncomingData(0)):
            _, event = todo.pop(opener)
            events.append(board.place(10, event))
    for phase, event in todo:
        free = board.free_times(event, phase)
        if not free:
            raise RetryError("no room for an event")
        events.append(board.place(rng.choice(free), event))
    return events, ambushes


def _deck_problems(mission: Mission) -> list[str]:
    # the expansion's piles are not all full (docs/rules.md §19.9): a mission drawing more
    # cards of a pile than the engine plays is redrawn, as validate would refuse it (M007)
    from authoring.engine.rules.decks import deck_problems

    return [message for _, message in deck_problems(mission)]


def generate_mission(options: GenerateOptions) -> Generated:
    """Returns a mission for ``options`` (same seed, same mission); raises on bad options.

    Raises ``UsageError`` for options no mission can satisfy and ``GenerationError`` (also a
    usage error) when every deterministic redraw for this seed failed.
    """
    check_options(options)
    rng = random.Random(options.seed)
    rejected = 0
    reason = "nothing tried"
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            mission, notes = _draw(rng, options)
        except RetryError as error:
            reason = str(error)
            continue
        problems = self_check(mission, options.points(), options.unconfirmed_points())
        if not problems and options.expansion:  # red needs it (check_options)
            problems = _deck_problems(mission)
        if problems:
            rejected += 1
            reason = problems[0]
            continue
        return Generated(mission, options, attempt, rejected, notes)
    raise GenerationError(
        f"could not generate a {options.profile} mission for seed {options.seed} after "
        f"{MAX_ATTEMPTS} attempts (last reason: {reason})",
        hint="relax --serious, --internal, --threat-level or --length, or try another seed")
