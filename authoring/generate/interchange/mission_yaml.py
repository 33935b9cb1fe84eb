"""Writes a ``Mission`` as a mission file in the style of ``missions/official/*.yaml``.

A comment header, the metadata one key a line, the phase ends as quoted ``m:ss`` strings and
one flow-style line per event, with an optional trailing comment per event. The text is built
directly (not through a YAML dumper) so that the layout is stable byte for byte.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence

from authoring.mission.model import (
    Announcement,
    CommsDown,
    DataTransfer,
    Event,
    IncomingData,
    Mission,
    Threat,
)
from authoring.mission.timecode import format_clock


def _quote(text: str) -> str:
    # JSON string escapes are valid YAML double-quoted escapes
    return json.dumps(text, ensure_ascii=False)


@functools.lru_cache(maxsize=4096)
def _quoted_clock(seconds: int) -> str:
    # a clock is digits, a colon and maybe a minus: its quoted form needs no escape, and the
    # few hundred times of a mission length are formatted once per process
    return f'"{format_clock(seconds)}"'


def event_body(event: Event) -> str:
    """Returns the flow-style body of one event, e.g. ``threat: {turn: 2, zone: red}``."""
    if isinstance(event, Threat):
        fields = [f"turn: {event.turn}", f"zone: {event.zone}"]
        if event.serious:
            fields.append("serious: true")
        if event.unconfirmed:
            fields.append("unconfirmed: true")
        if event.card:
            fields.append(f"card: {event.card}")
        if event.bonus:
            fields.append(f"bonus: {event.bonus}")
        return "threat: {" + ", ".join(fields) + "}"
    if isinstance(event, IncomingData):
        return "incoming_data: {}"
    if isinstance(event, DataTransfer):
        return "data_transfer: {}"
    if isinstance(event, CommsDown):
        return f"comms_down: {{seconds: {event.seconds}}}"
    if isinstance(event, Announcement):
        return f"announcement: {{text: {_quote(event.text)}}}"
    raise TypeError(f"unknown event {event!r}")


def mission_yaml(mission: Mission, header: Sequence[str] = (),
                 notes: Mapping[int, str] | None = None) -> str:
    """Returns the mission file text; ``header`` lines become comments, ``notes`` event comments."""
    notes = notes or {}
    lines = [f"# {line}".rstrip() for line in header]
    lines += [
        f"format: {mission.format}",
        f"id: {mission.id}",
        f"title: {_quote(mission.title)}",
    ]
    if mission.author:
        lines.append(f"author: {_quote(mission.author)}")
    if mission.description:
        lines.append(f"description: {_quote(mission.description)}")
    lines.append(f"language: {mission.language}")
    if mission.tags:
        lines.append("tags: [" + ", ".join(_quote(t) for t in mission.tags) + "]")
    lines += [
        f"profile: {mission.profile}",
        f"players: {mission.players}",
    ]
    if mission.figures is not None:
        lines.append(f"figures: {mission.figures}")
    decks = mission.decks
    if (decks.common, decks.serious, decks.expansion) != ("mixed", "mixed", False):
        lines.append(f"decks: {{common: {decks.common}, serious: {decks.serious}"
                     + (", expansion: true" if decks.expansion else "") + "}")
    if mission.trajectories:
        pairs = ", ".join(f"{k}: {v}" for k, v in mission.trajectories.items())
        lines.append(f"trajectories: {{{pairs}}}")
    lines.append("phases: [" + ", ".join(_quoted_clock(p) for p in mission.phases) + "]")
    if not mission.events:
        lines.append("events: []")
    else:
        lines.append("events:")
    for index, event in enumerate(mission.events):
        line = f"  - {{at: {_quoted_clock(event.at)}, {event_body(event)}}}"
        note = notes.get(index)
        if note:
            line += f"  # {note}"
        lines.append(line)
    return "\n".join(lines) + "\n"
