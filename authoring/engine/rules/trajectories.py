"""Describes the trajectory boards T1-T7: lengths, action squares and distance bands."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Trajectory:
    """One trajectory board; squares are numbered from the ship (square 1 is Z)."""

    name: str
    length: int
    x: tuple[int, ...]
    y: tuple[int, ...]

    @property
    def actions(self) -> tuple[str, ...]:
        """Returns the action letter of every square (index = square), built once per board."""
        return _ACTION_TABLES[self.name]

    def action_at(self, square: int) -> str:
        """Returns 'x', 'y' or 'z' for an action square, '' for a plain one."""
        if square == 1:
            return "z"
        if square in self.x:
            return "x"
        if square in self.y:
            return "y"
        return ""


TRAJECTORIES: dict[str, Trajectory] = {
    t.name: t
    for t in (
        Trajectory("T1", 10, (5,), ()),
        Trajectory("T2", 11, (8,), ()),
        Trajectory("T3", 12, (8,), (3,)),
        Trajectory("T4", 13, (9,), (5,)),
        Trajectory("T5", 14, (11,), (7,)),
        Trajectory("T6", 15, (10,), (7, 3)),
        Trajectory("T7", 16, (12,), (8, 5)),
    )
}

# Action letter per square of each board, built at import: the threat step reads it per square.
_ACTION_TABLES: dict[str, tuple[str, ...]] = {
    t.name: tuple(t.action_at(square) for square in range(t.length + 1))
    for t in TRAJECTORIES.values()
}

# Distance band of each square (index = square number); built once, used by every shot.
DISTANCE: tuple[int, ...] = tuple(0 if s == 0 else 1 if s <= 5 else 2 if s <= 10 else 3
                                  for s in range(17))


def get_trajectory(name: str) -> Trajectory:
    """Returns the named board, raising a ``SetupError`` for an unknown name."""
    from authoring.engine.errors import SetupError

    try:
        return TRAJECTORIES[name.upper()]
    except KeyError:
        raise SetupError(f"expected a trajectory T1..T7, got {name!r}") from None
