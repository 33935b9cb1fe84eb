"""paploo/SpaceAlertStats's JSON transcriptions: a chronological list of event objects.

``{"time": 10, "event": "threat", "t": 2, "zone": "white", "serious": true}``; events
``threat`` (``t``, ``zone`` white/red/blue/internal, optional ``unconfirmed`` and
``serious``), ``incoming_data``, ``data_transfer``, ``communications_down`` (``duration``)
and ``end_phase`` (``phase``; its time is the phase end in our convention). Warnings and
"communications restored" are derived, not stored.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

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
)

_EVENTS = ("threat", "incoming_data", "data_transfer", "communications_down", "end_phase")
_ZONES = ("red", "white", "blue", "internal")
#: Arrays and objects inside each other; a transcription needs 2 (a list of flat objects).
#: Python's JSON decoder recurses per level and fails with ``RecursionError`` near 1,000.
MAX_DEPTH = 32
#: List entries: the events of a mission and its phase ends, with room to spare. A 1 MiB
#: file can hold 300,000 tiny entries; decoding them all before the first check is slow.
MAX_ENTRIES = MAX_EVENTS + 10
_STRING_PATTERN = r'"(?:[^"\\]|\\.)*"'
_STRUCTURE = re.compile(_STRING_PATTERN + r"|[\[\]{}]")
_STRING = re.compile(_STRING_PATTERN)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class _LongNumber(Exception):
    """A JSON integer with more digits than any event field needs."""

    def __init__(self, digits: str) -> None:
        super().__init__(digits)
        self.digits = digits


def _bounded_int(digits: str) -> int:
    # ``int()`` refuses more than 4,300 digits with a ValueError the decoder passes on.
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise _LongNumber(digits)
    return int(digits)


def _position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _skip(text: str, offset: int) -> int:
    while offset < len(text) and text[offset] in " \t\r\n":
        offset += 1
    return offset


class _Lines:
    """Finds the 1-based (line, col) of offsets that only grow, in linear total time."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.offset = 0
        self.line = 1
        self.line_start = 0

    def position(self, offset: int) -> tuple[int, int]:
        breaks = self.text.count("\n", self.offset, offset)
        if breaks:
            self.line += breaks
            self.line_start = self.text.rfind("\n", self.offset, offset) + 1
        self.offset = offset
        return self.line, offset - self.line_start + 1


def _check_depth(text: str, source: str) -> None:
    """Refuses nesting deeper than ``MAX_DEPTH`` at the bracket that goes too deep.

    The depth is first measured in bulk (strings removed, brackets summed up) so that a file
    of many brackets costs no Python loop unless it really nests too deep.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    if max(accumulate(_STEP[char] for char in brackets), default=0) <= MAX_DEPTH:
        return
    depth = 0
    for found in _STRUCTURE.finditer(text):
        char = found.group()
        if char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ImportFormatError(source, *_position(text, found.start()),
                                        f"arrays and objects nested more than {MAX_DEPTH} "
                                        "deep: expected a list of flat event objects")
        elif char in "]}":
            depth -= 1


def _items(text: str, source: str) -> list[tuple[Any, int, int]]:
    """Returns each array element with the 1-based position of its first character."""
    _check_depth(text, source)
    decoder = json.JSONDecoder(parse_int=_bounded_int)
    lines = _Lines(text)
    offset = _skip(text, 0)
    if offset == len(text):
        raise ImportFormatError(source, 1, 1, "empty file: expected a JSON list of events")
    if text[offset] != "[":
        raise ImportFormatError(source, *_position(text, offset),
                                "expected a JSON list '[...]' of events")
    offset = _skip(text, offset + 1)
    items: list[tuple[Any, int, int]] = []
    if offset < len(text) and text[offset] == "]":
        return items
    while True:
        try:
            value, end = decoder.raw_decode(text, offset)
        except json.JSONDecodeError as error:
            raise ImportFormatError(source, error.lineno, error.colno,
                                    f"invalid JSON: {error.msg}") from None
        except _LongNumber as error:
            at = text.find(error.digits, offset)
            raise ImportFormatError(source, *_position(text, max(at, offset)),
                                    f"a number of {len(error.digits)} characters: expected at "
                                    f"most {MAX_DIGITS} digits") from None
        if len(items) == MAX_ENTRIES:
            raise ImportFormatError(source, *lines.position(offset),
                                    f"more than {MAX_ENTRIES} entries: a mission has at most "
                                    f"{MAX_EVENTS} events and its phase ends")
        items.append((value, *lines.position(offset)))
        offset = _skip(text, end)
        if offset < len(text) and text[offset] == ",":
            offset = _skip(text, offset + 1)
            continue
        if offset < len(text) and text[offset] == "]":
            break
        raise ImportFormatError(source, *_position(text, min(offset, len(text))),
                                "invalid JSON: expected ',' or ']' after an event")
    if _skip(text, offset + 1) != len(text):
        raise ImportFormatError(source, *_position(text, _skip(text, offset + 1)),
                                "invalid JSON: extra data after the list")
    return items


def _whole(item: dict[str, Any], key: str, source: str, line: int, col: int) -> int:
    value = item.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        got = "nothing" if key not in item else json.dumps(value)
        raise ImportFormatError(source, line, col, f"{key!r}: expected a whole number >= 0, "
                                                   f"got {got}")
    return value


def _flag(item: dict[str, Any], key: str, source: str, line: int, col: int) -> bool:
    value = item.get(key, False)
    if not isinstance(value, bool):
        raise ImportFormatError(source, line, col, f"{key!r}: expected true or false, got "
                                                   f"{json.dumps(value)}")
    return value


def parse_ps_json(text: str, source: str = "<ps-json>", *,
                  profile: Profile | None = None) -> Mission:
    """Reads a PS JSON transcription; raises ``ImportFormatError`` with line and column."""
    ends: list[PhaseEnd] = []
    events: list[Located] = []
    for item, line, col in _items(text.removeprefix("\ufeff"), source):
        if not isinstance(item, dict):
            raise ImportFormatError(source, line, col, "expected an event object {...}, got "
                                                       f"{json.dumps(item)[:40]}")
        kind = item.get("event")
        if kind not in _EVENTS:
            raise ImportFormatError(source, line, col,
                                    f"event {json.dumps(kind)}: expected one of "
                                    f"{', '.join(_EVENTS)}")
        at = _whole(item, "time", source, line, col)
        event: Event
        if kind == "end_phase":
            ends.append(PhaseEnd(_whole(item, "phase", source, line, col), at, line, col))
            continue
        if kind == "threat":
            turn = _whole(item, "t", source, line, col)
            if not 1 <= turn <= 8:
                raise ImportFormatError(source, line, col, f"'t': expected the turn 1-8, "
                                                           f"got {turn}")
            zone = item.get("zone")
            if zone not in _ZONES:
                raise ImportFormatError(source, line, col, f"'zone': expected one of "
                                                           f"{', '.join(_ZONES)}, got "
                                                           f"{json.dumps(zone)}")
            event = Threat(at, turn, zone, _flag(item, "serious", source, line, col),
                           _flag(item, "unconfirmed", source, line, col))
        elif kind == "incoming_data":
            event = IncomingData(at)
        elif kind == "data_transfer":
            event = DataTransfer(at)
        else:
            event = CommsDown(at, _whole(item, "duration", source, line, col))
        events.append(Located(event, line, col))
    return assemble(source, "ps-json", ends, events, profile=profile)
