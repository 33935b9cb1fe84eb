"""JSAMG's text output: one line per announcement, ``MM:SS - <sentence>``.

Sentences (JSAMG's English log texts)::

    00:10 - Time T+2. Serious threat. Zone white.
    00:55 - [Unconfirmed: Time T+3. Internal threat.]
    02:20 - Incoming data.
    03:05 - Data transfer. Data transfer in 5, 4, 3, 2, 1.
    02:50 - Communication system down...
    02:58 - ... Communication system restored.       (down at t, restored at t + length - 2)
    03:34 - 1st phase ends in 5, 4, 3, 2, 1... 2nd phase begins.
    09:48 - Operation ends in 5, 4, 3, 2, 1. Mission complete.

The start line and the one-minute and twenty-second warnings are recognised and skipped. A
phase ends where JSAMG's end clip ends: 11 s after the first phase's countdown line, 10 s
after the second's and 12 s after the operation's (the clip lengths JSAMG schedules with),
which is also where its XML output puts the phase boundaries.

Console output (what JSAMG prints with ``-p text``) starts with a three-line banner (program
and version, build time, licence), and with ``--color-console-text`` wraps every line in ANSI
colour codes: both are skipped. JSAMG keeps its events in a map by second, so an event
scheduled on the second of a countdown replaces it: a lost countdown is recovered from the
phase's one-minute warning (5 s long, 60 s before the end) or, failing that, its
twenty-second warning (20 s before); with neither the error names the missing line.
"""

from __future__ import annotations

import re

from authoring.generate.interchange.common import (
    ANSI,
    ImportFormatError,
    Located,
    PhaseEnd,
    assemble,
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

_LINE = re.compile(r"^(\d{1,2}):(\d{2})\s+-\s+(.*?)\s*$")
_THREAT = re.compile(
    r"^(\[Unconfirmed:\s*)?Time T\+([1-8])\.\s+(Serious internal threat|Internal threat|"
    r"Serious threat|Threat)\.(?:\s+Zone (red|white|blue)\.)?(\])?$", re.IGNORECASE)
_PHASE_END = re.compile(r"^(1st|2nd|3rd) phase ends in 5, 4, 3, 2, 1\.*\s+.*begins\.$",
                        re.IGNORECASE)
_OPERATION_END = re.compile(r"^Operation ends in 5, 4, 3, 2, 1\..*$", re.IGNORECASE)
_SKIPPED = re.compile(r"^(Enemy activity detected\..*|(1st|2nd|3rd) phase ends in (one minute|"
                      r"twenty seconds)\.|Operation ends in (one minute|twenty seconds)\.)$",
                      re.IGNORECASE)
_TRANSFER = re.compile(r"^Data transfer\.(\s+Data transfer in 5, 4, 3, 2, 1\.)?$",
                       re.IGNORECASE)
_INCOMING = re.compile(r"^Incoming data\.$", re.IGNORECASE)
_DOWN = re.compile(r"^Communications? system down\.*$", re.IGNORECASE)
_RESTORED = re.compile(r"^\.*\s*Communications? system restored\.$", re.IGNORECASE)
#: Seconds from a countdown line to the phase end it announces (JSAMG's end-clip lengths).
END_CLIP = {1: 11, 2: 10}
OPERATION_END_CLIP = 12
_ORDINAL = {"1st": 1, "2nd": 2, "3rd": 3}
_NAMES = ("the 1st phase", "the 2nd phase", "the operation")
_WARNING = re.compile(r"^(1st|2nd|3rd|Operation)(?: phase)? ends in (one minute|twenty "
                      r"seconds)\.$", re.IGNORECASE)
#: Seconds from a warning line to the end it announces: JSAMG starts each 5 s warning clip
#: that long before 60 s / 20 s ahead of the end.
WARNING_LEAD = {"one minute": 65, "twenty seconds": 25}


def parse_jsamg_text(text: str, source: str = "<jsamg-text>", *,
                     profile: Profile | None = None) -> Mission:
    """Reads JSAMG's text output; raises ``ImportFormatError`` at the first bad line."""
    events: list[Located] = []
    ends: list[PhaseEnd] = []
    down: tuple[int, int] | None = None  # (start, line) of an open communications-down
    console = read_console(text)  # the banner's lines are left empty
    lines = console.text.splitlines()
    if not any(line.strip() for line in lines):
        raise nothing_to_read(source, console,
                              "lines such as '00:10 - Time T+1. Threat. Zone red.'")
    operation_seen = False
    warnings: dict[int, tuple[int, int, int]] = {}  # phase -> (end it implies, line, col)
    for number, raw in enumerate(lines, start=1):
        plain = ANSI.sub("", raw).strip()
        if not plain:
            continue
        match = _LINE.match(plain)
        if not match:
            raise ImportFormatError(source, number, 1, f"expected 'MM:SS - <announcement>', "
                                                       f"got {raw.strip()!r}")
        minutes, seconds, sentence = int(match.group(1)), int(match.group(2)), match.group(3)
        col = raw.find(sentence) + 1 if sentence else 1
        if seconds > 59:
            raise ImportFormatError(source, number, 1, f"time {match.group(1)}:"
                                                       f"{match.group(2)}: expected seconds "
                                                       "00-59")
        at = minutes * 60 + seconds
        threat = _THREAT.match(sentence)
        if down is not None and not _RESTORED.match(sentence):
            raise ImportFormatError(source, number, col,
                                    f"expected '... Communication system restored.' after the "
                                    f"communications-down of line {down[1]}, got {sentence!r}")
        if threat:
            unconfirmed = bool(threat.group(1))
            if unconfirmed != bool(threat.group(5)):
                raise ImportFormatError(source, number, col, "unbalanced '[Unconfirmed: ...]' "
                                                             "brackets")
            kind = threat.group(3).lower()
            internal = "internal" in kind
            if internal == bool(threat.group(4)):
                raise ImportFormatError(source, number, col,
                                        "an external threat needs 'Zone red/white/blue.' and "
                                        "an internal one none")
            zone: Zone = "internal" if internal else threat.group(4).lower()  # type: ignore[assignment]
            events.append(Located(Threat(at, int(threat.group(2)), zone,
                                         kind.startswith("serious"), unconfirmed), number, col))
        elif _INCOMING.match(sentence):
            events.append(Located(IncomingData(at), number, col))
        elif _TRANSFER.match(sentence):
            events.append(Located(DataTransfer(at), number, col))
        elif _DOWN.match(sentence):
            down = (at, number)
        elif _RESTORED.match(sentence):
            if down is None:
                raise ImportFormatError(source, number, col, "communications restored without "
                                                             "a communications-down before it")
            start, line = down
            events.append(Located(CommsDown(start, at - start + 2), line, 1))
            down = None
        elif phase_end := _PHASE_END.match(sentence):
            phase = _ORDINAL[phase_end.group(1).lower()]
            if phase not in END_CLIP:
                # The last phase ends with "Operation ends in 5, 4, 3, 2, 1.", never this.
                raise ImportFormatError(source, number, col,
                                        f"{phase_end.group(1)} phase ends in a countdown: "
                                        "expected '1st' or '2nd' (the third phase ends with "
                                        "'Operation ends in 5, 4, 3, 2, 1.')")
            ends.append(PhaseEnd(phase, at + END_CLIP[phase], number, col))
        elif _OPERATION_END.match(sentence):
            operation_seen = True
            phase = len(ends) + 1
            ends.append(PhaseEnd(phase, at + OPERATION_END_CLIP, number, col))
        elif warning := _WARNING.match(sentence):
            which = warning.group(1).lower()
            phase = _ORDINAL.get(which, 0)  # the operation's: numbered when the end is known
            end = at + WARNING_LEAD[warning.group(2).lower()]
            if warning.group(2).lower() == "one minute" or phase not in warnings:
                warnings[phase] = (end, number, col)
        elif not _SKIPPED.match(sentence):
            raise ImportFormatError(source, number, col,
                                    f"unknown announcement {sentence!r}: expected a threat "
                                    "('Time T+3. Threat. Zone red.'), 'Incoming data.', "
                                    "'Data transfer. ...', 'Communication system down...' or "
                                    "a phase announcement")
    if down is not None:
        raise ImportFormatError(source, down[1], 1, "communications down that is never "
                                                    "restored")
    if operation_seen:
        warnings.pop(0, None)  # the operation's end was read from its countdown
    _recover_lost_ends(source, ends, warnings)
    return assemble(source, "jsamg-text", ends, events, profile=profile)


def _recover_lost_ends(source: str, ends: list[PhaseEnd],
                       warnings: dict[int, tuple[int, int, int]]) -> None:
    """Adds the phase ends whose countdown line an event replaced, from their warnings."""
    found = {e.phase for e in ends}
    operation = warnings.pop(0, None)
    if operation is not None:
        # the operation's warnings belong to the phase after the numbered ones
        last = max([*found, *warnings]) + 1 if found or warnings else 1
        warnings.setdefault(last, operation)
    for phase, (end, line, col) in sorted(warnings.items()):
        if phase not in found:
            ends.append(PhaseEnd(phase, end, line, col))
    numbers = sorted(e.phase for e in ends)
    if len(set(numbers)) != len(numbers):
        twice = next(n for n in numbers if numbers.count(n) > 1)
        name = _NAMES[twice - 1] if twice <= len(_NAMES) else f"phase {twice}"
        raise ImportFormatError(source, 1, 1, f"the end of {name} is given twice: expected one "
                                              "countdown line per phase")
    if numbers and numbers != list(range(1, numbers[-1] + 1)):
        missing = min(set(range(1, numbers[-1] + 1)) - set(numbers))
        name = _NAMES[missing - 1] if missing <= len(_NAMES) else f"phase {missing}"
        raise ImportFormatError(source, 1, 1, f"the end of {name} is missing: expected its "
                                              "countdown line or its one-minute or "
                                              "twenty-second warning")
