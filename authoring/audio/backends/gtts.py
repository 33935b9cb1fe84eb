"""The gTTS backend: Google Translate's speech, online only; its MP3s are decoded with ffmpeg."""

from __future__ import annotations

import io
from collections.abc import Mapping
from importlib import metadata
from typing import Any

from authoring.audio.backends.base import SynthesisError
from authoring.audio.pcm import Samples, from_int
from authoring.audio.tools import require_program
from authoring.audio.voice import Voice
from authoring.errors import EnvironmentMissingError

TIMEOUT_S = 20


class GttsBackend:
    """Speaks through the gTTS package (needs network access and ffmpeg)."""

    def __init__(self, voice: Voice) -> None:
        try:
            import gtts  # noqa: F401
        except ImportError:
            raise EnvironmentMissingError(
                f"the voice {voice.id!r} needs the gTTS package",
                hint="pip install gTTS") from None
        require_program("ffmpeg", f"to decode the speech of the voice {voice.id!r}")
        settings = voice.settings
        self.settings = {
            "lang": str(settings.get("lang", voice.language)),
            "tld": str(settings.get("tld", "com")),
            "slow": bool(settings.get("slow", False)),
        }

    def identity(self) -> Mapping[str, Any]:
        """Returns the gTTS version and the settings (the cache key's backend part)."""
        return {"backend": "gtts", "version": metadata.version("gTTS"), **self.settings}

    def synthesize(self, text: str) -> tuple[Samples, int]:
        """Returns ``text`` spoken by Google Translate (raises ``SynthesisError`` offline)."""
        import requests
        from gtts import gTTS, gTTSError

        buffer = io.BytesIO()
        try:
            gTTS(text, lang=self.settings["lang"], tld=self.settings["tld"],
                 slow=self.settings["slow"], lang_check=False,
                 timeout=TIMEOUT_S).write_to_fp(buffer)
        except (gTTSError, requests.RequestException) as error:
            raise SynthesisError(
                f"gTTS could not synthesise {text[:40]!r}: {error}",
                hint="gTTS needs internet access to Google Translate; render offline with "
                     "--voice en (espeak-ng)") from None
        return decode_mp3(buffer.getvalue())


def decode_mp3(data: bytes) -> tuple[Samples, int]:
    """Returns the samples of MP3 bytes (decoded by ffmpeg through pydub)."""
    from pydub import AudioSegment
    from pydub.exceptions import CouldntDecodeError

    try:
        seg = AudioSegment.from_file(io.BytesIO(data), format="mp3")
    except CouldntDecodeError as error:
        raise SynthesisError(f"the speech service returned audio ffmpeg cannot decode: "
                             f"{str(error).splitlines()[0]}") from None
    return from_int(seg.raw_data, seg.sample_width, seg.channels), int(seg.frame_rate)
