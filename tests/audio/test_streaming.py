"""Streaming export: the block-by-block mix equals the whole-track mix, WAV bytes are those of
the one-piece writer, and encoded files carry tags, channels and bitrates as asked."""

from __future__ import annotations

import json
import os
import re
import subprocess
import wave
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from authoring.audio import ClipCache, RenderOptions, default_cache_dir, load_voice, sfx
from authoring.audio.export import AudioSettings, Tags, write_audio
from authoring.audio.mixer import MixPlan, Placed, mix, to_stereo_pcm16
from authoring.audio.pcm import RATE
from authoring.audio.render import Rendering, render_timeline
from authoring.cli import app
from authoring.mission import load_mission
from authoring.mission.timeline import compile_timeline

runner = CliRunner()


def _render(mission: Path, **options: bool) -> Rendering:
    timeline = compile_timeline(load_mission(mission))
    return render_timeline(timeline, load_voice("en"), cache=ClipCache(default_cache_dir()),
                           options=RenderOptions(**options))


def _whole_mix(rendering: Rendering) -> tuple[np.ndarray, float]:
    """Mixes the rendering's plan the old way: one track-long buffer, bed written in place."""
    plan = rendering.plan
    bed = None
    if plan.bed_loop is not None:
        def bed(out: np.ndarray) -> None:
            sfx.alarm_bed_into(out, rendering.speech_rms_dbfs, rendering.voice.bed_db)
    return mix(plan.placed, plan.length, bed, plan.bed_span)


@pytest.mark.parametrize("bed", [True, False])
def test_block_mix_equals_the_whole_track_mix_and_wav_keeps_its_bytes(
        short_mission: Path, tmp_path: Path, bed: bool) -> None:
    rendering = _render(short_mission, bed=bed)
    track, master = _whole_mix(rendering)
    assert np.array_equal(rendering.plan.track(), track)
    assert rendering.master_gain == master
    # the WAV the toolkit wrote before streaming: the whole stereo PCM in one writeframes
    before = tmp_path / "before.wav"
    with wave.open(str(before), "wb") as w:
        w.setnchannels(2)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(to_stereo_pcm16(track))
    streamed = tmp_path / "streamed.wav"
    write_audio(rendering, streamed, "wav")
    assert streamed.read_bytes() == before.read_bytes()


def test_a_loud_mix_gets_the_same_master_gain_block_by_block(short_mission: Path) -> None:
    rendering = _render(short_mission, bed=False)
    # every clip stacked on one spot, with a bed: the master must come down, identically
    placed = [Placed(i, rendering.timeline.cues[i], RATE, clip)
              for i, clip in rendering.clips.items()]
    # a clip that was trimmed to nothing, off any block boundary
    placed.append(Placed(0, rendering.timeline.cues[0], RATE * 2 + 5, np.zeros(0, np.float32)))
    loop = sfx.alarm_loop(rendering.speech_rms_dbfs, -10.0)
    plan = MixPlan(placed, RATE * 20, loop, (0, RATE * 15))

    def bed(out: np.ndarray) -> None:
        sfx.alarm_bed_into(out, rendering.speech_rms_dbfs, -10.0)

    track, master = mix(placed, RATE * 20, bed, (0, RATE * 15))
    assert master < 1.0
    assert plan.master == master
    assert np.array_equal(plan.track(), track)
    # blocks of another size give the same samples too
    assert np.array_equal(np.concatenate(list(plan.blocks(size=10_007))), track)


def _probe(path: Path) -> dict[str, object]:
    raw = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of",
                          "json", str(path)], capture_output=True, check=True, text=True).stdout
    data: dict[str, object] = json.loads(raw)
    return data


def _tags(info: dict[str, object]) -> dict[str, str]:
    """Returns the file's tags (format tags, or the stream's Vorbis comments), keys lowercased."""
    found: dict[str, str] = {}
    streams = info["streams"]
    assert isinstance(streams, list)
    fmt = info["format"]
    assert isinstance(fmt, dict)
    for source in (fmt.get("tags", {}), streams[0].get("tags", {})):
        found.update({k.lower(): v for k, v in source.items()})
    return found


@pytest.mark.parametrize("fmt", ["mp3", "ogg", "opus", "flac"])
def test_encoded_files_carry_title_artist_and_album(short_mission: Path, tmp_path: Path,
                                                    fmt: str) -> None:
    out = tmp_path / f"t.{fmt}"
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "--no-bed"])
    assert result.exit_code == 0, result.stderr
    tags = _tags(_probe(out))
    assert tags["title"] == "Short test track"
    assert tags["album"] == "Space Alert missions"
    assert "artist" not in tags  # the mission names no author
    # bitexact: no encoder version string that would change the bytes with ffmpeg's version
    assert re.search(rb"Lav[fc]\d", out.read_bytes()[:8192]) is None


def test_tags_name_the_author_and_keep_the_bytes_deterministic(short_mission: Path,
                                                               tmp_path: Path) -> None:
    rendering = _render(short_mission, bed=False)
    settings = AudioSettings("mp3", tags=Tags("Mission & <1>", "Ann Author", "My pack"))
    write_audio(rendering, tmp_path / "a.mp3", settings)
    write_audio(rendering, tmp_path / "b.mp3", settings)
    assert (tmp_path / "a.mp3").read_bytes() == (tmp_path / "b.mp3").read_bytes()
    tags = _tags(_probe(tmp_path / "a.mp3"))
    assert (tags["title"], tags["artist"], tags["album"]) == ("Mission & <1>", "Ann Author",
                                                              "My pack")


def test_channels_and_bitrate_set_the_size(short_mission: Path, tmp_path: Path) -> None:
    sizes = {}
    for name, extra in {"mono": [], "stereo": ["--channels", "stereo"],
                        "low": ["--bitrate", "32k"], "opus": ["-f", "opus"]}.items():
        out = tmp_path / f"{name}.out"
        result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "-f", "mp3",
                                     "--no-bed", *extra])
        assert result.exit_code == 0, result.stderr
        info = _probe(out)
        streams = info["streams"]
        assert isinstance(streams, list)
        expected = {"stereo": 2}.get(name, 1)
        assert streams[0]["channels"] == expected
        codec = "opus" if name == "opus" else "mp3"
        assert streams[0]["codec_name"] == codec
        sizes[name] = out.stat().st_size
    # 64k mono is half of 128k stereo; 32k half again; Opus at 32k about as small as that
    assert 0.45 < sizes["mono"] / sizes["stereo"] < 0.55
    assert 0.45 < sizes["low"] / sizes["mono"] < 0.55
    assert sizes["opus"] < 0.6 * sizes["mono"]


@pytest.mark.parametrize(("extra", "message"), [
    (["--bitrate", "fast"], "--bitrate expects kbit/s"),
    (["--bitrate", "999"], "out of range for MP3"),
    (["--channels", "5.1"], "--channels expects mono or stereo"),
    (["-f", "wav", "--bitrate", "64"], "WAV has no bitrate"),
])
def test_bad_audio_options_are_usage_errors(short_mission: Path, tmp_path: Path,
                                            extra: list[str], message: str) -> None:
    out = tmp_path / "x.mp3"
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), *extra])
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert not out.exists()


def test_an_ffmpeg_without_the_encoder_is_exit_3_and_leaves_nothing(
        short_mission: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    real = shutil.which("ffmpeg")
    assert real is not None
    # an ffmpeg built without libopus: the real one, asked for an encoder it does not have
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = bin_dir / "ffmpeg"
    wrapper.write_text('#!/bin/sh\nfor a; do shift; [ "$a" = libopus ] && a=libopus-absent; '
                       f'set -- "$@" "$a"; done\nexec {real} "$@"\n')
    wrapper.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    out = tmp_path / "out" / "t.opus"
    out.parent.mkdir()
    out.write_bytes(b"old")
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "--no-bed"])
    assert result.exit_code == 3, result.stderr
    assert "ffmpeg cannot write OPUS" in result.stderr and "libopus-absent" in result.stderr
    assert [p.name for p in out.parent.iterdir()] == ["t.opus"]
    assert out.read_bytes() == b"old"
