"""Renders a compiled timeline into a soundtrack: the rendered audio *is* the timeline.

Each speech cue is synthesized (or read from the cache) and placed at its exact sample; a
speech cue that is still speaking when the next one starts is refused (or, when overlaps are
allowed, mixed and reported as a warning). Sound effects may sit under speech.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from authoring.audio import sfx
from authoring.audio.cache import ClipCache, Spoken, default_cache_dir
from authoring.audio.captions import CaptionCue
from authoring.audio.mixer import MixPlan, Placed, pcm16_blocks, start_sample
from authoring.audio.pcm import RATE, Samples, rms_dbfs_of
from authoring.audio.phrases import cue_text
from authoring.audio.synth import Synthesizer
from authoring.audio.voice import Voice, load_voice
from authoring.errors import InvalidInputError
from authoring.mission.heard import heard
from authoring.mission.heard import overlaps as heard_overlaps
from authoring.mission.timecode import format_ms
from authoring.mission.timeline import Cue, Timeline

TAIL_MS = 1_000
#: Called with (done, total, what) while clips are synthesized.
Progress = Callable[[int, int, str], None]


@dataclass(frozen=True)
class RenderOptions:
    """What to put in the mix besides speech."""

    bed: bool = True            # the alarm bed between announcements
    effects: bool = True        # chirp, beep and static
    allow_overlap: bool = False


@dataclass(frozen=True)
class Overlap:
    """Two speech cues that are heard at the same time."""

    first: Cue
    first_end_ms: int
    second: Cue
    first_text: str = ""
    second_text: str = ""

    def describe(self) -> str:
        """Returns a one-line explanation naming both cues and their times."""
        a, b = self.first, self.second
        return (f"{a.kind} at {format_ms(a.start_ms)} ({_short(self.first_text or a.text)}) "
                f"is spoken until {format_ms(self.first_end_ms)}, but {b.kind} starts at "
                f"{format_ms(b.start_ms)} ({_short(self.second_text or b.text)})")


def _short(text: str) -> str:
    return repr(text if len(text) <= 32 else text[:29] + "...")


@dataclass
class Rendering:
    """A rendered soundtrack: the mix plan of the mono master, the heard cues and what went wrong.

    The track itself is mixed while it is written (``pcm_blocks``); ``track`` assembles it
    whole for analysis.
    """

    timeline: Timeline
    voice: Voice
    plan: MixPlan
    cues: list[CaptionCue]
    clips: dict[int, Samples]
    speech_rms_dbfs: float
    warnings: list[str] = field(default_factory=list)

    @property
    def frames(self) -> int:
        """Returns the number of samples of the track (per channel)."""
        return self.plan.length

    @property
    def duration_ms(self) -> int:
        """Returns the length of the track in ms."""
        return self.plan.length * 1000 // RATE

    @property
    def master_gain(self) -> float:
        """Returns the gain applied to the whole mix (1.0 unless it would clip)."""
        return self.plan.master

    @cached_property
    def track(self) -> Samples:
        """Returns the whole mono master as one float array (built on first use)."""
        return self.plan.track()

    def pcm_blocks(self, channels: int = 2) -> Iterator[bytes]:
        """Yields the track as 44.1 kHz 16-bit PCM (mono, or stereo), block by block."""
        return pcm16_blocks(self.plan.blocks(), channels)

    def pcm16_stereo(self) -> bytes:
        """Returns the whole track as 44.1 kHz 16-bit stereo PCM bytes (one buffer)."""
        return b"".join(self.pcm_blocks(2))


def length_ms(samples: Samples) -> int:
    """Returns a clip's length in whole ms, rounded up."""
    return -(-len(samples) * 1000 // RATE)


def find_overlaps(cues: Sequence[Cue], lengths: Sequence[int],
                  texts: Sequence[str] | None = None) -> list[Overlap]:
    """Returns every pair of speech cues where the second starts before the first has ended.

    ``lengths`` (ms, measured) and the optional spoken ``texts`` are aligned with ``cues``;
    the spans come from the one model of what is heard when (``authoring.mission.heard``).
    """
    said = list(texts) if texts is not None else [c.text for c in cues]
    text_of = {id(c): t for c, t in zip(cues, said, strict=True)}
    speech = [(c, n) for c, n in zip(cues, lengths, strict=True) if c.speech]
    spans = heard([c for c, _ in speech], [n for _, n in speech])
    return [Overlap(a.cue, a.end_ms, b.cue, text_of[id(a.cue)], text_of[id(b.cue)])
            for a, b, _ in heard_overlaps(spans)]


def _open_cache(use_cache: bool, cache_dir: Path | None) -> ClipCache | None:
    if not use_cache:
        return None
    return ClipCache(cache_dir if cache_dir is not None else default_cache_dir())


def _speech_clips(synth: Synthesizer, timeline: Timeline,
                  progress: Progress | None) -> dict[int, Spoken]:
    indices = [i for i, c in enumerate(timeline.cues) if c.speech]

    def done(n: int, total: int) -> None:
        if progress is not None:
            progress(n, total, "announcements")

    spoken = synth.cue_spoken([timeline.cues[i] for i in indices], done)
    return dict(zip(indices, spoken, strict=True))


def _static_span(cue: Cue) -> tuple[int, str]:
    """Returns the sample count and the noise seed of a static cue."""
    until = cue.until_ms if cue.until_ms is not None else cue.start_ms + cue.nominal_ms
    return start_sample(until) - start_sample(cue.start_ms), f"static:{cue.start_ms}:{until}"


def _effect(cue: Cue, ref_db: float, shape: Future[Any] | None) -> Samples | None:
    if cue.kind == "chirp":
        return sfx.chirp(ref_db)
    if cue.kind == "transfer_beep":
        return sfx.beep(ref_db)
    if cue.kind == "static" and shape is not None:
        return sfx.static_at(shape.result(), ref_db)
    return None


def measure_cues(timeline: Timeline, voice: Voice | str = "en", *, use_cache: bool = True,
                 cache_dir: Path | None = None) -> list[int]:
    """Returns the real length in ms of every cue of ``timeline``, in the timeline's order.

    Speech cues are synthesized with ``voice`` (through the clip cache); sound effects have
    their generated lengths (static lasts until ``until_ms``). The linter's audio rules use
    this to check overlaps with the lengths a render will really have.
    """
    if isinstance(voice, str):
        voice = load_voice(voice)
    synth = Synthesizer(voice, _open_cache(use_cache, cache_dir))
    speech = _speech_clips(synth, timeline, None)
    lengths: list[int] = []
    for i, cue in enumerate(timeline.cues):
        if cue.speech:
            lengths.append(length_ms(speech[i].clip))
        elif cue.kind == "static":
            until = cue.until_ms if cue.until_ms is not None else cue.start_ms + cue.nominal_ms
            lengths.append(until - cue.start_ms)
        elif cue.kind == "chirp":
            lengths.append(sfx.CHIRP_MS)
        elif cue.kind == "transfer_beep":
            lengths.append(sfx.BEEP_MS)
        else:
            lengths.append(cue.nominal_ms)
    return lengths


def render_timeline(timeline: Timeline, voice: Voice, *, cache: ClipCache | None = None,
                    options: RenderOptions = RenderOptions(),
                    progress: Progress | None = None) -> Rendering:
    """Returns the rendered soundtrack of ``timeline`` spoken by ``voice``.

    Raises ``InvalidInputError`` when two speech cues overlap (unless
    ``options.allow_overlap``, then each overlap becomes a warning).
    """
    synth = Synthesizer(voice, cache)
    cues = timeline.cues
    statics = [i for i, cue in enumerate(cues)
               if options.effects and cue.kind == "static" and _static_span(cue)[0] > 0]
    # the static's noise does not depend on the speech level: make it while clips load, on
    # every core (numpy lets go of the GIL; a 10-minute mission has about a minute of static,
    # the longest wait before the first block when made on one thread)
    with ThreadPoolExecutor(max_workers=max(1, min(len(statics), os.cpu_count() or 1))) as pool:
        shapes: dict[int, Future[Any]] = {
            i: pool.submit(sfx.static_shape, *_static_span(cues[i])) for i in statics}
        spoken = _speech_clips(synth, timeline, progress)
        return _place(timeline, voice, spoken, shapes, options, progress)


def _place(timeline: Timeline, voice: Voice, spoken_at: dict[int, Spoken],
           shapes: dict[int, Future[Any]], options: RenderOptions,
           progress: Progress | None) -> Rendering:
    cues = timeline.cues
    clips = {i: s.clip for i, s in spoken_at.items()}
    lengths = [length_ms(clips[i]) if i in clips else 0 for i in range(len(cues))]
    texts = [cue_text(c, voice) if c.speech else "" for c in cues]
    overlaps = find_overlaps(cues, lengths, texts)
    warnings: list[str] = []
    if overlaps and not options.allow_overlap:
        more = f" (and {len(overlaps) - 1} more)" if len(overlaps) > 1 else ""
        raise InvalidInputError(
            f"speech overlaps with voice {voice.id!r}: {overlaps[0].describe()}{more}",
            hint="move the later event, choose a faster voice, or mix them anyway with "
                 "--allow-overlap")
    warnings += [f"speech overlaps: {o.describe()}" for o in overlaps]

    # the speech level that sets the bed and the effects: over the utterances, leads included,
    # so that where a clip starts (its onset, pcm.onset) does not move the bed under the
    # others (authoring/audio/synth.py says why)
    spoken = [spoken_at[i].utterance for i in sorted(spoken_at) if len(spoken_at[i].utterance)]
    ref_db = rms_dbfs_of(spoken) if spoken else voice.loudness_lufs
    placed: list[Placed] = []
    caption_cues: list[CaptionCue] = []
    for i, cue in enumerate(cues):
        samples = clips.get(i)
        if samples is None and options.effects:
            samples = _effect(cue, ref_db, shapes.get(i))
        text = texts[i]
        if samples is None:
            continue
        placed.append(Placed(i, cue, start_sample(cue.start_ms), samples))
        caption_cues.append(CaptionCue(cue.start_ms, cue.start_ms + length_ms(samples),
                                       cue.kind, text))
    end_ms = max([c.end_ms for c in caption_cues] + [timeline.phases_ms[-1]]) + TAIL_MS
    length = start_sample(end_ms)
    bed_loop: Samples | None = None
    bed_span = (0, 0)
    if options.bed:
        starts = [c.start_ms for c in cues if c.kind == "mission_start"]
        bed_span = (start_sample(starts[0] if starts else 0), start_sample(timeline.phases_ms[-1]))
        bed_loop = sfx.alarm_loop(ref_db, voice.bed_db)
    if progress is not None:
        progress(len(clips), len(clips), "mixing")
    plan = MixPlan(placed, length, bed_loop, bed_span)
    return Rendering(timeline, voice, plan, caption_cues, clips, ref_db, warnings)
