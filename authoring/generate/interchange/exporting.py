"""Checks that a mission fits a foreign format before it is written in it."""

from __future__ import annotations

from authoring.errors import InvalidInputError
from authoring.mission.model import Announcement, Event, Mission
from authoring.mission.timecode import format_clock


def exportable(mission: Mission, fmt: str) -> tuple[Event, ...]:
    """Returns the mission's events; raises when one cannot be written in ``fmt``.

    Free-text announcements have no code in the formats of other players, and leaving them
    out silently would lose part of the mission. (Pinned threat cards are not carried either:
    the formats name only the deck, and the players draw the card.)
    """
    for index, event in enumerate(mission.events):
        if isinstance(event, Announcement):
            raise InvalidInputError(
                f"{mission.source or mission.id}: event {index + 1} at "
                f"{format_clock(event.at)} is a free-text announcement, which {fmt} cannot "
                "hold", hint="remove the announcement or keep the mission in our format")
    return mission.events
