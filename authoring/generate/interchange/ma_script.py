"""MartinAltmayer/spacealert's mission scripts.

The first line gives the phase ends ``m:ss - m:ss - m:ss`` (the moment each countdown ends,
as in our files); then one line per event::

    AL 0:10 T+2 ST White      alert: turn, type T / ST / IT / SIT, zone for T and ST
    UA 0:55 T+3 IT            unconfirmed alert
    ID 2:20                   incoming data
    DT 3:05                   data transfer
    CD 2:50 - 3:00            communications down from - to

Blank lines and ``#`` comments are skipped.
"""

from __future__ import annotations

import re

from authoring.generate.interchange.common import (
    MAX_DIGITS,
    MAX_EVENTS,
    ImportFormatError,
    Located,
    PhaseEnd,
    assemble,
)
from authoring.mission.model import (
    CommsDown,
    DataTransfer,
    Event,
    IncomingData,
    Mission,
    Profile,
    Threat,
    Zone,
)

_CLOCK = r"(\d{1,2}):(\d{2})"
_PHASES = re.compile(rf"^{_CLOCK}(?:\s*-\s*{_CLOCK})*$")
_ALERT = re.compile(rf"^(AL|UA)\s+{_CLOCK}\s+T\+(\d+)\s+(\S+)(?:\s+(\S+))?$")
_SIMPLE = re.compile(rf"^(ID|DT)\s+{_CLOCK}$")
_DOWN = re.compile(rf"^CD\s+{_CLOCK}\s*-\s*{_CLOCK}$")
_TYPES = ("T", "ST", "IT", "SIT")


def _seconds(source: str, line: int, col: int, minutes: str, seconds: str) -> int:
    if int(seconds) > 59:
        raise ImportFormatError(source, line, col, f"time {minutes}:{seconds}: expected "
                                                   "seconds 00-59")
    return int(minutes) * 60 + int(seconds)


def parse_ma_script(text: str, source: str = "<ma-script>", *,
                    profile: Profile | None = None) -> Mission:
    """Reads an MA mission script; raises ``ImportFormatError`` at the first bad line."""
    ends: list[PhaseEnd] = []
    events: list[Located] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        col = raw.index(line[0]) + 1
        if not ends:
            if not _PHASES.match(line):
                raise ImportFormatError(source, number, col,
                                        f"expected the phase ends first, such as "
                                        f"'3:45 - 7:30 - 10:00', got {line!r}")
            for phase, found in enumerate(re.finditer(_CLOCK, line), start=1):
                at = _seconds(source, number, col + found.start(), found.group(1),
                              found.group(2))
                ends.append(PhaseEnd(phase, at, number, col + found.start()))
            continue
        if len(events) == MAX_EVENTS:
            raise ImportFormatError(source, number, col, f"more than {MAX_EVENTS} events: a "
                                                         f"mission has at most {MAX_EVENTS}")
        events.append(Located(_event(source, number, col, line), number, col))
    if not ends:
        raise ImportFormatError(source, 1, 1, "empty file: expected the phase ends "
                                              "'3:45 - 7:30 - 10:00' and one line per event")
    return assemble(source, "ma-script", ends, events, profile=profile)


def _event(source: str, number: int, col: int, line: str) -> Event:
    if alert := _ALERT.match(line):
        at = _seconds(source, number, col, alert.group(2), alert.group(3))
        if len(alert.group(4)) > MAX_DIGITS:
            raise ImportFormatError(source, number, col, f"T+ followed by {len(alert.group(4))} "
                                                         "digits: expected T+1 to T+8")
        turn = int(alert.group(4))
        kind, zone_name = alert.group(5).upper(), alert.group(6)
        if not 1 <= turn <= 8:
            raise ImportFormatError(source, number, col, f"T+{turn}: expected T+1 to T+8")
        if kind not in _TYPES:
            raise ImportFormatError(source, number, col,
                                    f"threat type {alert.group(5)!r}: expected T, ST, IT or "
                                    "SIT")
        internal = kind.endswith("IT")
        zone: Zone = "internal"
        if internal and zone_name:
            raise ImportFormatError(source, number, col, f"an internal threat ({kind}) has no "
                                                         f"zone, got {zone_name!r}")
        if not internal:
            if not zone_name or zone_name.lower() not in ("red", "white", "blue"):
                got = repr(zone_name) if zone_name else "nothing"
                raise ImportFormatError(source, number, col,
                                        f"zone of a {kind} threat: expected Red, White or "
                                        f"Blue, got {got}")
            zone = zone_name.lower()  # type: ignore[assignment]
        return Threat(at, turn, zone, kind.startswith("S"), alert.group(1) == "UA")
    if simple := _SIMPLE.match(line):
        at = _seconds(source, number, col, simple.group(2), simple.group(3))
        return IncomingData(at) if simple.group(1) == "ID" else DataTransfer(at)
    if down := _DOWN.match(line):
        start = _seconds(source, number, col, down.group(1), down.group(2))
        end = _seconds(source, number, col, down.group(3), down.group(4))
        if end <= start:
            raise ImportFormatError(source, number, col, f"communications down from "
                                                         f"{down.group(1)}:{down.group(2)} to "
                                                         f"{down.group(3)}:{down.group(4)}: "
                                                         "expected the end after the start")
        return CommsDown(start, end - start)
    raise ImportFormatError(source, number, col,
                            f"expected 'AL|UA m:ss T+n TYPE [Zone]', 'ID m:ss', 'DT m:ss' or "
                            f"'CD m:ss - m:ss', got {line!r}")
