"""The gTTS backend: Google Translate's speech, online; its MP3s are decoded with ffmpeg.

Every text it speaks is kept as the MP3 the service sent, in the clip cache (``speech/``, keyed
by language, domain, pace and text, not by gTTS's version or the sound processing): once a
mission was rendered online, it renders again offline, with any sound settings, and
``spacealert voices pack`` can write the phrases into a clip pack without the network.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from importlib import metadata
from typing import Any

from authoring.audio.backends.base import SynthesisError
from authoring.audio.cache import ClipCache, cache_key
from authoring.audio.pcm import Samples, from_int
from authoring.audio.tools import require_program
from authoring.audio.voice import Voice
from authoring.errors import EnvironmentMissingError

TIMEOUT_S = 20


class GttsBackend:
    """Speaks through the gTTS package (needs network access and ffmpeg)."""

    def __init__(self, voice: Voice, cache: ClipCache | None = None) -> None:
        self.cache = cache
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
        """Returns ``text`` spoken by Google Translate, or as it said it before (from the
        cache); raises ``SynthesisError`` when it must be asked and cannot be reached."""
        key = cache_key({"gtts": self.settings, "text": text})
        kept = self.cache.get_speech(key) if self.cache is not None else None
        if kept is not None:
            return decode_mp3(kept)
        data = self._fetch(text)
        decoded = decode_mp3(data)  # only speech ffmpeg can decode is kept
        if self.cache is not None:
            self.cache.put_speech(key, data)
        return decoded

    def _fetch(self, text: str) -> bytes:
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
                hint="gTTS needs internet access to Google Translate once per phrase; render "
                     "offline with an offline voice (`spacealert voices list`), or with a clip "
                     "pack made online once (`spacealert voices pack`)") from None
        return buffer.getvalue()


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
