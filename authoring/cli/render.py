"""``spacealert render``: renders a mission's soundtrack to an audio file (and captions)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn

from authoring._files import write_atomic
from authoring.audio import (
    DEFAULT_VOICE,
    ClipCache,
    RenderOptions,
    bundled_voices,
    default_cache_dir,
    format_for,
    load_voice,
    render_timeline,
    write_audio,
)
from authoring.audio.captions import CAPTION_FORMATS, captions
from authoring.audio.export import check_encoder
from authoring.cli._common import err, reports_errors
from authoring.errors import UsageError
from authoring.mission import load_mission
from authoring.mission.timecode import format_ms
from authoring.mission.timeline import compile_timeline

app = typer.Typer()


@app.command()
@reports_errors
def render(
    mission: Annotated[Path, typer.Argument(help="The mission file.", show_default=False)],
    out: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Output file (default: <mission-id>.<format> here).",
        show_default=False)] = None,
    voice: Annotated[str | None, typer.Option(
        "--voice", help="Voice id or voice file (see `spacealert voices list`); default: the "
        "bundled voice of the mission's language, else en.", show_default=False)] = None,
    fmt: Annotated[str | None, typer.Option(
        "--format", "-f", help="mp3, ogg, wav or flac (default: from OUT's suffix, else mp3).",
        show_default=False)] = None,
    players: Annotated[int | None, typer.Option(
        "--players", "-p", min=4, max=5,
        help="4 or 5 players (default: the mission's); unconfirmed reports need 5.",
        show_default=False)] = None,
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
) -> None:
    """Render a playable soundtrack: synthesized voice, sound effects, one mixed file.

    Every cue of the compiled timeline is placed at its exact sample. Announcements that would
    be heard over each other are refused (exit 1) unless --allow-overlap is given. Missing
    ffmpeg or espeak-ng: exit 3.
    """
    if caption_format is not None and caption_format not in CAPTION_FORMATS:
        raise UsageError(f"--captions expects one of {', '.join(CAPTION_FORMATS)}, "
                         f"got {caption_format!r}")
    loaded = load_mission(mission)
    if out is None:
        fmt = format_for(Path("x.mp3"), fmt)
        out = Path(f"{loaded.id}.{fmt}")
    else:
        fmt = format_for(out, fmt)
    if out.is_dir():
        raise UsageError(f"{out} is a folder: expected an output file name")
    if not out.parent.is_dir():
        raise UsageError(f"cannot write {out}: the folder {out.parent} does not exist")
    check_encoder(fmt)
    if voice is None:
        voice = loaded.language if loaded.language in bundled_voices() else DEFAULT_VOICE
    chosen = load_voice(voice)
    timeline = compile_timeline(loaded, players)
    cache = None if no_cache else ClipCache(cache_dir or default_cache_dir())
    console = Console(stderr=True)
    with Progress(TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
                  console=console, transient=True,
                  disable=not console.is_terminal) as bar:
        task = bar.add_task("synthesizing", total=None)

        def report(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total,
                       description="mixing" if what == "mixing" else f"speaking {what}")

        rendering = render_timeline(
            timeline, chosen, cache=cache,
            options=RenderOptions(bed=not no_bed, allow_overlap=allow_overlap),
            progress=report)
        bar.update(task, description=f"encoding {fmt}", total=None)
        write_audio(rendering.pcm16_view(), out, fmt)
    for warning in rendering.warnings:
        err(f"warning: {warning}")
    typer.echo(str(out))
    if caption_format is not None:
        side = out.with_suffix(f".{caption_format}")
        write_atomic(side, captions(rendering.cues, caption_format,
                                    {"mission": timeline.mission_id, "voice": chosen.id,
                                     "language": chosen.language, "players": timeline.players,
                                     **({"licence": chosen.licence} if chosen.licence else {})}))
        typer.echo(str(side))
    stats = f", cache {cache.stats.hits} hit(s), {cache.stats.misses} miss(es)" if cache else ""
    err(f"rendered {timeline.mission_id} with voice {chosen.id}: "
        f"{format_ms(rendering.duration_ms)}, {len(rendering.clips)} spoken cues{stats}")
