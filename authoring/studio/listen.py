"""Short excerpts of a mission's soundtrack, rendered through the clip cache, as WAV bytes.

"Play cue" renders the cues of one event (or one derived cue) alone; "play from here" renders
the soundtrack from a moment for a bounded stretch, alarm bed included. Both are the real
renderer (``audio.render_timeline``) given a timeline cut to the excerpt and shifted to start
at zero, so what is heard is what ``spacealert render`` would place there. Overlapping speech
is mixed anyway (a warning, not a refusal): the author is listening to find exactly that.
"""

from __future__ import annotations

import io
import wave
from dataclasses import replace

from authoring.audio import ClipCache, RenderOptions, render_timeline
from authoring.audio.pcm import RATE
from authoring.audio.voice import Voice
from authoring.errors import InvalidInputError
from authoring.mission.timeline import Cue, Timeline

#: The longest excerpt "play from here" renders (a minute and a half: render time stays short).
MAX_EXCERPT_MS = 90_000


def _shift(cue: Cue, origin: int) -> Cue:
    until = None if cue.until_ms is None else cue.until_ms - origin
    return replace(cue, start_ms=cue.start_ms - origin, until_ms=until)


def excerpt(timeline: Timeline, cues: list[Cue], origin: int, length_ms: int) -> Timeline:
    """A timeline holding ``cues`` moved so that ``origin`` is zero, ``length_ms`` long."""
    shifted = tuple(_shift(c, origin) for c in cues)
    return Timeline(timeline.mission_id, timeline.players, (max(1, length_ms),), shifted,
                    timeline.figures)


def cue_excerpt(timeline: Timeline, *, event: int | None = None,
                cue: int | None = None) -> Timeline:
    """The cues of mission event ``event`` (or the one cue at index ``cue``) alone."""
    if event is not None:
        chosen = [c for c in timeline.cues if c.event == event]
        if not chosen:
            raise InvalidInputError(f"event {event} has no cue in this soundtrack "
                                    "(an unconfirmed report with fewer than 5 figures is silent)")
    elif cue is not None and 0 <= cue < len(timeline.cues):
        chosen = [timeline.cues[cue]]
    else:
        raise InvalidInputError(f"no cue {cue!r}: the timeline has {len(timeline.cues)} cues")
    origin = min(c.start_ms for c in chosen)
    end = max(c.nominal_end_ms for c in chosen)
    return excerpt(timeline, chosen, origin, end - origin)


def from_excerpt(timeline: Timeline, from_ms: int, length_ms: int = MAX_EXCERPT_MS) -> Timeline:
    """The soundtrack from ``from_ms`` for ``length_ms`` (at most ``MAX_EXCERPT_MS``)."""
    length_ms = min(length_ms, MAX_EXCERPT_MS)
    end = from_ms + length_ms
    chosen = [c for c in timeline.cues if from_ms <= c.start_ms < end]
    # a lasting sound already under way (the static of a communications-down) goes on
    for c in timeline.cues:
        if c.until_ms is not None and c.start_ms < from_ms < c.until_ms:
            chosen.append(replace(c, start_ms=from_ms, nominal_ms=c.until_ms - from_ms))
    chosen.sort(key=lambda c: c.start_ms)
    return excerpt(timeline, chosen, from_ms, length_ms)


def render_wav(part: Timeline, voice: Voice, cache: ClipCache | None, *, bed: bool) -> bytes:
    """Renders ``part`` with ``voice`` and returns a 16-bit mono WAV file's bytes."""
    rendering = render_timeline(part, voice, cache=cache,
                                options=RenderOptions(bed=bed, allow_overlap=True))
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        for block in rendering.pcm_blocks(1):
            out.writeframes(block)
    return buffer.getvalue()
