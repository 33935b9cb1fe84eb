"""JSAMG's XML: ``Mission`` > ``Phase duration="ms"`` > ``Element start="ms" type=...``.

Element times are milliseconds from the start of their phase; a phase's duration is its
length, so phase ends are the running sums (read as phase ends in our convention). Element
types: ``Announcement`` (``message`` such as ``AnnounceFirstPhaseEndsInOneMinute``; derived
from the phases, so ignored on import), ``Threat`` (``confidence`` Confirmed/Unconfirmed,
``threatLevel`` NormalThreat/SeriousThreat, ``threatType`` InternalThreat/ExternalThreat,
``time`` 1-8, ``zone`` Red/White/Blue for external threats), ``DataTransfer``,
``IncomingData`` and ``CommFailure`` (``duration`` in ms). Times are rounded to whole seconds.

JSAMG's XML writer opens each ``<Phase>`` but closes only the last one, so its files are not
well formed: ``<Mission><Phase>…<Phase>…<Phase>…</Phase></Mission>``. A ``<Phase>`` met
inside a ``<Phase>`` therefore ends the one before it, and the ``</Mission>`` that then closes
elements left open is accepted when it is the last thing in the file. Well-formed files (ours,
or JSAMG's hand-fixed ones) read the same.

The reader is expat with line and column tracking; document type declarations (and so
entities) are refused, which keeps entity-expansion attacks out.
"""

from __future__ import annotations

from collections.abc import Mapping
from xml.parsers import expat

from authoring.generate.interchange.common import (
    MAX_DIGITS,
    ImportFormatError,
    Located,
    PhaseEnd,
    assemble,
    clip,
    is_whole,
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

_ZONES: dict[str, Zone] = {"Red": "red", "White": "white", "Blue": "blue"}
_ORDINALS = ("First", "Second", "Third")
_CHOICES = {
    "confidence": ("Confirmed", "Unconfirmed"),
    "threatLevel": ("NormalThreat", "SeriousThreat"),
    "threatType": ("InternalThreat", "ExternalThreat"),
}
_TYPES = ("Announcement", "Threat", "DataTransfer", "IncomingData", "CommFailure")


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.parser = expat.ParserCreate()
        self.parser.StartElementHandler = self.start
        self.parser.EndElementHandler = self.end
        self.parser.StartDoctypeDeclHandler = self.doctype
        self.stack: list[str] = []
        self.phase_start_ms = 0
        self.phase_ms = 0
        self.ends: list[PhaseEnd] = []
        self.events: list[Located] = []
        self.root_seen = False
        self.unclosed = 0  # <Phase> elements JSAMG left open (each ended by the next <Phase>)

    def where(self) -> tuple[int, int]:
        return self.parser.CurrentLineNumber, self.parser.CurrentColumnNumber + 1

    def fail(self, message: str) -> ImportFormatError:
        line, col = self.where()
        return ImportFormatError(self.source, line, col, message)

    def doctype(self, *_: object) -> None:
        raise self.fail("document type declarations are not allowed in mission XML")

    def number(self, attrs: Mapping[str, str], name: str, element: str) -> int:
        if name not in attrs:
            raise self.fail(f"<{element}> has no {name} attribute: expected {name}=\"...\" "
                            "in milliseconds")
        text = attrs[name].strip()
        if not is_whole(text):
            raise self.fail(f"<{element} {name}=\"{clip(attrs[name])}\">: expected a whole "
                            f"number of milliseconds (at most {MAX_DIGITS} digits)")
        return int(text)

    def choice(self, attrs: Mapping[str, str], name: str) -> str:
        allowed = _CHOICES[name]
        value = attrs.get(name)
        if value not in allowed:
            got = "nothing" if value is None else repr(value)
            raise self.fail(f"threat {name}: expected {' or '.join(allowed)}, got {got}")
        return value

    def start(self, name: str, attrs: dict[str, str]) -> None:
        parent = self.stack[-1] if self.stack else None
        self.stack.append(name)
        if parent is None:
            if name != "Mission":
                raise self.fail(f"root element <{name}>: expected <Mission>")
            self.root_seen = True
        elif name == "Phase" and parent in ("Mission", "Phase"):
            if parent == "Phase":  # JSAMG's unclosed phase: this one ends it
                self.unclosed += 1
                self.end_phase()
            self.phase_ms = self.number(attrs, "duration", "Phase")
            if self.phase_ms == 0:
                raise self.fail("<Phase duration=\"0\">: expected a positive duration")
        elif name == "Element" and parent == "Phase":
            self.element(attrs)
        else:
            raise self.fail(f"unexpected <{name}> inside <{parent}>: expected <Phase> in "
                            "<Mission> and <Element> in <Phase>")

    def end(self, name: str) -> None:
        self.stack.pop()
        if name == "Phase":
            self.end_phase()

    def end_phase(self) -> None:
        line, col = self.where()
        self.phase_start_ms += self.phase_ms
        self.ends.append(PhaseEnd(len(self.ends) + 1, _seconds(self.phase_start_ms), line, col))

    def element(self, attrs: Mapping[str, str]) -> None:
        kind = attrs.get("type")
        if kind not in _TYPES:
            raise self.fail(f"element type {kind!r}: expected one of {', '.join(_TYPES)}")
        at = _seconds(self.phase_start_ms + self.number(attrs, "start", "Element"))
        event: Event
        if kind == "Announcement":
            return
        if kind == "Threat":
            internal = self.choice(attrs, "threatType") == "InternalThreat"
            zone: Zone = "internal"
            if not internal:
                raw = attrs.get("zone")
                if raw not in _ZONES:
                    got = "nothing" if raw is None else repr(raw)
                    raise self.fail(f"external threat zone: expected Red, White or Blue, "
                                    f"got {got}")
                zone = _ZONES[raw]
            turn_text = attrs.get("time", "")
            if turn_text not in tuple("12345678"):
                raise self.fail(f"threat time {turn_text!r}: expected the turn 1-8")
            event = Threat(at, int(turn_text), zone,
                           self.choice(attrs, "threatLevel") == "SeriousThreat",
                           self.choice(attrs, "confidence") == "Unconfirmed")
        elif kind == "DataTransfer":
            event = DataTransfer(at)
        elif kind == "IncomingData":
            event = IncomingData(at)
        else:
            event = CommsDown(at, _seconds(self.number(attrs, "duration", "Element")))
        line, col = self.where()
        self.events.append(Located(event, line, col))


def _jsamg_closing(text: str, reader: _Reader, error: expat.ExpatError) -> bool:
    """Tells whether ``error`` is only the ``</Mission>`` that closes JSAMG's open phases.

    By then every phase and element has been read; nothing but that end tag (and blank
    space) may follow, so a file cut short or with content after the phases still fails.
    """
    if not reader.unclosed or error.code != expat.errors.codes[expat.errors.XML_ERROR_TAG_MISMATCH]:
        return False
    lines = text.split("\n")
    line_start = sum(len(line) + 1 for line in lines[: error.lineno - 1])
    tag = text.rfind("<", line_start, line_start + error.offset + 1)  # expat points inside it
    return tag >= 0 and text[tag:].strip() == "</Mission>" and reader.stack[:1] == ["Mission"]


def _seconds(ms: int) -> int:
    """Rounds milliseconds to whole seconds (halves up)."""
    return (ms + 500) // 1000


def parse_jsamg_xml(text: str, source: str = "<jsamg-xml>", *,
                    profile: Profile | None = None) -> Mission:
    """Reads JSAMG XML; raises ``ImportFormatError`` with line and column on bad input."""
    reader = _Reader(source)
    text = text.removeprefix("\ufeff")
    if not text.strip():
        raise ImportFormatError(source, 1, 1, "empty file: expected a <Mission> element")
    declaration = text.find("<!DOCTYPE")
    if declaration >= 0:
        line = text.count("\n", 0, declaration) + 1
        col = declaration - (text.rfind("\n", 0, declaration) + 1) + 1
        raise ImportFormatError(source, line, col, "document type declarations are not "
                                                   "allowed in mission XML")
    try:
        reader.parser.Parse(text, True)
    except expat.ExpatError as error:
        if not _jsamg_closing(text, reader, error):
            message = expat.errors.messages[error.code] if error.code else str(error)
            raise ImportFormatError(source, error.lineno, error.offset + 1,
                                    f"not well-formed XML: {message}") from None
    if not reader.root_seen:
        raise ImportFormatError(source, 1, 1, "empty file: expected a <Mission> element")
    return assemble(source, "jsamg-xml", reader.ends, reader.events, profile=profile)


def _announcements(phase: int, length_ms: int) -> list[tuple[int, str]]:
    name = _ORDINALS[phase - 1]
    found = [(0, "AnnounceBeginFirstPhase" if phase == 1 else f"Announce{name}PhaseBegins")]
    found += [(length_ms - 60_000, f"Announce{name}PhaseEndsInOneMinute"),
              (length_ms - 20_000, f"Announce{name}PhaseEndsInTwentySeconds"),
              (length_ms - 8_000, f"Announce{name}PhaseEnds")]
    return found


def to_jsamg_xml(mission: Mission) -> str:
    """Returns the mission as JSAMG XML (tab-indented, like JSAMG writes it)."""
    from authoring.generate.interchange.exporting import exportable

    events = exportable(mission, "jsamg-xml")
    lines = ["<Mission>"]
    start = 0
    for phase, end in enumerate(mission.phases, start=1):
        length_ms = (end - start) * 1000
        lines.append(f'\t<Phase duration="{length_ms}">')
        rows: list[tuple[int, int, str]] = [
            (ms, 0, f'type="Announcement" message="{message}"')
            for ms, message in _announcements(phase, length_ms)]
        for order, event in enumerate(events, start=1):
            if not start <= event.at < end:
                continue
            rows.append(((event.at - start) * 1000, order, _attributes(event)))
        rows.sort(key=lambda row: (row[0], row[1]))
        lines += [f'\t\t<Element start="{ms}" {attributes} />' for ms, _, attributes in rows]
        lines.append("\t</Phase>")
        start = end
    lines.append("</Mission>")
    return "\n".join(lines) + "\n"


def _attributes(event: Event) -> str:
    if isinstance(event, Threat):
        text = (f'type="Threat" confidence="{"Unconfirmed" if event.unconfirmed else "Confirmed"}"'
                f' threatLevel="{"SeriousThreat" if event.serious else "NormalThreat"}"'
                f' threatType="{"InternalThreat" if event.internal else "ExternalThreat"}"'
                f' time="{event.turn}"')
        if not event.internal:
            text += f' zone="{event.zone.capitalize()}"'
        return text
    if isinstance(event, DataTransfer):
        return 'type="DataTransfer"'
    if isinstance(event, IncomingData):
        return 'type="IncomingData"'
    assert isinstance(event, CommsDown)
    return f'type="CommFailure" duration="{event.seconds * 1000}"'
