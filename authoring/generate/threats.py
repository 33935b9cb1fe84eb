"""Draws a mission's threats: the mix, the unconfirmed reports, the turns and the zones.

The rules are the ones every official track keeps (docs/soundtrack.md §5.1 and the lint
checklist of docs/soundtrack.md §7, items 10-19): turn windows per threat type, no internal
threats on adjacent turns, threat points balanced between T+1..4 and T+5..8, at most three
external threats per zone and never the same zone twice in a row. Turns are assigned by a
bounded back-tracking search in a seeded random order, so a mix that fits is always found and
the result depends on the seed only.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from authoring.generate.options import (
    MAX_INTERNAL,
    GenerateOptions,
    internal_choices,
    serious_choices,
)
from authoring.generate.profiles import ProfileSpec
from authoring.mission.model import ExternalZone, Zone

EXTERNAL_ZONES: tuple[ExternalZone, ...] = ("red", "white", "blue")
MAX_PER_ZONE = 3
_SEARCH_NODES = 4_000


class RetryError(Exception):
    """This draw cannot be completed; the generator draws again (never shown to users)."""


@dataclass(frozen=True)
class PlannedThreat:
    """A threat before it has a time: what is announced, and for which turn."""

    turn: int
    zone: Zone
    serious: bool
    unconfirmed: bool

    @property
    def internal(self) -> bool:
        """Tells whether the threat is internal."""
        return self.zone == "internal"

    @property
    def points(self) -> int:
        """Returns 2 for a serious threat, 1 otherwise."""
        return 2 if self.serious else 1


@dataclass
class _Kind:
    internal: bool
    serious: bool
    unconfirmed: bool = False


def weighted(rng: random.Random, weights: Mapping[int, float]) -> int:
    """Returns one key of ``weights`` drawn with its weight (keys in sorted order)."""
    keys = sorted([k for k, w in weights.items() if w > 0])
    if not keys:
        raise RetryError("nothing to choose from")
    # rng.choices(keys, weights=...)[0] step for step (one rng.random(), the same float
    # arithmetic, so the same draw), without its argument checks: the hottest call of a
    # generation
    cumulative = list(accumulate([weights[k] for k in keys]))
    total = cumulative[-1] + 0.0
    if not math.isfinite(total):
        raise ValueError("weights must be finite")
    return keys[bisect(cumulative, rng.random() * total, 0, len(keys) - 1)]


def _window(kind: _Kind) -> tuple[int, int]:
    """Returns the turns a threat type may take (docs/soundtrack.md §6.1 and lint item 16)."""
    if kind.internal:
        return (3, 6) if kind.serious else (2, 7)
    return (2, 7) if kind.serious else (1, 8)


def _turn_pool(spec: ProfileSpec) -> list[int]:
    pool: list[int] = []
    for low, high in spec.phase_turns:
        pool.extend(range(low, high + 1))
    return pool


def _serious_count(rng: random.Random, options: GenerateOptions) -> int:
    spec = options.spec
    choices = serious_choices(options)
    if not choices:
        raise RetryError("no serious count fits")
    points = options.points()
    low, high = spec.threat_count

    def weight(serious: int) -> float:
        if options.serious is None and options.threat_level is None:
            return spec.serious_weights.get(serious, 0.0)
        count = points - serious
        distance = max(0, low - count, count - high)
        return spec.serious_weights.get(serious, 1.0) / (1 + 3 * distance)

    return weighted(rng, {s: weight(s) for s in choices})


def _kinds(rng: random.Random, options: GenerateOptions) -> list[_Kind]:
    spec = options.spec
    serious = _serious_count(rng, options)
    count = options.points() - serious
    internals = [k for k in internal_choices(options) if k <= min(count, MAX_INTERNAL)]
    if not internals:
        raise RetryError("no internal count fits")
    if options.internal is None:
        internal = weighted(rng, {k: spec.internal_weights.get(k, 0.0) for k in internals})
    else:
        internal = rng.choice(internals)
    cap = max(spec.internal_points_max, internal)
    serious_internal = 0
    for _ in range(internal):
        # 4 of the 13 official internal threats are serious
        if (serious_internal < serious and internal + serious_internal + 1 <= cap
                and rng.random() < 0.3):
            serious_internal += 1
    kinds = [_Kind(True, index < serious_internal) for index in range(internal)]
    external = count - internal
    serious_external = serious - serious_internal
    if serious_external > external:
        raise RetryError("more serious external threats than external threats")
    kinds += [_Kind(False, index < serious_external) for index in range(external)]
    _mark_unconfirmed(rng, kinds, options.unconfirmed_points(), spec)
    return kinds


def _mark_unconfirmed(rng: random.Random, kinds: list[_Kind], points: int,
                      spec: ProfileSpec) -> None:
    left = points
    seriouses = [k for k in kinds if k.serious]
    if left >= 2 and seriouses and rng.random() < spec.unconfirmed_serious_p:
        rng.choice(seriouses).unconfirmed = True
        left -= 2
    normals = [k for k in kinds if not k.serious and not k.unconfirmed]
    if left > len(normals):
        # not enough normal threats: serious reports carry the rest
        spare = [k for k in kinds if k.serious and not k.unconfirmed]
        while left > len(normals) and spare and left >= 2:
            spare.pop(rng.randrange(len(spare))).unconfirmed = True
            left -= 2
    if left > len(normals) or left < 0:
        raise RetryError("unconfirmed points do not fit the mix")
    for kind in rng.sample(normals, left):
        kind.unconfirmed = True


class _Search:
    """Assigns each threat kind a turn by randomised back-tracking."""

    def __init__(self, rng: random.Random, kinds: list[_Kind], turns: list[int], doubles: int,
                 spec: ProfileSpec) -> None:
        self.rng = rng
        self.turns = turns
        self.doubles = doubles
        self.strict = spec.name != "double-action"
        self.halves = len([r for r in spec.phase_turns if r[0] <= r[1]]) == 2
        # the most constrained kinds first
        self.kinds = sorted(kinds, key=lambda k: (not k.internal, not k.serious))
        self.assigned: list[int] = []
        self.by_turn: dict[int, list[_Kind]] = {t: [] for t in turns}
        self.internal_turns: list[tuple[int, bool]] = []
        self.doubled = 0
        self.nodes = 0
        self.points = [0, 0]
        # points still to place, for pruning the half balance early
        self.left = sum(k.serious + 1 for k in self.kinds)

    def run(self) -> list[int]:
        if not self._place(0):
            raise RetryError("no turn assignment")
        return self.assigned

    def _fits(self, kind: _Kind, turn: int) -> bool:
        low, high = _window(kind)
        if not low <= turn <= high:
            return False
        here = self.by_turn[turn]
        if here:
            if len(here) >= 2 or not self.doubles or self.doubled >= self.doubles:
                return False
            if here[0].internal == kind.internal:
                return False  # two threats on a turn: one internal, one external
        if kind.internal:
            for other_turn, other_serious in self.internal_turns:
                gap = abs(other_turn - turn)
                if gap < 2:
                    return False  # never on the same or adjacent turns
                if self.strict and kind.serious and other_serious and gap < 3:
                    return False
        return True

    def _leaf_ok(self) -> bool:
        if any(not kinds for kinds in self.by_turn.values()):
            return False
        if not self.halves:
            return True
        if abs(self.points[0] - self.points[1]) > 2:
            return False
        if self.strict:
            count1 = sum(1 for t in self.assigned if t <= 4)
            if abs(count1 - (len(self.assigned) - count1)) > 1:
                return False
            inside = sorted(t for t, _ in self.internal_turns)
            outside = [t for k, t in zip(self.kinds, self.assigned, strict=True)
                       if not k.internal]
            for a, b in pairwise(inside):
                if not any(a < t < b for t in outside):
                    return False  # an external threat between any two internal ones
        return True

    def _place(self, index: int) -> bool:
        self.nodes += 1
        if self.nodes > _SEARCH_NODES:
            return False
        if index == len(self.kinds):
            return self._leaf_ok()
        # every turn must end up used: leave enough kinds for the empty turns
        empty = sum(1 for kinds in self.by_turn.values() if not kinds)
        if empty > len(self.kinds) - index:
            return False
        if self.halves and abs(self.points[0] - self.points[1]) > self.left + 2:
            return False  # the halves can no longer balance
        kind = self.kinds[index]
        options = [t for t in self.turns if self._fits(kind, t)]
        self.rng.shuffle(options)
        value = kind.serious + 1
        for turn in options:
            half = 0 if turn <= 4 else 1
            here = self.by_turn[turn]
            self.assigned.append(turn)
            here.append(kind)
            self.doubled += len(here) == 2
            self.points[half] += value
            self.left -= value
            if kind.internal:
                self.internal_turns.append((turn, kind.serious))
            if self._place(index + 1):
                return True
            if kind.internal:
                self.internal_turns.pop()
            self.left += value
            self.points[half] -= value
            self.doubled -= len(here) == 2
            here.pop()
            self.assigned.pop()
        return False


def _choose_turns(rng: random.Random, spec: ProfileSpec, used: int) -> list[int]:
    pool = _turn_pool(spec)
    if used > len(pool):
        raise RetryError("more threat turns than turns")
    skipped: list[int] = []
    for _ in range(len(pool) - used):
        left = {t: spec.skip_weights.get(t, 1.0) for t in pool if t not in skipped}
        skipped.append(weighted(rng, left))
    return sorted(t for t in pool if t not in skipped)


def _zones(rng: random.Random, order: Sequence[_Kind]) -> list[Zone]:
    zones: list[Zone] = []
    counts = dict.fromkeys(EXTERNAL_ZONES, 0)
    previous: ExternalZone | None = None
    for kind in order:
        if kind.internal:
            zones.append("internal")
            continue
        allowed = [z for z in EXTERNAL_ZONES if z != previous and counts[z] < MAX_PER_ZONE]
        if not allowed:
            raise RetryError("no zone left")
        zone = rng.choice(allowed)
        counts[zone] += 1
        previous = zone
        zones.append(zone)
    return zones


def draw_threats(rng: random.Random, options: GenerateOptions) -> list[PlannedThreat]:
    """Returns the mission's threats in announcement order; raises ``RetryError`` to redraw."""
    spec = options.spec
    kinds = _kinds(rng, options)
    internal = sum(1 for k in kinds if k.internal)
    most_doubles = min(internal, len(kinds) - internal, max(spec.shared_turn_weights))
    need = max(0, len(kinds) - len(_turn_pool(spec)))
    doubles_weights = {d: w for d, w in spec.shared_turn_weights.items()
                       if need <= d <= most_doubles}
    doubles = weighted(rng, doubles_weights)
    turns = _choose_turns(rng, spec, len(kinds) - doubles)
    if spec.name != "double-action" and len(spec.phase_turns) == 3:
        # the official tracks split threats evenly between T+1..4 and T+5..8 (|difference|
        # <= 1): draw the turns again rather than search an assignment that cannot exist
        for _ in range(20):
            first = sum(1 for t in turns if t <= 4)
            if abs(2 * first - len(turns)) <= 1:
                break
            turns = _choose_turns(rng, spec, len(kinds) - doubles)
    search = _Search(rng, kinds, turns, doubles, spec)
    assigned = search.run()
    paired = list(zip(assigned, search.kinds, strict=True))
    # announcement order: by turn; two threats on one turn in random order
    keyed = [(turn, rng.random(), kind) for turn, kind in paired]
    keyed.sort(key=lambda item: (item[0], item[1]))
    order = [kind for _, _, kind in keyed]
    zones = _zones(rng, order)
    return [PlannedThreat(turn, zone, kind.serious, kind.unconfirmed)
            for (turn, _, kind), zone in zip(keyed, zones, strict=True)]
