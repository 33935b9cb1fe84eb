"""Threat cards as the sheets print them, and which cards a mission's decks can bring up.

:class:`CardFace` is the small typed interface the templates are written against: the printed
values of a card, as text (some cards print a formula, e.g. a health "= rockets left"). The
faces come from the engine's packaged threat data (see :func:`load_faces`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from authoring.crew import CrewSize
from authoring.errors import InvalidInputError
from authoring.mission.model import Decks, Mission, Threat
from authoring.mission.timecode import format_clock

KIND_ORDER = ("external", "internal-malfunction", "internal-intruder")


@dataclass(frozen=True)
class CardFace:
    """The printed face of one threat card."""

    id: str
    name: str
    kind: str  # external | internal-malfunction | internal-intruder
    serious: bool
    colour: str  # white | yellow | red (the deck)
    health: str
    shield: str
    speed: str
    x: str
    y: str
    z: str
    special: str = ""
    start: str = ""  # internal threats: starting station(s) and the system that hits them
    points_survived: str = ""
    points_destroyed: str = ""
    set: str = "base"

    @property
    def external(self) -> bool:
        """Tells whether the card travels on an external zone's trajectory."""
        return self.kind == "external"

    @property
    def speed_value(self) -> int | None:
        """Returns the printed speed as a number, ``None`` when it is a formula or absent."""
        return int(self.speed) if self.speed.isdigit() else None

    @property
    def kind_label(self) -> str:
        """Returns 'serious internal intruder', 'external' and the like."""
        kind = {"external": "external", "internal-malfunction": "internal malfunction",
                "internal-intruder": "internal intruder"}.get(self.kind, self.kind)
        return f"serious {kind}" if self.serious else kind

    def sort_key(self) -> tuple[bool, int, str]:
        """Orders cards: normal before serious, external before internal, then by id."""
        kind = KIND_ORDER.index(self.kind) if self.kind in KIND_ORDER else len(KIND_ORDER)
        return (self.serious, min(kind, 1), self.id)


def pile_key(threat: Threat) -> tuple[bool, bool]:
    """Returns (external, serious): the pile a threat announcement draws from."""
    return (not threat.internal, threat.serious)


def deck_pool(threat: Threat, decks: Decks, faces: Mapping[str, CardFace]) -> list[CardFace]:
    """Returns the cards an unpinned threat announcement can draw, by id.

    Normal and unconfirmed threats draw from the common decks, serious ones from the serious
    decks; external and internal threats have separate decks. The piles are the engine's
    (base cards, and the expansion's played ones when the decks include them).
    """
    from authoring.engine.rules.decks import deck_cards

    external, serious = pile_key(threat)
    ids = deck_cards(external, serious, decks.serious if serious else decks.common,
                     decks.expansion)
    return [faces[i] for i in ids if i in faces]


def pinned_face(threat: Threat, faces: Mapping[str, CardFace], mission: Mission) -> CardFace:
    """Returns the card a threat pins, checking that it exists and fits the announcement."""
    assert threat.card is not None
    where = f"{mission.source or mission.id}: threat at {format_clock(threat.at)}"
    face = faces.get(threat.card.upper())
    if face is None:
        raise InvalidInputError(f"{where}: expected a known threat card id, got {threat.card!r}")
    if face.external == threat.internal or face.serious != threat.serious:
        announced = ("serious " if threat.serious else "") + (
            "internal" if threat.internal else "external")
        article = "an" if announced.startswith("e") or announced.startswith("i") else "a"
        raise InvalidInputError(
            f"{where}: expected {article} {announced} card, got {face.id} ({face.kind_label})")
    return face


def possible_cards(mission: Mission, faces: Mapping[str, CardFace],
                   crew: CrewSize | None = None) -> list[CardFace]:
    """Returns every card that can come up in the mission, in print order.

    Pinned threats contribute their card, the others their whole deck; unconfirmed reports
    count only when 5 figures play (default crew: the mission's).
    """
    crew = mission.crew if crew is None else crew
    found: dict[str, CardFace] = {}
    for threat in played_threats(mission, crew):
        pool = ([pinned_face(threat, faces, mission)] if threat.card
                else deck_pool(threat, mission.decks, faces))
        found.update((f.id, f) for f in pool)
    return sorted(found.values(), key=CardFace.sort_key)


def played_threats(mission: Mission, crew: CrewSize) -> list[Threat]:
    """Returns the threat announcements ``crew`` plays, in time order."""
    return [t for t in mission.threats() if not t.unconfirmed or crew.plays_unconfirmed]


def zones_for(card: CardFace, mission: Mission, faces: Mapping[str, CardFace],
              crew: CrewSize) -> list[str]:
    """Returns the zones (red, white, blue, internal) where ``card`` can appear, in zone order."""
    zones: set[str] = set()
    for threat in played_threats(mission, crew):
        if threat.card:
            if threat.card.upper() == card.id:
                zones.add(threat.zone)
        elif any(f.id == card.id for f in
                 deck_pool(threat, mission.decks, faces)):
            zones.add(threat.zone)
    return [z for z in ("red", "white", "blue", "internal") if z in zones]


def text_or_dash(value: object) -> str:
    """Returns a printed value as text, ``-`` for none."""
    return "-" if value is None or value == "" else str(value)
