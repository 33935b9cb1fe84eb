"""The mission nouns: frozen dataclasses built from a validated mission file.

Times are whole seconds from the mission start (the files write them as ``m:ss``). A phase is
given by its end time ``E``: the moment the spoken end-of-phase countdown reaches its end
(docs/soundtrack.md §4, the convention of the official transcriptions).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from authoring.crew import CrewSize, crew_size

Zone = Literal["red", "white", "blue", "internal"]
ExternalZone = Literal["red", "white", "blue"]
Profile = Literal["test-run", "training", "base", "double-action"]
DeckColour = Literal["white", "yellow", "mixed", "red"]

ZONES: tuple[Zone, ...] = ("red", "white", "blue", "internal")
PROFILES: tuple[Profile, ...] = ("test-run", "training", "base", "double-action")
DECK_COLOURS: tuple[DeckColour, ...] = ("white", "yellow", "mixed", "red")
TRAJECTORIES: tuple[str, ...] = tuple(f"T{n}" for n in range(1, 8))

#: How many phases each profile has.
PHASE_COUNT: Mapping[str, int] = {"test-run": 2, "training": 3, "base": 3, "double-action": 3}


@dataclass(frozen=True)
class Threat:
    """A threat announcement: turn T+n, zone (or internal), serious or not, unconfirmed or not."""

    at: int
    turn: int
    zone: Zone
    serious: bool = False
    unconfirmed: bool = False
    card: str | None = None  # a pinned threat card id for scripted scenarios, e.g. "E1-07"
    bonus: str | None = None  # a pinned carrier's bonus threat card (docs/rules.md §19.8)

    @property
    def internal(self) -> bool:
        """Tells whether the threat is internal."""
        return self.zone == "internal"

    @property
    def points(self) -> int:
        """Threat points: 1 for a normal threat, 2 for a serious one."""
        return 2 if self.serious else 1


@dataclass(frozen=True)
class IncomingData:
    """Every player draws one action card."""

    at: int


@dataclass(frozen=True)
class DataTransfer:
    """Every player may hand one card to another before the beep."""

    at: int


@dataclass(frozen=True)
class CommsDown:
    """Nobody may talk for ``seconds`` seconds."""

    at: int
    seconds: int

    @property
    def end(self) -> int:
        """The moment communications are restored."""
        return self.at + self.seconds


@dataclass(frozen=True)
class Announcement:
    """A free-text line for story missions."""

    at: int
    text: str


Event = Threat | IncomingData | DataTransfer | CommsDown | Announcement

#: The mission-file key of each event class.
EVENT_KEYS: Mapping[type, str] = {
    Threat: "threat",
    IncomingData: "incoming_data",
    DataTransfer: "data_transfer",
    CommsDown: "comms_down",
    Announcement: "announcement",
}


def event_key(event: Event) -> str:
    """Returns the mission-file key of an event (``threat``, ``comms_down`` …)."""
    return EVENT_KEYS[type(event)]


@dataclass(frozen=True)
class Decks:
    """Threat-deck difficulty for the common and the serious decks.

    ``expansion`` shuffles the New Frontier threat cards of the same colours in (the red
    colour has no others); the engine leaves out the cards it does not play yet
    (docs/rules.md §19.9)."""

    common: DeckColour = "mixed"
    serious: DeckColour = "mixed"
    expansion: bool = False


@dataclass(frozen=True)
class Mission:
    """A whole mission: metadata, profile, phase ends and events in time order."""

    id: str
    title: str
    profile: Profile
    players: int
    phases: tuple[int, ...]
    events: tuple[Event, ...]
    decks: Decks = field(default_factory=Decks)
    trajectories: Mapping[str, str] | None = None
    format: int = 1
    author: str = ""
    description: str = ""
    language: str = "en"
    tags: tuple[str, ...] = ()
    source: str = ""  # the file it was read from, for messages
    figures: int | None = None  # players + androids written for (None: the fewest legal)

    @property
    def crew(self) -> CrewSize:
        """The crew the mission is written for (docs/rules.md §16; ``mission.crew``)."""
        return crew_size(self.players, self.figures)

    @property
    def length(self) -> int:
        """The mission end (the last phase end) in seconds."""
        return self.phases[-1]

    def threats(self) -> tuple[Threat, ...]:
        """Returns the threat events in time order."""
        return tuple(e for e in self.events if isinstance(e, Threat))

    def phase_of(self, second: int) -> int:
        """Returns the 1-based phase that contains ``second`` (a phase end belongs to the next)."""
        for index, end in enumerate(self.phases, start=1):
            if second < end:
                return index
        return len(self.phases)

    def phase_start(self, phase: int) -> int:
        """Returns the start of the 1-based ``phase`` in seconds."""
        return 0 if phase == 1 else self.phases[phase - 2]
