"""Draws a threat's path along a trajectory board, to scale, as data for the SVG template.

Squares are numbered from the ship (square 1 is Z). A threat enters on the highest square and,
in the threat-action step of every turn from its appearance on (turn 13 included), moves by its
speed; each X/Y/Z square it lands on or passes triggers (docs/rules.md §5-§7). The drawing puts the
entry square on the left and the ship on the right, one fixed width per square, so that every
board of a sheet is drawn on the same scale and the ship ends line up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from authoring.engine.rules.trajectories import DISTANCE, TRAJECTORIES

LONGEST = max(board.length for board in TRAJECTORIES.values())
LAST_MOVE_TURN = 13  # the closing step moves every threat once more (docs/rules.md §6)

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
               appears: int | None = None, label_w: float | None = None,
               reached: Mapping[int, int] | None = None) -> TrackDrawing:
    """Returns the drawing of ``board`` for a threat of ``speed`` appearing on turn ``appears``.

    ``label_w`` is the room left of the longest board; give every track of one card the same
    value so that their ship ends line up. ``reached`` (action square -> turn, from the
    engine's movement with the threat appearing on ``appears``, or on turn 1 when that is not
    known) replaces the printed-speed timing of the X/Y/Z squares: abilities change speeds.
    """
    label = label or board
    label_w = label_width([label]) if label_w is None else label_w
    if board not in TRAJECTORIES:
        raise ValueError(f"expected a trajectory T1..T7, got {board!r}")
    trajectory = TRAJECTORIES[board]
    length = trajectory.length
    actions = {n: trajectory.action_at(n) for n in range(1, length + 1)}
    stops = _stops(length, speed)
    if reached is not None and any(key < 0 for key in reached):
        # where the engine's threat stands after each turn (abilities change its pace)
        stops = {length: 0, **{-key: turn - (appears or 1) + 1
                               for key, turn in reached.items() if key < 0}}
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
                if reached is not None and number in reached:
                    move = reached[number] - (appears or 1) + 1
                turn = None if appears is None else appears + move - 1
                if reached is not None and appears is not None and number not in reached:
                    turn = LAST_MOVE_TURN + 1  # the engine's threat does not get there
                reaches.append(ActionReach(actions[number], number, move, turn))
    ship_x = label_w + LONGEST * SQUARE
    return TrackDrawing(board, label, squares, tuple(reaches), speed, external,
                        ship_x + SHIP_W, ship_x)


def _square_path(xs: list[float], y: float, size: float, height: float) -> str:
    return " ".join(f"M{x:g} {y:g}h{size:g}v{height:g}h{-size:g}Z" for x in xs)


def _dots_path(xs: list[float], y: float, r: float) -> str:
    return " ".join(f"M{x - r:g} {y:g}a{r:g} {r:g} 0 1 0 {2 * r:g} 0a{r:g} {r:g} 0 1 0 {-2 * r:g} 0"
                    for x in xs)


#: X, Y and Z as stroke outlines in a 6 x 8 box (drawn as paths: far cheaper to print than
#: hundreds of small SVG text elements, and identical in every viewer).
_GLYPHS = {"x": "M{l} {t}L{r} {b}M{r} {t}L{l} {b}",
           "y": "M{l} {t}L{c} {m}L{r} {t}M{c} {m}L{c} {b}",
           "z": "M{l} {t}H{r}L{l} {b}H{r}"}


def _letters_path(letters: list[tuple[float, str]], y: float) -> str:
    top, bottom = y + HEIGHT / 2 - 4, y + HEIGHT / 2 + 4
    return " ".join(
        _GLYPHS[letter].format(l=f"{x - 3:g}", r=f"{x + 3:g}", c=f"{x:g}", t=f"{top:g}",
                               b=f"{bottom:g}", m=f"{(top + bottom) / 2:g}")
        for x, letter in letters)


@dataclass(frozen=True)
class TrackRow:
    """One track of a stacked drawing, reduced to a few SVG paths (fast to print)."""

    track: TrackDrawing
    y: float
    fills: tuple[tuple[str, str], ...]          # (fill colour, path of its squares)
    letters: str                                # X/Y/Z glyphs in the action squares
    dots: str                                   # the squares the threat stands on after a move
    entry: tuple[float, float]                  # centre of the entry ring
    reach: str


BAND_FILL = {3: "#fafafa", 2: "#e4e4e4", 1: "#cccccc"}
ACTION_FILL = {"x": "#ffe08a", "y": "#ffc078", "z": "#ff8a80"}
INTERNAL_FILL = "#f2f2f2"
ROW_GAP = 4.0
REACH_CHAR_W = 5.9  # width of one reach-text character (DejaVu Sans at 9.5 units)
#: The longest reach text with move numbers and with turns (T6/T7 have two Y squares).
LONGEST_REACH = {False: "X10 · Y12 · Y13 · Z15",
                 True: "X turn 10 · Y turn 11 · Y turn 12 · Z turn 13"}


@dataclass(frozen=True)
class TrackStack:
    """Several tracks of one card stacked in one SVG, with their reach texts on the right.

    The shapes of all rows are merged into one path per colour (``fills``), one for the
    letters, one for the stop dots, one for the entry rings and one for the ship marks:
    WeasyPrint's cost is per SVG element, so a card prints in a dozen elements, not hundreds.
    """

    rows: tuple[TrackRow, ...]
    width: float
    height: float
    ship_x: float
    text_x: float

    @property
    def fills(self) -> tuple[tuple[str, str], ...]:
        """Returns (colour, path) for the squares of every row, one path per colour."""
        merged: dict[str, list[str]] = {}
        for row in self.rows:
            for fill, path in row.fills:
                merged.setdefault(fill, []).append(path)
        return tuple((fill, " ".join(paths)) for fill, paths in merged.items())

    @property
    def letters(self) -> str:
        """Returns the X/Y/Z glyphs of every row as one path."""
        return " ".join(row.letters for row in self.rows if row.letters)

    @property
    def dots(self) -> str:
        """Returns the stop dots of every row as one path."""
        return " ".join(row.dots for row in self.rows if row.dots)

    @property
    def rings(self) -> str:
        """Returns the entry rings of every row as one path."""
        return " ".join(_dots_path([row.entry[0]], row.entry[1], 2.2) for row in self.rows)

    @property
    def ships(self) -> str:
        """Returns the ship marks (a wedge at the end of each row) as one path."""
        return " ".join(
            f"M{self.ship_x + 2:g} {row.y + HEIGHT / 2:g}L{self.ship_x + 16:g} {row.y:g}"
            f"V{row.y + HEIGHT:g}Z" for row in self.rows)


def reach_text(track: TrackDrawing, turns: bool) -> str:
    """Returns 'X2 · Y4 · Z6' (moves) or 'X turn 2 · Z turn 6' (turns) for a track."""
    if track.speed is None:
        return "speed varies"
    parts = []
    for reach in track.reaches:
        if turns:
            when = f"turn {reach.turn}" if reach.reached else "not reached"
            parts.append(f"{reach.action.upper()} {when}")
        else:
            parts.append(f"{reach.action.upper()}{reach.move}")
    return " · ".join(parts)


def stack_tracks(tracks: tuple[TrackDrawing, ...], *, turns: bool) -> TrackStack:
    """Returns the tracks laid out one under the other in a single drawing."""
    rows = []
    row_h = HEIGHT + STOP_H + ROW_GAP
    for index, track in enumerate(tracks):
        y = 0.5 + index * row_h
        groups: dict[str, list[float]] = {}
        for square in track.squares:
            fill = (ACTION_FILL[square.action] if square.action
                    else BAND_FILL[square.band] if track.external else INTERNAL_FILL)
            groups.setdefault(fill, []).append(square.x)
        fills = tuple((fill, _square_path(xs, y, SQUARE, HEIGHT)) for fill, xs in groups.items())
        letters = _letters_path([(s.x + SQUARE / 2, s.action) for s in track.squares
                                 if s.action], y)
        dot_y = y + HEIGHT + STOP_H / 2
        dots = _dots_path([s.x + SQUARE / 2 for s in track.squares if s.stop > 0], dot_y, 2.2)
        entry = next(((s.x + SQUARE / 2, dot_y) for s in track.squares if s.stop == 0),
                     (track.squares[0].x + SQUARE / 2, dot_y))
        rows.append(TrackRow(track, y, fills, letters, dots, entry, reach_text(track, turns)))
    ship_x = tracks[0].ship_x if tracks else 0.0
    # a fixed room for the text keeps every card of a sheet on the same scale
    text_w = 8 + REACH_CHAR_W * len(LONGEST_REACH[turns])
    width = (tracks[0].width if tracks else 0.0) + text_w
    height = len(tracks) * row_h - ROW_GAP + 1
    return TrackStack(tuple(rows), width, height, ship_x, ship_x + SHIP_W + 2)
