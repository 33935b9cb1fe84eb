"""The Flash-player code: one comma-separated line of ``<time><code>`` tokens.

Written by JSAMG and read by the old Flash player and by siefkenj/spacealertweb. The time is
m:ss without the colon (``010`` = 0:10, ``1030`` = 10:30). Codes::

    AL2STW   alert (UR: unconfirmed report), turn T+2, ST serious threat, zone W(hite)
    UR3IT    unconfirmed report, T+3, internal threat (IT, SIT: no zone letter)
    ID       incoming data
    DT       data transfer
    CS10     communications down for 10 s
    PE1      end of phase 1

``PE`` carries the phase end in our convention (the moment the countdown ends), as JSAMG
writes it; one web player reads it as the start of its 10-second countdown instead.

What JSAMG prints with ``-p FlashPlayerCode`` is its three-line banner (program and version,
build time, licence), then the code: the banner is skipped as the text importer skips it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from authoring.generate.interchange.common import (
    MAX_DIGITS,
    MAX_EVENTS,
    ImportFormatError,
    Located,
    PhaseEnd,
    assemble,
    clip,
    nothing_to_read,
    read_console,
)
from authoring.mission.model import (
    CommsDown,
    DataTransfer,
    IncomingData,
    Mission,
    Profile,
    Threat,
    Zone,
)

_TOKEN = re.compile(r"^(\d{3,4})([A-Z0-9]+)$")
_THREAT = re.compile(r"^(AL|UR)([1-8])(SIT|IT|ST|T)([RWB]?)$")
_ZONES: dict[str, Zone] = {"R": "red", "W": "white", "B": "blue"}
_LETTERS = {"red": "R", "white": "W", "blue": "B"}
EXAMPLE = "010AL2STW, 055UR3IT, 220ID, 250CS10, 305DT, 345PE1"


def _tokens(text: str) -> Iterator[tuple[str, int, int]]:
    """Splits the text at commas; yields (token, line, col) with 1-based positions.

    Lines are counted piece by piece (never from the start of the text again), so a file of
    many short tokens takes linear time; tokens are yielded as they are found, so the first
    bad one stops the work.
    """
    offset = 0
    line, line_start = 1, 0
    pieces = text.split(",")
    for index, piece in enumerate(pieces):
        stripped = piece.strip()
        lead = len(piece) - len(piece.lstrip())
        breaks = piece.count("\n", 0, lead)
        if breaks:
            line += breaks
            line_start = offset + piece.rfind("\n", 0, lead) + 1
        position = offset + lead
        if stripped or index < len(pieces) - 1:  # a trailing comma is harmless
            yield stripped, line, position - line_start + 1
        breaks = piece.count("\n", lead)
        if breaks:
            line += breaks
            line_start = offset + piece.rfind("\n", lead) + 1
        offset += len(piece) + 1


def _time(digits: str) -> tuple[int, int]:
    return int(digits[:-2]), int(digits[-2:])


def parse_flash_code(text: str, source: str = "<flash-code>", *,
                     profile: Profile | None = None) -> Mission:
    """Reads Flash-player code, after JSAMG's banner if it has one; raises
    ``ImportFormatError`` at the first bad token."""
    console = read_console(text)
    events: list[Located] = []
    ends: list[PhaseEnd] = []
    empty = True
    for token, line, col in _tokens(console.text):
        empty = False
        if len(events) > MAX_EVENTS:
            raise ImportFormatError(source, line, col, f"more than {MAX_EVENTS} events: a "
                                                       f"mission has at most {MAX_EVENTS}")
        match = _TOKEN.match(token)
        if not token:
            raise ImportFormatError(source, line, col, "empty code between two commas: "
                                                       f"expected a code such as {EXAMPLE}")
        if not match:
            raise ImportFormatError(source, line, col,
                                    f"expected a code such as 010AL2STW (time m:ss without "
                                    f"the colon, then the code), got {token!r}")
        minutes, seconds = _time(match.group(1))
        if seconds > 59:
            raise ImportFormatError(source, line, col,
                                    f"time {match.group(1)} has {seconds} seconds: expected "
                                    "00-59")
        at = minutes * 60 + seconds
        code = match.group(2)
        threat = _THREAT.match(code)
        if code[:2] in ("CS", "PE") and code[2:].isdigit() and len(code) > 2 + MAX_DIGITS:
            raise ImportFormatError(source, line, col,
                                    f"{clip(code)}: a number of {len(code) - 2} digits after "
                                    f"{code[:2]}: expected at most {MAX_DIGITS}")
        if code == "ID":
            events.append(Located(IncomingData(at), line, col))
        elif code == "DT":
            events.append(Located(DataTransfer(at), line, col))
        elif code.startswith("CS") and code[2:].isdigit():
            events.append(Located(CommsDown(at, int(code[2:])), line, col))
        elif code.startswith("PE") and code[2:].isdigit():
            ends.append(PhaseEnd(int(code[2:]), at, line, col))
        elif threat:
            internal = threat.group(3) in ("IT", "SIT")
            letter = threat.group(4)
            if internal and letter:
                raise ImportFormatError(source, line, col, f"{token!r}: an internal threat "
                                                           "has no zone letter")
            if not internal and not letter:
                raise ImportFormatError(source, line, col,
                                        f"{token!r}: expected a zone letter R, W or B after "
                                        f"{threat.group(3)}")
            zone: Zone = "internal" if internal else _ZONES[letter]
            events.append(Located(Threat(at, int(threat.group(2)), zone,
                                         threat.group(3).startswith("S"),
                                         threat.group(1) == "UR"), line, col))
        else:
            raise ImportFormatError(source, line, col,
                                    f"unknown code {code!r} in {token!r}: expected AL/UR "
                                    "threats, ID, DT, CS<seconds> or PE<phase>")
    if empty:
        raise nothing_to_read(source, console, f"flash-player codes such as {EXAMPLE}")
    return assemble(source, "flash-code", ends, events, profile=profile)


def _clock(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}{rest:02d}"


def to_flash_code(mission: Mission) -> str:
    """Returns the mission as one line of Flash-player code (ends with a newline)."""
    from authoring.generate.interchange.exporting import exportable

    timed: list[tuple[int, int, str]] = []
    for event in exportable(mission, "flash-code"):
        if isinstance(event, Threat):
            kind = ("S" if event.serious else "") + ("IT" if event.internal else "T")
            zone = "" if event.internal else _LETTERS[event.zone]
            code = f"{'UR' if event.unconfirmed else 'AL'}{event.turn}{kind}{zone}"
        elif isinstance(event, IncomingData):
            code = "ID"
        elif isinstance(event, DataTransfer):
            code = "DT"
        else:
            assert isinstance(event, CommsDown)
            code = f"CS{event.seconds}"
        timed.append((event.at, 1, f"{_clock(event.at)}{code}"))
    for phase, end in enumerate(mission.phases, start=1):
        timed.append((end, 0, f"{_clock(end)}PE{phase}"))
    timed.sort(key=lambda item: (item[0], item[1]))
    return ",".join(code for _, _, code in timed) + "\n"
