"""Defines the ship: stations, capacities, weapons, damage tokens (docs/rules.md §3, §4, §12.3)."""

from __future__ import annotations

from typing import Final

# Final: the native core (mypyc) inlines these integers instead of looking them up per use.
UR: Final = 0
UW: Final = 1
UB: Final = 2
LR: Final = 3
LW: Final = 4
LB: Final = 5
SPACE: Final = 6
STATION_CODES: tuple[str, ...] = ("UR", "UW", "UB", "LR", "LW", "LB", "SP")
RED: Final = 0
WHITE: Final = 1
BLUE: Final = 2
ZONE_NAMES: tuple[str, ...] = ("red", "white", "blue", "internal")
ZONE_LETTERS = "rwbi"

SHIELD_CAP: tuple[int, ...] = (2, 3, 2)
REACTOR_CAP: tuple[int, ...] = (3, 5, 3)
START_SHIELDS: tuple[int, ...] = (1, 1, 1)
START_REACTORS: tuple[int, ...] = (2, 3, 2)
START_FUEL: Final = 3
START_ROCKETS: Final = 3
HEAVY_STRENGTH: tuple[int, ...] = (4, 5, 4)
LIGHT_STRENGTH: Final = 2

# Damage tokens, one of each per zone; the letters are their notation.
STRUCTURAL: Final = 0
SHIELD: Final = 1
REACTOR: Final = 2
UPPER_CANNON: Final = 3
LOWER_CANNON: Final = 4
GRAVOLIFT: Final = 5
TOKEN_LETTERS = "SHRULG"
TOKEN_NAMES: tuple[str, ...] = (
    "structural", "shield", "reactor", "upper-cannon", "lower-cannon", "gravolift",
)

# Squad storage: index 0 is upper blue, 1 is lower red.
SQUAD_STATIONS: tuple[int, ...] = (UB, LR)
NO_SQUAD: Final = 0
ACTIVE: Final = 1
DISABLED: Final = 2

# Visual confirmation points by head count (docs/rules.md §14).
VC_POINTS: tuple[int, ...] = (0, 1, 2, 3, 5, 7)


def zone_of(station: int) -> int:
    """Returns the zone (0 red, 1 white, 2 blue) of a ship station."""
    return station % 3


def phase_of(turn: int) -> int:
    """Returns the phase index (0, 1, 2) of a turn 1-12."""
    return 0 if turn <= 3 else 1 if turn <= 7 else 2


# ``phase_of`` as a table indexed by turn 0-13, for the turn loop.
TURN_PHASE: tuple[int, ...] = tuple(phase_of(turn) for turn in range(14))


def neighbour(station: int, direction: int) -> int:
    """Returns the station one step toward red (-1) or blue (+1) on the same deck."""
    zone = station % 3 + direction
    return station if zone < 0 or zone > 2 else station - station % 3 + zone


def other_deck(station: int) -> int:
    """Returns the station in the same zone on the other deck."""
    return (station + 3) % 6
