"""Holds the mutable game state between and during turns, with explicit cheap copies."""

from __future__ import annotations

from typing import Final, TypeVar

from authoring.engine.rules.ship import (
    ACTIVE,
    NO_SQUAD,
    START_FUEL,
    START_REACTORS,
    START_ROCKETS,
    START_SHIELDS,
    UW,
)
from authoring.engine.rules.threats.cards import Card

# Final: the native core (mypyc) inlines these integers instead of looking them up per use.
PENDING: Final = 0
ACTIVE_THREAT: Final = 1
DESTROYED: Final = 2
SURVIVED: Final = 3


class CrewMember:
    """A player or android figure: station, squad, knock-out and remaining plan slots."""

    def __init__(self, label: str, slots: list[int]) -> None:
        self.label = label
        self.station = UW
        self.squad = NO_SQUAD
        self.out = False
        self.slots = slots  # encoded actions, index 0 = turn 1

    def copy(self) -> CrewMember:
        """Returns an independent copy."""
        other = CrewMember(self.label, self.slots[:])
        other.station, other.squad, other.out = self.station, self.squad, self.out
        return other

    def _fields(self) -> tuple[object, ...]:
        return (self.label, self.station, self.squad, self.out, self.slots)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CrewMember) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]


def start_stations(card: Card, token: int) -> list[int]:
    """Returns the stations an internal threat appears in: its card's, or for a card whose
    station depends on the turn it appears in (``token``), the first on odd turns and the
    second on even ones (Lateral Laser Jam: upper red or upper blue, docs/rules.md §19.8)."""
    if "station-by-turn" in card.abilities:
        return [card.stations[(token + 1) % 2]]
    return list(card.stations)


class ThreatState:
    """One threat card in play: position, damage and the card-specific counters."""

    def __init__(self, card: Card, token: int, zone: int) -> None:
        self.card = card
        self.token = token  # the T+ number printed on its token
        self.zone = zone  # 0 red, 1 white, 2 blue, 3 internal
        self.status = PENDING
        self.square = 0
        self.damage = 0
        self.health = card.health or 0
        self.speed = card.speed
        self.shield = card.shield
        self.active = False  # X-activated state: revealed, bonus on, grown up
        self.cryo = "cryoshield" in card.abilities
        self.passes = 0  # X/Y squares passed (asteroid debris)
        self.level = 0  # Fissure doubling: 1 red, 2 all zones
        self.stations: list[int] = start_stations(card, token)
        self.spots: list[int] = []  # Slime: health left per station in ``stations``
        self.ended = 0  # turn it was destroyed or survived

    def copy(self) -> ThreatState:
        """Returns an independent copy (the card is shared: it is immutable)."""
        # Field by field, not ``__dict__``: the native core compiles this class (no __dict__).
        other = ThreatState(self.card, self.token, self.zone)
        other.status, other.square, other.damage = self.status, self.square, self.damage
        other.health, other.speed, other.shield = self.health, self.speed, self.shield
        other.active, other.cryo, other.passes = self.active, self.cryo, self.passes
        other.level, other.ended = self.level, self.ended
        other.stations = self.stations[:]
        other.spots = self.spots[:]
        return other

    def _fields(self) -> tuple[object, ...]:
        return (self.card, self.token, self.zone, self.status, self.square, self.damage,
                self.health, self.speed, self.shield, self.active, self.cryo, self.passes,
                self.level, self.stations, self.spots, self.ended)

    @property
    def on_board(self) -> bool:
        """Tells whether the threat is on its track now."""
        return self.status == ACTIVE_THREAT

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ThreatState) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]


S = TypeVar("S", bound="State")


class State:
    """The whole game state; ``copy`` copies each field explicitly (no deepcopy)."""

    def __init__(self, crew: list[CrewMember], threats: list[ThreatState],
                 tracks: tuple[str, str, str, str]) -> None:
        self.turn = 0
        self.tracks = tracks  # trajectory names red, white, blue, internal
        self.shields = list(START_SHIELDS)
        self.reactors = list(START_REACTORS)
        self.fuel = START_FUEL
        self.rockets = START_ROCKETS
        self.rocket_flying = False  # on the second square: hits in the next damage step
        self.stored = [ACTIVE, ACTIVE]  # squads at upper blue and lower red
        self.crew = crew
        self.maintained = [False, False, False]
        self.vc = [0, 0, 0]
        self.tokens: list[list[int]] = [[], [], []]  # drawn damage tokens per zone, in order
        self.broken: set[tuple[int, str]] = set()  # (station, letter) broken by a malfunction Z
        self.threats = threats
        self.scout_bonus = False  # a Scout reached Z: its +1 lasts the mission
        self.contaminated: set[int] = set()  # stations left contaminated by Contamination Z
        self.lost = 0  # turn the ship was destroyed, 0 while it flies
        # Campaign (docs/rules.md §18): 2 in a zone whose structural damage was carried over
        # unrepaired from the previous mission; damage past the shields there is doubled.
        self.hull = [1, 1, 1]
        # For each threat, the place in ``threats`` of the bonus threat it carries, or -1
        # (docs/rules.md §19.8): fixed by the setup, so copies share it.
        self.bonus: tuple[int, ...] = ()

    def copy(self) -> State:
        """Returns an independent copy of the state."""
        return self.copy_into(State([c.copy() for c in self.crew],
                                    [t.copy() for t in self.threats], self.tracks))

    def copy_into(self, other: S) -> S:
        """Copies every field but the crew, threats and tracks (given to ``other``'s
        constructor) into ``other``; a subclass's copy builds itself on it."""
        other.turn, other.fuel, other.rockets = self.turn, self.fuel, self.rockets
        other.rocket_flying, other.scout_bonus, other.lost = (self.rocket_flying,
                                                              self.scout_bonus, self.lost)
        other.shields = self.shields[:]
        other.reactors = self.reactors[:]
        other.stored = self.stored[:]
        other.maintained = self.maintained[:]
        other.vc = self.vc[:]
        other.tokens = [t[:] for t in self.tokens]
        other.broken = set(self.broken)
        other.contaminated = set(self.contaminated)
        other.hull = self.hull[:]
        other.bonus = self.bonus
        return other

    def _fields(self) -> tuple[object, ...]:
        return (self.turn, self.tracks, self.shields, self.reactors, self.fuel, self.rockets,
                self.rocket_flying, self.stored, self.crew, self.maintained, self.vc,
                self.tokens, self.broken, self.threats, self.scout_bonus, self.contaminated,
                self.lost, self.hull, self.bonus)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]
