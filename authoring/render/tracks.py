"""Draws a threat's path along a trajectory board, to scale, as data for the SVG template.

Squares are numbered from the ship (square 1 is Z). A threat enters on the highest square and,
in the threat-action step of every turn from its appearance on (turn 13 included), moves by its
speed; each X/Y/Z square it lands on or passes triggers (rules.md §5–§7). The drawing puts the
entry square on the left and the ship on the right, one fixed width per square, so that every
board of a sheet is drawn on the same scale and the ship ends line up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from authoring.mission.model import TRAJECTORIES

#: Board length and X / Y action squares of T1–T7 (rules.md §7); Z is always square 1.
BOARDS: Mapping[str, tuple[int, tuple[int, ...], tuple[int, ...]]] = {
    "T1": (10, (5,), ()),
    "T2": (11, (8,), ()),
    "T3": (12, (8,), (3,)),
    "T4": (13, (9,), (5,)),
    "T5": (14, (11,), (7,)),
    "T6": (15, (10,), (7, 3)),
    "T7": (16, (12,), (8, 5)),
}
LONGEST = max(length for length, _, _ in BOARDS.values())
LAST_MOVE_TURN = 13  # the closing step moves every threat once more (rules.md §6)

SQUARE = 15    # SVG units per square
HEIGHT = 18    # height of one square
LABEL_W = 92   # room on the left for the board / zone label
SHIP_W = 26    # room on the right for the ship


@dataclass(frozen=True)
class Square:
    """One square of the drawing: its number, x position, action letter and distance band."""

    number: int
    x: float
    action: str  # "x", "y", "z" or ""
    band: int    # distance 1, 2 or 3
    stop: int    # the move after which the threat stands here (0 = entry, -1 = never)


@dataclass(frozen=True)
class ActionReach:
    """When the threat reaches one action square: the move number, and the turn if known."""

    action: str
    square: int
    move: int
    turn: int | None  # None when the appearance turn is not known

    @property
    def reached(self) -> bool:
        """Tells whether the threat gets there by the closing step (turn 13)."""
        return self.turn is None or self.turn <= LAST_MOVE_TURN


@dataclass(frozen=True)
class TrackDrawing:
    """A trajectory drawn for one card: squares, stops at the card's speed, action timings."""

    board: str
    label: str
    squares: tuple[Square, ...]
    reaches: tuple[ActionReach, ...]
    speed: int | None
    external: bool
    width: float
    height: float = HEIGHT

    @property
    def ship_x(self) -> float:
        """Where the ship's edge is drawn."""
        return LABEL_W + LONGEST * SQUARE


def board_squares(board: str) -> dict[int, str]:
    """Returns the action letter of each square of ``board`` ('' for a plain square)."""
    length, xs, ys = BOARDS[board]
    actions = dict.fromkeys(range(1, length + 1), "")
    for square in xs:
        actions[square] = "x"
    for square in ys:
        actions[square] = "y"
    actions[1] = "z"
    return actions


def _stops(length: int, speed: int | None) -> dict[int, int]:
    """Returns square → move number for the squares a threat stands on after each move."""
    if not speed:
        return {length: 0}
    stops = {length: 0}
    square, move = length, 0
    while square > 1:
        square, move = max(1, square - speed), move + 1
        stops[square] = move
    return stops


def _band(square: int) -> int:
    return 1 if square <= 5 else 2 if square <= 10 else 3


def draw_track(board: str, speed: int | None, *, external: bool, label: str = "",
               appears: int | None = None) -> TrackDrawing:
    """Returns the drawing of ``board`` for a threat of ``speed`` appearing on turn ``appears``."""
    if board not in TRAJECTORIES:
        raise ValueError(f"expected a trajectory T1..T7, got {board!r}")
    length = BOARDS[board][0]
    actions = board_squares(board)
    stops = _stops(length, speed)
    left = LABEL_W + (LONGEST - length) * SQUARE
    squares = tuple(
        Square(number, left + (length - number) * SQUARE, actions[number], _band(number),
               stops.get(number, -1))
        for number in range(length, 0, -1))
    reaches: list[ActionReach] = []
    if speed:
        for number in range(length, 0, -1):
            if actions[number]:
                move = -(-(length - number) // speed)  # ceil: landed on or passed
                turn = None if appears is None else appears + move - 1
                reaches.append(ActionReach(actions[number], number, move, turn))
    return TrackDrawing(board, label or board, squares, tuple(reaches), speed, external,
                        LABEL_W + LONGEST * SQUARE + SHIP_W)
