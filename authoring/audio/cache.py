"""A content-addressed cache of synthesized speech clips.

The key is the sha256 of everything that affects a clip's samples (backend, its version, the
voice settings, the sound processing and the text). Each entry holds a checksum of its payload,
so a truncated or altered file is detected, deleted and rebuilt. Writes go to a temporary file
in the same folder and are moved into place with ``os.replace``, so a reader never sees half an
entry, even with two renders running at once.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring.audio.pcm import Samples, read_wav, wav_bytes

ENV_VAR = "SPACEALERT_CACHE_DIR"
MAGIC = b"SACLIP1\n"
_DIGEST = 32


def default_cache_dir() -> Path:
    """Returns ``$SPACEALERT_CACHE_DIR`` or the platform's user cache folder for clips."""
    override = os.environ.get(ENV_VAR)
    if override:
        return Path(override)
    import platformdirs

    return Path(platformdirs.user_cache_dir("spacealert-authoring")) / "clips"


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


class ClipCache:
    """Clips stored by key under ``folder`` (two-level fan-out: ``ab/abcdef….clip``)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)
        self.stats = CacheStats()

    def path(self, key: str) -> Path:
        """Returns where the entry ``key`` lives."""
        return self.folder / key[:2] / f"{key}.clip"

    def get(self, key: str) -> Samples | None:
        """Returns the cached clip, or ``None`` on a miss or a corrupted entry (then deleted)."""
        path = self.path(key)
        try:
            blob = path.read_bytes()
        except OSError:
            self.stats.misses += 1
            return None
        payload = blob[len(MAGIC) + _DIGEST:]
        ok = (blob.startswith(MAGIC)
              and blob[len(MAGIC):len(MAGIC) + _DIGEST] == hashlib.sha256(payload).digest())
        if ok:
            try:
                samples, _ = read_wav(payload)
            except (EOFError, ValueError, OSError):
                ok = False
        if not ok:
            self.stats.corrupted += 1
            self.stats.misses += 1
            path.unlink(missing_ok=True)
            return None
        self.stats.hits += 1
        return samples

    def put(self, key: str, samples: Samples) -> None:
        """Stores a clip atomically (temp file in the same folder, then ``os.replace``)."""
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = wav_bytes(samples)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{key[:12]}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(MAGIC + hashlib.sha256(payload).digest() + payload)
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
