"""Where speech is heard in a decoded render, cue by cue (tests/audio/test_render.py and
bench/onset.py measure it the same way)."""

from __future__ import annotations

import numpy as np

from authoring.audio.mixer import start_sample
from authoring.audio.pcm import RATE
from authoring.audio.render import Rendering
from authoring.mission.timeline import Cue

#: Heard: 10 ms in a row in which the last 5 ms stay within ``db`` (45) dB of the cue's
#: loudest 5 ms.
HEARD_DB, HEARD_WINDOW_MS, HEARD_FOR_MS = 45.0, 5, 10


def heard_after_ms(rendering: Rendering, decoded: np.ndarray,
                   db: float = HEARD_DB) -> list[tuple[Cue, float]]:
    """Returns every spoken cue with how long after its start its speech is heard (ms).

    Found in the decoded track alone, from 50 ms before the cue's start, against the cue's own
    loudest 5 ms there. 45 dB (``db``) counts the faint consonants that start words as speech
    (flite's "f", "th" and "s" as the renders keep them; bench/onset.py prints 20-60 dB side
    by side: at 20-30 dB "Five", "Four" and "Three" are heard 60-110 ms late, at their
    vowel), a click before the speech does not (under 10 ms), nor does flite's noise floor.
    The track must hold speech only: the alarm bed and the effects, which other tests check,
    would be heard first.
    """
    window = HEARD_WINDOW_MS * RATE // 1000
    energy = np.cumsum(np.square(decoded, dtype=np.float64))
    last_5_ms = energy.copy()
    last_5_ms[window:] -= energy[:-window]
    run = HEARD_FOR_MS * RATE // 1000
    found = []
    for i, clip in sorted(rendering.clips.items()):
        cue = rendering.timeline.cues[i]
        start = start_sample(cue.start_ms)
        lo = start - 50 * RATE // 1000
        level = last_5_ms[lo: start + len(clip)]
        quiet = np.concatenate([[0], np.cumsum(level <= np.max(level) * 10 ** (-db / 10))])
        heard = int(np.argmax(quiet[run:] == quiet[:-run]))  # the first run with no quiet sample
        found.append((cue, (lo + heard - start) * 1000 / RATE))
    return found
