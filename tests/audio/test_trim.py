"""Clip trimming: a clip starts where its speech starts, not at a click or a noise floor before it.

Every clip (synthesized text, each flite sentence, each recording of a clip pack) goes through
``pcm.trim``; the renderer places the first kept sample on the cue's start, so whatever the
trim keeps before the speech is heard as a late cue (docs/soundtrack.md §4: cues start to the
millisecond).
"""

from __future__ import annotations

import math
import wave
from pathlib import Path

import numpy as np
import pytest

from authoring.audio import load_voice, pcm
from authoring.audio.pcm import PRE_ROLL_MS, RATE
from authoring.audio.synth import Synthesizer
from authoring.mission.timeline import Cue

MS = RATE // 1000


def _noise(ms: int, dbfs: float, seed: int) -> np.ndarray:
    """Returns ``ms`` of white noise at an RMS of ``dbfs`` (seeded: the same samples every run)."""
    x = np.random.default_rng(seed).standard_normal(ms * MS)
    return np.asarray(x * pcm.db_to_gain(dbfs) / np.sqrt(np.mean(x**2)), np.float32)


def _vowel(ms: int, dbfs: float) -> np.ndarray:
    """Returns ``ms`` of a 220 Hz tone at an RMS of ``dbfs``, starting at a zero crossing."""
    t = np.arange(ms * MS) / RATE
    return np.asarray(math.sqrt(2) * pcm.db_to_gain(dbfs) * np.sin(2 * math.pi * 220 * t),
                      np.float32)


def _click(peak_dbfs: float, rate: int = RATE) -> np.ndarray:
    """Returns a 5 ms tick: a 3 kHz ring that dies away in about a millisecond."""
    t = np.arange(5 * rate // 1000) / rate
    ring = np.sin(2 * math.pi * 3_000 * t + math.pi / 2) * np.exp(-t / 0.0005)
    return np.asarray(pcm.db_to_gain(peak_dbfs) * ring, np.float32)


def _start(x: np.ndarray, trimmed: np.ndarray) -> int:
    """Returns the index in ``x`` of the first sample ``trimmed`` kept (its end is ``x``'s end)."""
    assert len(trimmed) and trimmed[-1] == x[-1], "the test signals end loud: no tail is cut"
    return len(x) - len(trimmed)


def test_a_click_and_a_noise_floor_before_the_word_are_trimmed() -> None:
    # flite's "Communication" as measured: a blip whose samples cross the -50 dBFS silence line
    # (its 5 ms are about 47 dB under the word), 15 ms of noise floor, then the word
    blip = _click(-46.0)
    assert np.max(np.abs(blip)) > pcm.db_to_gain(pcm.SILENCE_DBFS)
    floor = _noise(15, -68.0, seed=2)
    word = _vowel(300, -11.0)
    x = np.concatenate([np.zeros(100 * MS, np.float32), blip, floor, word])
    word_at = len(x) - len(word)
    start = _start(x, pcm.trim(x))
    assert word_at - PRE_ROLL_MS * MS <= start <= word_at, (
        f"the clip starts {(word_at - start) / MS:.1f} ms before the word")


def test_a_faint_consonant_before_the_vowel_is_kept() -> None:
    # a "th" 42 dB under the vowel's loudest 5 ms (flite's measured 37-45 dB) for 60 ms: it is
    # speech, and a cut into it is heard (three/free)
    fricative = _noise(60, -53.0, seed=3)
    vowel = _vowel(300, -11.0)
    x = np.concatenate([np.zeros(100 * MS, np.float32), fricative, vowel])
    fricative_at = 100 * MS
    start = _start(x, pcm.trim(x))
    assert start <= fricative_at + MS, f"{(start - fricative_at) / MS:.1f} ms of it were cut"


def test_a_clean_onset_keeps_no_silence_before_it() -> None:
    # the pre-roll only keeps what is over the silence line: a voice that starts cleanly out of
    # digital silence (espeak-ng) is still heard at the cue's first sample, not 5 ms later
    x = np.concatenate([np.zeros(100 * MS, np.float32), _vowel(300, -11.0)])
    assert _start(x, pcm.trim(x)) - 100 * MS <= 1


def test_silence_trims_to_nothing_and_the_trim_is_deterministic() -> None:
    assert len(pcm.trim(_noise(200, -70.0, seed=4))) == 0
    x = np.concatenate([_noise(50, -66.0, seed=5), _click(-44.0), _noise(20, -70.0, seed=7),
                        _vowel(200, -9.0)])
    assert np.array_equal(pcm.trim(x), pcm.trim(x.copy()))


def _wav(path: Path, x: np.ndarray, rate: int) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.to_int16(x).tobytes())


@pytest.mark.parametrize("rate", [RATE, 48_000])
def test_a_recording_starts_at_its_word_not_at_the_mouth_click_before_it(
        tmp_path: Path, rate: int) -> None:
    # recorded clip packs go through the same trim: room tone and a mouth click at the start of a
    # take must not delay the cue
    t = np.arange(int(0.4 * rate)) / rate
    word = (0.3 * np.sin(2 * math.pi * 600 * t)).astype(np.float32)
    n = rate // 1000
    room = np.random.default_rng(8).standard_normal(200 * n).astype(np.float32) * 0.0004
    room[170 * n:175 * n] += _click(-45.0, rate)  # 25 ms before the word
    pack = tmp_path / "pack"
    pack.mkdir()
    _wav(pack / "alert.wav", np.concatenate([room, word]), rate)
    (pack / "voice.yaml").write_text(
        "format: 1\nid: take\nextends: en\nbackend: clips\nsound: {radio: false}\n"
        "clips:\n  fallback: en\n  files: {alert: alert.wav}\n", encoding="utf-8")
    clip = Synthesizer(load_voice(pack)).cue_clip(Cue(0, "mission_start", "", 0, 1, {}))
    loud = np.flatnonzero(np.abs(clip) > 0.1 * float(np.max(np.abs(clip))))
    assert int(loud[0]) <= (PRE_ROLL_MS + 1) * MS, (
        f"the word is heard {int(loud[0]) / MS:.1f} ms into the clip")
