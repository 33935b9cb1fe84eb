"""The Festival backend: Debian's festival with a Czech voice, decoded and checked."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from authoring.audio import load_voice
from authoring.audio.backends import SynthesisError, make_backend
from authoring.audio.pcm import RATE
from authoring.audio.synth import Synthesizer
from authoring.cli import app
from authoring.errors import EnvironmentMissingError
from authoring.mission.timeline import Cue

runner = CliRunner()


def _voice(tmp_path: Path, settings: str, name: str = "czech_machac") -> Path:
    path = tmp_path / "festival.yaml"
    path.write_text(f"format: 1\nid: cs-test\nextends: cs\nbackend: festival\n"
                    f"settings: {{voice: {name}, {settings}}}\n", encoding="utf-8")
    return path


def test_festival_speaks_czech_the_same_every_time(tmp_path: Path) -> None:
    voice = load_voice(_voice(tmp_path, "encoding: iso-8859-2"))
    backend = make_backend(voice)
    x, rate = backend.synthesize("Čas T plus čtyři. Vážná hrozba.")
    y, _ = backend.synthesize("Čas T plus čtyři. Vážná hrozba.")
    assert rate == 32_000
    assert 1.5 < len(x) / rate < 4.0
    assert np.array_equal(x, y)
    assert float(np.sqrt(np.mean(x ** 2))) > 0.01
    identity = backend.identity()
    assert identity["backend"] == "festival" and identity["voice"] == "czech_machac"
    assert identity["version"].startswith("2.")


def test_the_czech_voice_reads_iso_8859_2_not_utf8(tmp_path: Path) -> None:
    # read as UTF-8 the voice spells out the bytes of every accented letter: a longer line
    text = "Příchozí data. Čtyři."
    latin2 = make_backend(load_voice(_voice(tmp_path, "encoding: iso-8859-2")))
    utf8 = make_backend(load_voice(_voice(tmp_path, "encoding: utf-8")))
    assert len(utf8.synthesize(text)[0]) > 1.3 * len(latin2.synthesize(text)[0])


def test_duration_stretch_slows_festival_down(tmp_path: Path) -> None:
    own = make_backend(load_voice(_voice(tmp_path, "duration_stretch: 1.0")))
    slow = make_backend(load_voice(_voice(tmp_path, "duration_stretch: 1.3")))
    text = "Zóna červená."
    assert len(slow.synthesize(text)[0]) > 1.15 * len(own.synthesize(text)[0])


def test_an_unknown_festival_voice_names_its_package(tmp_path: Path) -> None:
    backend = make_backend(load_voice(_voice(tmp_path, "pitch: 40", "czech_nobody")))
    with pytest.raises(SynthesisError) as caught:
        backend.synthesize("Poplach.")
    assert caught.value.message == "Festival has no voice 'czech_nobody'"
    assert caught.value.hint == "apt-get install festvox-czech-nobody"


def test_a_letter_the_voice_cannot_read_is_a_clear_error(tmp_path: Path) -> None:
    backend = make_backend(load_voice(_voice(tmp_path, "pitch: 40")))
    with pytest.raises(SynthesisError) as caught:
        backend.synthesize("Zóna 红.")
    assert "cannot read '红' in 'Zóna 红.': not in iso-8859-2" in caught.value.message


def test_without_festival_it_is_a_missing_piece(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(EnvironmentMissingError) as caught:
        make_backend(load_voice(_voice(tmp_path, "pitch: 40")))
    assert caught.value.exit_code == 3
    assert "apt-get install festival festvox-czech-machac" in (caught.value.hint or "")
    mission = Path(__file__).resolve().parents[2] / "missions/official/test-run-1.yaml"
    result = runner.invoke(app, ["render", str(mission), "-o", str(tmp_path / "a.wav"),
                                 "--voice", str(tmp_path / "festival.yaml"), "--no-cache"])
    assert result.exit_code == 3, result.output
    assert "text2wave is not installed" in result.stderr


def test_a_festival_cue_is_a_processed_clip(tmp_path: Path) -> None:
    voice = load_voice(_voice(tmp_path, "pitch: 40"))
    clip = Synthesizer(voice).cue_clip(Cue(0, "comms_down", "", 0, 1, {"seconds": 10}))
    assert 1.0 < len(clip) / RATE < 4.0
