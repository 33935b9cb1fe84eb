"""The gTTS backend, tested offline: its HTTP endpoint is mocked with ``responses``."""

from __future__ import annotations

import base64
import json
import re
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, unquote

import numpy as np
import pytest
import responses
from typer.testing import CliRunner

from authoring.audio import ClipCache, bundled_voices, load_voice
from authoring.audio.backends import SynthesisError, make_backend
from authoring.audio.pcm import RATE
from authoring.audio.synth import Synthesizer
from authoring.cli import app
from authoring.mission.timeline import Cue

runner = CliRunner()
URL = re.compile(r"https://translate\.google\.[a-z.]+/_/TranslateWebserverUi/data/batchexecute")


@pytest.fixture(scope="module")
def fake_mp3(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Returns half a second of a 440 Hz tone as a 24 kHz mono MP3 (what gTTS would send)."""
    out = tmp_path_factory.mktemp("gtts") / "fake.mp3"
    subprocess.run(["ffmpeg", "-v", "error", "-f", "lavfi", "-i",
                    "sine=frequency=440:duration=0.5", "-ar", "24000", "-ac", "1", "-b:a", "32k",
                    str(out)], check=True)
    return out.read_bytes()


def _body(mp3: bytes) -> str:
    b64 = base64.b64encode(mp3).decode()
    return ')]}\'\n\n123\n[["wrb.fr","jQ1olc","[\\"' + b64 + '\\"]",null,null,null,"generic"]]\n'


@responses.activate
def test_gtts_speech_is_decoded_resampled_and_normalised(fake_mp3: bytes) -> None:
    responses.add(responses.POST, URL, body=_body(fake_mp3))
    voice = load_voice("en-gtts")
    x, rate = make_backend(voice).synthesize("Zone red.")
    assert rate == 24_000
    assert 0.45 < len(x) / rate < 0.65
    clip = Synthesizer(voice).cue_clip(Cue(0, "comms_down", "", 0, 1, {"seconds": 10}))
    spectrum = np.abs(np.fft.rfft(clip))
    peak_hz = np.argmax(spectrum) * RATE / len(clip)
    assert abs(peak_hz - 440) < 10
    assert len(responses.calls) == 2
    sent = responses.calls[1].request.body
    text = unquote(sent.decode() if isinstance(sent, bytes) else str(sent))
    assert "Communication system down." in text


@responses.activate
def test_gtts_clips_are_cached(fake_mp3: bytes, tmp_path: Path) -> None:
    responses.add(responses.POST, URL, body=_body(fake_mp3))
    cue = Cue(0, "comms_restored", "", 0, 1, {})
    Synthesizer(load_voice("en-gtts"), ClipCache(tmp_path)).cue_clip(cue)
    Synthesizer(load_voice("en-gtts"), ClipCache(tmp_path)).cue_clip(cue)
    assert len(responses.calls) == 1


@responses.activate
def test_network_failure_is_a_clear_error() -> None:
    # no mocked answer: responses refuses the connection, as an offline machine would
    with pytest.raises(SynthesisError) as caught:
        make_backend(load_voice("en-gtts")).synthesize("Zone red.")
    assert "gTTS could not synthesise 'Zone red.'" in caught.value.message
    assert "internet access" in (caught.value.hint or "")


@responses.activate
def test_render_with_gtts_offline_exits_3(tmp_path: Path) -> None:
    responses.add(responses.POST, URL, status=503)
    mission = Path(__file__).resolve().parents[2] / "missions/official/test-run-1.yaml"
    result = runner.invoke(app, ["render", str(mission), "-o", str(tmp_path / "a.wav"),
                                 "--voice", "en-gtts", "--no-cache"])
    assert result.exit_code == 3
    assert "error: gTTS could not synthesise" in result.stderr
    assert "`spacealert voices pack`" in result.stderr
    assert not (tmp_path / "a.wav").exists()


def _spoken_texts() -> list[tuple[str, str]]:
    """Returns (language, text) of every text sent to the mocked service, in order: the form
    field ``f.req`` is JSON holding gTTS's own JSON request ``[text, lang, …]``."""
    found = []
    for call in responses.calls:
        body = call.request.body
        form = parse_qs(body.decode() if isinstance(body, bytes) else str(body))
        inner = json.loads(json.loads(form["f.req"][0])[0][0][1])
        found.append((str(inner[1]), str(inner[0])))
    return found


def test_every_bundled_language_has_a_gtts_voice() -> None:
    voices = [load_voice(name) for name in bundled_voices()]
    languages = {v.language for v in voices}
    online = {v.language: v for v in voices if v.backend == "gtts"}
    assert set(online) == languages == {"en", "de", "fr", "es", "pl", "cs", "zh"}
    for language, voice in online.items():
        assert voice.id == f"{language}-gtts"
        assert voice.phrases == load_voice(language).phrases
        assert "Google" in (voice.licence or "")


@responses.activate
@pytest.mark.parametrize(("voice_id", "lang", "words"), [
    ("de-gtts", "de", "Zeit T plus vier."), ("cs-gtts", "cs", "Čas T plus čtyři."),
    ("zh-gtts", "zh-CN", "时间T加四。")])
def test_a_gtts_voice_asks_in_its_own_language(fake_mp3: bytes, voice_id: str, lang: str,
                                               words: str) -> None:
    responses.add(responses.POST, URL, body=_body(fake_mp3))
    cue = Cue(0, "threat", "", 0, 1, {"turn": 4, "zone": "red"})
    clip = Synthesizer(load_voice(voice_id)).cue_clip(cue)
    assert len(clip) > RATE // 4
    spoken = _spoken_texts()
    assert {language for language, _ in spoken} == {lang}
    assert words in " ".join(text for _, text in spoken)


@responses.activate
def test_what_gtts_said_once_is_said_again_offline_with_other_sound_settings(
        fake_mp3: bytes, tmp_path: Path) -> None:
    import dataclasses

    responses.add(responses.POST, URL, body=_body(fake_mp3))
    cue = Cue(0, "comms_restored", "", 0, 1, {})
    voice = load_voice("de-gtts")
    radio = Synthesizer(voice, ClipCache(tmp_path)).cue_clip(cue)
    asked = len(responses.calls)
    assert asked >= 1
    responses.reset()  # offline from here: any request fails
    dry = dataclasses.replace(voice, sound={**voice.sound, "radio": False})
    plain = Synthesizer(dry, ClipCache(tmp_path)).cue_clip(cue)
    assert len(responses.calls) == 0
    assert len(plain) == len(radio) and not np.array_equal(plain, radio)
    # a damaged entry is asked for again (here offline: the service's error), not decoded
    (entry,) = (tmp_path / "speech").rglob("*.bin")
    entry.write_bytes(entry.read_bytes()[:-100])
    with pytest.raises(SynthesisError) as caught:
        make_backend(voice, ClipCache(tmp_path)).synthesize(voice.phrases["comms_restored"])
    assert "gTTS could not synthesise" in caught.value.message
    assert not entry.exists()

