"""Measures a 10-minute soundtrack render against a bare ffmpeg encode of the same PCM.

Run from the repository root: ``python bench/render.py [--runs 3] [--mission PATH]``.

Each measurement runs in its own process (started fresh, as a user's command would be) and
its wall time and peak memory (``ru_maxrss`` from ``os.wait4``) are recorded:

* cold  — ``spacealert render`` to MP3 with an empty clip cache (every phrase synthesized);
* warm  — the same render again with the cache filled;
* warm-wav — the warm render to WAV (no encoder: the toolkit's own cost);
* ffmpeg — ``ffmpeg`` alone encoding the rendered PCM (read from a file) to MP3 with exactly
  the render's encoder options (``encoder_args``: codec, bitrate, channels, tags), the floor
  any MP3 render must pay.

The render streams its mix into ffmpeg while mixing, so the encoder's time hides the mix. The
report gives medians and the ratios cold/ffmpeg and warm/ffmpeg (goal: warm <= 1.0x), by wall
time and by CPU time (steadier on a shared machine). ``--channels stereo`` measures stereo
files (the default MP3 is mono).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import wave
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from authoring.audio.export import AudioSettings, Tags, encoder_args  # noqa: E402
from authoring.mission import load_mission  # noqa: E402


def _run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Returns (wall seconds, CPU seconds, peak RSS in MB) of one process."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    stderr = proc.stderr.read().decode() if proc.stderr else ""
    if proc.stderr:
        proc.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{stderr}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mission", type=Path,
                        default=ROOT / "missions/official/mission-1.yaml")
    parser.add_argument("--voice", default="en")
    parser.add_argument("--channels", choices=["mono", "stereo"], default=None,
                        help="channels of the MP3 (default: the render's default, mono)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    mission = load_mission(args.mission)
    settings = AudioSettings("mp3", {"mono": 1, "stereo": 2}.get(args.channels or ""),
                             tags=Tags(title=mission.title, artist=mission.author))
    channels = settings.out_channels

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    render = [sys.executable, "-m", "authoring", "render", str(args.mission), "--voice",
              args.voice]
    mp3_render = [*render, *(["--channels", args.channels] if args.channels else [])]
    results: dict[str, list[tuple[float, float, float]]] = {
        "cold": [], "warm": [], "warm-wav": [], "ffmpeg": []}
    with tempfile.TemporaryDirectory(prefix="spacealert-bench-") as tmp:
        folder = Path(tmp)
        for run in range(args.runs):
            cache = folder / f"cache-{run}"
            env["SPACEALERT_CACHE_DIR"] = str(cache)
            mp3 = str(folder / "track.mp3")
            wav = folder / "track.wav"
            results["cold"].append(_run([*mp3_render, "-o", mp3], env))
            results["warm"].append(_run([*mp3_render, "-o", mp3], env))
            results["warm-wav"].append(_run([*render, "-o", str(wav)], env))
            raw = folder / "track.pcm"
            # piece by piece: a track-long buffer here would count in every child's peak RSS
            # (a forked child starts with its parent's high-water mark)
            with wave.open(str(wav)) as w, raw.open("wb") as sink:
                seconds = w.getnframes() / w.getframerate()
                while frames := w.readframes(1 << 16):
                    # the WAV's two channels are identical: the left one is the mono PCM
                    sink.write(frames if channels == 2 else
                               np.frombuffer(frames, "<i2")[0::2].tobytes())
            results["ffmpeg"].append(_run(
                ["ffmpeg", "-v", "error", "-y", "-f", "s16le", "-ar", "44100", "-ac",
                 str(channels), "-i", str(raw), *encoder_args(settings),
                 str(folder / "bare.mp3")], env))

    medians = {k: (statistics.median(w for w, _, _ in v), statistics.median(c for _, c, _ in v),
                   max(m for _, _, m in v)) for k, v in results.items()}
    floor, floor_cpu = medians["ffmpeg"][0], medians["ffmpeg"][1]
    figures = {
        "mission": str(args.mission.relative_to(ROOT) if args.mission.is_relative_to(ROOT)
                       else args.mission),
        "track_seconds": round(seconds, 1),
        "runs": args.runs,
        "mp3": f"{channels} channel(s), {' '.join(encoder_args(settings)[:4])}",
        "median_wall_s": {k: round(w, 2) for k, (w, _, _) in medians.items()},
        "median_cpu_s": {k: round(c, 2) for k, (_, c, _) in medians.items()},
        "peak_rss_mb": {k: round(m) for k, (_, _, m) in medians.items()},
        "ratio_cold_to_ffmpeg": round(medians["cold"][0] / floor, 2),
        "ratio_warm_to_ffmpeg": round(medians["warm"][0] / floor, 2),
        "cpu_ratio_cold_to_ffmpeg": round(medians["cold"][1] / floor_cpu, 2),
        "cpu_ratio_warm_to_ffmpeg": round(medians["warm"][1] / floor_cpu, 2),
        "all_wall_s": {k: [round(w, 2) for w, _, _ in v] for k, v in results.items()},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['mission']}: {seconds:.0f} s of audio, {args.runs} run(s), medians; "
          f"MP3 {figures['mp3']}")
    for key, (wall, cpu, rss) in medians.items():
        print(f"  {key:<9} wall {wall:6.2f} s   cpu {cpu:6.2f} s   peak RSS {rss:5.0f} MB")
    print(f"  cold / ffmpeg = {figures['ratio_cold_to_ffmpeg']:.2f}x wall, "
          f"{figures['cpu_ratio_cold_to_ffmpeg']:.2f}x cpu")
    print(f"  warm / ffmpeg = {figures['ratio_warm_to_ffmpeg']:.2f}x wall, "
          f"{figures['cpu_ratio_warm_to_ffmpeg']:.2f}x cpu   (goal <= 1.0x)")


if __name__ == "__main__":
    main()
