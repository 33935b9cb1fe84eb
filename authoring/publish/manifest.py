"""Reads a pack's manifest (``pack.yaml``) into a ``Pack`` value, with every path checked."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring.errors import InvalidInputError
from authoring.mission import load_campaign, load_document

MANIFEST = "pack.yaml"
DEFAULT_VOICES = ("en",)
DEFAULT_LANGUAGES = ("en",)
DEFAULT_AUDIO = ("mp3",)
DEFAULT_SHEETS = ("briefing", "comms-officer")


@dataclass(frozen=True)
class Pack:
    """A validated pack manifest; mission paths are resolved inside the pack folder."""

    folder: Path
    title: str
    authors: tuple[str, ...]
    licence: str
    missions: tuple[Path, ...]
    description: str = ""
    voices: tuple[str, ...] = DEFAULT_VOICES
    languages: tuple[str, ...] = DEFAULT_LANGUAGES
    audio: tuple[str, ...] = DEFAULT_AUDIO
    sheets: tuple[str, ...] = DEFAULT_SHEETS
    channels: int | None = None  # None: each format's default (mono for the lossy ones)
    bitrates: tuple[tuple[str, int], ...] = ()  # (format, kbit/s) chosen in pack.yaml

    def bitrate(self, fmt: str) -> int | None:
        """Returns the bitrate chosen for ``fmt`` in kbit/s (None: the format's default)."""
        return dict(self.bitrates).get(fmt)
    campaigns: tuple[Path, ...] = ()  # campaign files (docs/rules.md §18)

    @property
    def manifest(self) -> Path:
        """Returns the path of ``pack.yaml``."""
        return self.folder / MANIFEST

    def relative(self, path: Path) -> str:
        """Returns ``path`` relative to the pack folder, with forward slashes."""
        return path.relative_to(self.folder).as_posix()


def _inside(folder: Path, relative: str, what: str, where: str) -> Path:
    """Resolves ``relative`` under ``folder``; refuses paths that leave the pack."""
    path = (folder / relative).resolve()
    if not path.is_relative_to(folder):
        raise InvalidInputError(f"{where}: {what} {relative!r} is outside the pack folder",
                                hint="keep every file of a pack inside its folder")
    return path


def find_manifest(packdir: Path) -> Path:
    """Returns ``PACKDIR/pack.yaml``; raises ``InvalidInputError`` when it is missing."""
    if not packdir.is_dir():
        raise InvalidInputError(f"{packdir}: expected a pack folder, got "
                                f"{'a file' if packdir.exists() else 'nothing'}",
                                hint="create one with `spacealert pack new DIR`")
    manifest = packdir / MANIFEST
    if not manifest.is_file():
        raise InvalidInputError(f"{packdir}: expected a {MANIFEST} in the pack folder",
                                hint="create a pack with `spacealert pack new DIR`")
    return manifest


def load_pack(packdir: Path) -> Pack:
    """Reads and validates ``PACKDIR/pack.yaml``; raises ``InvalidInputError`` on any problem.

    Schema problems carry file:line:col; missing mission files are reported at their line.
    """
    manifest = find_manifest(packdir)
    folder = packdir.resolve()
    doc = load_document(manifest, "pack", display=str(manifest))
    data: Any = doc.data
    def listed(key: str, index: int, relative: str, what: str) -> tuple[Path, str]:
        """A file named in pack.yaml: inside the pack and present; returns it and its place."""
        line, col = doc.locate([key, index])
        where = f"{manifest}:{line}:{col}"
        path = _inside(folder, relative, what, where)
        if not path.is_file():
            raise InvalidInputError(f"{where}: {what} {relative!r} does not exist",
                                    hint=f"paths are relative to {packdir}")
        return path, where

    missions = [listed("missions", i, str(r), "mission file")[0]
                for i, r in enumerate(data["missions"])]
    by_id = {_mission_id(m): m for m in missions}
    campaigns: list[Path] = []
    for index, relative in enumerate(data.get("campaigns", [])):
        path, where = listed("campaigns", index, str(relative), "campaign file")
        campaign = load_campaign(path, display=str(packdir / relative))
        for entry in campaign.missions:
            # the very file the pack lists: a copy elsewhere with the same id is another file
            played = ((path.parent / entry.reference).resolve()
                      if entry.reference.endswith((".yaml", ".yml"))
                      else by_id.get(entry.reference))
            if played not in by_id.values():
                raise InvalidInputError(
                    f"{where}: campaign {relative!r} plays {entry.reference!r}, which is not "
                    "one of the pack's missions", hint="add it to `missions` in pack.yaml")
        campaigns.append(path)
    voices = tuple(str(v) for v in data.get("voices", DEFAULT_VOICES))
    for index, voice in enumerate(voices):
        if voice.endswith((".yaml", ".yml")):
            listed("voices", index, voice, "voice file")
    return Pack(
        folder=folder,
        title=str(data["title"]),
        authors=tuple(str(a) for a in data["authors"]),
        licence=str(data["licence"]),
        missions=tuple(missions),
        description=str(data.get("description", "")),
        voices=voices,
        languages=tuple(str(v) for v in data.get("languages", DEFAULT_LANGUAGES)),
        audio=tuple(str(v) for v in data.get("audio", DEFAULT_AUDIO)),
        sheets=tuple(str(v) for v in data.get("sheets", DEFAULT_SHEETS)),
        channels={"mono": 1, "stereo": 2}.get(str(data.get("audio_channels", ""))),
        bitrates=tuple((str(k), int(v)) for k, v in data.get("audio_bitrate", {}).items()),
        campaigns=tuple(campaigns),
    )


def _mission_id(path: Path) -> str | None:
    """Returns the id of a mission file (None when unreadable): campaigns name missions so."""
    from authoring.mission import read_document

    data = read_document(path).data
    value = data.get("id") if isinstance(data, dict) else None
    return value if isinstance(value, str) else None
