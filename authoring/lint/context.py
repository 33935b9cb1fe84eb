"""What a rule sees: the mission, its document, the active profile and shared lazy results.

The compiled timeline (and, for the G and A families, the simulation and the measured cue
lengths) is computed at most once per file, and only when a selected rule asks for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from authoring.crew import FULL_CREW
from authoring.lint.rule import PathStep
from authoring.lint.suppress import BadDirective, Directive, parse_directives
from authoring.mission.load import Document
from authoring.mission.model import Mission
from authoring.mission.timecode import format_clock
from authoring.mission.timeline import Timeline, compile_timeline

#: Measures the real length in ms of each speech cue of a timeline for a voice.
CueMeasurer = Callable[[Timeline, str], Sequence[int]]


@dataclass
class LintContext:
    """The input of every rule for one mission file."""

    mission: Mission
    profile: str
    document: Document | None = None
    voice: str | None = None
    measure: CueMeasurer | None = None
    cache: dict[Any, Any] = field(default_factory=dict)

    @property
    def file(self) -> str:
        """The file name shown in problems."""
        if self.document is not None:
            return self.document.file
        return self.mission.source or f"<mission {self.mission.id}>"

    @cached_property
    def timeline(self) -> Timeline:
        """The compiled soundtrack for the mission's crew (nominal cue lengths)."""
        if self.mission.crew.plays_unconfirmed:
            return self.full_timeline
        return compile_timeline(self.mission)

    @cached_property
    def full_timeline(self) -> Timeline:
        """The compiled soundtrack with five figures, so that unconfirmed reports are heard."""
        return compile_timeline(self.mission, FULL_CREW)

    @cached_property
    def directives(self) -> tuple[list[Directive], list[BadDirective]]:
        """The suppression comments of the file (none without a document)."""
        if self.document is None:
            return [], []
        return parse_directives(self.document.text)

    def simulation(self, options: Mapping[str, Any]) -> Any:
        """Returns the Monte Carlo statistics for the simulation options (``simulate_with``
        keeps recent runs, so the G rules of one mission simulate it once)."""
        from authoring.simulation.montecarlo import simulate_with  # the engine loads when asked

        return simulate_with(self.mission, options, jobs=int(options.get("jobs", 1)))

    def locate(self, path: Sequence[PathStep], *, key: bool = False) -> tuple[int, int]:
        """Returns the 1-based (line, col) of ``path`` in the file, (1, 1) without a document."""
        if self.document is None or self.document.data is None:
            return 1, 1
        return self.document.locate(list(path), key=key)

    def phase_start(self, phase: int) -> int:
        """Returns the start in seconds of the 1-based ``phase``."""
        return self.mission.phase_start(phase)


def event_path(index: int, *rest: PathStep) -> tuple[PathStep, ...]:
    """Returns the JSON path of event ``index`` (and of a key below it)."""
    return ("events", index, *rest)


def phase_path(phase: int) -> tuple[PathStep, ...]:
    """Returns the JSON path of the end time of the 1-based ``phase``."""
    return ("phases", phase - 1)


def json_path(path: Sequence[PathStep]) -> str:
    """Formats a path as ``$.events[3].at``."""
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def clock(seconds: int) -> str:
    """Formats whole seconds as ``m:ss`` for messages."""
    return format_clock(seconds)


def span(low: int | None, high: int | None, unit: str = "") -> str:
    """Describes an allowed range for messages: "5-7", "at least 5", "at most 7"."""
    if low is not None and high is not None:
        return f"{low}" if low == high else f"{low}-{high}{unit}"
    if low is not None:
        return f"at least {low}{unit}"
    return f"at most {high}{unit}"
