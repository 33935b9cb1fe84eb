"""Turns a schema-valid mission document into ``Mission`` objects, checking what a schema cannot.

The checks here are the ones without which a mission cannot be played or timed at all (family
``M0``): phase count and order, events inside the mission, events in time order. Everything
that is a matter of taste or of the official norms is the linter's job.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from authoring.crew import CrewSizeError, crew_size
from authoring.mission.load import Document
from authoring.mission.model import (
    PHASE_COUNT,
    Announcement,
    CommsDown,
    DataTransfer,
    Decks,
    Event,
    IncomingData,
    Mission,
    Threat,
)
from authoring.mission.problem import Problem
from authoring.mission.schema import load_schema
from authoring.mission.timecode import format_clock, parse_clock


def _event(raw: Mapping[str, Any]) -> Event:
    at = parse_clock(raw["at"])
    if "threat" in raw:
        t = raw["threat"]
        return Threat(at, int(t["turn"]), t["zone"], bool(t.get("serious", False)),
                      bool(t.get("unconfirmed", False)), t.get("card"), t.get("bonus"))
    if "incoming_data" in raw:
        return IncomingData(at)
    if "data_transfer" in raw:
        return DataTransfer(at)
    if "comms_down" in raw:
        return CommsDown(at, int(raw["comms_down"]["seconds"]))
    return Announcement(at, str(raw["announcement"]["text"]))


def heading(data: Any) -> tuple[str, str, str] | None:
    """Returns a parsed mission's (id, title, author) as ``build_mission`` makes them, or None.

    None when they are not all strings (the author may be absent) or the id is not of the
    schema's form (it names files), i.e. when only the checks can say what the file is.
    ``spacealert render`` names and tags its output from them and starts its encoder before the
    whole file is checked; the checks still decide.
    """
    if not isinstance(data, Mapping):
        return None
    found = (data.get("id"), data.get("title"), data.get("author", ""))
    if not all(isinstance(value, str) for value in found):
        return None
    id_pattern = load_schema("mission")["properties"]["id"]["pattern"]
    if re.search(id_pattern, str(data["id"])) is None:
        return None
    return str(data["id"]), str(data["title"]), str(data.get("author", ""))


def build_mission(doc: Document) -> tuple[Mission | None, list[Problem]]:
    """Builds the mission of a schema-valid document and returns it with its semantic problems.

    The mission is ``None`` when a problem makes it unusable (wrong phase count or order).
    """
    data = doc.data
    problems: list[Problem] = []

    def add(path: list[str | int], code: str, name: str, message: str,
            hint: str | None = None) -> None:
        line, col = doc.locate(path)
        where = "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
        problems.append(Problem(doc.file, line, col, code, name, message, hint=hint, path=where))

    profile = data["profile"]
    phases = tuple(parse_clock(p) for p in data["phases"])
    expected = PHASE_COUNT[profile]
    usable = True
    if len(phases) != expected:
        add(["phases"], "M001", "phase-count",
            f"the {profile} profile has {expected} phases, got {len(phases)} phase ends")
        usable = False
    previous = 0
    for index, end in enumerate(phases):
        if end <= previous:
            after = ("the mission start" if index == 0
                     else f"phase {index} ends at {format_clock(previous)}")
            add(["phases", index], "M002", "phase-order",
                f"phase {index + 1} ends at {format_clock(end)}, not after {after}",
                hint="phase ends must increase strictly")
            usable = False
        previous = max(previous, end)

    events: list[Event] = []
    last_at = -1
    mission_end = phases[-1] if phases else 0
    for index, raw in enumerate(data["events"]):
        event = _event(raw)
        events.append(event)
        if event.at >= mission_end:
            add(["events", index, "at"], "M003", "event-after-end",
                f"event at {format_clock(event.at)} starts after the mission ends at "
                f"{format_clock(mission_end)}", hint="move it earlier or extend the last phase")
        elif isinstance(event, CommsDown) and event.end > mission_end:
            add(["events", index, "comms_down", "seconds"], "M003", "event-after-end",
                f"communications down until {format_clock(event.end)}, after the mission ends "
                f"at {format_clock(mission_end)}")
        if event.at < last_at:
            add(["events", index, "at"], "M004", "event-order",
                f"event at {format_clock(event.at)} comes after one at {format_clock(last_at)}",
                hint="list events in time order")
        last_at = max(last_at, event.at)

    if "figures" in data:
        try:
            crew_size(int(data.get("players", 4)), int(data["figures"]))
        except CrewSizeError as error:
            add(["figures"], "M006", "crew-size", str(error),
                hint="docs/rules.md §16: 4 figures solo, 4 or 5 with 2-4 players, 5 with 5")
            usable = False
    if not usable:
        return None, problems
    decks_raw = data.get("decks") or {}
    trajectories = data.get("trajectories")
    mission = Mission(
        id=str(data["id"]),
        title=str(data["title"]),
        profile=profile,
        players=int(data.get("players", 4)),
        phases=phases,
        events=tuple(events),
        decks=Decks(decks_raw.get("common", "mixed"), decks_raw.get("serious", "mixed"),
                    bool(decks_raw.get("expansion", False))),
        trajectories=dict(trajectories) if trajectories else None,
        format=int(data["format"]),
        author=str(data.get("author", "")),
        description=str(data.get("description", "")),
        language=str(data.get("language", "en")),
        tags=tuple(str(t) for t in data.get("tags", ())),
        figures=int(data["figures"]) if "figures" in data else None,
        source=doc.file,
    )
    return mission, problems
