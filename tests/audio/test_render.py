"""Rendering: sample-accurate onsets after encoding, determinism, levels, overlaps, captions."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from scipy.signal import correlate
from typer.testing import CliRunner

from authoring.audio import (
    ClipCache,
    RenderOptions,
    default_cache_dir,
    load_voice,
    render_timeline,
    write_audio,
)
from authoring.audio.export import AudioSettings
from authoring.audio.mixer import start_sample
from authoring.audio.pcm import RATE, rms_dbfs
from authoring.audio.render import Rendering
from authoring.cli import app
from authoring.mission import load_mission
from authoring.mission.timeline import Cue, compile_timeline
from tests.audio.onsets import heard_after_ms

runner = CliRunner()
TOLERANCE = 5 * RATE // 1000  # ±5 ms


def _render(mission: Path, **options: bool) -> Rendering:
    timeline = compile_timeline(load_mission(mission))
    return render_timeline(timeline, load_voice("en"), cache=ClipCache(default_cache_dir()),
                           options=RenderOptions(**options))


def _onset_errors(rendering: Rendering,
                  decoded: np.ndarray) -> list[tuple[str, int, int, float]]:
    """Returns (kind, start_ms, error in samples, peak correlation) of every placed clip.

    The onset is found independently of the mixer: the first 300 ms of the cue's own clip is
    cross-correlated with the decoded file within ±50 ms of where the timeline says it starts.
    """
    search = 50 * RATE // 1000
    found = []
    clips = dict(rendering.clips)
    for i, cue in enumerate(rendering.timeline.cues):
        if cue.kind in ("chirp", "transfer_beep"):
            from authoring.audio import sfx

            ref_db = rendering.speech_rms_dbfs
            clips[i] = sfx.chirp(ref_db) if cue.kind == "chirp" else sfx.beep(ref_db)
        if i not in clips:
            continue
        reference = clips[i][: 300 * RATE // 1000].astype(np.float64)
        expected = start_sample(cue.start_ms)
        lo = max(0, expected - search)
        window = decoded[lo: expected + search + len(reference)].astype(np.float64)
        scores = correlate(window, reference, mode="valid", method="fft")
        power = np.concatenate([[0.0], np.cumsum(window ** 2)])
        energy = np.sqrt(np.maximum(power[len(reference):] - power[: -len(reference)], 0.0))
        normalised = scores / (energy * np.linalg.norm(reference) + 1e-12)
        best = int(np.argmax(normalised))
        found.append((cue.kind, cue.start_ms, lo + best - expected, float(normalised[best])))
    return found


@pytest.mark.parametrize(("fmt", "channels", "bitrate"), [
    ("wav", None, None), ("mp3", None, None), ("ogg", None, None), ("opus", None, None),
    ("mp3", 2, 128), ("opus", 1, 16), ("wav", 1, None)])
def test_every_cue_starts_within_5_ms_of_the_timeline_after_decoding(
        short_mission: Path, tmp_path: Path, fmt: str, channels: int | None,
        bitrate: int | None, decode: Callable[[Path], np.ndarray]) -> None:
    rendering = _render(short_mission, bed=False)
    out = tmp_path / f"track.{fmt}"
    # the rendering itself is the source: mixed block by block into the encoder
    write_audio(rendering, out, AudioSettings(fmt, channels, bitrate))
    decoded = decode(out)
    assert abs(len(decoded) - len(rendering.track)) <= 2_048
    onsets = _onset_errors(rendering, decoded)
    assert len(onsets) == len([c for c in rendering.timeline.cues if c.kind != "static"])
    for kind, start_ms, error, score in onsets:
        assert score > 0.7, f"{kind} at {start_ms} ms not found (correlation {score:.2f})"
        assert abs(error) <= TOLERANCE, f"{kind} at {start_ms} ms is off by {error} samples"


def test_a_misplaced_clip_would_be_caught(short_mission: Path) -> None:
    # the onset check itself: shifting the track by 10 ms must fail it
    rendering = _render(short_mission, bed=False)
    shifted = np.concatenate([np.zeros(441, np.float32), rendering.track])
    errors = [abs(e) for _, _, e, _ in _onset_errors(rendering, shifted)]
    assert min(errors) >= 441 - 2


#: Where each spoken cue must be heard: within 10 ms of its start, a median of at most 3 ms.
HEARD_MAX_MS, HEARD_MEDIAN_MS = 10.0, 3.0


def _assert_heard_on_time(heard: list[tuple[Cue, float]]) -> None:
    late = [f"{cue.kind} at {cue.start_ms} ms is heard {ms:.1f} ms after it"
            for cue, ms in heard if not -5.0 <= ms <= HEARD_MAX_MS]
    assert late == []
    assert float(np.median([ms for _, ms in heard])) <= HEARD_MEDIAN_MS


@pytest.mark.parametrize("voice", ["en", "en-espeak"])
@pytest.mark.parametrize("fmt", ["wav", "mp3"])
def test_speech_is_heard_from_each_cue_start_after_decoding(
        short_mission: Path, tmp_path: Path, fmt: str, voice: str,
        decode: Callable[[Path], np.ndarray]) -> None:
    # the onsets above find each clip where it was placed; this finds where its speech is
    # heard, which is later when a clip carries anything before its speech
    # (docs/soundtrack.md §4: cues start to the millisecond)
    timeline = compile_timeline(load_mission(short_mission))
    rendering = render_timeline(timeline, load_voice(voice), cache=ClipCache(default_cache_dir()),
                                options=RenderOptions(bed=False, effects=False))
    out = tmp_path / f"speech.{fmt}"
    write_audio(rendering, out, AudioSettings(fmt, None, None))
    heard = heard_after_ms(rendering, decode(out))
    assert len(heard) == len([c for c in rendering.timeline.cues if c.speech])
    _assert_heard_on_time(heard)


def test_speech_heard_late_would_be_caught(short_mission: Path) -> None:
    # the check itself: the same track 15 ms later must be heard 15 ms late, cue by cue
    rendering = _render(short_mission, bed=False, effects=False)
    on_time = heard_after_ms(rendering, rendering.track)
    late = heard_after_ms(rendering, np.concatenate([np.zeros(15 * RATE // 1000, np.float32),
                                                      rendering.track]))
    for (cue, a), (_, b) in zip(on_time, late, strict=True):
        assert abs(b - a - 15.0) <= 0.1, cue.kind


def test_wav_renders_are_byte_identical_cold_and_warm(short_mission: Path, tmp_path: Path) -> None:
    outputs = []
    for n, extra in enumerate([["--no-cache"], ["--cache-dir", str(tmp_path / "c")],
                               ["--cache-dir", str(tmp_path / "c")]]):
        out = tmp_path / f"run{n}.wav"
        result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), *extra])
        assert result.exit_code == 0, result.stderr
        outputs.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    assert "cache 0 hit(s)" not in result.stderr  # the third run was served by the cache


@pytest.mark.parametrize("fmt", ["mp3", "ogg", "opus", "flac"])
def test_encoded_exports_are_reproducible(short_mission: Path, tmp_path: Path, fmt: str) -> None:
    rendering = _render(short_mission)
    first, second = tmp_path / f"a.{fmt}", tmp_path / f"b.{fmt}"
    write_audio(rendering, first, fmt)
    write_audio(rendering.pcm16_stereo(), second, fmt)  # streamed or in one piece: same bytes
    assert first.read_bytes() == second.read_bytes()


def test_levels_speech_stands_30_db_above_the_alarm_bed(
        short_mission: Path, tmp_path: Path, decode: Callable[[Path], np.ndarray]) -> None:
    rendering = _render(short_mission)
    out = tmp_path / "levels.mp3"
    write_audio(rendering.pcm16_stereo(), out, "mp3")
    decoded = decode(out)[: len(rendering.track)]
    busy = np.zeros(len(decoded), bool)
    speech = np.zeros(len(decoded), bool)
    guard = RATE // 2
    for c in rendering.cues:
        a, b = start_sample(c.start_ms), start_sample(c.end_ms)
        busy[max(0, a - guard): b + guard] = True
        if c.text:
            speech[a:b] = True
    bed_span = (start_sample(10_000), start_sample(rendering.timeline.phases_ms[-1]))
    quiet = ~busy
    quiet[: bed_span[0]] = False
    quiet[bed_span[1]:] = False
    assert quiet.sum() > 30 * RATE  # enough bed to measure
    gap = rms_dbfs(decoded[speech]) - rms_dbfs(decoded[quiet])
    assert 27.0 <= gap <= 33.0, f"speech is {gap:.1f} dB above the bed"
    assert -22.0 <= rms_dbfs(decoded[speech]) <= -14.0  # the CD's speech RMS range


def test_master_never_clips_even_when_everything_is_loud(short_mission: Path) -> None:
    rendering = _render(short_mission, allow_overlap=True)
    assert float(np.max(np.abs(rendering.track))) <= 10 ** (-1 / 20) + 1e-6
    # stack every clip on one spot: the master must be scaled, not clipped
    from authoring.audio.mixer import Placed, mix

    placed = [Placed(i, rendering.timeline.cues[i], 0, clip)
              for i, clip in rendering.clips.items()]
    track, gain = mix(placed, RATE * 12)
    assert gain < 1.0
    assert float(np.max(np.abs(track))) <= 10 ** (-1 / 20) + 1e-6


def test_start_chirp_energy_sits_between_1_2_and_1_6_khz() -> None:
    from authoring.audio import sfx

    x = sfx.chirp(-18.0).astype(np.float64)
    spectrum = np.abs(np.fft.rfft(x)) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / RATE)
    band = spectrum[(freqs >= 1_150) & (freqs <= 1_650)].sum()
    assert band / spectrum.sum() > 0.9
    assert len(x) == sfx.CHIRP_MS * RATE // 1000


def test_static_is_ducked_under_speech_and_the_bed_stops(short_mission: Path) -> None:
    rendering = _render(short_mission)
    comms = next(c for c in rendering.cues if c.kind == "comms_down")
    static = next(c for c in rendering.cues if c.kind == "static")
    track = rendering.track
    during_speech = track[start_sample(comms.start_ms): start_sample(comms.end_ms)]
    static_only = track[start_sample(comms.end_ms) + RATE // 4:
                        start_sample(static.end_ms) - RATE // 4]
    speech_clip = rendering.clips[rendering.timeline.cues.index(
        next(c for c in rendering.timeline.cues if c.kind == "comms_down"))]
    assert rms_dbfs(speech_clip) - rms_dbfs(static_only) >= 10.0
    # under the speech the static is another 12 dB down, so the speech dominates
    residual = during_speech[: len(speech_clip)] - speech_clip[: len(during_speech)]
    assert rms_dbfs(residual) <= rms_dbfs(static_only) - 10.0


def test_overlapping_announcements_are_refused_naming_both(tmp_path: Path) -> None:
    mission = tmp_path / "clash.yaml"
    mission.write_text(
        "format: 1\nid: clash\ntitle: Clash\nprofile: test-run\nplayers: 5\n"
        'phases: ["1:30", "2:45"]\nevents:\n'
        '  - {at: "0:10", threat: {turn: 1, zone: red}}\n'
        '  - {at: "0:13", incoming_data: {}}\n', encoding="utf-8")
    out = tmp_path / "clash.wav"
    result = runner.invoke(app, ["render", str(mission), "-o", str(out)])
    assert result.exit_code == 1
    assert "threat at 0:10.000" in result.stderr
    assert "incoming_data starts at 0:13.000" in result.stderr
    assert "--allow-overlap" in result.stderr
    assert not out.exists()

    result = runner.invoke(app, ["render", str(mission), "-o", str(out), "--allow-overlap"])
    assert result.exit_code == 0, result.stderr
    assert "warning: speech overlaps: threat at 0:10.000" in result.stderr
    assert out.stat().st_size > 44


def test_captions_carry_the_spoken_text_and_real_ends(short_mission: Path,
                                                      tmp_path: Path) -> None:
    out = tmp_path / "cap.wav"
    for fmt in ("vtt", "srt", "json"):
        result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "--voice",
                                     "de", "--captions", fmt, "--no-bed"])
        assert result.exit_code == 0, result.stderr
        assert result.stdout.splitlines() == [str(out), str(out.with_suffix(f".{fmt}"))]
    vtt = out.with_suffix(".vtt").read_text("utf-8")
    assert vtt.startswith("WEBVTT\n")
    assert "00:00:10.000 --> 00:00:1" in vtt
    assert "Zeit T plus eins. Ernsthafte Bedrohung in Zone Rot." in vtt
    srt = out.with_suffix(".srt").read_text("utf-8")
    assert "00:00:10,000 --> " in srt and "Datenübertragung." in srt
    data = json.loads(out.with_suffix(".json").read_text("utf-8"))
    assert data["language"] == "de"
    kinds = [c["kind"] for c in data["cues"]]
    assert {"chirp", "transfer_beep", "static", "threat", "count"} <= set(kinds)
    static = next(c for c in data["cues"] if c["kind"] == "static")
    assert (static["start_ms"], static["end_ms"]) == (120_000, 130_000)
    threat = next(c for c in data["cues"] if c["kind"] == "threat")
    assert 5_000 < threat["end_ms"] - threat["start_ms"] < 15_000


def test_default_output_is_the_mission_id_in_the_current_folder(
        short_mission: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "here"
    work.mkdir()
    monkeypatch.chdir(work)
    result = runner.invoke(app, ["render", str(short_mission), "--format", "wav"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == "short-test.wav"
    assert sorted(p.name for p in work.iterdir()) == ["short-test.wav"]  # no temp files left
    # silent when not a terminal: only the summary line on stderr, no progress bar
    assert result.stderr.strip().startswith("rendered short-test with voice en")
    assert len(result.stderr.strip().splitlines()) == 1


def test_format_comes_from_the_suffix_or_is_a_usage_error(short_mission: Path, tmp_path: Path,
                                                          scratch: Path) -> None:
    out = tmp_path / "track.flac"
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "--no-bed",
                                 "--no-cache"])
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes()[:4] == b"fLaC"
    assert list(scratch.iterdir()) == []  # no temporary file is left
    bad = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "x.aiff")])
    assert bad.exit_code == 2
    assert "expected a suffix or --format among mp3, ogg, opus, wav, flac" in bad.stderr
    unknown = runner.invoke(app, ["render", str(short_mission), "-f", "xyz"])
    assert unknown.exit_code == 2
    assert "unknown audio format 'xyz' (--format): expected one of mp3" in unknown.stderr
    assert "x.mp3" not in unknown.stderr  # no made-up file name in the message


def test_an_existing_file_is_replaced_only_when_the_render_succeeds(tmp_path: Path) -> None:
    mission = tmp_path / "clash.yaml"
    mission.write_text(
        "format: 1\nid: clash\ntitle: Clash\nprofile: test-run\nplayers: 5\n"
        'phases: ["1:30", "2:45"]\nevents:\n'
        '  - {at: "0:10", threat: {turn: 1, zone: red}}\n'
        '  - {at: "0:12", incoming_data: {}}\n', encoding="utf-8")
    out = tmp_path / "keep.wav"
    out.write_bytes(b"precious")
    result = runner.invoke(app, ["render", str(mission), "-o", str(out)])
    assert result.exit_code == 1
    assert out.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["clash.yaml", "keep.wav", "scratch"]


@pytest.mark.parametrize("suffix", ["mp3", "wav"])
def test_a_mission_the_checks_refuse_stops_the_early_encoder_and_leaves_no_file(
        tmp_path: Path, suffix: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # id and title are readable, so the encoder starts before the checks; phase 2 ends before
    # phase 1 and an event has no time: the file's own problems, exit 1, nothing written
    mission = tmp_path / "bad.yaml"
    mission.write_text(
        "format: 1\nid: bad-one\ntitle: Bad\nprofile: test-run\n"
        'phases: ["2:45", "1:30"]\nevents:\n  - {threat: {turn: 1, zone: red}}\n',
        encoding="utf-8")
    out = tmp_path / f"keep.{suffix}"
    out.write_bytes(b"precious")
    result = runner.invoke(app, ["render", str(mission), "-o", str(out)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {mission}:")
    assert "'at'" in result.stderr
    assert out.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", f"keep.{suffix}",
                                                          "scratch"]
    # without -o the name comes from the id: no bad-one.<suffix> and no temporary file either
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["render", str(mission), "--format", suffix])
    assert result.exit_code == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml", f"keep.{suffix}",
                                                          "scratch"]


def test_missing_ffmpeg_is_exit_3_with_an_install_hint(
        short_mission: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    real = shutil.which
    monkeypatch.setattr(shutil, "which", lambda name, *a, **k: None if name == "ffmpeg"
                        else real(name, *a, **k))
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "a.mp3")])
    assert result.exit_code == 3
    assert "ffmpeg is not installed" in result.stderr
    assert "apt-get install ffmpeg" in result.stderr
    # WAV needs no ffmpeg
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "a.wav")])
    assert result.exit_code == 0, result.stderr


@pytest.mark.parametrize(("voice", "program"), [(None, "flite"), ("en-espeak", "espeak-ng")])
def test_a_missing_speech_program_is_exit_3_with_an_install_hint(
        short_mission: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        voice: str | None, program: str) -> None:
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    chosen = [] if voice is None else ["--voice", voice]
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(tmp_path / "a.wav"),
                                 "--no-cache", *chosen])
    assert result.exit_code == 3
    assert f"{program} is not installed" in result.stderr
    assert f"apt-get install {program}" in result.stderr
    assert result.stdout == ""


def test_players_4_drops_the_unconfirmed_report(short_mission: Path, tmp_path: Path) -> None:
    out = tmp_path / "four.wav"
    result = runner.invoke(app, ["render", str(short_mission), "-o", str(out), "--players", "4",
                                 "--captions", "json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.with_suffix(".json").read_text("utf-8"))
    assert [c["start_ms"] for c in data["cues"] if c["kind"] == "threat"] == [10_000]
    assert data["players"] == 4


@pytest.mark.slow
def test_official_mission_1_renders_to_mp3(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        decode: Callable[[Path], np.ndarray]) -> None:
    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["render", str(root / "missions/official/mission-1.yaml"),
                                 "-o", "mission-1.mp3"])
    assert result.exit_code == 0, result.stderr
    decoded = decode(tmp_path / "mission-1.mp3")
    assert math.isclose(len(decoded) / RATE, 604.7, abs_tol=2.0)
    assert float(np.max(np.abs(decoded))) < 1.0


@pytest.mark.slow
@pytest.mark.parametrize("voice", ["en", "en-espeak"])
def test_official_mission_1_speech_is_heard_from_each_cue_start(
        voice: str, tmp_path: Path, decode: Callable[[Path], np.ndarray]) -> None:
    # the track of issue #30, 72 spoken cues, as an mp3 (bench/onset.py prints the figures)
    root = Path(__file__).resolve().parents[2]
    timeline = compile_timeline(load_mission(root / "missions/official/mission-1.yaml"))
    rendering = render_timeline(timeline, load_voice(voice), cache=ClipCache(default_cache_dir()),
                                options=RenderOptions(bed=False, effects=False))
    out = tmp_path / "speech.mp3"
    write_audio(rendering, out, AudioSettings("mp3", None, None))
    heard = heard_after_ms(rendering, decode(out))
    assert len(heard) == 72
    _assert_heard_on_time(heard)


def test_the_mission_language_chooses_the_default_voice(short_mission: Path,
                                                        tmp_path: Path) -> None:
    german = tmp_path / "german.yaml"
    german.write_text(short_mission.read_text("utf-8").replace("language: en", "language: de"),
                      encoding="utf-8")
    out = tmp_path / "de.wav"
    result = runner.invoke(app, ["render", str(german), "-o", str(out), "--captions", "srt"])
    assert result.exit_code == 0, result.stderr
    assert "with voice de:" in result.stderr
    assert "Feindliche Aktivität entdeckt." in out.with_suffix(".srt").read_text("utf-8")
