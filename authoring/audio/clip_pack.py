"""Writes a clip pack from any voice: one WAV file for every phrase it must say, and its
``voice.yaml``.

The pack is a voice of its own (backend ``clips``): its file holds the voice's language,
phrases, sequences, sound settings and licence, not an ``extends`` line, so it renders the
same wherever it is copied, without the engine that spoke it and without the network. A pack
of an online voice (gTTS) is therefore made online once (or offline, from the speech a render
kept in the clip cache) and then shared, e.g. inside a mission pack.

Each file is the voice's raw speech of one fragment (resampled to 44.1 kHz, the silence around
it trimmed, 16-bit): the pack's ``sound`` settings (radio, loudness) are applied when it is
played, exactly once. Free announcement texts (``$text``) cannot be recorded ahead: the
``fallback`` voice speaks them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring._files import write_atomic
from authoring.audio import pcm
from authoring.audio.cache import ClipCache
from authoring.audio.phrases import Fragment, phrases
from authoring.audio.synth import Synthesizer
from authoring.audio.voice import Voice
from authoring.errors import UsageError
from authoring.mission.timeline import Timeline

MANIFEST = "voice.yaml"
GAP_MS = 120
_ID_LIMIT = 40


@dataclass(frozen=True)
class ClipPackResult:
    """What ``write_clip_pack`` wrote: the pack's folder, its voice id and its files by key."""

    folder: Path
    voice_id: str
    files: dict[str, str]


def file_name(key: str) -> str:
    """Returns the file a phrase key is recorded in (``time.3`` → ``time.3.wav``)."""
    return f"{key}.wav"


def pack_id(voice: Voice) -> str:
    """Returns the id of the pack made from ``voice`` (``de-gtts`` → ``de-gtts-pack``)."""
    return f"{voice.id[:_ID_LIMIT - 5]}-pack"


def manifest(voice: Voice, files: dict[str, str], *, voice_id: str,
             fallback: str | None) -> dict[str, Any]:
    """Returns the pack's voice file as data: everything the voice says, and its files."""
    clips: dict[str, Any] = {"gap_ms": GAP_MS, "files": files}
    if fallback is not None:
        clips = {"fallback": fallback, **clips}
    data: dict[str, Any] = {
        "format": 1, "id": voice_id, "name": f"{voice.name} (clip pack)",
        "language": voice.language, "backend": "clips"}
    if voice.licence is not None:
        data["licence"] = voice.licence
    data.update({"sound": dict(voice.sound), "joiner": voice.joiner,
                 "phrases": dict(sorted(voice.phrases.items())),
                 "sequences": {k: list(v) for k, v in sorted(voice.sequences.items())},
                 "clips": clips})
    return data


def write_clip_pack(voice: Voice, folder: Path, *, timelines: Sequence[Timeline] | None = None,
                    cache: ClipCache | None = None, fallback: str | None = None,
                    voice_id: str | None = None,
                    done: Callable[[int, int], None] | None = None) -> ClipPackResult:
    """Writes the clip pack of ``voice`` into ``folder``: a WAV file for every phrase the
    timelines need (every phrase any mission can need when None) and ``voice.yaml``.

    Each file and the manifest are written atomically; the manifest comes last, so a pack
    stopped half-way is not taken for a whole one. ``done(n, total)`` reports progress.
    """
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: not a folder (the clip pack is written into a folder)")
    needed = fragments_of(voice, timelines)
    synth = Synthesizer(voice, cache)
    folder.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for n, fragment in enumerate(needed, start=1):
        name = file_name(fragment.key)
        write_atomic(folder / name, pcm.wav_bytes(synth.raw_fragment(fragment)))
        files[fragment.key] = name
        if done is not None:
            done(n, len(needed))
    chosen_id = voice_id or pack_id(voice)
    data = manifest(voice, files, voice_id=chosen_id, fallback=fallback)
    header = (f"# Clip pack of the voice {voice.id!r}, written by `spacealert voices pack`:\n"
              f"# one recording per phrase key. JSON is YAML 1.2, so this is a voice file.\n")
    write_atomic(folder / MANIFEST,
                 header + json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return ClipPackResult(folder, chosen_id, files)


def fragments_of(voice: Voice, timelines: Sequence[Timeline] | None) -> list[Fragment]:
    """Returns the fragments a pack of ``voice`` records (free texts left to the fallback)."""
    return [f for f in phrases(timelines, voice) if f.key != "text"]
