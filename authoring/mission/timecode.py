"""Mission clock times: ``"m:ss"`` strings to whole seconds and back.

Mission files write times as quoted ``m:ss`` strings so that YAML 1.1 tools cannot turn
``1:30`` into the integer 90 (sexagesimal numbers).

>>> parse_clock("1:30")
90
>>> format_clock(615)
'10:15'
>>> format_ms(61_250)
'1:01.250'
"""

from __future__ import annotations

import re

CLOCK_PATTERN = r"^[0-5]?[0-9]:[0-5][0-9]$"
_CLOCK = re.compile(CLOCK_PATTERN)


def is_clock(text: str) -> bool:
    """Tells whether ``text`` is a valid ``m:ss`` clock time (minutes 0-59)."""
    return bool(_CLOCK.match(text))


def parse_clock(text: str) -> int:
    """Parses ``m:ss`` into whole seconds; raises ``ValueError`` on anything else."""
    if not is_clock(text):
        raise ValueError(f"expected an m:ss time such as '1:30', got {text!r}")
    minutes, seconds = text.split(":")
    return int(minutes) * 60 + int(seconds)


def format_clock(seconds: int) -> str:
    """Formats whole seconds as ``m:ss``."""
    sign = "-" if seconds < 0 else ""
    minutes, rest = divmod(abs(seconds), 60)
    return f"{sign}{minutes}:{rest:02d}"


def format_ms(ms: int) -> str:
    """Formats milliseconds as ``m:ss.mmm``."""
    sign = "-" if ms < 0 else ""
    seconds, millis = divmod(abs(ms), 1000)
    return f"{sign}{format_clock(seconds)}.{millis:03d}"
