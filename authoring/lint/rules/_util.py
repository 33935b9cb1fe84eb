"""Helpers the rule modules share: event look-ups, ranges and mission-level locations."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from authoring.lint.context import LintContext
from authoring.lint.rule import PathStep
from authoring.mission.model import CommsDown, DataTransfer, Event, IncomingData, Threat

#: Where findings about the mission as a whole point: the ``events`` key.
EVENTS_KEY: tuple[PathStep, ...] = ("events",)
#: Where findings about the phase structure point: the ``phases`` key.
PHASES_KEY: tuple[PathStep, ...] = ("phases",)


def indexed(ctx: LintContext) -> Iterator[tuple[int, Event]]:
    """Yields (index in the file, event) for every event."""
    yield from enumerate(ctx.mission.events)


def threats(ctx: LintContext) -> list[tuple[int, Threat]]:
    """Returns (index, threat) for every threat, in file order."""
    return [(i, e) for i, e in indexed(ctx) if isinstance(e, Threat)]


def comms_downs(ctx: LintContext) -> list[tuple[int, CommsDown]]:
    """Returns (index, communications-down) for every communications-down."""
    return [(i, e) for i, e in indexed(ctx) if isinstance(e, CommsDown)]


def of_kind(ctx: LintContext, kind: type) -> list[tuple[int, Event]]:
    """Returns (index, event) for the events of class ``kind``."""
    return [(i, e) for i, e in indexed(ctx) if isinstance(e, kind)]


def in_range(value: int, bounds: Sequence[Any] | None) -> bool:
    """Tells whether ``value`` lies in ``[low, high]`` (``None`` bounds are open)."""
    if bounds is None:
        return True
    low, high = bounds[0], bounds[1]
    return (low is None or value >= low) and (high is None or value <= high)


def describe_range(bounds: Sequence[Any], unit: str = "") -> str:
    """Describes ``[low, high]`` for a message: "5-7 s", "exactly 8", "at least 2"."""
    low, high = bounds[0], bounds[1]
    if low is not None and high is not None:
        return f"exactly {low}{unit}" if low == high else f"{low}-{high}{unit}"
    if low is not None:
        return f"at least {low}{unit}"
    return f"at most {high}{unit}"


def event_label(event: Event) -> str:
    """Names an event for messages: "threat T+3 (red)", "data transfer" …"""
    if isinstance(event, Threat):
        kind = ("serious " if event.serious else "") + (
            "internal threat" if event.internal else f"threat in zone {event.zone}")
        if event.unconfirmed:
            kind = "unconfirmed " + kind
        return f"{kind} T+{event.turn}"
    if isinstance(event, CommsDown):
        return f"communications down ({event.seconds} s)"
    if isinstance(event, DataTransfer):
        return "data transfer"
    if isinstance(event, IncomingData):
        return "incoming data"
    return "announcement"


def plural(count: int, word: str) -> str:
    """Returns "1 threat" / "2 threats"."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"
