"""Loads voices: a speech backend, its settings and the phrase templates of one language.

A voice file (``voices/<id>.yaml`` or a folder holding ``voice.yaml``) is validated by
``schemas/voice.schema.json``. A voice may ``extends`` another one: it inherits the parent's
phrases, sequences, settings and sound, and overrides any of them key by key.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from authoring._resources import data_dir
from authoring.errors import InvalidInputError, UsageError
from authoring.mission import load_document
from authoring.mission.load import plain_data
from authoring.mission.model import Announcement, Mission
from authoring.mission.timecode import format_clock

DEFAULT_VOICE = "en"
DEFAULT_SOUND: Mapping[str, Any] = {"radio": False, "loudness_lufs": -18.0, "bed_db": -30.0}


@dataclass(frozen=True)
class ClipPack:
    """The recorded files of a ``clips`` voice: a manifest of phrase key → file."""

    folder: Path
    files: Mapping[str, str]
    fallback: str | None = None
    gap_ms: int = 120

    def path(self, key: str) -> Path | None:
        """Returns the recorded file for ``key``, or ``None`` when the pack has none on disk."""
        name = self.files.get(key)
        if name is None:
            return None
        path = self.folder / name
        return path if path.is_file() else None

    def absent_file(self, key: str) -> Path | None:
        """Returns the file the manifest lists for ``key`` when it is not on disk, else None."""
        name = self.files.get(key)
        if name is None:
            return None
        path = self.folder / name
        return None if path.is_file() else path


@dataclass(frozen=True)
class Voice:
    """A resolved voice (``extends`` already applied)."""

    id: str
    name: str
    language: str
    backend: str
    settings: Mapping[str, Any]
    sound: Mapping[str, Any]
    joiner: str
    phrases: Mapping[str, str]
    sequences: Mapping[str, tuple[str, ...]]
    source: Path
    clips: ClipPack | None = None
    chain: tuple[str, ...] = field(default=())
    licence: str | None = None
    note: str | None = None

    @property
    def radio(self) -> bool:
        """Tells whether the speech gets the band-limited radio filter."""
        return bool(self.sound.get("radio", False))

    @property
    def loudness_lufs(self) -> float:
        """Returns the loudness target of every speech clip."""
        return float(self.sound.get("loudness_lufs", DEFAULT_SOUND["loudness_lufs"]))

    @property
    def bed_db(self) -> float:
        """Returns the alarm bed level relative to the speech (dB, negative)."""
        return float(self.sound.get("bed_db", DEFAULT_SOUND["bed_db"]))



def bundled_voices() -> list[str]:
    """Returns the ids of the voices shipped with the toolkit, sorted."""
    folder = data_dir("voices")
    names = {p.stem for p in folder.glob("*.yaml")}
    names |= {p.parent.name for p in folder.glob("*/voice.yaml")}
    return sorted(names)


def primary_language(tag: str) -> str:
    """Returns the primary subtag of a BCP 47 tag, lowercased (``de-AT`` → ``de``)."""
    return tag.split("-", 1)[0].lower()


def voices_speaking(language: str, voices: Sequence[Voice]) -> list[Voice]:
    """The voices that can read a mission in ``language``: the same primary language.

    The one rule by which both ``render`` and ``pack build`` pair missions and voices (a
    ``de-AT`` mission is read by a ``de`` voice). Order: an exact tag match first, then a voice
    whose id is the language itself (the bundled default of that language), then as given.
    """
    wanted = primary_language(language)
    found = [v for v in voices if primary_language(v.language) == wanted]
    return sorted(found, key=lambda v: (v.language.lower() != language.lower(),
                                        v.id.lower() not in (language.lower(), wanted)))


def foreign_text_warning(mission: Mission, voice: Voice) -> str | None:
    """A warning when ``voice`` would read the mission's own announcement texts (written in
    the mission's language) in another language; None when it reads them in their own."""
    if primary_language(voice.language) == primary_language(mission.language):
        return None
    texts = [e for e in mission.events if isinstance(e, Announcement)]
    if not texts:
        return None  # standard cues are phrased in the voice's own language
    first = format_clock(texts[0].at)
    return (f"voice {voice.id!r} ({voice.language}) reads the {len(texts)} announcement text"
            f"{'s' if len(texts) != 1 else ''} of {mission.id} written in {mission.language} "
            f"(first at {first}) as {voice.language}; choose a {mission.language} voice or "
            "translate them")


def voice_for_language(language: str) -> Voice | None:
    """The bundled voice for a mission in ``language`` when no voice was chosen, or None."""
    names = bundled_voices()
    tag = language.lower()
    if tag == primary_language(language) and tag in names:
        # a voice whose id is the tag and that speaks exactly it sorts first in
        # voices_speaking whatever the others are: read only that file (every voice file costs
        # a YAML parse and a schema check, all of them 0.1 s of each render)
        own = load_voice(tag)
        if own.id.lower() == tag and own.language.lower() == tag:
            return own
    found = voices_speaking(language, [load_voice(name) for name in names])
    return found[0] if found else None


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except OSError:  # a name the file system cannot hold (too long): no such voice file
        return False


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _voice_file(name: str, base: Path | None) -> Path:
    candidates: list[Path] = []
    as_path = Path(name)
    if base is not None and not as_path.is_absolute():
        candidates.append(base / as_path)
    candidates.append(as_path)
    for candidate in candidates:
        if _is_file(candidate):
            return candidate
        if _is_dir(candidate) and _is_file(candidate / "voice.yaml"):
            return candidate / "voice.yaml"
    folder = data_dir("voices")
    for candidate in (folder / f"{name}.yaml", folder / name / "voice.yaml"):
        if "/" not in name and _is_file(candidate):
            return candidate
    known = ", ".join(bundled_voices())
    raise UsageError(f"unknown voice {name!r}: expected a voice file or one of {known}",
                     hint="`spacealert voices list` shows the voices")


def _raw_chain(path: Path, seen: tuple[str, ...]) -> list[tuple[Path, dict[str, Any]]]:
    doc = load_document(path, "voice")
    data: dict[str, Any] = plain_data(doc.data)
    key = str(path.resolve())
    if key in seen:
        raise InvalidInputError(f"{path}: voice {data['id']!r} extends itself (through "
                                f"{' → '.join(Path(s).name for s in seen)})")
    parent = data.get("extends")
    chain: list[tuple[Path, dict[str, Any]]] = []
    if parent is not None:
        try:
            parent_path = _voice_file(str(parent), path.parent)
        except UsageError as error:
            line, col = doc.locate(["extends"])
            raise InvalidInputError(f"{path}:{line}:{col}: extends {error.message}",
                                    hint=error.hint) from None
        chain = _raw_chain(parent_path, (*seen, key))
    chain.append((path, data))
    return chain


def load_voice(name: str | Path = DEFAULT_VOICE) -> Voice:
    """Returns the voice named ``name`` (bundled id, voice file or clip-pack folder)."""
    path = _voice_file(str(name), None)
    chain = _raw_chain(path, ())
    merged: dict[str, Any] = {"settings": {}, "sound": dict(DEFAULT_SOUND), "phrases": {},
                              "sequences": {}}
    for _, data in chain:
        for key in ("settings", "sound", "phrases", "sequences"):
            merged[key].update(data.get(key, {}))
        for key in ("id", "name", "language", "backend", "joiner", "clips"):
            if key in data:
                merged[key] = data[key]
        # the terms belong to the engine and its model: a voice that changes the backend
        # does not inherit them
        if "backend" in data or "licence" in data:
            merged["licence"] = data.get("licence")
        # so does what was measured of it: a note on how well it is understood
        if "backend" in data or "note" in data:
            merged["note"] = data.get("note")
    own_path, own = chain[-1]
    for key in ("language", "backend"):
        if key not in merged:
            raise InvalidInputError(f"{own_path}: voice {own['id']!r} has no {key!r} "
                                    "(give it or extend a voice that has one)")
    clips = None
    if merged["backend"] == "clips":
        raw = own.get("clips") or merged.get("clips")
        if raw is None:
            raise InvalidInputError(f"{own_path}: a clips voice needs a 'clips' manifest "
                                    "(clips: {files: {alert: alert.wav, …}})")
        clips = ClipPack(own_path.parent, dict(raw["files"]), raw.get("fallback"),
                         int(raw.get("gap_ms", 120)))
    return Voice(
        id=str(own["id"]),
        name=str(merged.get("name", own["id"])),
        language=str(merged["language"]),
        backend=str(merged["backend"]),
        settings=dict(merged["settings"]),
        sound=dict(merged["sound"]),
        joiner=str(merged.get("joiner", " ")),
        phrases=dict(merged["phrases"]),
        sequences={k: tuple(v) for k, v in merged["sequences"].items()},
        source=own_path,
        clips=clips,
        chain=tuple(str(d["id"]) for _, d in chain),
        licence=None if merged.get("licence") is None else str(merged["licence"]),
        note=None if merged.get("note") is None else str(merged["note"]),
    )
