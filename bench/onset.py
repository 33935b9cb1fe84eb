"""Measures where speech is heard in a decoded render, cue by cue, against the timeline.

Run from the repository root::

    nice python bench/onset.py [--voice en] [--voice en-espeak] [--mission PATH]
                               [--format mp3|wav] [--db 20 --db 45 ...] [--cues] [--clips]

The mission (default: official mission 1) is rendered with speech only (no alarm bed, no
effects), written in the format, decoded by ffmpeg, and for every spoken cue the time from the
cue's start to where its speech is first heard is printed: the first 10 ms in a row in which the
last 5 ms stay within ``--db`` dB of the cue's loudest 5 ms (the same measure as
tests/audio/test_render.py, at several thresholds: 20 dB finds the first vowel, 55-60 dB the
faint consonants before it). Figures per threshold: median, maximum, and how many cues are heard
within 10 and 20 ms. ``--cues`` lists every cue; ``--clips`` also measures each voice's raw
output (before any processing): where its first sample over -50 dBFS is, how loud its noise
floor is before it, and where its speech is, in the radio band (200-7000 Hz) and out of it.
Clips are cached in a private folder per run (cold: every clip is synthesized).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from authoring.audio import ClipCache, RenderOptions, load_voice, render_timeline  # noqa: E402
from authoring.audio.export import AudioSettings, write_audio  # noqa: E402
from authoring.audio.pcm import RATE  # noqa: E402
from authoring.audio.phrases import cue_fragments  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.mission.timeline import compile_timeline  # noqa: E402
from tests.audio.onsets import heard_after_ms  # noqa: E402

WINDOW_MS = 5  # the level window of the clip report (the same as the onset measure's)


def decode(path: Path) -> np.ndarray:
    """Returns an audio file decoded by ffmpeg as mono float samples at 44.1 kHz."""
    raw = subprocess.run(
        ["ffmpeg", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "1", "-ar", "44100",
         "-"], capture_output=True, check=True).stdout
    return np.frombuffer(raw, "<i2").astype(np.float32) / 32768.0


def level_db(x: np.ndarray, ms: int, rate: int) -> np.ndarray:
    """Returns the level (dBFS) of the last ``ms`` ms at every sample."""
    n = ms * rate // 1000
    energy = np.concatenate([[0.0], np.cumsum(np.square(x, dtype=np.float64))])
    last = energy[n:] - energy[:-n]
    return np.asarray(10 * np.log10(np.maximum(last / n, 1e-20)))


def clip_report(voice_id: str, texts: list[str]) -> None:
    """Prints what precedes the speech in the voice's raw output, text by text."""
    from scipy.signal import butter, sosfilt

    from authoring.audio import pcm
    from authoring.audio.backends import make_backend
    from authoring.audio.backends.flite import _SENTENCE_END

    backend = make_backend(load_voice(voice_id))
    sentences = sorted({s for t in texts for s in _SENTENCE_END.split(t.strip()) if s})
    print(f"{voice_id}: raw output, sentence by sentence; times from the first sample over "
          "-50 dBFS (ms); floor: loudest 5 ms before it (dBFS), full band / radio band")
    for sentence in sentences:
        x, rate = backend.synthesize(sentence)
        x = pcm.resample(x, rate)
        loud = np.flatnonzero(np.abs(x) > pcm.db_to_gain(pcm.SILENCE_DBFS))
        if loud.size == 0:
            continue
        first = int(loud[0])
        sos = butter(4, [200.0, 7000.0], btype="bandpass", fs=RATE, output="sos")
        band = sosfilt(sos, x.astype(np.float64))
        full, radio = level_db(x, WINDOW_MS, RATE), level_db(band, WINDOW_MS, RATE)
        n = WINDOW_MS * RATE // 1000
        before = slice(0, max(1, first - n))
        peak = float(np.max(full))
        marks = []
        for under in (30, 45, 55, 60):
            at = int(np.argmax(full > peak - under)) + n
            marks.append(f"{under}dB {(at - first) * 1000 / RATE:+6.1f}")
        for dbfs in (-60, -65, -70):
            at = int(np.argmax(radio > dbfs)) + n
            marks.append(f"band>{dbfs} {(at - first) * 1000 / RATE:+6.1f}")
        print(f"  {sentence[:30]:30s} lead {first * 1000 / RATE:6.1f} floor "
              f"{np.max(full[before]):6.1f}/{np.max(radio[before]):6.1f} peak {peak:5.1f}  "
              + "  ".join(marks))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voice", action="append", help="voice (repeatable; default en)")
    parser.add_argument("--mission", type=Path,
                        default=ROOT / "missions/official/mission-1.yaml")
    parser.add_argument("--format", default="mp3", choices=("mp3", "wav"))
    parser.add_argument("--db", type=float, action="append",
                        help="threshold under the cue's loudest 5 ms (repeatable)")
    parser.add_argument("--cues", action="store_true", help="list every cue")
    parser.add_argument("--clips", action="store_true", help="measure the raw voice output")
    args = parser.parse_args()
    thresholds = args.db or [20.0, 30.0, 45.0, 55.0, 60.0]
    timeline = compile_timeline(load_mission(args.mission))
    for voice_id in args.voice or ["en"]:
        with tempfile.TemporaryDirectory(prefix="spacealert-onset-") as scratch:
            rendering = render_timeline(timeline, load_voice(voice_id),
                                        cache=ClipCache(Path(scratch) / "cache"),
                                        options=RenderOptions(bed=False, effects=False))
            out = Path(scratch) / f"speech.{args.format}"
            write_audio(rendering, out, AudioSettings(args.format, None, None))
            decoded = decode(out)
        rows = {db: [ms for _, ms in heard_after_ms(rendering, decoded, db)]
                for db in thresholds}
        print(f"{voice_id}, {args.mission.name} as {args.format}: "
              f"{len(rendering.clips)} spoken cues")
        for db, ms in rows.items():
            print(f"  within {db:4.0f} dB: median {statistics.median(ms):6.1f} ms, "
                  f"min {min(ms):6.1f}, max {max(ms):6.1f}, "
                  f"within 10 ms {sum(m <= 10 for m in ms):2d}, "
                  f"within 20 ms {sum(m <= 20 for m in ms):2d}")
        if args.cues:
            for n, i in enumerate(sorted(rendering.clips)):
                cue = rendering.timeline.cues[i]
                figures = " ".join(f"{rows[db][n]:6.1f}" for db in thresholds)
                print(f"    {cue.start_ms:7d} {cue.kind:16s} {figures}  {cue.text[:40]}")
        if args.clips:
            voice = load_voice(voice_id)
            clip_report(voice_id, [voice.joiner.join(f.text for f in cue_fragments(
                rendering.timeline.cues[i], voice)) for i in rendering.clips])


if __name__ == "__main__":
    main()
