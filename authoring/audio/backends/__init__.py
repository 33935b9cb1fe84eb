"""Speech backends: each turns a text into samples for one voice's settings.

Backends are created lazily through ``make_backend`` so that an optional one (gTTS, piper) is
imported only when a voice uses it, and a missing program or package is reported with an
install hint (exit 3).
"""

from __future__ import annotations

from authoring.audio.backends.base import Backend, SynthesisError
from authoring.audio.cache import ClipCache
from authoring.audio.voice import Voice

__all__ = ["Backend", "SynthesisError", "make_backend"]


def make_backend(voice: Voice, cache: ClipCache | None = None) -> Backend:
    """Returns the speech backend of a TTS voice (espeak-ng, flite, festival, gtts or piper).

    An online backend (gtts) keeps each text's raw speech in ``cache``, so that what it once
    said is said again offline.
    """
    if voice.backend == "espeak-ng":
        from authoring.audio.backends.espeak import EspeakBackend

        return EspeakBackend(voice)
    if voice.backend == "flite":
        from authoring.audio.backends.flite import FliteBackend

        return FliteBackend(voice)
    if voice.backend == "festival":
        from authoring.audio.backends.festival import FestivalBackend

        return FestivalBackend(voice)
    if voice.backend == "gtts":
        from authoring.audio.backends.gtts import GttsBackend

        return GttsBackend(voice, cache)
    if voice.backend == "piper":
        from authoring.audio.backends.piper import PiperBackend

        return PiperBackend(voice)
    raise ValueError(f"voice {voice.id!r}: backend {voice.backend!r} does not synthesize text")
