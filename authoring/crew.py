"""Crew size: players, androids, figures, and who plays unconfirmed reports (docs/rules.md §16).

The one place that decides it. A table seats 1 to 5 players; androids fill the figures up
to 4 or 5 (a solo player flies with 3 androids, 5 players with none). **Unconfirmed reports
are played with 5 figures** — players and androids counted together — and left out with
fewer: the soundtrack, the sheets, the generator, the linter, the engine and the simulated
crews all ask :func:`plays_unconfirmed`, so 4 players and an android hear, print, lint and
resolve the same threats. Standard library only and under every layer: the engine and the
CLI's shared option declarations import it too.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

#: The players a table can seat, inclusive.
PLAYERS_RANGE = (1, 5)
#: The figures (players + androids) a crew can have, inclusive.
FIGURES_RANGE = (4, 5)
#: Legal figures for each number of players, smallest first (docs/rules.md §16 table).
FIGURES: Mapping[int, tuple[int, ...]] = {1: (4,), 2: (4, 5), 3: (4, 5), 4: (4, 5), 5: (5,)}
#: The figures from which unconfirmed reports are played.
UNCONFIRMED_FIGURES = 5


class CrewSizeError(ValueError):
    """An illegal pair of players and figures; the message says what was expected."""


def plays_unconfirmed(figures: int) -> bool:
    """Tells whether a crew of ``figures`` (players and androids) plays unconfirmed reports."""
    return figures >= UNCONFIRMED_FIGURES


@dataclass(frozen=True)
class CrewSize:
    """How many players sit at the table and how many figures (players + androids) fly."""

    players: int
    figures: int

    @property
    def androids(self) -> int:
        """The androids seated (figures beyond the players)."""
        return self.figures - self.players

    @property
    def plays_unconfirmed(self) -> bool:
        """Whether this crew plays the mission's unconfirmed reports."""
        return plays_unconfirmed(self.figures)

    def labels(self) -> tuple[str, ...]:
        """The crew as a plan names it: players P1.., then androids A1.."""
        return (*(f"P{i + 1}" for i in range(self.players)),
                *(f"A{i + 1}" for i in range(self.androids)))

    def describe(self) -> str:
        """Words for people: "4 players", "4 players and 1 android"."""
        text = f"{self.players} player{'s' if self.players != 1 else ''}"
        if self.androids:
            text += f" and {self.androids} android{'s' if self.androids != 1 else ''}"
        return text


#: A crew that hears every announcement: what checks of a whole soundtrack compile.
FULL_CREW = CrewSize(5, 5)


def crew_size(players: int, figures: int | None = None) -> CrewSize:
    """The crew of ``players`` with ``figures`` (default: the fewest the rules allow, so
    androids fill the seats the rules require and no more). Raises ``CrewSizeError``."""
    low, high = PLAYERS_RANGE
    if isinstance(players, bool) or not isinstance(players, int) or players not in FIGURES:
        raise CrewSizeError(f"expected {low} to {high} players, got {players!r}")
    allowed = FIGURES[players]
    if figures is None:
        return CrewSize(players, allowed[0])
    if isinstance(figures, bool) or not isinstance(figures, int) or figures not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise CrewSizeError(f"expected {want} figures (players and androids) for {players} "
                            f"player{'s' if players != 1 else ''}, got {figures!r}")
    return CrewSize(players, figures)


def choose_crew(written: CrewSize, players: int | None = None,
                figures: int | None = None) -> CrewSize:
    """The crew a command plays: the mission's (``written``) unless overridden.

    ``players`` alone seats that many players with the fewest figures the rules allow (so
    ``--players 4`` is the four-player track, without unconfirmed reports); ``figures`` alone
    keeps the mission's players; both are checked as a pair.
    """
    if players is None and figures is None:
        return written
    return crew_size(written.players if players is None else players, figures)
