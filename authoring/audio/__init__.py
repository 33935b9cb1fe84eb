"""Voices and soundtrack rendering: phrases, speech backends, cache, effects, mix, export.

Public entry points: ``load_voice``, ``render_timeline``, ``measure_cues`` (real lengths of a
timeline's cues for the linter), ``phrases`` (the distinct fragments a voice needs) and
``write_audio``. The package imports only ``mission``, ``errors`` and ``_resources``.

The names below are imported on first use: ``authoring.audio.export`` can then start the
encoder before numpy and the mixer are loaded (``spacealert render`` overlaps ffmpeg's start-up
with its own imports).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring._lazy import lazy_attributes

if TYPE_CHECKING:
    from authoring.audio import phrases as phrases
    from authoring.audio.cache import ClipCache, default_cache_dir
    from authoring.audio.export import FORMATS, format_for, write_audio
    from authoring.audio.render import (
        Rendering,
        RenderOptions,
        find_overlaps,
        measure_cues,
        render_timeline,
    )
    from authoring.audio.voice import DEFAULT_VOICE, Voice, bundled_voices, load_voice

#: Where each public name lives (module under ``authoring.audio``; "" for a module itself).
_HOMES = {
    "DEFAULT_VOICE": "voice", "FORMATS": "export", "ClipCache": "cache",
    "RenderOptions": "render", "Rendering": "render", "Voice": "voice",
    "bundled_voices": "voice", "default_cache_dir": "cache", "find_overlaps": "render",
    "format_for": "export", "load_voice": "voice", "measure_cues": "render", "phrases": "",
    "render_timeline": "render", "write_audio": "export",
}

__all__ = [
    "DEFAULT_VOICE",
    "FORMATS",
    "ClipCache",
    "RenderOptions",
    "Rendering",
    "Voice",
    "bundled_voices",
    "default_cache_dir",
    "find_overlaps",
    "format_for",
    "load_voice",
    "measure_cues",
    "phrases",
    "render_timeline",
    "write_audio",
]


__getattr__ = lazy_attributes(__name__, _HOMES, globals())
