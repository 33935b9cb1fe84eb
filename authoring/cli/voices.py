"""``spacealert voices``: lists the voices, checks one, and prints the phrases it must say."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Annotated

import typer

from authoring._resources import data_dir
from authoring.audio import DEFAULT_VOICE, bundled_voices, load_voice
from authoring.audio.phrases import coverage_problems, phrases
from authoring.audio.voice import Voice
from authoring.cli._common import err, reports_errors
from authoring.errors import AuthoringError, InvalidInputError, UsageError
from authoring.mission import load_mission
from authoring.mission.timeline import Timeline, compile_timeline

app = typer.Typer(name="voices", help="List, check and inspect the voices; make clip packs.",
                  no_args_is_help=True)


def _available(voice: Voice) -> str:
    if voice.backend in ("espeak-ng", "flite"):
        return "ready" if shutil.which(voice.backend) else f"needs {voice.backend}"
    if voice.backend == "festival":
        return "ready" if shutil.which("text2wave") else "needs festival"
    if voice.backend == "gtts":
        return "online" if shutil.which("ffmpeg") else "needs ffmpeg"
    if voice.backend == "piper":
        try:
            import piper  # noqa: F401
        except ImportError:
            return "needs the [piper] extra"
        return "ready"
    return "clips"


@app.command("list")
@reports_errors
def list_voices(
    as_json: Annotated[bool, typer.Option("--json", help="Print the voices as JSON.")] = False,
) -> None:
    """List the bundled voices: id, language, backend, whether it can run here."""
    rows = []
    for name in bundled_voices():
        voice = load_voice(name)
        rows.append({"id": voice.id, "language": voice.language, "backend": voice.backend,
                     "status": _available(voice), "name": voice.name,
                     "default": voice.id == DEFAULT_VOICE, "licence": voice.licence,
                     "note": voice.note})
    if as_json:
        typer.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    for row in rows:
        mark = "*" if row["default"] else " "
        typer.echo(f"{mark} {row['id']:<10} {row['language']:<4} {row['backend']:<10} "
                   f"{row['status']:<24} {row['name']}")
        if row["licence"]:
            typer.echo(f"  {'':<10} licence: {row['licence']}")
        if row["note"]:
            typer.echo(f"  {'':<10} note: {row['note']}")


def _timelines(missions: list[Path]) -> list[Timeline]:
    return [compile_timeline(load_mission(m)) for m in missions]


#: The official missions ``voices check`` scores when no mission is given.
CHECK_MISSIONS = ("mission-1.yaml", "mission-4.yaml")


def _intelligibility(voice: Voice, missions: list[Path] | None) -> None:
    """Prints the word and character error rates of ``voice`` when the recogniser is
    installed: every language is heard by the multilingual Whisper base model."""
    from authoring.audio.cache import ClipCache, default_cache_dir
    from authoring.audio.intelligibility import (
        Recogniser,
        Report,
        multilingual_model_folder,
        score_mission,
    )

    language = voice.language.split("-")[0]
    try:
        recogniser = Recogniser(multilingual_model_folder(), threads=2, language=language)
    except AuthoringError as error:
        hint = f"; {error.hint}" if error.hint else ""
        typer.echo(f"{voice.id}: intelligibility not measured ({error.message}{hint})")
        return
    paths = missions or [data_dir("missions") / "official" / m for m in CHECK_MISSIONS]
    total = Report()
    cache = ClipCache(default_cache_dir())
    for path in paths:
        report = score_mission(recogniser, compile_timeline(load_mission(path)), voice,
                               cache=cache)
        total.utterances += report.utterances
    typer.echo(f"{voice.id}: word and character error rates heard by Whisper base on "
               f"{', '.join(p.name for p in paths)}:")
    for line in total.lines():
        typer.echo(line)


@app.command()
@reports_errors
def check(
    voice: Annotated[str, typer.Argument(help="Voice id, voice file or clip-pack folder.")],
    missions: Annotated[list[Path] | None, typer.Option(
        "--mission", "-m", help="Only the phrases these missions need, and the missions "
        "the intelligibility is measured on (repeatable; default: official missions 1 and 4).",
        show_default=False)] = None,
    listen: Annotated[bool, typer.Option(
        "--listen/--no-listen", help="Measure the word and character error rates with the "
        "offline recogniser when it is installed (faster-whisper and the Whisper base model "
        "of the dev extra).")] = True,
) -> None:
    """Check a voice: its file, phrase coverage of every cue kind, its backend, and for clip
    packs the recordings that are missing (and whether the fallback voice covers them).

    When the offline recogniser is installed (the dev extra), the voice renders official
    missions and prints the word and character error rates per cue kind, heard by the
    multilingual Whisper base model, as ``bench/intelligibility.py`` does.

    Exit 0 when the voice can speak everything, 1 when it cannot, 3 when its backend is not
    installed.
    """
    chosen = load_voice(voice)
    problems = coverage_problems(chosen)
    for problem in problems:
        typer.echo(f"problem: {problem}")
    if problems:
        raise InvalidInputError(f"voice {chosen.id!r} cannot speak every cue "
                                f"({len(problems)} problem(s))")
    from authoring.audio.backends import make_backend

    if chosen.clips is None:
        make_backend(chosen)  # raises with an install hint when the backend is missing
        typer.echo(f"{chosen.id}: ok ({chosen.backend}, {chosen.language}, "
                   f"{len(chosen.phrases)} phrases)")
        if listen:
            _intelligibility(chosen, missions)
        return
    needed = phrases(_timelines(missions) if missions else None, chosen)
    missing = [f for f in needed if f.key != "text" and chosen.clips.path(f.key) is None]
    for fragment in missing:
        absent = chosen.clips.absent_file(fragment.key)
        where = f"\tlisted file not found: {absent}" if absent is not None else ""
        typer.echo(f"missing: {fragment.key}\t{fragment.text}{where}")
    recorded = len(needed) - len(missing)
    summary = f"{chosen.id}: {recorded} of {len(needed)} phrases recorded"
    if missing and chosen.clips.fallback is None:
        raise InvalidInputError(f"{summary}; {len(missing)} missing and no fallback voice",
                                hint="record them or set clips.fallback (e.g. en)")
    if missing and chosen.clips.fallback is not None:
        near = chosen.source.parent / chosen.clips.fallback
        fallback = load_voice(near if near.exists() else chosen.clips.fallback)
        try:
            make_backend(fallback)
        except AuthoringError as error:
            err(f"warning: fallback voice {fallback.id!r} cannot run: {error.message}")
            raise
        typer.echo(f"{summary}; {len(missing)} missing, spoken by the fallback voice "
                   f"{fallback.id!r}")
    else:
        typer.echo(f"{summary}: complete")
    if listen:
        _intelligibility(chosen, missions)


def _phrases_arguments(arguments: list[str], missions: list[Path],
                       voice_option: str | None) -> tuple[str, list[Path]]:
    """Returns (voice, missions) of ``voices phrases``: the voice is the argument, as in
    ``voices check``. The older form (missions as arguments, ``--voice``) still works."""
    if voice_option is not None:
        return voice_option, [*missions, *(Path(a) for a in arguments)]
    if not arguments:
        return DEFAULT_VOICE, missions
    first, *rest = arguments
    try:
        load_voice(first)
    except AuthoringError:
        if Path(first).is_file() and not rest:
            # the older form: a mission file where the voice now goes
            err("note: give the mission with --mission (the argument is the voice, as in "
                "`voices check`)")
            return DEFAULT_VOICE, [*missions, Path(first)]
        raise
    if rest:
        err("note: give missions with --mission (the argument is the voice, as in "
            "`voices check`)")
    return first, [*missions, *(Path(a) for a in rest)]


@app.command("phrases")
@reports_errors
def list_phrases(
    arguments: Annotated[list[str] | None, typer.Argument(
        metavar="[VOICE]",
        help=f"Voice id, voice file or clip-pack folder (default {DEFAULT_VOICE}).",
        show_default=False)] = None,
    missions: Annotated[list[Path] | None, typer.Option(
        "--mission", "-m", help="Only the phrases these missions need (repeatable; default: "
        "every phrase any mission can need).", show_default=False)] = None,
    voice: Annotated[str | None, typer.Option(
        "--voice", help="The voice, as an option (older form; the argument is preferred).",
        show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the phrases as JSON.")] = False,
) -> None:
    """Print every distinct phrase a voice must say (key and text), e.g. to record a clip pack.

    Takes the voice as its argument and missions with --mission, like `voices check`.
    """
    voice_name, mission_paths = _phrases_arguments(arguments or [], missions or [], voice)
    chosen = load_voice(voice_name)
    found = phrases(_timelines(mission_paths) if mission_paths else None, chosen)
    if as_json:
        typer.echo(json.dumps([{"key": f.key, "text": f.text} for f in found], indent=2,
                              ensure_ascii=False))
        return
    for fragment in found:
        typer.echo(f"{fragment.key}\t{fragment.text}")


@app.command("pack")
@reports_errors
def pack(
    voice: Annotated[str, typer.Argument(help="Voice id or voice file (e.g. de-gtts).")],
    output: Annotated[Path, typer.Option(
        "--output", "-o", help="Folder the clip pack is written into (its voice.yaml and one "
        "WAV file per phrase).", show_default=False)],
    missions: Annotated[list[Path] | None, typer.Option(
        "--mission", "-m", help="Only the phrases these missions need (repeatable; default: "
        "every phrase any mission can need).", show_default=False)] = None,
    fallback: Annotated[str | None, typer.Option(
        "--fallback", help="Voice that speaks free announcement texts, which a pack cannot "
        "hold (default: the bundled offline voice of the language).",
        show_default=False)] = None,
    pack_id: Annotated[str | None, typer.Option(
        "--id", help="Id of the pack's voice (default: VOICE-pack).", show_default=False)]
        = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Synthesize every phrase again; neither read nor write the cache.")]
        = False,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", help="Clip cache folder (default: $SPACEALERT_CACHE_DIR or the "
        "platform cache folder).", show_default=False)] = None,
) -> None:
    """Write a clip pack of every phrase a voice must say: one WAV file per phrase key and its
    voice.yaml, which renders offline anywhere (`render --voice FOLDER`) and can be shared in
    a mission pack.

    An online voice (gTTS) is asked once per phrase; phrases a render already asked for come
    from the clip cache, so a pack can be made offline after one online render.
    """
    import re

    from authoring.audio.cache import ClipCache, default_cache_dir
    from authoring.audio.clip_pack import write_clip_pack
    from authoring.audio.voice import voice_for_language

    if pack_id is not None and not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,39}", pack_id):
        raise UsageError(f"--id {pack_id!r}: expected lowercase letters, digits and dashes "
                         "(at most 40)")
    chosen = load_voice(voice)
    if fallback is None:
        offline = voice_for_language(chosen.language)
        if offline is not None and offline.backend not in ("gtts", "clips"):
            fallback = offline.id
    else:
        load_voice(fallback)  # an unknown fallback is a usage error now, not at render time
    cache = None if no_cache else ClipCache(cache_dir or default_cache_dir())
    timelines = _timelines(missions) if missions else None
    result = write_clip_pack(chosen, output, timelines=timelines, cache=cache,
                             fallback=fallback, voice_id=pack_id)
    if cache is not None and cache.warning:
        err(f"warning: {cache.warning}")
    typer.echo(f"{result.voice_id}: {len(result.files)} phrases of {chosen.id!r} written to "
               f"{output}; render with --voice {output}"
               + (f" (free texts: {fallback})" if fallback else ""))
