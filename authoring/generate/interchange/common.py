"""What every importer shares: located errors, timed events with their source position, and
the final assembly of a ``Mission`` that is checked against the mission contract."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePath

from authoring.errors import InvalidInputError
from authoring.mission import check_mission, parse_document
from authoring.mission.model import (
    PHASE_COUNT,
    CommsDown,
    Event,
    Mission,
    Profile,
    Threat,
)
from authoring.mission.timecode import format_clock

MAX_SECONDS = 59 * 60 + 59  # the mission format's clock ends at 59:59
MAX_COMMS_SECONDS = 120
#: Digits of one number in an import file: times in ms need 7 (59:59 is 3,599,000 ms), turns
#: and phases 1. A longer number is refused before ``int()``, which fails over 4,300 digits.
MAX_DIGITS = 9
#: Events of one mission (``schemas/mission.schema.json``); phase ends come on top.
MAX_EVENTS = 200


def is_whole(text: str) -> bool:
    """Tells whether ``text`` is 1 to ``MAX_DIGITS`` ASCII digits.

    ``str.isdigit`` alone accepts superscripts such as "²", which ``int()`` refuses.
    """
    return 0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()


def clip(text: str, limit: int = 40) -> str:
    """Returns ``text`` cut to ``limit`` characters for a message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ImportFormatError(InvalidInputError):
    """An input file is not in the format it was said to be in (exit 1)."""

    def __init__(self, source: str, line: int, col: int | None, message: str,
                 hint: str | None = None) -> None:
        where = f"{source}:{line}:{col}" if col is not None else f"{source}:{line}"
        super().__init__(f"{where}: {message}", hint=hint)
        self.line = line
        self.col = col


#: ANSI colour codes (JSAMG's ``--color-console-text`` wraps every line in them).
ANSI = re.compile(r"\x1b\[[0-9;]*m")
#: The lines JSAMG prints before anything else (program and version, build time, licence), in
#: this order, on every console output (``-p text``, ``-p FlashPlayerCode``). What its source
#: prints (``MissionGenerator.main``): ``"Java Space Alert Mission Generator - v" + version +
#: "\nBuild: " + timestamp``, and since 2012 ``+ "\nThis program is free software published
#: under the GPL v3.0"``; the version and the timestamp come from the jar's pom.properties
#: (``MavenProperties``) and are empty when it has none (run from compiled classes): "- v" and
#: "Build: " with nothing after them. Lines are compared stripped, so "Build:" alone matches.
BANNER = (re.compile(r"^Java Space Alert Mission Generator - v\S*$"),
          re.compile(r"^Build:(?: .*)?$"),
          re.compile(r"^This program is free software published under the GPL v[\d.]+$"))
_LINE_ENDS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"  # where str.splitlines splits


@dataclass(frozen=True)
class ConsoleText:
    """An input file as JSAMG's console may have printed it, its banner blanked out.

    ``text`` is the file without its byte order mark, with the banner's lines made empty and
    their line breaks kept: every other character keeps its line and column, so an importer
    reads it as it would read the bare output and its errors point into the file as it is.
    """

    text: str
    banner_end: int  # the banner's last line, 0 when the file has no banner


def read_console(text: str) -> ConsoleText:
    """Blanks the banner JSAMG prints before its output (the importers of its formats share
    this): its lines in order at the start of the file, blank lines and colour codes around
    them allowed; only a leading part of the banner is taken too."""
    text = text.removeprefix("\ufeff")
    if "Java Space Alert Mission Generator" not in text[:1000]:
        return ConsoleText(text, 0)  # no banner: the text as it is, nothing split or joined
    lines = text.splitlines(keepends=True)
    found = end = 0
    for number, raw in enumerate(lines, start=1):
        plain = ANSI.sub("", raw).strip()
        if not plain:
            continue
        if found == len(BANNER) or not BANNER[found].match(plain):
            break
        lines[number - 1] = raw[len(raw.rstrip(_LINE_ENDS)):]  # the line break only
        found, end = found + 1, number
    return ConsoleText("".join(lines), end) if end else ConsoleText(text, 0)


def nothing_to_read(source: str, console: ConsoleText, expected: str) -> ImportFormatError:
    """The error for a file with nothing to import: empty, or JSAMG's banner alone."""
    if console.banner_end:
        return ImportFormatError(source, console.banner_end + 1, 1,
                                 f"only JSAMG's banner, nothing after it: expected {expected} "
                                 "after the banner")
    return ImportFormatError(source, 1, 1, f"empty file: expected {expected}")


@dataclass(frozen=True)
class Located:
    """An event read from a file, with where it was written (1-based line and column)."""

    event: Event
    line: int
    col: int | None = None


@dataclass(frozen=True)
class PhaseEnd:
    """A phase end read from a file."""

    phase: int
    at: int
    line: int
    col: int | None = None


def mission_id(source: str) -> str:
    """Returns a valid mission id made from a file name (``Mission 3.xml`` -> ``mission-3``)."""
    stem = PurePath(source).stem.lower()
    slug = re.sub(r"[^a-z0-9]+", "-", stem).strip("-")[:56] or "mission"
    return f"imported-{slug}" if not slug[0].isalnum() else slug


def infer_profile(phases: int, events: list[Located], length: int) -> Profile:
    """Guesses the profile: 2 phases a test run; a shared turn or > 11:40 double action."""
    if phases == 2:
        return "test-run"
    turns = [e.event.turn for e in events if isinstance(e.event, Threat)]
    if length > 700 or len(turns) != len(set(turns)):
        return "double-action"
    return "base"


def assemble(source: str, fmt: str, ends: list[PhaseEnd], events: list[Located], *,
             profile: Profile | None = None, title: str | None = None) -> Mission:
    """Checks what was read against the mission contract and returns the mission.

    Every problem is reported at its place in the input file; events are put in time order
    (a stable sort, so two events on one second keep their order).
    """
    if not ends:
        raise ImportFormatError(source, 1, 1, f"no phase ends found: expected the phase "
                                              f"ends of a {fmt} mission")
    if len(events) > MAX_EVENTS:
        extra = events[MAX_EVENTS]
        raise ImportFormatError(source, extra.line, extra.col,
                                f"{len(events)} events: a mission has at most {MAX_EVENTS}")
    ends = sorted(ends, key=lambda e: e.phase)
    numbers = [e.phase for e in ends]
    if numbers != list(range(1, len(ends) + 1)):
        raise ImportFormatError(source, ends[-1].line, ends[-1].col,
                                f"phase ends numbered {numbers}: expected 1..{len(ends)} "
                                "once each")
    previous = 0
    for end in ends:
        if end.at <= previous:
            raise ImportFormatError(source, end.line, end.col,
                                    f"phase {end.phase} ends at {format_clock(end.at)}, not "
                                    f"after {format_clock(previous)}: expected increasing "
                                    "phase ends")
        if end.at > MAX_SECONDS:
            raise ImportFormatError(source, end.line, end.col,
                                    f"phase {end.phase} ends at {format_clock(end.at)}: "
                                    "expected at most 59:59")
        previous = end.at
    phases = tuple(e.at for e in ends)
    chosen = profile or infer_profile(len(phases), events, phases[-1])
    if PHASE_COUNT[chosen] != len(phases):
        raise ImportFormatError(source, ends[-1].line, ends[-1].col,
                                f"{len(phases)} phases: the {chosen} profile has "
                                f"{PHASE_COUNT[chosen]}")
    for located in events:
        event = located.event
        if event.at >= phases[-1] and len(phases) < max(PHASE_COUNT.values()) and \
                profile is None:
            # an end the writer dropped (JSAMG loses a countdown an event replaced) would
            # otherwise be blamed on the first event after the ends it did write
            missing = len(phases) + 1
            code = f" (a PE{missing} code)" if fmt == "flash-code" else ""
            raise ImportFormatError(source, located.line, located.col,
                                    f"the end of phase {missing}{code} is missing: the event "
                                    f"at {format_clock(event.at)} comes after the last phase "
                                    f"end found (phase {len(phases)} at "
                                    f"{format_clock(phases[-1])})")
        if event.at < 0 or event.at >= phases[-1]:
            raise ImportFormatError(source, located.line, located.col,
                                    f"event at {format_clock(event.at)} is not inside the "
                                    f"mission (0:00 to {format_clock(phases[-1])})")
        if isinstance(event, CommsDown):
            if not 1 <= event.seconds <= MAX_COMMS_SECONDS:
                raise ImportFormatError(source, located.line, located.col,
                                        f"communications down for {event.seconds} s: expected "
                                        f"1-{MAX_COMMS_SECONDS} s")
            if event.end > phases[-1]:
                raise ImportFormatError(source, located.line, located.col,
                                        f"communications down until {format_clock(event.end)},"
                                        f" after the mission ends at {format_clock(phases[-1])}")
    ordered = sorted(events, key=lambda e: e.event.at)
    mission = Mission(
        id=mission_id(source), title=title or f"Imported from {PurePath(source).name}",
        profile=chosen, players=5, phases=phases,
        events=tuple(e.event for e in ordered), author="", tags=("imported",),
    )
    _check_contract(mission, source)
    return mission


def _check_contract(mission: Mission, source: str) -> None:
    """Re-reads the mission through the mission loader; a problem here is an importer bug."""
    from authoring.generate.interchange.mission_yaml import mission_yaml

    _, problems = check_mission(parse_document(mission_yaml(mission), source))
    if problems:
        first = problems[0]
        raise InvalidInputError(f"{source}: the converted mission is not valid: "
                                f"{first.code} {first.message}")
