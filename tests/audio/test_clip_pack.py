"""``spacealert voices pack``: a clip pack from any voice, made online once, rendered offline.

gTTS's HTTP endpoint is mocked with ``responses`` (as in test_gtts.py): after the pack is
written the mock is emptied, so any request the render made would fail.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
import responses
from typer.testing import CliRunner

from authoring.audio import load_voice
from authoring.audio.pcm import RATE, read_wav
from authoring.audio.phrases import phrases
from authoring.cli import app
from authoring.mission import load_mission
from authoring.mission.timeline import compile_timeline
from tests.audio.test_gtts import URL, _body, _spoken_texts, fake_mp3  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
MISSION = ROOT / "missions/official/test-run-1.yaml"
runner = CliRunner()


def _needed(voice_id: str) -> set[str]:
    timeline = compile_timeline(load_mission(MISSION))
    return {f.key for f in phrases([timeline], load_voice(voice_id)) if f.key != "text"}


@responses.activate
def test_a_gtts_pack_is_made_online_once_and_renders_offline(fake_mp3: bytes,  # noqa: F811
                                                             tmp_path: Path) -> None:
    responses.add(responses.POST, URL, body=_body(fake_mp3))
    pack = tmp_path / "de-pack"
    made = runner.invoke(app, ["voices", "pack", "de-gtts", "-o", str(pack), "-m", str(MISSION),
                               "--cache-dir", str(tmp_path / "cache")])
    assert made.exit_code == 0, made.output
    needed = _needed("de-gtts")
    # one request per phrase, each in German, each phrase's own text
    spoken = _spoken_texts()
    assert {lang for lang, _ in spoken} == {"de"}
    assert sorted(text for _, text in spoken) == sorted(
        load_voice("de").phrases[k] for k in needed)
    manifest = json.loads((pack / "voice.yaml").read_text("utf-8").split("\n", 2)[2])
    assert manifest["id"] == "de-gtts-pack" and manifest["backend"] == "clips"
    assert "extends" not in manifest  # self-contained: renders wherever it is copied
    assert manifest["clips"]["fallback"] == "de"  # free texts: the offline German voice
    assert set(manifest["clips"]["files"]) == needed
    assert "Google" in manifest["licence"]
    for name in manifest["clips"]["files"].values():
        samples, rate = read_wav((pack / name).read_bytes())
        assert rate == RATE and 0.3 * RATE < len(samples) < 0.7 * RATE  # the 0.5 s tone
    assert f"de-gtts-pack: {len(needed)} phrases of 'de-gtts' written to {pack}" in made.stdout

    responses.reset()  # offline from here
    moved = tmp_path / "elsewhere" / "pack"
    shutil.copytree(pack, moved)
    checked = runner.invoke(app, ["voices", "check", str(moved), "-m", str(MISSION),
                                  "--no-listen"])
    assert checked.exit_code == 0, checked.output
    assert f"{len(needed)} of {len(needed)} phrases recorded: complete" in checked.stdout
    out = tmp_path / "m.wav"
    rendered = runner.invoke(app, ["render", str(MISSION), "--voice", str(moved), "-o",
                                   str(out), "--no-cache"])
    assert rendered.exit_code == 0, rendered.output
    assert len(responses.calls) == 0
    samples, rate = read_wav(out.read_bytes())
    assert len(samples) / rate > 300


@responses.activate
def test_after_one_online_render_the_pack_is_made_offline(fake_mp3: bytes,  # noqa: F811
                                                          tmp_path: Path) -> None:
    responses.add(responses.POST, URL, body=_body(fake_mp3))
    cache = str(tmp_path / "cache")
    first = runner.invoke(app, ["voices", "pack", "cs-gtts", "-o", str(tmp_path / "a"),
                                "-m", str(MISSION), "--cache-dir", cache])
    assert first.exit_code == 0, first.output
    responses.reset()
    again = runner.invoke(app, ["voices", "pack", "cs-gtts", "-o", str(tmp_path / "b"),
                                "-m", str(MISSION), "--cache-dir", cache])
    assert again.exit_code == 0, again.output
    assert len(responses.calls) == 0
    for name in sorted(p.name for p in (tmp_path / "a").iterdir()):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


@responses.activate
def test_a_pack_made_offline_without_the_speech_is_a_clear_error(tmp_path: Path) -> None:
    responses.add(responses.POST, URL, status=503)
    result = runner.invoke(app, ["voices", "pack", "fr-gtts", "-o", str(tmp_path / "p"),
                                 "--no-cache"])
    assert result.exit_code == 3
    assert "error: gTTS could not synthesise" in result.stderr
    assert not (tmp_path / "p" / "voice.yaml").exists()


def test_a_pack_of_an_offline_voice_is_the_same_bytes_every_time(tmp_path: Path) -> None:
    for name in ("a", "b"):
        result = runner.invoke(app, ["voices", "pack", "es", "-o", str(tmp_path / name),
                                     "-m", str(MISSION), "--no-cache", "--id", "mi-pack"])
        assert result.exit_code == 0, result.output
    files = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert len(files) == len(_needed("es")) + 1
    for name in files:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert load_voice(tmp_path / "a").id == "mi-pack"


@pytest.mark.parametrize(("arguments", "message"), [
    (["--id", "Bad Id"], "--id 'Bad Id': expected lowercase letters"),
    (["--fallback", "xx-none"], "unknown voice 'xx-none'"),
])
def test_bad_pack_options_are_usage_errors(tmp_path: Path, arguments: list[str],
                                           message: str) -> None:
    result = runner.invoke(app, ["voices", "pack", "es", "-o", str(tmp_path / "p"),
                                 *arguments])
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert not (tmp_path / "p").exists()


def test_a_pack_into_a_file_is_a_usage_error(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("x")
    result = runner.invoke(app, ["voices", "pack", "es", "-o", str(target)])
    assert result.exit_code == 2
    assert re.search(r"not a folder", result.stderr)
