"""Checks that a mission fits a foreign format before it is written in it."""

from __future__ import annotations

from authoring.crew import crew_size
from authoring.errors import InvalidInputError
from authoring.generate.interchange.common import Located, infer_profile
from authoring.mission.model import Announcement, Decks, Event, Mission, Threat
from authoring.mission.timecode import format_clock

#: What an imported mission gets for what the foreign formats cannot hold.
IMPORT_DEFAULTS = {"players": 5}


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


def lost_in_export(mission: Mission, fmt: str) -> tuple[list[str], list[str]]:
    """Returns (what ``fmt`` cannot hold of ``mission``, the import options that restore it).

    Both formats hold only the phase ends and the timed events, so everything else is named,
    with the values an import would not guess: players (an importer assumes 5, which would
    play the unconfirmed reports) and the profile (guessed from the phases and turns).
    """
    lost: list[str] = []
    options: list[str] = []
    if mission.players != IMPORT_DEFAULTS["players"]:
        lost.append(f"players {mission.players}")
        options.append(f"--players {mission.players}")
    if mission.figures is not None and mission.crew != crew_size(mission.players):
        lost.append(f"figures {mission.figures}")
        options.append(f"--figures {mission.figures}")
    threats = [Located(e, 1, 1) for e in mission.events if isinstance(e, Threat)]
    guessed = infer_profile(len(mission.phases), threats, mission.phases[-1])
    if guessed != mission.profile:
        lost.append(f"profile {mission.profile}")
        options.append(f"--profile {mission.profile}")
    lost += [f"{name} {value!r}" for name, value in (
        ("id", mission.id), ("title", mission.title), ("author", mission.author),
        ("description", mission.description), ("language", mission.language)) if value]
    if mission.tags:
        lost.append(f"tags {', '.join(mission.tags)}")
    if mission.decks != Decks():
        lost.append(f"decks (common {mission.decks.common}, serious {mission.decks.serious}"
                    + (", New Frontier cards" if mission.decks.expansion else "") + ")")
    if mission.trajectories:
        lost.append("trajectories " + ", ".join(f"{k} {v}"
                                                 for k, v in mission.trajectories.items()))
    pinned = [f"{t.card} (bonus {t.bonus})" if t.bonus else t.card
              for t in mission.threats() if t.card]
    if pinned:
        lost.append(f"pinned cards {', '.join(str(c) for c in pinned)}")
    return lost, options

