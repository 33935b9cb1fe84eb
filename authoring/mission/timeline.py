"""Compiles a mission into the timeline of its soundtrack: every cue with its start in ms.

The timeline is a pure function of the mission and the player count. It is the contract the
renderer (where each cue is placed sample-accurately), the captions, the linter and the website
share. Cue wording is the project wording of docs/soundtrack.md §2; ``nominal_ms`` is the length of
the official English recording of that line, used for scheduling checks before anything is
synthesised.

Derived cues, per phase ending at ``E`` (docs/soundtrack.md §4):

* ``warning`` one minute before ``E`` and twenty seconds before ``E``;
* ``countdown`` ("First phase ends in") at ``E - 8 s``, then ``count`` five … one on the whole
  seconds ``E - 5 s`` … ``E - 1 s``, so that the last number is spoken in the phase's final
  second, as on the CD where "one" ends on ``E``;
* ``phase_ended`` ("First phase has ended. Please begin second phase.") at ``E + 1 s``, or
  ``operation_ended`` ("Mission complete. Jumping to hyperspace.") after the last phase.

A data transfer counts down the same way: five … one at ``+5 s`` … ``+9 s``, the beep at
``+10 s`` (the moment the cards must have changed hands, ≈10–11 s into the CD clip), then "Data
transfer complete." The closing line is left out when the next announcement starts less than
13 s after the transfer (official mission 3 has a communications-down 10 s after one): the beep
already marks the exchange, and player logs omit the line too. Communications down are
followed by ``static`` until ``comms_restored``.

Unconfirmed reports (docs/soundtrack.md §1): with 5 figures (players and androids, decided by
``authoring.crew``) they are announced, prefixed "Unconfirmed report." as on the CD,
and the crew plays them as normal threats; with fewer they are left out of the soundtrack.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from authoring.crew import CrewSize
from authoring.mission.model import (
    Announcement,
    CommsDown,
    DataTransfer,
    IncomingData,
    Mission,
    Threat,
)
from authoring.mission.timecode import format_ms

#: Cue kinds that are spoken; the others are sound effects.
SPEECH_KINDS = frozenset({
    "mission_start", "threat", "incoming_data", "data_transfer", "data_transfer_complete",
    "comms_down", "comms_restored", "warning", "countdown", "count", "phase_ended",
    "operation_ended", "announcement",
})
#: Cue kinds that are generated sound effects.
SFX_KINDS = frozenset({"chirp", "transfer_beep", "static"})
CUE_KINDS = SPEECH_KINDS | SFX_KINDS

ORDINALS = ("first", "second", "third")
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight")

# Where the parts of a composite announcement sit, in ms from its anchor.
START_SPEECH_MS = 2_000        # after the 0.8 s chirp and a 1.2 s gap, as on the CD
COUNTDOWN_LEAD_MS = 8_000      # the countdown line starts 8 s before the phase end
PHASE_ENDED_DELAY_MS = 1_000   # the closing line follows the phase end
TRANSFER_COUNT_MS = 5_000      # "five" of a data transfer, from the transfer start
TRANSFER_BEEP_MS = 10_000      # the exchange moment
TRANSFER_COMPLETE_MS = 10_500
TRANSFER_ROOM_MS = 13_000      # room the closing line needs before the next announcement

# Lengths of the official English recordings (docs/soundtrack.md §2), for checks before rendering.
_NOMINAL = {
    "chirp": 800, "mission_start": 4_400, "incoming_data": 4_700, "data_transfer": 4_800,
    "data_transfer_complete": 1_800, "transfer_beep": 300, "comms_down": 2_400,
    "comms_restored": 2_300, "warning": 3_300, "countdown": 2_300, "count": 700,
    "phase_ended": 3_000, "operation_ended": 3_600,
}
_THREAT_WORD_MS = {(False, False): 840, (True, False): 1_200, (False, True): 1_460,
                   (True, True): 2_060}
_ZONE_MS = {"red": 1_440, "white": 1_570, "blue": 1_360}
UNCONFIRMED_MS = 1_670  # "Unconfirmed report" (docs/soundtrack.md §2, row 6b)
_TIME_MS = (0, 1_780, 1_850, 1_900, 1_950, 2_000, 2_050, 2_100, 2_170)


@dataclass(frozen=True)
class Cue:
    """One thing heard in the soundtrack, starting at ``start_ms``.

    ``params`` say what a voice must say for it in any language (e.g. turn and zone of a
    threat); ``text`` is the English project wording; ``event`` is the index of the mission
    event it comes from (``None`` for derived cues); ``until_ms`` ends a sound that lasts (the
    static of a communications-down).
    """

    start_ms: int
    kind: str
    text: str
    nominal_ms: int
    phase: int
    params: Mapping[str, Any] = field(default_factory=dict)
    event: int | None = None
    until_ms: int | None = None

    @property
    def speech(self) -> bool:
        """Tells whether a voice speaks this cue (rather than a sound effect)."""
        return self.kind in SPEECH_KINDS

    @property
    def nominal_end_ms(self) -> int:
        """Where the cue ends with the official recording's length."""
        return self.until_ms if self.until_ms is not None else self.start_ms + self.nominal_ms

    def to_dict(self) -> dict[str, Any]:
        """Returns the cue as JSON-ready data with stable keys."""
        return {
            "start_ms": self.start_ms,
            "time": format_ms(self.start_ms),
            "kind": self.kind,
            "text": self.text,
            "nominal_ms": self.nominal_ms,
            "phase": self.phase,
            "params": dict(self.params),
            "event": self.event,
            "until_ms": self.until_ms,
        }


@dataclass(frozen=True)
class Timeline:
    """The cues of a mission in start order, for a given crew."""

    mission_id: str
    players: int
    phases_ms: tuple[int, ...]
    cues: tuple[Cue, ...]
    figures: int  # players + androids: 5 hear the unconfirmed reports

    @property
    def end_ms(self) -> int:
        """Where the last sound ends (nominally)."""
        return max(c.nominal_end_ms for c in self.cues)

    def to_dict(self) -> dict[str, Any]:
        """Returns the timeline as JSON-ready data."""
        return {
            "mission": self.mission_id,
            "players": self.players,
            "figures": self.figures,
            "phases_ms": list(self.phases_ms),
            "cues": [c.to_dict() for c in self.cues],
        }


@functools.lru_cache(maxsize=256)
def threat_text(turn: int, zone: str, serious: bool, unconfirmed: bool = False) -> str:
    """Returns the English threat announcement (docs/soundtrack.md §2, row 6)."""
    kind = ("Serious " if serious else "") + ("internal threat" if zone == "internal" else "threat")
    kind = kind[0].upper() + kind[1:]
    body = f"Time T plus {NUMBER_WORDS[turn]}. {kind}."
    if zone != "internal":
        body += f" Zone {zone}."
    prefix = "Alert. Unconfirmed report." if unconfirmed else "Alert."
    return f"{prefix} {body} Repeat: {body}"


@functools.lru_cache(maxsize=256)
def _threat_nominal(turn: int, zone: str, serious: bool, unconfirmed: bool) -> int:
    once = _TIME_MS[turn] + _THREAT_WORD_MS[(serious, zone == "internal")] + _ZONE_MS.get(zone, 0)
    return 1_150 + (UNCONFIRMED_MS if unconfirmed else 0) + 2 * once + 810


def _phase_name(phase: int, last: bool) -> str:
    return "Operation" if last else f"{ORDINALS[phase - 1].capitalize()} phase"


@functools.lru_cache(maxsize=2048)
def _phase_cues(phase: int, end_ms: int, last: bool) -> tuple[Cue, ...]:
    # cached: a batch of generated missions compiles a few hundred distinct phase ends many
    # times over (the generator's self-check). The cues are shared between timelines, which
    # is safe because a Cue is a frozen value that nothing changes (params included).
    name = _phase_name(phase, last)
    base = {"phase": phase, "last": last}
    cues = [
        Cue(end_ms - 60_000, "warning", f"{name} ends in one minute.", _NOMINAL["warning"],
            phase, {**base, "left": "1min"}),
        Cue(end_ms - 20_000, "warning", f"{name} ends in twenty seconds.", _NOMINAL["warning"],
            phase, {**base, "left": "20s"}),
        Cue(end_ms - COUNTDOWN_LEAD_MS, "countdown", f"{name} ends in", _NOMINAL["countdown"],
            phase, base),
    ]
    for n in range(5, 0, -1):
        cues.append(Cue(end_ms - n * 1_000, "count", NUMBER_WORDS[n].capitalize() + ".",
                        _NOMINAL["count"], phase, {"n": n}))
    if last:
        cues.append(Cue(end_ms + PHASE_ENDED_DELAY_MS, "operation_ended",
                        "Mission complete. Jumping to hyperspace.", _NOMINAL["operation_ended"],
                        phase, base))
    else:
        nxt = ORDINALS[phase]
        cues.append(Cue(end_ms + PHASE_ENDED_DELAY_MS, "phase_ended",
                        f"{name} has ended. Please begin {nxt} phase.", _NOMINAL["phase_ended"],
                        phase, base))
    return tuple(cues)


def _next_start(mission: Mission, index: int) -> int:
    """Returns the start in ms of the first event after event ``index`` (or the mission end)."""
    at = mission.events[index].at
    later = [e.at for e in mission.events if e.at > at]
    return min(later, default=mission.length) * 1_000


def compile_timeline(mission: Mission, crew: CrewSize | None = None) -> Timeline:
    """Returns every cue of ``mission``'s soundtrack with its exact start in ms, as ``crew``
    hears it (default: the crew the mission is written for, ``mission.crew``)."""
    crew = mission.crew if crew is None else crew
    cues: list[Cue] = [
        Cue(0, "chirp", "", _NOMINAL["chirp"], 1),
        Cue(START_SPEECH_MS, "mission_start",
            "Alert. Enemy activity detected. Please begin first phase.",
            _NOMINAL["mission_start"], 1),
    ]
    for number, end in enumerate(mission.phases, start=1):
        cues.extend(_phase_cues(number, end * 1_000, number == len(mission.phases)))
    for index, event in enumerate(mission.events):
        start = event.at * 1_000
        phase = mission.phase_of(event.at)
        if isinstance(event, Threat):
            if event.unconfirmed and not crew.plays_unconfirmed:
                continue  # the crew ignores it: leave it out of this crew's track
            cues.append(Cue(start, "threat",
                            threat_text(event.turn, event.zone, event.serious, event.unconfirmed),
                            _threat_nominal(event.turn, event.zone, event.serious,
                                            event.unconfirmed), phase,
                            {"turn": event.turn, "zone": event.zone, "serious": event.serious,
                             "unconfirmed": event.unconfirmed}, index))
        elif isinstance(event, IncomingData):
            cues.append(Cue(start, "incoming_data", "Incoming data. Repeat: incoming data.",
                            _NOMINAL["incoming_data"], phase, {}, index))
        elif isinstance(event, DataTransfer):
            cues.append(Cue(start, "data_transfer", "Data transfer. Repeat: data transfer in",
                            _NOMINAL["data_transfer"], phase, {}, index))
            for step, n in enumerate(range(5, 0, -1)):
                cues.append(Cue(start + TRANSFER_COUNT_MS + step * 1_000, "count",
                                NUMBER_WORDS[n].capitalize() + ".", _NOMINAL["count"], phase,
                                {"n": n}, index))
            cues.append(Cue(start + TRANSFER_BEEP_MS, "transfer_beep", "",
                            _NOMINAL["transfer_beep"], phase, {}, index))
            if _next_start(mission, index) - start >= TRANSFER_ROOM_MS:
                cues.append(Cue(start + TRANSFER_COMPLETE_MS, "data_transfer_complete",
                                "Data transfer complete.", _NOMINAL["data_transfer_complete"],
                                phase, {}, index))
        elif isinstance(event, CommsDown):
            end = event.end * 1_000
            cues.append(Cue(start, "comms_down", "Communication system down.",
                            _NOMINAL["comms_down"], phase, {"seconds": event.seconds}, index))
            cues.append(Cue(start, "static", "", end - start, phase,
                            {"seconds": event.seconds}, index, until_ms=end))
            cues.append(Cue(end, "comms_restored", "Communications restored.",
                            _NOMINAL["comms_restored"], mission.phase_of(event.end), {}, index))
        elif isinstance(event, Announcement):
            # about 14 characters a second, the pace of the official recordings
            cues.append(Cue(start, "announcement", event.text, max(1_000, len(event.text) * 70),
                            phase, {"text": event.text}, index))
    cues.sort(key=lambda c: (c.start_ms, c.kind == "static", -1 if c.event is None else c.event))
    return Timeline(mission.id, crew.players, tuple(p * 1_000 for p in mission.phases),
                    tuple(cues), crew.figures)
