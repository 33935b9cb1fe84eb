"""``spacealert render``: renders a mission's soundtrack to an audio file (and captions)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from authoring.cli._common import FiguresOption, PlayersOption, err, reports_errors
from authoring.errors import UsageError

if TYPE_CHECKING:
    from rich.progress import Progress

    from authoring.audio import ClipCache, RenderOptions, Voice
    from authoring.mission import Campaign, Mission

app = typer.Typer()


@app.command()
@reports_errors
def render(
    mission: Annotated[Path, typer.Argument(
        help="The mission file, or a campaign file (docs/rules.md §18).", show_default=False)],
    out: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Output file (default: <mission-id>.<format> here). For a "
        "campaign: the output folder (default: here), or the joined file with --join.",
        show_default=False)] = None,
    voice: Annotated[str | None, typer.Option(
        "--voice", help="Voice id or voice file (see `spacealert voices list`); default: the "
        "bundled voice of the mission's language, else en.", show_default=False)] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", help="mp3, ogg (Vorbis), opus (Ogg Opus), wav or flac (default: from "
        "OUT's suffix, else mp3).", show_default=False)] = None,
    channels: Annotated[str | None, typer.Option(
        "--channels", help="mono or stereo (default: mono for mp3, ogg and opus, which halves "
        "the file; stereo for wav and flac).", show_default=False)] = None,
    bitrate: Annotated[str | None, typer.Option(
        "--bitrate", help="kbit/s for mp3, ogg or opus, e.g. 48 or 48k (default: mp3 64 mono / "
        "128 stereo, opus 32 / 64, ogg quality 4).", show_default=False)] = None,
    players: PlayersOption = None,
    figures: FiguresOption = None,
    caption_format: Annotated[str | None, typer.Option(
        "--captions", help="Also write captions next to OUT: vtt, srt or json.",
        show_default=False)] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Synthesize every phrase again; neither read nor write the cache.")]
        = False,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", help="Clip cache folder (default: $SPACEALERT_CACHE_DIR or the "
        "platform cache folder).", show_default=False)] = None,
    allow_overlap: Annotated[bool, typer.Option(
        "--allow-overlap", help="Mix overlapping announcements (with a warning) instead of "
        "refusing.")] = False,
    no_bed: Annotated[bool, typer.Option(
        "--no-bed", help="Leave out the alarm bed between announcements.")] = False,
    join: Annotated[bool, typer.Option(
        "--join", help="Campaigns: one file with every mission, each after its story "
        "announcement, with a pause between missions.")] = False,
    pause: Annotated[int, typer.Option(
        "--pause", min=0, max=3600, help="Campaigns with --join: seconds of silence between "
        "two missions.")] = 10,
) -> None:
    """Render a playable soundtrack: synthesized voice, sound effects, one mixed file.

    Every cue of the compiled timeline is placed at its exact sample. Announcements that would
    be heard over each other are refused (exit 1) unless --allow-overlap is given. Missing
    ffmpeg or espeak-ng: exit 3.

    A campaign renders each mission with the campaign's soundtrack choice (players, voice)
    to <campaign-id>-<n>-<mission-id>.<format>, or with --join one file.
    """
    # Only what is needed to start the encoder comes before it: the mission's YAML (its id,
    # title and author give the output's name and tags) and the export module. jsonschema and
    # the checks, numpy, the voice, the clips and the mixer follow while ffmpeg starts
    # (bench/render.py measures the whole command).
    from authoring.audio.captions import CAPTION_FORMATS
    from authoring.audio.export import (
        AudioSettings,
        Tags,
        format_for,
        open_audio,
        parse_bitrate,
        parse_channels,
    )
    from authoring.mission import InvalidFileError, check_mission, is_campaign
    from authoring.mission.build import heading
    from authoring.mission.load import Document, read_document

    def checked(doc: Document) -> Mission:
        from authoring.lint.playability import checked_cards

        loaded, problems = check_mission(doc)
        if loaded is None:
            raise InvalidFileError(problems)
        return checked_cards(doc, loaded)  # no soundtrack of a mission nobody can deal

    settings_channels, settings_bitrate = parse_channels(channels), parse_bitrate(bitrate)
    if caption_format is not None and caption_format not in CAPTION_FORMATS:
        raise UsageError(f"--captions expects one of {', '.join(CAPTION_FORMATS)}, "
                         f"got {caption_format!r}")
    doc = read_document(mission)  # read once, whether it is a campaign or a mission
    if is_campaign(doc):
        from authoring.audio import ClipCache, RenderOptions, default_cache_dir
        from authoring.mission import check_campaign

        if caption_format is not None:
            raise UsageError("--captions applies to single missions")
        campaign, problems = check_campaign(doc, mission)  # the document already read
        if campaign is None:
            raise InvalidFileError(problems)
        _render_campaign(campaign, out, voice=voice, fmt=fmt, crew=(players, figures),
                         cache=None if no_cache else ClipCache(cache_dir or default_cache_dir()),
                         options=RenderOptions(bed=not no_bed, allow_overlap=allow_overlap),
                         join=join, pause=pause)
        return
    if join:
        raise UsageError("--join applies to campaign files")
    early = heading(doc.data) if not doc.problems else None
    loaded: Mission | None = None
    if early is None:  # no name or title to go by: the file's problems first
        loaded = checked(doc)
        early = loaded.id, loaded.title, loaded.author
    mission_id, title, author = early
    if out is None:
        fmt = format_for(None, fmt)
        out = Path(f"{mission_id}.{fmt}")
    else:
        fmt = format_for(out, fmt)
    if out.is_dir():
        raise UsageError(f"{out} is a folder: expected an output file name")
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    settings = AudioSettings(fmt, settings_channels, settings_bitrate,
                             Tags(title=title, artist=author)).check()
    # the encoder starts now: its start-up overlaps the checks, the imports, the voice and the
    # clips; a mission the checks refuse stops it and leaves no file (open_audio)
    with open_audio(out, settings) as sink:
        loaded = loaded or checked(doc)
        from authoring._files import write_atomic
        from authoring.audio import ClipCache, RenderOptions, default_cache_dir, render_timeline
        from authoring.audio.captions import captions
        from authoring.audio.export import stream_into
        from authoring.audio.voice import foreign_text_warning
        from authoring.crew import choose_crew
        from authoring.mission.timecode import format_ms
        from authoring.mission.timeline import compile_timeline

        chosen = _choose_voice(voice, loaded)
        foreign = foreign_text_warning(loaded, chosen)
        if foreign is not None:
            err(f"warning: {foreign}")
        timeline = compile_timeline(loaded, choose_crew(loaded.crew, players, figures))
        cache = None if no_cache else ClipCache(cache_dir or default_cache_dir())
        with _progress_bar() as bar:
            rendering = render_timeline(
                timeline, chosen, cache=cache,
                options=RenderOptions(bed=not no_bed, allow_overlap=allow_overlap),
                progress=bar.report)
            bar.stage(f"mixing and encoding {fmt}")
            stream_into(sink, rendering.pcm_blocks(sink.channels), rendering.frames)
    for warning in rendering.warnings:
        err(f"warning: {warning}")
    if cache is not None and cache.warning is not None:
        err(f"warning: {cache.warning}")
    typer.echo(str(out))
    if caption_format is not None:
        side = out.with_suffix(f".{caption_format}")
        write_atomic(side, captions(rendering.cues, caption_format,
                                    {"mission": timeline.mission_id, "voice": chosen.id,
                                     "language": chosen.language, "players": timeline.players,
                                     "figures": timeline.figures,
                                     **({"licence": chosen.licence} if chosen.licence else {})}))
        typer.echo(str(side))
    stats = f", cache {cache.stats.hits} hit(s), {cache.stats.misses} miss(es)" if cache else ""
    err(f"rendered {timeline.mission_id} with voice {chosen.id}: "
        f"{format_ms(rendering.duration_ms)}, {len(rendering.clips)} spoken cues{stats}")


def _choose_voice(name: str | None, mission: Mission) -> Voice:
    """Returns the voice ``name``, else the bundled voice of the mission's language, else en.

    The last case is said on stderr: the mission will be read in another language.
    """
    from authoring.audio import DEFAULT_VOICE, load_voice
    from authoring.audio.voice import voice_for_language

    if name is not None:
        return load_voice(name)
    found = voice_for_language(mission.language)
    if found is None:
        err(f"warning: no bundled voice speaks {mission.language!r}: reading "
            f"{mission.id} with {DEFAULT_VOICE!r} (choose one with --voice)")
        return load_voice(DEFAULT_VOICE)
    return found


class _Bar:
    """Where the render reports its progress: nowhere (stderr is not a terminal) or a Rich bar."""

    def __init__(self, bar: Progress | None = None) -> None:
        self._bar = bar
        self._task = bar.add_task("synthesizing", total=None) if bar is not None else None

    def report(self, done: int, total: int, what: str) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, completed=done, total=total,
                             description="mixing" if what == "mixing" else f"speaking {what}")

    def stage(self, what: str) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=what, total=None)


@contextlib.contextmanager
def _progress_bar() -> Iterator[_Bar]:
    """Yields the render's progress bar; Rich is imported only when stderr is a terminal."""
    if not sys.stderr.isatty() and "FORCE_COLOR" not in os.environ:
        yield _Bar()  # a render in a script or a pipe shows no bar and need not load Rich
        return
    from rich.console import Console
    from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                  console=console, transient=True, disable=not console.is_terminal) as bar:
        yield _Bar(bar)


def _render_campaign(campaign: Campaign, out: Path | None, *, voice: str | None,
                     fmt: str | None, crew: tuple[int | None, int | None],
                     cache: ClipCache | None,
                     options: RenderOptions, join: bool, pause: int) -> None:
    """Renders a campaign: one file per mission into a folder, or one joined file."""
    from authoring.audio.campaign import joined_track, render_campaign
    from authoring.audio.export import check_encoder, format_for, write_audio
    from authoring.audio.mixer import to_stereo_pcm16

    if join:
        target = out or Path(f"{campaign.id}.{format_for(None, fmt)}")
        fmt = format_for(target, fmt)
        if target.is_dir():
            raise UsageError(f"{target} is a folder: --join expects an output file name")
        if not target.parent.is_dir():
            raise UsageError(f"cannot write {target}: the folder {target.parent} does not exist")
    else:
        folder = out or Path(".")
        if not folder.is_dir():
            raise UsageError(f"expected an existing output folder for the campaign's files, "
                             f"got {folder}")
        fmt = format_for(None, fmt)
    check_encoder(fmt)
    voices = [_choose_voice(voice or entry.voice, entry.mission) for entry in campaign.missions]
    rendered = render_campaign(campaign, voices, cache=cache, options=options, players=crew[0],
                               figures=crew[1])
    for rendering in rendered.missions:
        for warning in rendering.warnings:
            err(f"warning: {warning}")
    if join:
        write_audio(to_stereo_pcm16(joined_track(rendered, pause * 1000)), target, fmt)
        typer.echo(str(target))
    else:
        for number, (entry, rendering) in enumerate(zip(campaign.missions, rendered.missions,
                                                        strict=True), 1):
            path = folder / f"{campaign.id}-{number}-{entry.mission.id}.{fmt}"
            write_audio(rendering, path, fmt)
            typer.echo(str(path))
    err(f"rendered campaign {campaign.id}: {len(campaign.missions)} missions")
