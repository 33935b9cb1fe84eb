"""Draws a threat's path along a trajectory board, to scale, as data for the SVG template.

Squares are numbered from the ship (square 1 is Z). A threat enters on the highest square and,
in the threat-action step of every turn from its appearance on (turn 13 included), moves by its
speed; each X/Y/Z square it lands on or passes triggers (rules.md §5-§7). The drawing puts the
entry square on the left and the ship on the right, one fixed width per square, so that every
board of a sheet is drawn on the same scale and the ship ends line up.
"""

from __future__ import annotations

from dataclasses import dataclass

from authoring.engine.trajectories import DISTANCE, TRAJECTORIES

LONGEST = max(board.length for board in TRAJECTORIES.values())
LAST_MOVE_TURN = 13  # the closing step moves every threat once more (rules.md §6)

SQUARE = 15    # SVG units per square
HEIGHT = 15    # height of one square
STOP_H = 7     # room under the squares for the move dots
SHIP_W = 20    # room on the right for the ship
CHAR_W = 6.2   # width of one label character at the label's font size


def label_width(labels: list[str]) -> float:
    """Returns the room on the left that the longest of ``labels`` needs."""
    return 6 + CHAR_W * max((len(label) for label in labels), default=2)


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
    ship_x: float
    height: float = HEIGHT
    stop_h: float = STOP_H


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


def draw_track(board: str, speed: int | None, *, external: bool, label: str = "",
               appears: int | None = None, label_w: float | None = None) -> TrackDrawing:
    """Returns the drawing of ``board`` for a threat of ``speed`` appearing on turn ``appears``.

    ``label_w`` is the room left of the longest board; give every track of one card the same
    value so that their ship ends line up.
    """
    label = label or board
    label_w = label_width([label]) if label_w is None else label_w
    if board not in TRAJECTORIES:
        raise ValueError(f"expected a trajectory T1..T7, got {board!r}")
    trajectory = TRAJECTORIES[board]
    length = trajectory.length
    actions = {n: trajectory.action_at(n) for n in range(1, length + 1)}
    stops = _stops(length, speed)
    left = label_w + (LONGEST - length) * SQUARE
    squares = tuple(
        Square(number, left + (length - number) * SQUARE, actions[number], DISTANCE[number],
               stops.get(number, -1))
        for number in range(length, 0, -1))
    reaches: list[ActionReach] = []
    if speed:
        for number in range(length, 0, -1):
            if actions[number]:
                move = -(-(length - number) // speed)  # ceil: landed on or passed
                turn = None if appears is None else appears + move - 1
                reaches.append(ActionReach(actions[number], number, move, turn))
    ship_x = label_w + LONGEST * SQUARE
    return TrackDrawing(board, label, squares, tuple(reaches), speed, external,
                        ship_x + SHIP_W, ship_x)
