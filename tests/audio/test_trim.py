"""Clip trimming: a clip starts where its speech starts, not at a blip of a noise floor before it.

Every clip (synthesized text, flite's sentences joined, a clip pack's recordings joined) starts
at its speech onset (``pcm.onset``; ``pcm.trim`` is the cut on its own); the renderer places the
first kept sample on the cue's start, so whatever the trim keeps before the speech is heard as a
late cue (docs/soundtrack.md §3, §4). What is left out before the onset, the lead, still counts
in the clip's loudness and the render's speech level: cutting it moves no other sound.
"""

from __future__ import annotations

import math
import wave
from pathlib import Path

import numpy as np
import pytest

from authoring.audio import load_voice, pcm, render_timeline
from authoring.audio.pcm import RATE
from authoring.audio.synth import Synthesizer
from authoring.mission import load_mission
from authoring.mission.timeline import Cue, compile_timeline

MS = RATE // 1000


def _noise(ms: int, dbfs: float, seed: int, low_pass_hz: float | None = None) -> np.ndarray:
    """Returns ``ms`` of seeded white noise at an RMS of ``dbfs`` (low-passed when asked)."""
    x = np.random.default_rng(seed).standard_normal(ms * MS)
    if low_pass_hz is not None:
        from scipy.signal import butter, sosfilt

        x = sosfilt(butter(4, low_pass_hz, fs=RATE, output="sos"), x)
    return np.asarray(x * pcm.db_to_gain(dbfs) / np.sqrt(np.mean(x**2)), np.float32)


def _vowel(ms: int, dbfs: float) -> np.ndarray:
    """Returns ``ms`` of a 220 Hz tone with its harmonics at an RMS of ``dbfs``."""
    t = np.arange(ms * MS) / RATE
    x = sum(np.sin(2 * math.pi * 220 * k * t) / k for k in range(1, 12))
    return np.asarray(x * pcm.db_to_gain(dbfs) / np.sqrt(np.mean(x**2)), np.float32)


def _bump(peak_dbfs: float) -> np.ndarray:
    """Returns a 4 ms low-frequency bump of a noise floor (half a 125 Hz sine)."""
    t = np.arange(4 * MS) / RATE
    return np.asarray(pcm.db_to_gain(peak_dbfs) * np.sin(2 * math.pi * 125 * t), np.float32)


def _start(x: np.ndarray, trimmed: np.ndarray) -> int:
    """Returns the index in ``x`` of the first sample ``trimmed`` kept (a view into ``x``)."""
    assert len(trimmed) and np.shares_memory(x, trimmed)
    offset = int(trimmed.__array_interface__["data"][0]) - int(x.__array_interface__["data"][0])
    return offset // x.itemsize


def test_a_bump_of_the_noise_floor_before_the_word_is_trimmed() -> None:
    # flite's "Communication" as measured: its low-frequency noise floor, a 4 ms bump of it
    # that crosses the -50 dBFS silence line, 19 ms of floor, then the word
    floor = _noise(200, -62.0, seed=1, low_pass_hz=200.0)
    bump = _bump(-47.0)
    assert np.max(np.abs(bump)) > pcm.db_to_gain(pcm.SILENCE_DBFS)
    word = _vowel(300, -12.0)
    x = np.concatenate([floor, bump, _noise(19, -64.0, seed=2, low_pass_hz=200.0), word])
    word_at = len(x) - len(word)
    start = _start(x, pcm.trim(x))
    assert abs(start - word_at) <= MS, f"starts {(word_at - start) / MS:.1f} ms before the word"


def test_a_faint_fricative_before_the_vowel_is_kept() -> None:
    # an "f" or "th" (noise above 1 kHz) that crosses the silence line, then quieter stretches
    # under it before the vowel: speech from its first loud sample on
    from scipy.signal import butter, sosfilt

    hiss = np.random.default_rng(3).standard_normal(60 * MS)
    hiss = sosfilt(butter(4, 2_000.0, btype="highpass", fs=RATE, output="sos"), hiss)
    hiss = np.asarray(hiss * pcm.db_to_gain(-58.0) / np.sqrt(np.mean(hiss**2)), np.float32)
    x = np.concatenate([np.zeros(100 * MS, np.float32), hiss, _vowel(300, -12.0)])
    first_loud = int(np.flatnonzero(np.abs(x) > pcm.db_to_gain(pcm.SILENCE_DBFS))[0])
    assert first_loud < 110 * MS, "the fricative crosses the silence line early"
    assert _start(x, pcm.trim(x)) == first_loud


def test_a_clean_onset_starts_at_its_first_sample_over_the_silence_line() -> None:
    # a voice that starts cleanly out of digital silence (espeak-ng) is cut where it always was
    x = np.concatenate([np.zeros(100 * MS, np.float32), _vowel(300, -11.0)])
    first_loud = int(np.flatnonzero(np.abs(x) > pcm.db_to_gain(pcm.SILENCE_DBFS))[0])
    assert _start(x, pcm.trim(x)) == first_loud


def test_silence_trims_to_nothing_and_the_trim_is_deterministic_and_idempotent() -> None:
    assert len(pcm.trim(_noise(200, -70.0, seed=4))) == 0
    x = np.concatenate([_noise(50, -66.0, seed=5, low_pass_hz=200.0), _bump(-46.0),
                        _noise(20, -70.0, seed=7, low_pass_hz=200.0), _vowel(200, -9.0)])
    once = pcm.trim(x)
    assert np.array_equal(once, pcm.trim(x.copy()))
    # a clip already cut at its onset starts there again
    assert np.array_equal(pcm.trim(once), once)


def test_flite_sentences_start_at_their_speech() -> None:
    # the measured case: "Communication" started 19-20 ms before the "k"; every other sentence
    # of the default voice is cut where the silence line cut it
    from authoring.audio.backends.flite import FliteBackend

    backend = FliteBackend(load_voice("en"))
    for text, moved_ms in [("Communication system down.", (18, 22)), ("Three.", (0, 0)),
                           ("Five.", (0, 0)), ("One.", (0, 0)), ("Zone blue.", (0, 0))]:
        x = pcm.resample(*backend.synthesize(text))
        first_loud = int(np.flatnonzero(np.abs(x) > pcm.db_to_gain(pcm.SILENCE_DBFS))[0])
        start = _start(x, pcm.trim(x))
        assert moved_ms[0] <= (start - first_loud) / MS <= moved_ms[1], text


def _wav(path: Path, x: np.ndarray, rate: int) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(pcm.to_int16(x).tobytes())


@pytest.mark.parametrize("rate", [RATE, 48_000])
def test_a_recording_starts_at_its_word_not_at_a_thump_before_it(
        tmp_path: Path, rate: int) -> None:
    # recorded clip packs go through the same trim: a low thump in the room tone 25 ms before
    # the word must not delay the cue
    n = rate // 1000
    t = np.arange(int(0.4 * rate)) / rate
    word = (0.3 * np.sin(2 * math.pi * 600 * t)).astype(np.float32)
    room = np.random.default_rng(8).standard_normal(200 * n).astype(np.float32) * 0.0002
    thump = np.arange(4 * n) / rate
    room[171 * n:175 * n] += (pcm.db_to_gain(-46.0) * np.sin(2 * math.pi * 125 * thump)).astype(
        np.float32)
    pack = tmp_path / "pack"
    pack.mkdir()
    _wav(pack / "alert.wav", np.concatenate([room, word]), rate)
    (pack / "voice.yaml").write_text(
        "format: 1\nid: take\nextends: en\nbackend: clips\nsound: {radio: false}\n"
        "clips:\n  fallback: en\n  files: {alert: alert.wav}\n", encoding="utf-8")
    clip = Synthesizer(load_voice(pack)).cue_clip(Cue(0, "mission_start", "", 0, 1, {}))
    loud = np.flatnonzero(np.abs(clip) > 0.1 * float(np.max(np.abs(clip))))
    assert int(loud[0]) <= MS, f"the word is heard {int(loud[0]) / MS:.1f} ms into the clip"


def test_cutting_the_lead_moves_no_other_sound(short_mission: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    # the speech level that sets the alarm bed, static, chirp and beep is measured with the
    # leads (authoring/audio/synth.py): a render whose clips start at their first sample over
    # the silence line (as before the onset, pipeline 2) has the same level, and the same
    # samples everywhere but under the clips that moved (flite's "Communication…" here)
    timeline = compile_timeline(load_mission(short_mission))
    voice = load_voice("en")
    cut = render_timeline(timeline, voice)
    moved = {i: cut.clips[i] for i in cut.clips if "Communication" in timeline.cues[i].text}
    leads = {i: len(Synthesizer(voice).cue_spoken([timeline.cues[i]])[0].utterance) - len(clip)
             for i, clip in moved.items()}
    assert len(moved) == 2 and all(18 * MS <= n <= 22 * MS for n in leads.values()), leads
    monkeypatch.setattr(pcm, "onset", lambda x: 0)
    uncut = render_timeline(timeline, voice)
    assert uncut.speech_rms_dbfs == cut.speech_rms_dbfs
    assert all(np.array_equal(uncut.clips[i][leads[i]:], moved[i]) for i in moved)
    assert all(np.array_equal(uncut.clips[i], cut.clips[i]) for i in cut.clips if i not in moved)
    a, b = cut.track, uncut.track
    assert len(a) == len(b)
    same = np.ones(len(a), bool)
    for i in moved:
        start = timeline.cues[i].start_ms * RATE // 1000
        same[start - 100 * MS:start + len(uncut.clips[i]) + 100 * MS] = False
    assert np.array_equal(a[same], b[same]) and not np.array_equal(a, b)
