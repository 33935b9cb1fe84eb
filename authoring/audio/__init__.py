"""Voices and soundtrack rendering: phrases, speech backends, cache, effects, mix, export.

Public entry points: ``load_voice``, ``render_timeline``, ``measure_cues`` (real lengths of a
timeline's cues for the linter), ``phrases`` (the distinct fragments a voice needs) and
``write_audio``. The package imports only ``mission``, ``errors`` and ``_resources``.
"""

from __future__ import annotations

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
