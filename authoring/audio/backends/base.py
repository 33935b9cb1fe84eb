"""The speech-backend protocol."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from authoring.audio.pcm import Samples
from authoring.errors import EnvironmentMissingError


class SynthesisError(EnvironmentMissingError):
    """A backend could not speak a text (service unreachable, engine failed) (exit 3)."""


class Backend(Protocol):
    """Speaks texts with one voice's settings."""

    def identity(self) -> Mapping[str, Any]:
        """Returns what identifies the backend's output: name, version and settings."""
        ...

    def synthesize(self, text: str) -> tuple[Samples, int]:
        """Returns the spoken ``text`` as mono float samples and their sample rate."""
        ...
