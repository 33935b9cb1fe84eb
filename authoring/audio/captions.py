"""Captions of a rendered track: WebVTT, SRT and a JSON cue list, in the voice's language."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

CAPTION_FORMATS = ("vtt", "srt", "json")


@dataclass(frozen=True)
class CaptionCue:
    """One heard cue: where it starts and ends (real length), its kind and spoken text."""

    start_ms: int
    end_ms: int
    kind: str
    text: str


def _clock(ms: int, sep: str) -> str:
    hours, rest = divmod(ms, 3_600_000)
    minutes, rest = divmod(rest, 60_000)
    seconds, millis = divmod(rest, 1_000)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}{sep}{millis:03d}"


def _spoken(cues: Sequence[CaptionCue]) -> list[CaptionCue]:
    return [c for c in cues if c.text]


def vtt_text(text: str) -> str:
    """Returns ``text`` escaped for a WebVTT cue payload (``&``, ``<`` and ``>`` as entities).

    A bare ``<`` opens a cue tag and ``&`` a character reference, so an announcement such as
    "A < B & C" would otherwise lose words in a player; a line break inside the text would end
    the cue, and an empty line would end the block.
    """
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return " ".join(line.strip() for line in escaped.splitlines() if line.strip())


def to_vtt(cues: Sequence[CaptionCue]) -> str:
    """Returns WebVTT captions of the spoken cues."""
    lines = ["WEBVTT", ""]
    for n, c in enumerate(_spoken(cues), start=1):
        lines += [str(n), f"{_clock(c.start_ms, '.')} --> {_clock(c.end_ms, '.')}",
                  vtt_text(c.text), ""]
    return "\n".join(lines)


def to_srt(cues: Sequence[CaptionCue]) -> str:
    """Returns SRT subtitles of the spoken cues."""
    lines: list[str] = []
    for n, c in enumerate(_spoken(cues), start=1):
        lines += [str(n), f"{_clock(c.start_ms, ',')} --> {_clock(c.end_ms, ',')}", c.text, ""]
    return "\n".join(lines)


def to_json(cues: Sequence[CaptionCue], meta: dict[str, Any]) -> str:
    """Returns every cue (speech and sound effects) as JSON with start/end ms, kind and text."""
    data = {**meta, "cues": [{"start_ms": c.start_ms, "end_ms": c.end_ms, "kind": c.kind,
                              "text": c.text} for c in cues]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def captions(cues: Sequence[CaptionCue], fmt: str, meta: dict[str, Any]) -> str:
    """Returns the captions in ``fmt`` (vtt, srt or json)."""
    if fmt == "vtt":
        return to_vtt(cues)
    if fmt == "srt":
        return to_srt(cues)
    return to_json(cues, meta)
