"""Builds a pack: checks every mission, renders soundtracks, captions and sheets, writes the site.

The order matters: nothing is rendered until every mission validates and lints clean (of
errors; of warnings too with ``strict``). The site is assembled in a temporary folder next to
the output and moved into place at the end, so a failed build never leaves half a site and an
existing folder is replaced only when it holds a site this command built before.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from authoring._files import atomic_target, sweep_leftovers, temp_prefix
from authoring.audio import ClipCache, Voice, default_cache_dir, load_voice, render_timeline
from authoring.audio.cache import temp_folder as cache_temp_folder
from authoring.audio.captions import captions
from authoring.audio.export import (
    AudioSettings,
    AudioSink,
    PcmSource,
    Tags,
    check_encoder,
    open_audio,
)
from authoring.audio.voice import voices_speaking
from authoring.engine import EngineError
from authoring.errors import InvalidInputError, UsageError
from authoring.mission import load_campaign
from authoring.mission.model import Mission
from authoring.mission.problem import Problem
from authoring.mission.timeline import compile_timeline
from authoring.publish.checks import (
    CheckedMission,
    check_missions,
    rule_pages,
    summary_lines,
)
from authoring.publish.manifest import Pack, load_pack
from authoring.publish.reproducible import build_datetime, build_epoch, zip_bytes
from authoring.render.build import build_sheet
from authoring.render.campaign_log import build_campaign_log
from authoring.render.pdf import check_pdf_support
from authoring.render.site import (
    AUDIO_TYPES,
    AudioSource,
    CampaignEntry,
    Download,
    LintSummary,
    MissionEntry,
    SiteModel,
    Track,
    player_cues,
    render_pages,
)
from authoring.simulation import rating as rating_module
from authoring.simulation.breakdown import breakdown
from authoring.simulation.campaign import simulate_campaign
from authoring.simulation.rating import rate_mission

#: The file that marks a folder as a site this command built (and may replace).
MARKER = ".spacealert-site"
CAPTION_FORMATS = ("vtt", "srt", "json")
#: Bump when the audio export settings change, so cached encodings are not reused.
ENCODING_VERSION = "4"
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
    warnings: list[str] = field(default_factory=list)  # shown even by a quiet build


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
    chosen = voices_speaking(mission.mission.language, voices)
    if not chosen:
        raise InvalidInputError(
            f"{mission.display}: no voice of the pack speaks {mission.mission.language!r} "
            f"(voices: {', '.join(f'{v.id} ({v.language})' for v in voices)})",
            hint="add a voice of that language to `voices` in pack.yaml")
    return chosen


def _unused_voices(voices: list[Voice], chosen: list[list[Voice]],
                   checked: list[CheckedMission]) -> list[str]:
    """One warning per voice of pack.yaml that reads none of the missions (none in its
    language): it would otherwise be dropped without a word."""
    used = {v.id for group in chosen for v in group}
    languages = ", ".join(sorted({c.mission.language for c in checked}))
    return [f"voice {v.id!r} ({v.language}) reads none of the pack's missions (their "
            f"languages: {languages}): it is left out; add missions in {v.language} or remove "
            "it from `voices` in pack.yaml" for v in voices if v.id not in used]


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


def _warn_once(warnings: list[str], cache: Path, text: str) -> None:
    """Adds ``text`` unless a warning about the same cache folder was already given."""
    if not any(str(cache) in w for w in warnings):
        warnings.append(text)


def _pcm_digest(source: PcmSource) -> str:
    digest = hashlib.sha256()
    for block in source.pcm_blocks(1):  # stereo is the mono track twice: mono names it
        digest.update(block)
    return digest.hexdigest()


def _encoded_key(pcm_digest: str, settings: AudioSettings) -> str:
    text = f"{pcm_digest}|{settings.describe()}|{_encoder_identity()}"
    return hashlib.sha256(text.encode()).hexdigest()


def _encode(source: PcmSource, targets: dict[Path, AudioSettings], cache: Path | None,
            warnings: list[str] | None = None) -> None:
    """Encodes ``source`` into every target, reusing earlier encodings of the same samples.

    Encoding is most of a rebuild's time (ffmpeg takes seconds per track); the encoded file is
    kept in the cache under the hash of the samples and the settings, so an unchanged
    soundtrack is copied instead of encoded again. The others are encoded side by side: the
    track is mixed once and each block goes to every encoder (each ffmpeg on its own core).
    A cache that cannot be used costs time only (one line in ``warnings``).
    """
    todo = dict(targets)
    kept: dict[Path, Path] = {}
    if cache is not None:
        pcm_digest = _pcm_digest(source)  # one mixing pass names every format's encoding
        for target, settings in targets.items():
            key = _encoded_key(pcm_digest, settings)
            kept[target] = cache / "encoded" / key[:2] / f"{key}.{settings.fmt}"
            with contextlib.suppress(OSError):
                if kept[target].is_file():
                    shutil.copyfile(kept[target], target)
                    del todo[target]
    if todo:
        with contextlib.ExitStack() as stack:
            sinks: list[AudioSink] = [stack.enter_context(open_audio(target, settings))
                                      for target, settings in todo.items()]
            for sink in sinks:
                sink.expect(source.frames)
            wanted = sorted({sink.channels for sink in sinks})
            streams = {channels: source.pcm_blocks(channels) for channels in wanted}
            for blocks in zip(*streams.values(), strict=True):
                by_channels = dict(zip(wanted, blocks, strict=True))
                for sink in sinks:
                    sink.write(by_channels[sink.channels])
    for target in todo:
        if target not in kept or cache is None:
            continue
        try:
            kept[target].parent.mkdir(parents=True, exist_ok=True)
            with atomic_target(kept[target], cache_temp_folder(cache)) as tmp:
                shutil.copyfile(target, tmp)
        except (OSError, InvalidInputError, UsageError) as error:
            if warnings is not None:
                _warn_once(warnings, cache, f"cannot keep encoded files in the cache {cache}: "
                                            f"{getattr(error, 'strerror', None) or error}")


def _render_mission(checked: CheckedMission, voices: list[Voice], pack: Pack,
                    writer: _Writer, options: BuildOptions,
                    progress: Progress, warnings: list[str]) -> MissionEntry:
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
        if cache is not None and cache.warning is not None:
            _warn_once(warnings, cache.folder, cache.warning)
        stem = f"{base}/{slug}.{voice.id}"
        tags = Tags(title=mission.title, artist=mission.author or ", ".join(pack.authors),
                    album=pack.title)
        targets = {writer.path(f"{stem}.{fmt}"): AudioSettings(
            fmt, pack.channels, pack.bitrate(fmt), tags).check() for fmt in pack.audio}
        _encode(rendering, targets, cache_root, warnings)
        sources = []
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
                       summary_lines(problems), rule_pages(problems))
    rating, note, compared = None, "", None
    if options.rate:
        progress(f"rating {slug} by simulation")
        rating, note = rate_mission(mission)
        if note:
            progress(f"note: {checked.display}: not rated: {note}")
        else:
            progress(f"comparing {slug} in free play and with the informed crew")
            compared = breakdown(mission, rating_module.DEFAULT_SETTINGS)
    return MissionEntry(slug, mission, timeline, tuple(tracks), tuple(downloads), lint,
                        rating, note, compared)


#: Simulated campaigns behind a campaign page's difficulty (heuristic crew, seed 0).
CAMPAIGN_GAMES = 40


def _campaign_entry(path: Path, entries: tuple[MissionEntry, ...], pack: Pack,
                    writer: _Writer, options: BuildOptions,
                    progress: Progress) -> CampaignEntry:
    """Builds a campaign's page entry: its missions' entries, log sheet and rating."""
    campaign = load_campaign(path, display=pack.relative(path))
    by_id = {entry.mission.id: entry for entry in entries}
    missions = tuple(by_id[item.mission.id] for item in campaign.missions)
    base = f"files/campaigns/{campaign.id}"
    downloads = []
    if pack.sheets:
        progress(f"printing the campaign log of {campaign.id}")
        relative = f"{base}/{campaign.id}-campaign-log.pdf"
        build_campaign_log(campaign, writer.path(relative), templates=options.templates)
        downloads.append(writer.download(relative, "Campaign log sheet (PDF)", "sheet"))
    relative = f"{base}/{campaign.id}.yaml"
    writer.write(relative, path.read_bytes())
    downloads.append(writer.download(relative, "Campaign file (YAML)", "mission"))
    difficulty = survival = None
    if options.rate:
        progress(f"rating campaign {campaign.id} by simulation")
        try:
            stats = simulate_campaign(campaign, games=CAMPAIGN_GAMES, seed=0)
            difficulty, survival = stats.difficulty(), stats.survival_rate
        except EngineError as error:  # e.g. a first-game mission the crew model cannot play
            progress(f"note: campaign {campaign.id} not rated: {error}")
    return CampaignEntry(campaign.id, campaign, missions, tuple(downloads), difficulty,
                         survival, CAMPAIGN_GAMES if options.rate else 0)


def _pack_sources(pack: Pack) -> list[Path]:
    sources = [pack.manifest, *pack.missions, *pack.campaigns]
    sources += [pack.folder / v for v in pack.voices if v.endswith((".yaml", ".yml"))]
    return sources


def _zip_entries(pack: Pack, writer: _Writer, top: str,
                 pages: dict[str, bytes]) -> dict[str, bytes]:
    entries = {f"{top}/{pack.relative(p)}": p.read_bytes() for p in _pack_sources(pack)}
    for relative, path in writer.files.items():
        entries[f"{top}/{relative}"] = path.read_bytes()
    for relative, data in pages.items():
        entries[f"{top}/{relative}"] = data
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
    warnings = _unused_voices(voices, chosen, checked)
    epoch = build_epoch(_pack_sources(pack))

    # staging folders of a killed build (and the old site it was swapping out) go first
    sweep_leftovers(out.parent, ".tmp", out.name)
    sweep_leftovers(out.parent, ".old", out.name)
    staging = Path(tempfile.mkdtemp(prefix=temp_prefix(out.name), suffix=".tmp", dir=out.parent))
    try:
        writer = _Writer(staging)
        entries = tuple(_render_mission(c, v, pack, writer, options, progress, warnings)
                        for c, v in zip(checked, chosen, strict=True))
        top = slugify(pack.title)
        model = SiteModel(
            title=pack.title, description=pack.description, authors=pack.authors,
            licence=pack.licence, languages=pack.languages, built=build_datetime(epoch),
            missions=entries, generator=options.generator,
            campaigns=tuple(_campaign_entry(p, entries, pack, writer, options, progress)
                            for p in pack.campaigns))
        # the zip carries the pages too, so it browses offline; they are rendered without
        # the link to the zip itself (a copy cannot know its own size, and needs no link)
        offline = render_pages(model, options.templates)
        progress(f"packing {top}.zip")
        archive = zip_bytes(_zip_entries(pack, writer, top, offline), epoch)
        (staging / f"{top}.zip").write_bytes(archive)
        model = replace(model, pack_download=Download("Download the whole pack (zip)",
                                                      f"{top}.zip", "pack", len(archive)))
        progress("writing pages")
        for relative, data in render_pages(model, options.templates).items():
            writer.write(relative, data)
        (staging / MARKER).write_text("built by spacealert pack build\n", encoding="utf-8")
        files = [p for p in staging.rglob("*") if p.is_file()]
        result = BuildResult(out, len(entries), sum(len(e.tracks) for e in entries),
                             len(files), sum(p.stat().st_size for p in files),
                             [p for c in checked for p in c.problems], warnings)
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
        old = Path(tempfile.mkdtemp(prefix=temp_prefix(out.name), suffix=".old",
                                    dir=out.parent))
        os.rmdir(old)  # only the unique name is wanted: os.replace needs it free
        os.replace(out, old)
        os.replace(staging, out)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(staging, out)
