"""What is heard when: each cue's start and end, and the cues heard over each other.

One answer for the renderer (``audio/render.py`` refuses overlapping speech), the timing lint
(``T106`` with nominal lengths, ``A101`` with a voice's measured ones) and the generator's
self-check. A cue starts at its timeline start; it ends after its length, which is either the
nominal one (the official English recording, ``Cue.nominal_ms``; a lasting sound such as the
static of a communications-down ends at its ``until_ms``) or a measured one passed in by the
caller (a voice's real clip lengths, one per cue), so that this layer knows nothing of audio.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import NamedTuple

from authoring.mission.timeline import Cue


class Heard(NamedTuple):
    """One cue and the time it is heard: from ``start_ms`` up to (not including) ``end_ms``.

    A named tuple rather than a frozen dataclass: as immutable, and made in half the time
    (the generator's self-check makes one per cue of every mission it draws).
    """

    cue: Cue
    start_ms: int
    end_ms: int


def heard(cues: Sequence[Cue], lengths: Sequence[int] | None = None) -> list[Heard]:
    """Returns when each cue is heard, in the order of ``cues``.

    ``lengths`` (ms, aligned with ``cues``) are measured lengths; without them each cue has
    its nominal length. A lasting sound (``until_ms``) ends there in both cases.
    """
    if lengths is None:
        return [Heard(c, c.start_ms, c.nominal_end_ms) for c in cues]
    if len(lengths) != len(cues):
        raise ValueError(f"{len(lengths)} lengths for {len(cues)} cues")
    return [Heard(c, c.start_ms, c.until_ms if c.until_ms is not None else c.start_ms + n)
            for c, n in zip(cues, lengths, strict=True)]


def overlaps(spans: Sequence[Heard], *, gap_ms: int = 0, same_event: bool = True
             ) -> Iterator[tuple[Heard, Heard, int]]:
    """Yields (earlier, later, overlap in ms) for every pair heard at the same time.

    ``gap_ms`` is the silence required after a cue. With ``same_event=False`` the parts of
    one mission event (a transfer's count, a communications-down's static) may overlap each
    other by design and are not reported.
    """
    ordered = sorted(spans, key=lambda s: s.start_ms)  # stable: ties keep the caller's order
    for i, first in enumerate(ordered):
        end = first.end_ms + gap_ms
        for second in ordered[i + 1:]:
            if second.start_ms >= end:
                break
            if not same_event and first.cue.event is not None and (
                    first.cue.event == second.cue.event):
                continue
            yield first, second, end - second.start_ms
