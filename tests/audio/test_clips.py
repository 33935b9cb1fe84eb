"""Clip packs: recorded fragments, fallback for missing ones, and `voices check`."""

from __future__ import annotations

import math
import wave
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from authoring.audio import load_voice
from authoring.audio.pcm import RATE
from authoring.audio.phrases import Fragment
from authoring.audio.synth import Synthesizer
from authoring.cli import app
from authoring.errors import InvalidInputError
from authoring.mission.timeline import Cue

runner = CliRunner()
TONES = {"alert": 600.0, "repeat": 900.0, "zone.red": 1_300.0}


def _tone(path: Path, hz: float, rate: int = 22_050, channels: int = 1) -> None:
    t = np.arange(int(0.4 * rate)) / rate
    x = (0.3 * np.sin(2 * math.pi * hz * t) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(np.repeat(x, channels).tobytes())


def _pack(folder: Path, *, fallback: bool = True) -> Path:
    folder.mkdir()
    _tone(folder / "alert.wav", TONES["alert"])
    _tone(folder / "repeat.wav", TONES["repeat"], rate=48_000, channels=2)
    _tone(folder / "zone-red.wav", TONES["zone.red"])
    (folder / "voice.yaml").write_text(
        "format: 1\nid: my-pack\nextends: en\nbackend: clips\n"
        "sound: {radio: false}\n"
        "clips:\n" + ("  fallback: en\n" if fallback else "") +
        "  gap_ms: 100\n"
        "  files: {alert: alert.wav, repeat: repeat.wav, zone.red: zone-red.wav, "
        "count.5: five.ogg}\n", encoding="utf-8")
    return folder


def _dominant_hz(x: np.ndarray) -> float:
    spectrum = np.abs(np.fft.rfft(x))
    return float(np.argmax(spectrum) * RATE / len(x))


def test_recorded_fragments_are_used_in_order_with_the_fallback_between(tmp_path: Path) -> None:
    voice = load_voice(_pack(tmp_path / "pack"))
    assert voice.backend == "clips" and voice.clips is not None
    cue = Cue(0, "threat", "", 0, 1, {"turn": 3, "zone": "red", "serious": False})
    clip = Synthesizer(voice).cue_clip(cue)
    # "alert" opens the announcement: the recorded 600 Hz tone, resampled from 22.05 kHz
    assert abs(_dominant_hz(clip[: int(0.35 * RATE)]) - TONES["alert"]) < 5
    # then the fallback voice speaks "Time T plus three." after the 100 ms gap
    gap = clip[int(0.42 * RATE): int(0.49 * RATE)]
    assert float(np.max(np.abs(gap))) < 1e-3
    assert abs(_dominant_hz(clip[int(0.52 * RATE): int(0.9 * RATE)]) - TONES["alert"]) > 50
    repeat_only = Synthesizer(voice).cue_clip(Cue(0, "count", "", 0, 1, {"n": 4}))
    assert len(repeat_only) > 0


def test_voices_check_lists_the_missing_recordings(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack")
    result = runner.invoke(app, ["voices", "check", str(pack), "--no-listen"])
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "missing: time.3\tTime T plus three." in lines
    # listed in the manifest, but no file: the line names the file
    assert f"missing: count.5\tFive.\tlisted file not found: {pack / 'five.ogg'}" in lines
    assert not any(line.startswith("missing: alert\t") for line in lines)
    assert lines[-1].startswith("my-pack: 3 of ")
    assert lines[-1].endswith("spoken by the fallback voice 'en'")


def test_voices_check_for_one_mission(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pack")
    mission = Path(__file__).resolve().parents[2] / "missions/official/test-run-1.yaml"
    result = runner.invoke(app, ["voices", "check", str(pack), "--mission", str(mission),
                                 "--no-listen"])
    assert result.exit_code == 0, result.stderr
    assert "missing: time.1\tTime T plus one." in result.stdout
    assert "missing: time.8" not in result.stdout


def test_a_pack_without_fallback_reports_what_is_missing(tmp_path: Path,
                                                        short_mission: Path) -> None:
    pack = _pack(tmp_path / "pack", fallback=False)
    check = runner.invoke(app, ["voices", "check", str(pack)])
    assert check.exit_code == 1
    assert "missing and no fallback voice" in check.stderr
    render = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "a.wav"),
                                 "--voice", str(pack)])
    assert render.exit_code == 1
    assert "clip pack 'my-pack' has no recording for" in render.stderr
    (pack / "zone-red.wav").unlink()
    with pytest.raises(InvalidInputError) as refused:
        Synthesizer(load_voice(pack)).recipe([Fragment("zone.red", "Zone red.")])
    assert f"lists {pack / 'zone-red.wav'} for 'zone.red'" in refused.value.message
    assert "clips.fallback" in render.stderr


def test_render_with_a_clip_pack(tmp_path: Path, short_mission: Path) -> None:
    pack = _pack(tmp_path / "pack")
    out = tmp_path / "pack.wav"
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "--voice",
                                 str(pack), "--no-bed"])
    assert result.exit_code == 0, result.stderr
    with wave.open(str(out)) as w:
        assert (w.getframerate(), w.getnchannels(), w.getsampwidth()) == (RATE, 2, 2)
        frames = np.frombuffer(w.readframes(w.getnframes()), "<i2")[::2] / 32768.0
    threat = frames[10 * RATE: int(10.35 * RATE)]
    assert abs(_dominant_hz(threat) - TONES["alert"]) < 5


@pytest.mark.parametrize("missing", ["alert.wav"])
def test_a_listed_file_that_is_not_there_falls_back(tmp_path: Path, missing: str) -> None:
    pack = _pack(tmp_path / "pack")
    (pack / missing).unlink()
    voice = load_voice(pack)
    clip = Synthesizer(voice).cue_clip(Cue(0, "mission_start", "", 0, 1, {}))
    assert abs(_dominant_hz(clip[: int(0.3 * RATE)]) - TONES["alert"]) > 50


def test_recordings_in_other_formats_are_read_through_ffmpeg(tmp_path: Path) -> None:
    import subprocess

    pack = _pack(tmp_path / "pack")
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                    "sine=frequency=700:duration=0.4", "-ar", "48000", "-c:a", "pcm_f32le",
                    str(pack / "float.wav")], check=True)
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                    "sine=frequency=1100:duration=0.4", "-c:a", "libvorbis",
                    str(pack / "data.ogg")], check=True)
    manifest = (pack / "voice.yaml").read_text("utf-8").replace(
        "alert: alert.wav", "alert: float.wav, incoming_data: data.ogg")
    (pack / "voice.yaml").write_text(manifest, encoding="utf-8")
    voice = load_voice(pack)
    alert = Synthesizer(voice).cue_clip(Cue(0, "mission_start", "", 0, 1, {}))
    assert abs(_dominant_hz(alert[: int(0.3 * RATE)]) - 700) < 5
    data = Synthesizer(voice).cue_clip(Cue(0, "incoming_data", "", 0, 1, {}))
    assert abs(_dominant_hz(data[: int(0.3 * RATE)]) - 1_100) < 5
