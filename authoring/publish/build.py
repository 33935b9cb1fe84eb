"""Builds a pack: checks every mission, renders soundtracks, captions and sheets, writes the site.

The order matters: nothing is rendered until every mission validates and lints clean (of
errors; of warnings too with ``strict``). The site is assembled in a temporary folder next to
the output and moved into place at the end, so a failed build never leaves half a site and an
existing folder is replaced only when it holds a site this command built before.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from authoring._files import atomic_target
from authoring.audio import ClipCache, Voice, default_cache_dir, load_voice, render_timeline
from authoring.audio.captions import captions
from authoring.audio.export import check_encoder, write_audio
from authoring.errors import InvalidInputError, UsageError
from authoring.mission.model import Mission
from authoring.mission.problem import Problem
from authoring.mission.timeline import compile_timeline
from authoring.publish.checks import CheckedMission, check_missions, primary_language, summary_lines
from authoring.publish.manifest import Pack, load_pack
from authoring.publish.rating import rate_mission
from authoring.publish.reproducible import build_datetime, build_epoch, zip_bytes
from authoring.render.build import build_sheet
from authoring.render.pdf import check_pdf_support
from authoring.render.site import (
    AUDIO_TYPES,
    AudioSource,
    Download,
    LintSummary,
    MissionEntry,
    SiteModel,
    Track,
    player_cues,
    render_pages,
)

#: The file that marks a folder as a site this command built (and may replace).
MARKER = ".spacealert-site"
CAPTION_FORMATS = ("vtt", "srt", "json")
#: Bump when the audio export settings change, so cached encodings are not reused.
ENCODING_VERSION = "2"
SHEET_LABELS = {"briefing": "Briefing sheet", "threats": "Threat cards",
                "comms-officer": "Comms officer's sheet", "answer-key": "Answer key"}
#: Reports progress as one line of text.
Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildOptions:
    """How to build: strictness, template overrides, the clip cache and the generator name."""

    strict: bool = False
    templates: tuple[Path, ...] = ()
    use_cache: bool = True
    cache_dir: Path | None = None
    generator: str = "spacealert-authoring"
    rate: bool = False  # rate each mission's difficulty by simulation


@dataclass
class BuildResult:
    """What a build wrote and what the linter still had to say."""

    out: Path
    missions: int = 0
    tracks: int = 0
    files: int = 0
    size: int = 0
    problems: list[Problem] = field(default_factory=list)


def slugify(text: str) -> str:
    """Returns a lowercase ASCII file name for ``text`` (``pack`` when nothing is left)."""
    slug = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return slug[:60].strip("-") or "pack"


def _check_output(out: Path, pack: Pack) -> None:
    """Refuses outputs that would lose a user's files or swallow the pack itself."""
    target = out.resolve()
    if target == pack.folder or pack.folder.is_relative_to(target):
        raise UsageError(f"-o {out}: the output folder must not contain the pack itself")
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: expected a folder, got a file")
    if out.is_dir() and any(out.iterdir()) and not (out / MARKER).is_file():
        raise UsageError(f"-o {out}: the folder is not empty and was not built by "
                         "`spacealert pack build`; refusing to overwrite it",
                         hint="choose a new or empty folder")
    if not out.parent.resolve().is_dir():
        raise UsageError(f"-o {out}: the folder {out.parent} does not exist")


def _load_voices(pack: Pack) -> list[Voice]:
    voices = []
    for name in pack.voices:
        ref: str | Path = pack.folder / name if name.endswith((".yaml", ".yml")) else name
        voices.append(load_voice(ref))
    return voices


def _voices_for(mission: CheckedMission, voices: list[Voice]) -> list[Voice]:
    lang = primary_language(mission.mission.language)
    chosen = [v for v in voices if primary_language(v.language) == lang]
    if not chosen:
        raise InvalidInputError(
            f"{mission.display}: no voice of the pack speaks {mission.mission.language!r} "
            f"(voices: {', '.join(f'{v.id} ({v.language})' for v in voices)})",
            hint="add a voice of that language to `voices` in pack.yaml")
    return chosen


class _Writer:
    """Writes files under the staging folder and remembers them for the zip."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files: dict[str, Path] = {}

    def path(self, relative: str) -> Path:
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        self.files[relative] = target
        return target

    def write(self, relative: str, data: bytes) -> Path:
        target = self.path(relative)
        target.write_bytes(data)
        return target

    def download(self, relative: str, label: str, kind: str) -> Download:
        return Download(label, relative, kind, self.files[relative].stat().st_size)


def _encoder_identity() -> str:
    """Names the installed ffmpeg (path, size, mtime): a new encoder must not reuse old files."""
    found = shutil.which("ffmpeg")
    if found is None:
        return "no-ffmpeg"
    info = Path(found).stat()
    return f"{found}|{info.st_size}|{int(info.st_mtime)}|{ENCODING_VERSION}"


def _encode(pcm: bytes, fmt: str, target: Path, cache: Path | None) -> None:
    """Encodes ``pcm`` to ``target``, reusing an earlier encoding of the same samples.

    Encoding is most of a rebuild's time (ffmpeg takes seconds per track); the encoded file is
    kept in the cache under the hash of the samples and the format, so an unchanged soundtrack
    is copied instead of encoded again.
    """
    if cache is None:
        write_audio(pcm, target, fmt)
        return
    key = hashlib.sha256(pcm + f"{fmt}|{_encoder_identity()}".encode()).hexdigest()
    kept = cache / "encoded" / key[:2] / f"{key}.{fmt}"
    if kept.is_file():
        shutil.copyfile(kept, target)
        return
    write_audio(pcm, target, fmt)
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        with atomic_target(kept) as tmp:
            shutil.copyfile(target, tmp)
    except (OSError, InvalidInputError):
        pass  # a cache that cannot be written is no error


def _render_mission(checked: CheckedMission, voices: list[Voice], pack: Pack,
                    writer: _Writer, options: BuildOptions,
                    progress: Progress) -> MissionEntry:
    mission: Mission = checked.mission
    slug = mission.id
    base = f"files/{slug}"
    timeline = compile_timeline(mission)
    cache_root = (options.cache_dir or default_cache_dir()) if options.use_cache else None
    cache = ClipCache(cache_root) if cache_root is not None else None
    tracks: list[Track] = []
    downloads: list[Download] = []
    for voice in voices:
        progress(f"rendering {slug} with voice {voice.id}")
        rendering = render_timeline(timeline, voice, cache=cache)
        pcm = rendering.pcm16_stereo()
        stem = f"{base}/{slug}.{voice.id}"
        sources = []
        # ffmpeg runs as a separate process: encode the formats side by side.
        with ThreadPoolExecutor(max_workers=max(1, min(len(pack.audio), os.cpu_count() or 1))
                                ) as pool:
            jobs = [pool.submit(_encode, pcm, fmt, writer.path(f"{stem}.{fmt}"), cache_root)
                    for fmt in pack.audio]
            for job in jobs:
                job.result()
        for fmt in pack.audio:
            sources.append(AudioSource(f"{stem}.{fmt}", AUDIO_TYPES[fmt]))
            downloads.append(writer.download(f"{stem}.{fmt}",
                                             f"Soundtrack, {voice.name} ({fmt.upper()})",
                                             "audio"))
        meta = {"mission": mission.id, "voice": voice.id, "language": voice.language,
                "players": timeline.players}
        for fmt in CAPTION_FORMATS:
            writer.write(f"{stem}.{fmt}", captions(rendering.cues, fmt, meta).encode("utf-8"))
            downloads.append(writer.download(f"{stem}.{fmt}",
                                             f"Captions, {voice.name} ({fmt.upper()})",
                                             "captions"))
        heard = [(c.start_ms, c.end_ms, c.kind, c.text) for c in rendering.cues]
        tracks.append(Track(voice.id, voice.name, voice.language, tuple(sources),
                            f"{stem}.vtt", player_cues(timeline, heard), rendering.duration_ms))
    for kind in pack.sheets:
        progress(f"printing the {kind} sheet of {slug}")
        relative = f"{base}/{slug}-{kind}.pdf"
        build_sheet(mission, writer.path(relative), kind=kind, templates=options.templates)
        downloads.append(writer.download(relative, f"{SHEET_LABELS[kind]} (PDF)", "sheet"))
    relative = f"{base}/{slug}.yaml"
    writer.write(relative, checked.path.read_bytes())
    downloads.append(writer.download(relative, "Mission file (YAML)", "mission"))
    problems = checked.problems
    lint = LintSummary(checked.count("error"), checked.count("warning"), checked.count("info"),
                       summary_lines(problems))
    rating, note = None, ""
    if options.rate:
        progress(f"rating {slug} by simulation")
        rating, note = rate_mission(mission)
        if note:
            progress(f"note: {checked.display}: not rated: {note}")
    return MissionEntry(slug, mission, timeline, tuple(tracks), tuple(downloads), lint,
                        rating, note)


def _pack_sources(pack: Pack) -> list[Path]:
    sources = [pack.manifest, *pack.missions]
    sources += [pack.folder / v for v in pack.voices if v.endswith((".yaml", ".yml"))]
    return sources


def _zip_entries(pack: Pack, writer: _Writer, top: str) -> dict[str, bytes]:
    entries = {f"{top}/{pack.relative(p)}": p.read_bytes() for p in _pack_sources(pack)}
    for relative, path in writer.files.items():
        entries[f"{top}/{relative}"] = path.read_bytes()
    return entries


def build_pack(packdir: Path, out: Path | None = None, options: BuildOptions = BuildOptions(),
               progress: Progress = lambda _: None) -> BuildResult:
    """Builds the website of the pack in ``packdir`` into ``out`` (default ``PACKDIR/_site``).

    Raises ``InvalidFileError`` listing every mission problem that fails the build,
    ``UsageError`` for an output folder it may not replace, and ``EnvironmentMissingError``
    when ffmpeg, a speech engine or WeasyPrint is missing.
    """
    pack = load_pack(packdir)
    out = out if out is not None else packdir / "_site"
    _check_output(out, pack)
    for fmt in pack.audio:
        check_encoder(fmt)
    if pack.sheets:  # before any rendering: a missing WeasyPrint used to stop a build midway
        check_pdf_support()

    def display(path: Path) -> str:
        return str(packdir / pack.relative(path))

    checked = check_missions(pack, display, strict=options.strict)
    voices = _load_voices(pack)
    chosen = [_voices_for(c, voices) for c in checked]
    epoch = build_epoch(_pack_sources(pack))

    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        writer = _Writer(staging)
        entries = tuple(_render_mission(c, v, pack, writer, options, progress)
                        for c, v in zip(checked, chosen, strict=True))
        top = slugify(pack.title)
        progress(f"packing {top}.zip")
        archive = zip_bytes(_zip_entries(pack, writer, top), epoch)
        (staging / f"{top}.zip").write_bytes(archive)
        model = SiteModel(
            title=pack.title, description=pack.description, authors=pack.authors,
            licence=pack.licence, languages=pack.languages, built=build_datetime(epoch),
            missions=entries, generator=options.generator,
            pack_download=Download("Download the whole pack (zip)", f"{top}.zip", "pack",
                                   len(archive)))
        progress("writing pages")
        for relative, data in render_pages(model, options.templates).items():
            writer.write(relative, data)
        (staging / MARKER).write_text("built by spacealert pack build\n", encoding="utf-8")
        files = [p for p in staging.rglob("*") if p.is_file()]
        result = BuildResult(out, len(entries), sum(len(e.tracks) for e in entries),
                             len(files), sum(p.stat().st_size for p in files),
                             [p for c in checked for p in c.problems])
        _swap_into_place(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return result


def _swap_into_place(staging: Path, out: Path) -> None:
    """Moves the finished site to ``out``, replacing a previous build of it."""
    # Encoders write through private temp files (0600); a site is meant to be readable.
    for path in staging.rglob("*"):
        os.chmod(path, 0o755 if path.is_dir() else 0o644)
    os.chmod(staging, 0o755)
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
        os.replace(staging, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(staging, out)
