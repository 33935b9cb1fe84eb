"""Generated sound effects (numpy, nothing downloaded): chirp, beep, static, alarm bed.

Levels are given relative to the speech RMS of the render (``ref_db``, dBFS), so the mix keeps
its proportions whatever the voice: the alarm bed sits about 30 dB under the speech as on the
CD (docs/soundtrack.md §3), static well under the speech.
"""

from __future__ import annotations

import math
import random

import numpy as np

from authoring.audio.pcm import RATE, Samples, db_to_gain

CHIRP_MS = 800
BEEP_MS = 300
BEEP_HZ = 1_000.0
STEP_S = 2.16           # one klaxon step (the CD's steps last 2.14-2.19 s)
STEP_GAINS_DB = (0.0, 3.5, 7.0, 10.5)  # swells step by step, then resets
CHIRP_DB = -3.0         # relative to the speech RMS
BEEP_DB = -3.0
STATIC_DB = -12.0


def _t(n: int) -> np.ndarray:
    return np.arange(n, dtype=np.float64) / RATE


def _fade(x: np.ndarray, ms: float) -> np.ndarray:
    n = min(len(x) // 2, int(ms * RATE / 1000))
    if n > 0:
        ramp = np.linspace(0.0, 1.0, n)
        x[:n] *= ramp
        x[-n:] *= ramp[::-1]
    return x


def _at_rms(x: np.ndarray, db: float) -> Samples:
    rms = float(np.sqrt(np.mean(np.square(x)))) or 1.0
    return np.asarray(x * (db_to_gain(db) / rms), dtype=np.float32)


def chirp(ref_db: float) -> Samples:
    """Returns the 0.8 s start chirp: three rising sweeps with their energy at 1.2-1.6 kHz."""
    sweep_n = int(0.2 * RATE)
    t = _t(sweep_n)
    f0, f1 = 1_200.0, 1_600.0
    phase = 2 * math.pi * (f0 * t + (f1 - f0) * t * t / (2 * 0.2))
    sweep = _fade(np.sin(phase), 15)
    gap = np.zeros(int(0.1 * RATE))
    x = np.concatenate([sweep, gap, sweep, gap, sweep])
    x = np.concatenate([x, np.zeros(int(CHIRP_MS * RATE / 1000) - len(x))])
    out = _at_rms(x, ref_db + CHIRP_DB)
    out[-1] = 0.0
    return out


def beep(ref_db: float) -> Samples:
    """Returns the data-transfer beep: 300 ms at 1 kHz with soft edges."""
    n = BEEP_MS * RATE // 1000
    return _at_rms(_fade(np.sin(2 * math.pi * BEEP_HZ * _t(n)), 8), ref_db + BEEP_DB)


def _moving_average(x: np.ndarray, width: int) -> np.ndarray:
    c = np.cumsum(np.concatenate([np.zeros(width), x]))
    return np.asarray((c[width:] - c[:-width]) / width)


def static(n: int, ref_db: float, seed: str) -> Samples:
    """Returns ``n`` samples of crackling radio static (seeded: the same seed, the same noise)."""
    return static_at(static_shape(n, seed), ref_db)


def static_shape(n: int, seed: str) -> np.ndarray:
    """Returns the static's waveform before its level is set (it does not depend on the level).

    The renderer builds it on another thread while the speech clips load.
    """
    rng = np.random.default_rng(random.Random(seed).getrandbits(64))
    noise = rng.standard_normal(n)
    # band-limit with two moving averages (≈ 400 Hz - 5 kHz): cheap, and no scipy import
    band = _moving_average(noise, 4) - _moving_average(noise, 55)
    # crackle: the level wanders at a few hertz
    slow = rng.standard_normal(n // 2_000 + 2)
    envelope = np.interp(np.arange(n) / 2_000, np.arange(len(slow)), 0.7 + 0.3 * np.tanh(slow))
    return _fade(band * envelope, 30)


def static_at(shape: np.ndarray, ref_db: float) -> Samples:
    """Returns a ``static_shape`` at its level under the speech RMS ``ref_db``."""
    return _at_rms(shape, ref_db + STATIC_DB)


def klaxon_cycle() -> Samples:
    """Returns one cycle of the alarm bed: four klaxon steps, each louder, at unit RMS."""
    step_n = int(STEP_S * RATE)
    tone_n = int(1.1 * RATE)
    t = _t(tone_n)
    # a two-tone horn: 440 → 550 Hz whoop, square-ish through odd harmonics
    freq = 440.0 + 110.0 * np.minimum(t / 0.6, 1.0)
    phase = 2 * math.pi * np.cumsum(freq) / RATE
    tone = sum(np.sin(k * phase) / k for k in (1, 3, 5, 7))
    tone = _fade(np.asarray(tone, dtype=np.float64), 40)
    steps = []
    for gain_db in STEP_GAINS_DB:
        step = np.zeros(step_n)
        step[:tone_n] = tone * db_to_gain(gain_db)
        steps.append(step)
    cycle = np.concatenate(steps)
    return _at_rms(cycle, 0.0)


def alarm_bed(n: int, ref_db: float, bed_db: float) -> Samples:
    """Returns ``n`` samples of the looping alarm bed at ``bed_db`` under the speech RMS."""
    out = np.empty(n, np.float32)
    alarm_bed_into(out, ref_db, bed_db)
    return out


def alarm_loop(ref_db: float, bed_db: float) -> Samples:
    """Returns one cycle of the alarm bed at ``bed_db`` under the speech RMS (it loops)."""
    return np.asarray(klaxon_cycle() * np.float32(db_to_gain(ref_db + bed_db)), np.float32)


def alarm_bed_into(out: Samples, ref_db: float, bed_db: float) -> None:
    """Fills ``out`` with the looping alarm bed (the samples ``alarm_bed`` returns), in place.

    The mixer writes the bed straight into the track this way: no track-long bed array.
    """
    loop_into(out, alarm_loop(ref_db, bed_db), 0)


def loop_into(out: Samples, cycle: Samples, offset: int) -> None:
    """Fills ``out`` with ``cycle`` looped, starting ``offset`` samples into the loop."""
    n, period = len(out), len(cycle)
    at = offset % period
    done = 0
    while done < n:
        take = min(n - done, period - at)
        out[done:done + take] = cycle[at:at + take]
        done += take
        at = 0
