"""A content-addressed cache of synthesized speech clips.

The key is the sha256 of everything that affects a clip's samples (backend, its version, the
voice settings, the sound processing and the text). An entry holds the processed utterance (a
16-bit WAV) and its lead, the samples before the speech onset that the clip leaves out
(``Spoken``), under a checksum of both, so a truncated or altered file is detected, deleted
and rebuilt. Writes go to a temporary file
in the cache's ``tmp`` folder and are moved into place with ``os.replace``, so a reader never
sees half an entry, even with two renders running at once; the first use of the cache in a
command removes the temporary files there of renders that were killed (``authoring._files``).

The cache only ever saves time: a folder that cannot be used (a file in its place, a read-only
or full disk, an entry that is a folder or holds no WAV) makes the clip be built and used
without caching, and ``warning`` says once what went wrong. The samples are the same either way.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
import wave
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring._files import sweep_leftovers, write_atomic
from authoring.audio.pcm import Samples, read_wav, wav_bytes
from authoring.errors import AuthoringError

ENV_VAR = "SPACEALERT_CACHE_DIR"
MAGIC = b"SACLIP2\n"  # 2: the lead before the WAV (pipeline 4)
_DIGEST = 32
_LEAD = struct.Struct("<Q")


@dataclass(frozen=True)
class Spoken:
    """A processed utterance and where its speech starts.

    ``utterance`` runs from the voice's first sample over the silence line
    (``pcm.trim_silence``); ``lead`` samples of it come before the speech onset
    (``pcm.onset``): a bump of a noise floor, left out of the clip the renderer places
    (``clip``) but measured with the rest, so that where a clip starts never changes how loud
    it or the render around it is (``authoring/audio/synth.py``).
    """

    utterance: Samples
    lead: int = 0

    @property
    def clip(self) -> Samples:
        """Returns the utterance from its speech onset on (what is placed at a cue's start)."""
        return self.utterance[self.lead:]


def default_cache_dir() -> Path:
    """Returns ``$SPACEALERT_CACHE_DIR`` or the platform's user cache folder for clips."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("spacealert-authoring")) / "clips"


def temp_folder(root: Path) -> Path:
    """Returns where writes into the cache ``root`` (clips and encoded files) are staged."""
    return root / "tmp"


def cache_key(recipe: Mapping[str, Any]) -> str:
    """Returns the sha256 hex key of a clip recipe (stable JSON of its ingredients)."""
    text = json.dumps(recipe, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass
class CacheStats:
    """Counts of what a cache did during a run."""

    hits: int = 0
    misses: int = 0
    corrupted: int = 0
    unwritten: int = 0  # clips that could not be stored


class ClipCache:
    """Clips stored by key under ``folder`` (two-level fan-out: ``ab/abcdef….clip``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.stats = CacheStats()
        self._problem: str | None = None
        self._writable = True
        self._swept = False

    @property
    def warning(self) -> str | None:
        """Returns one line about the cache faults met (None when the cache worked)."""
        if self._problem is None:
            return None
        skipped = (f"; {self.stats.unwritten} clip(s) rendered without caching"
                   if self.stats.unwritten else "")
        return f"clip cache {self.folder}: {self._problem}{skipped}"

    def _fault(self, what: str) -> None:
        if self._problem is None:
            self._problem = what

    def path(self, key: str) -> Path:
        """Returns where the entry ``key`` lives."""
        return self.folder / key[:2] / f"{key}.clip"

    def _sweep(self) -> None:
        # a render killed while storing a clip left its temporary file: the first run that
        # uses the cache, even one that only reads it, removes it
        if not self._swept:
            self._swept = True
            sweep_leftovers(temp_folder(self.folder), ".part")

    def get(self, key: str) -> Spoken | None:
        """Returns the cached clip, or ``None`` on a miss or a corrupted entry (then deleted)."""
        self._sweep()
        path = self.path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            self.stats.misses += 1
            return None
        payload = blob[len(MAGIC) + _DIGEST:]
        ok = (blob.startswith(MAGIC)
              and blob[len(MAGIC):len(MAGIC) + _DIGEST] == hashlib.sha256(payload).digest())
        spoken: Spoken | None = None
        if ok:
            try:
                (lead,) = _LEAD.unpack_from(payload)
                samples, _ = read_wav(payload[_LEAD.size:])
                spoken = Spoken(samples, lead) if lead <= len(samples) else None
            except (EOFError, ValueError, OSError, wave.Error, struct.error):
                pass  # a valid checksum over something that is not a lead and a 16-bit WAV
            ok = spoken is not None
        if not ok:
            self.stats.corrupted += 1
            self.stats.misses += 1
            try:
                path.unlink(missing_ok=True)
                self._fault(f"damaged entry {path.name} was rebuilt")
            except OSError as error:
                self._fault(f"cannot remove the damaged entry {path.name}: {_reason(error)}")
            return None
        self.stats.hits += 1
        return spoken

    def put(self, key: str, spoken: Spoken) -> None:
        """Stores a clip atomically (temp file in the ``tmp`` folder, then ``os.replace``).

        A clip that cannot be stored is simply not cached (see ``warning``); after a fault of
        the folder itself (not a folder, read-only, full) no further write is tried.
        """
        if not self._writable:
            self.stats.unwritten += 1
            return
        path = self.path(key)
        payload = _LEAD.pack(spoken.lead) + wav_bytes(spoken.utterance)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_dir():
                raise IsADirectoryError(21, "a folder stands where the entry belongs")
            write_atomic(path, MAGIC + hashlib.sha256(payload).digest() + payload,
                         temp_folder(self.folder))
        except (OSError, AuthoringError) as error:
            self.stats.unwritten += 1
            self._fault(f"cannot store clips ({_reason(error)})")
            # a folder in an entry's place or a file in a shard's place spoils that clip only;
            # anything else (no folder, read-only, full) would fail for every clip
            if not isinstance(error, (IsADirectoryError, FileExistsError)):
                self._writable = False

    def speech_path(self, key: str) -> Path:
        """Returns where the raw speech ``key`` of an online backend lives."""
        return self.folder / "speech" / key[:2] / f"{key}.bin"

    def get_speech(self, key: str) -> bytes | None:
        """Returns the raw speech stored under ``key`` (e.g. gTTS's MP3), or None on a miss or
        a damaged entry (then deleted, so that it is fetched again)."""
        self._sweep()
        path = self.speech_path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            return None
        payload = blob[_DIGEST:]
        if blob[:_DIGEST] == hashlib.sha256(payload).digest():
            return payload
        try:
            path.unlink(missing_ok=True)
            self._fault(f"damaged speech entry {path.name} was fetched again")
        except OSError as error:
            self._fault(f"cannot remove the damaged speech entry {path.name}: {_reason(error)}")
        return None

    def put_speech(self, key: str, data: bytes) -> None:
        """Stores raw speech atomically; a speech entry that cannot be stored is not cached."""
        if not self._writable:
            return
        path = self.speech_path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, hashlib.sha256(data).digest() + data, temp_folder(self.folder))
        except (OSError, AuthoringError) as error:
            self._fault(f"cannot store speech ({_reason(error)})")


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        where = f": {error.filename}" if error.filename else ""
        return f"{error.strerror or error}{where}"
    return str(error).split(": ")[-1]
