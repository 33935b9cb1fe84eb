"""Measures a 10-minute soundtrack render against a bare ffmpeg encode of the same PCM.

Run from the repository root: ``python bench/render.py [--runs 5] [--mission PATH] [--no-cold]``.

Each measurement runs in its own process (started fresh, as a user's command would be) and
its wall time, CPU time and peak memory (``os.wait4``) are recorded. Each run measures, back to
back (so a busy neighbour on a shared machine weighs on all of them alike):

* cold     — ``spacealert render`` to MP3 with an empty clip cache (every phrase synthesized);
* warm     — the same render again with the cache filled, Python started as this environment
  starts it (with ``PYTHONDONTWRITEBYTECODE=1`` every module is compiled again on every run);
* ffmpeg   — ``ffmpeg`` alone encoding the rendered PCM (read from a file) to MP3 with exactly
  the render's encoder options (``encoder_args``: codec, bitrate, channels, tags), the floor
  any MP3 render must pay;
* warm-pyc — the warm render with bytecode allowed, as on a user's install (``.pyc`` files
  kept, here in a temporary ``PYTHONPYCACHEPREFIX`` written by a warm-up run, never in the
  source tree);
* ffmpeg   — the floor again, so each render has an encode beside it;
* warm-wav — the warm render to WAV (no encoder: the toolkit's own cost).

The render streams its mix into ffmpeg while mixing, so the encoder's time hides the mix.
A long MP3 is cut into segments, each encoded by its own ffmpeg at the same time and joined
frame by frame (``authoring/audio/segmented.py``), so on two or more cores the render
can beat the floor, which one ffmpeg encodes on one core. The report gives
medians, the ratios cold, warm and warm-pyc to ffmpeg (goal: warm <= 1.0x) by wall time and by
CPU time, and the load average before and after (a figure taken under load says so).
``--channels stereo`` measures stereo files (the default MP3 is mono).
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

Sample = tuple[float, float, float]


def _run(cmd: list[str], env: dict[str, str]) -> Sample:
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


def _mono_or_stereo_pcm(wav: Path, raw: Path, channels: int) -> float:
    """Writes the WAV's PCM with ``channels`` channels to ``raw``; returns the seconds."""
    # piece by piece: a track-long buffer here would count in every child's peak RSS
    # (a forked child starts with its parent's high-water mark)
    with wave.open(str(wav)) as w, raw.open("wb") as sink:
        seconds = w.getnframes() / w.getframerate()
        while frames := w.readframes(1 << 16):
            # the WAV's two channels are identical: the left one is the mono PCM
            sink.write(frames if channels == 2 else
                       np.frombuffer(frames, "<i2")[0::2].tobytes())
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mission", type=Path,
                        default=ROOT / "missions/official/mission-1.yaml")
    parser.add_argument("--voice", default="en")
    parser.add_argument("--channels", choices=["mono", "stereo"], default=None,
                        help="channels of the MP3 (default: the render's default, mono)")
    parser.add_argument("--no-cold", action="store_true",
                        help="leave out the cold renders (the cache is filled once, unmeasured)")
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
    keys = ["cold", "warm", "warm-pyc", "warm-wav", "ffmpeg"]
    results: dict[str, list[Sample]] = {k: [] for k in keys if k != "cold" or not args.no_cold}
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="spacealert-bench-") as tmp:
        folder = Path(tmp)
        mp3, wav, raw = str(folder / "track.mp3"), folder / "track.wav", folder / "track.pcm"
        # bytecode as a user's install has it: written once by a warm-up run, outside the tree
        pyc_env = {**env, "PYTHONPYCACHEPREFIX": str(folder / "pycache")}
        pyc_env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["SPACEALERT_CACHE_DIR"] = pyc_env["SPACEALERT_CACHE_DIR"] = str(folder / "cache")
        _run([*render, "-o", str(wav)], pyc_env)  # warm-up: clips and bytecode
        seconds = _mono_or_stereo_pcm(wav, raw, channels)
        bare = ["ffmpeg", "-v", "error", "-y", "-f", "s16le", "-ar", "44100", "-ac",
                str(channels), "-i", str(raw), *encoder_args(settings), str(folder / "bare.mp3")]
        for run in range(args.runs):
            if not args.no_cold:
                cold_env = {**env, "SPACEALERT_CACHE_DIR": str(folder / f"cold-{run}")}
                results["cold"].append(_run([*mp3_render, "-o", mp3], cold_env))
            results["warm"].append(_run([*mp3_render, "-o", mp3], env))
            results["ffmpeg"].append(_run(bare, env))
            results["warm-pyc"].append(_run([*mp3_render, "-o", mp3], pyc_env))
            results["ffmpeg"].append(_run(bare, env))
            results["warm-wav"].append(_run([*render, "-o", str(wav)], env))
    load_after = os.getloadavg()

    medians = {k: (statistics.median(w for w, _, _ in v), statistics.median(c for _, c, _ in v),
                   max(m for _, _, m in v)) for k, v in results.items()}
    floor, floor_cpu = medians["ffmpeg"][0], medians["ffmpeg"][1]
    compared = [k for k in ("cold", "warm", "warm-pyc") if k in medians]
    figures = {
        "mission": str(args.mission.relative_to(ROOT) if args.mission.is_relative_to(ROOT)
                       else args.mission),
        "track_seconds": round(seconds, 1),
        "runs": args.runs,
        "mp3": f"{channels} channel(s), {' '.join(encoder_args(settings)[:4])}",
        "load_average": {"before": [round(x, 2) for x in load_before],
                         "after": [round(x, 2) for x in load_after]},
        "median_wall_s": {k: round(w, 2) for k, (w, _, _) in medians.items()},
        "median_cpu_s": {k: round(c, 2) for k, (_, c, _) in medians.items()},
        "peak_rss_mb": {k: round(m) for k, (_, _, m) in medians.items()},
        **{f"ratio_{k}_to_ffmpeg": round(medians[k][0] / floor, 2) for k in compared},
        **{f"cpu_ratio_{k}_to_ffmpeg": round(medians[k][1] / floor_cpu, 2) for k in compared},
        "all_wall_s": {k: [round(w, 2) for w, _, _ in v] for k, v in results.items()},
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['mission']}: {seconds:.0f} s of audio, {args.runs} run(s), medians; "
          f"MP3 {figures['mp3']}")
    print(f"  load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
          f"({os.cpu_count()} CPUs)")
    for key, (wall, cpu, rss) in medians.items():
        print(f"  {key:<9} wall {wall:6.2f} s   cpu {cpu:6.2f} s   peak RSS {rss:5.0f} MB")
    for key in compared:
        goal = "   (goal <= 1.0x)" if key.startswith("warm") else ""
        print(f"  {key:<8} / ffmpeg = {figures[f'ratio_{key}_to_ffmpeg']:.2f}x wall, "
              f"{figures[f'cpu_ratio_{key}_to_ffmpeg']:.2f}x cpu{goal}")


if __name__ == "__main__":
    main()
