"""Speaks cues: fragments → backend (or recorded clips) → processed, cached clips.

Every clip goes through the same steps: resample to 44.1 kHz, trim the silence around the
utterance (``pcm.trim_silence``), optional radio filter, loudness normalisation, and a round
trip through 16-bit samples, so that a clip built now and one read from the cache are identical
and renders are byte-for-byte repeatable. The clip then starts at the speech onset
(``pcm.onset``, found before the filter): what comes before it, a bump of flite's noise floor
for instance, is its lead (``Spoken``), left out of the clip but kept with it.

Why the lead is kept: only where the clip starts should change, not how loud anything is. The
loudness normalisation and the render's speech level (``Spoken.utterance``, from which the
alarm bed, static, chirp and beep are set: ``authoring/audio/render.py``) are measured on the
utterance as the voice produced it, from its first sample over the silence line, as before the
onset was cut (pipeline 2). Measured on the cut clips, 20 ms less of near-silence in flite's 8
"Communication…" clips of official mission 1 raised the alarm bed under every other line by
0.011 dB; a gate on near-silent stretches (as loudness gating does) would have moved the bed
under every render instead. Measured this way, every sample of every clip from its onset on is
the one pipeline 2 made, and a render differs from pipeline 2's only where a lead was left out.
"""

from __future__ import annotations

import hashlib
import io
import os
import wave
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

import numpy as np

from authoring.audio import pcm
from authoring.audio.backends import Backend, make_backend
from authoring.audio.cache import ClipCache, Spoken, cache_key
from authoring.audio.pcm import RATE, Samples
from authoring.audio.phrases import Fragment, cue_fragments
from authoring.audio.voice import Voice, load_voice
from authoring.errors import InvalidInputError
from authoring.mission.timeline import Cue

#: Bumped whenever the processing below changes what a clip sounds like.
#: 2: the wider radio band (200-7000 Hz, drive 1.2); 4: a clip starts at its speech onset, its
#: lead kept beside it (3 was an unmerged trial of the onset measured without the lead: skipped,
#: so that clips it cached are never taken for these).
PIPELINE_VERSION = 4


def _file_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _load_recording(path: Path) -> tuple[Samples, int]:
    data = path.read_bytes()
    if data[:4] == b"RIFF":
        try:
            return pcm.read_wav(data)
        except (wave.Error, EOFError, ValueError):
            pass  # not 8-32 bit PCM (e.g. float samples): let ffmpeg read it
    from authoring.audio.tools import require_program

    require_program("ffmpeg", f"to read the recording {path}")
    from pydub import AudioSegment
    from pydub.exceptions import CouldntDecodeError

    try:
        # from bytes: pydub leaves a file it opens itself unclosed
        seg = AudioSegment.from_file(io.BytesIO(data))
    except CouldntDecodeError:
        raise InvalidInputError(f"{path}: not an audio file ffmpeg can read") from None
    return pcm.from_int(seg.raw_data, seg.sample_width, seg.channels), int(seg.frame_rate)


class Synthesizer:
    """Turns cues into processed clips for one voice, through an optional cache."""

    def __init__(self, voice: Voice, cache: ClipCache | None = None) -> None:
        self.voice = voice
        self.cache = cache
        self._backend: Backend | None = None
        self._fallback: Synthesizer | None = None
        self._memo: dict[str, Spoken] = {}

    # backends are created on first use: a warm clip pack never needs espeak-ng
    @property
    def backend(self) -> Backend:
        """Returns the voice's speech backend (created on first use)."""
        if self._backend is None:
            self._backend = make_backend(self.voice, self.cache)
        return self._backend

    @property
    def fallback(self) -> Synthesizer:
        """Returns the synthesizer of a clip pack's fallback voice."""
        if self._fallback is None:
            pack = self.voice.clips
            if pack is None or pack.fallback is None:
                raise InvalidInputError(f"voice {self.voice.id!r} has no fallback voice")
            self._fallback = Synthesizer(load_voice(self._fallback_name(pack.fallback)),
                                         self.cache)
        return self._fallback

    def _fallback_name(self, name: str) -> str:
        candidate = self.voice.source.parent / name
        return str(candidate) if candidate.exists() else name

    def _sound(self) -> dict[str, Any]:
        return {"radio": self.voice.radio, "lufs": self.voice.loudness_lufs}

    def recipe(self, fragments: Sequence[Fragment]) -> dict[str, Any]:
        """Returns everything that decides the clip's samples (hashed into its cache key)."""
        base: dict[str, Any] = {"pipeline": PIPELINE_VERSION, "sound": self._sound()}
        pack = self.voice.clips
        if pack is None:
            text = self.voice.joiner.join(f.text for f in fragments)
            return {**base, "tts": dict(self.backend.identity()), "text": text}
        pieces: list[dict[str, Any]] = []
        for fragment in fragments:
            path = pack.path(fragment.key)
            if path is not None:
                pieces.append({"file": _file_digest(path)})
            elif pack.fallback is None:
                absent = pack.absent_file(fragment.key)
                why = (f"lists {absent} for {fragment.key!r} ({fragment.text!r}), which does "
                       "not exist, and has no fallback voice" if absent is not None else
                       f"has no recording for {fragment.key!r} ({fragment.text!r}) and no "
                       "fallback voice")
                raise InvalidInputError(
                    f"clip pack {self.voice.id!r} {why}",
                    hint=f"record it and list it under clips.files in {self.voice.source}, or "
                         "set clips.fallback (e.g. en)")
            else:
                pieces.append({"tts": dict(self.fallback.backend.identity()),
                               "text": fragment.text})
        return {**base, "clips": pieces, "gap_ms": pack.gap_ms}

    def _raw_pieces(self, fragments: Sequence[Fragment]) -> list[Samples]:
        pack = self.voice.clips
        if pack is None:
            text = self.voice.joiner.join(f.text for f in fragments)
            x, rate = self.backend.synthesize(text)
            return [pcm.trim_silence(pcm.resample(x, rate))]
        pieces = []
        for fragment in fragments:
            path = pack.path(fragment.key)
            if path is not None:
                x, rate = _load_recording(path)
            else:
                x, rate = self.fallback.backend.synthesize(fragment.text)
            pieces.append(pcm.trim_silence(pcm.resample(x, rate)))
        return pieces

    def raw_fragment(self, fragment: Fragment) -> Samples:
        """Returns one fragment as the voice speaks it, before any sound processing: at
        44.1 kHz, the silence around it trimmed (what a clip pack records)."""
        return self._raw_pieces([fragment])[0]

    def _build(self, fragments: Sequence[Fragment]) -> Spoken:
        pieces = self._raw_pieces(fragments)
        gap = np.zeros(0 if self.voice.clips is None else self.voice.clips.gap_ms * RATE // 1000,
                       np.float32)
        joined: list[Samples] = []
        for i, piece in enumerate(pieces):
            if i:
                joined.append(gap)
            joined.append(piece)
        x = np.concatenate(joined) if joined else np.zeros(0, np.float32)
        # the radio filter is zero-phase and the rest changes only the gain: the onset found
        # now is where the speech of the processed utterance starts
        lead = pcm.onset(x)
        if self.voice.radio:
            x = pcm.radio(x)
        x = pcm.normalise(x, self.voice.loudness_lufs)
        # the cache stores 16-bit samples: use exactly those now too
        return Spoken(pcm.from_int(pcm.to_int16(x).tobytes(), 2, 1), lead)

    def fragments_clip(self, fragments: Sequence[Fragment]) -> Samples:
        """Returns the processed clip that speaks ``fragments`` (from the cache when possible)."""
        return self.fragments_spoken(fragments).clip

    def fragments_spoken(self, fragments: Sequence[Fragment]) -> Spoken:
        """Returns the processed utterance of ``fragments`` with its lead (see ``Spoken``)."""
        key = cache_key(self.recipe(fragments))
        found = self._memo.get(key)
        if found is None and self.cache is not None:
            found = self.cache.get(key)
        if found is None:
            found = self._build(fragments)
            if self.cache is not None:
                self.cache.put(key, found)
        self._memo[key] = found
        return found

    def cue_clip(self, cue: Cue) -> Samples:
        """Returns the processed clip of a speech cue."""
        return self.fragments_clip(cue_fragments(cue, self.voice))

    def cue_clips(self, cues: Sequence[Cue],
                  done: Callable[[int, int], None] | None = None) -> list[Samples]:
        """Returns the clips of many speech cues, building the missing ones in parallel."""
        return [spoken.clip for spoken in self.cue_spoken(cues, done)]

    def cue_spoken(self, cues: Sequence[Cue],
                   done: Callable[[int, int], None] | None = None) -> list[Spoken]:
        """Returns the utterances of many speech cues, building the missing ones in parallel.

        espeak-ng runs as a separate process and numpy releases the GIL, so a few threads
        use every core; each distinct clip is built once. ``done(n, total)`` reports progress.
        """
        keyed = [(cache_key(self.recipe(f)), f) for f in (cue_fragments(c, self.voice)
                                                           for c in cues)]
        todo: dict[str, Sequence[Fragment]] = {}
        for key, fragments in keyed:
            if key in self._memo or key in todo:
                continue
            found = self.cache.get(key) if self.cache is not None else None
            if found is not None:
                self._memo[key] = found
            else:
                todo[key] = fragments
        finished = len(cues) - len(todo)
        if done is not None:
            done(finished, len(cues))
        workers = max(1, min(len(todo), os.cpu_count() or 1))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(self._build, f): k for k, f in todo.items()}
            for future in as_completed(futures):
                key = futures[future]
                spoken = future.result()
                if self.cache is not None:
                    self.cache.put(key, spoken)
                self._memo[key] = spoken
                finished += 1
                if done is not None:
                    done(min(finished, len(cues)), len(cues))
        return [self._memo[key] for key, _ in keyed]

    def missing_recordings(self, fragments: Sequence[Fragment]) -> list[Fragment]:
        """Returns the fragments a clip pack has no recording for (empty for TTS voices)."""
        pack = self.voice.clips
        if pack is None:
            return []
        return [f for f in fragments if pack.path(f.key) is None]

