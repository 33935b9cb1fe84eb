"""``spacealert play``: render a mission (or a random one) and start playing it at once."""

from __future__ import annotations

import random
import signal
import sys
from pathlib import Path
from typing import Annotated

import typer

from authoring.cli._common import err, reports_errors
from authoring.errors import UsageError

app = typer.Typer()


def _terminated(signum: int, frame: object) -> None:
    err("terminated")
    raise SystemExit(128 + signum)


@app.command()
@reports_errors
def play(
    mission: Annotated[Path | None, typer.Argument(
        help="The mission file (or --random).", show_default=False, metavar="MISSION")] = None,
    voice: Annotated[str | None, typer.Option(
        "--voice", metavar="VOICE", show_default=False,
        help="Voice id or voice file; default: the bundled voice of the mission's "
             "language, else en.")] = None,
    random_mission: Annotated[bool, typer.Option(
        "--random", help="Generate a mission (see `spacealert generate`) and play it.")]
        = False,
    profile: Annotated[str, typer.Option(
        "--profile", metavar="PROFILE",
        help="With --random: base, training, test-run or double-action.")] = "base",
    seed: Annotated[int | None, typer.Option(
        "--seed", metavar="N", show_default=False,
        help="With --random: the seed (default: a fresh one, printed).")] = None,
    no_browser: Annotated[bool, typer.Option(
        "--no-browser", help="Serve the player page and print its address only; do not open "
        "a browser (as in `studio`): open it on any device that reaches this one.")] = False,
    terminal: Annotated[bool, typer.Option(
        "--terminal", help="Play with ffplay on this machine's sound output and a clock in "
        "this terminal, even when a browser is available.")] = False,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Synthesize every phrase again; neither read nor write the cache.")]
        = False,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", metavar="DIR", show_default=False,
        help="Clip cache folder (default: $SPACEALERT_CACHE_DIR or the platform cache).")]
        = None,
) -> None:
    """Play a mission's soundtrack now: rendered through the cache, then played at once.

    With a browser: the mission's player page (clock, phase countdown, captions) from a
    server on 127.0.0.1, until Ctrl+C. With --no-browser the page is served and its address
    printed, nothing is opened. Without a browser (or with --terminal): ffplay plays the
    soundtrack on this machine's sound output and this terminal shows the clock; Space pauses
    and resumes, q stops; no sound output is exit 3. Ctrl+C stops cleanly (exit 130); nothing
    is left behind.
    """
    from authoring._files import scratch_folder
    from authoring.audio import (
        DEFAULT_VOICE,
        ClipCache,
        bundled_voices,
        default_cache_dir,
        load_voice,
    )
    from authoring.lint.playability import load_playable_mission
    from authoring.mission.model import PROFILES, Mission
    from authoring.publish.play import (
        check_audio_output,
        find_browser,
        play_in_terminal,
        prepare,
        serve_in_browser,
    )

    # SIGTERM ends the session like Ctrl-C does, through the clean-up below (ffplay ended,
    # the temporary folder removed), with the conventional status 128 + 15.
    signal.signal(signal.SIGTERM, _terminated)
    if random_mission == (mission is not None):
        raise UsageError("give a MISSION file or --random (one of them)")
    if not random_mission and (seed is not None or profile != "base"):
        raise UsageError("--profile and --seed go with --random")
    if no_browser and terminal:
        raise UsageError("--no-browser serves the player page, --terminal plays here: one of "
                         "them")
    loaded: Mission
    if mission is not None:
        loaded = load_playable_mission(mission)
    else:
        from authoring.generate import GenerateOptions, generate_mission

        if profile not in PROFILES:
            raise UsageError(f"--profile: expected one of {', '.join(PROFILES)}, "
                             f"got {profile!r}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**32)
        options = GenerateOptions(profile=profile, seed=seed)
        loaded = generate_mission(options).mission
        err(f"generated a {profile} mission with seed {seed} "
            f"(again: spacealert play --random --profile {profile} --seed {seed})")
    if voice is None:
        voice = loaded.language if loaded.language in bundled_voices() else DEFAULT_VOICE
    chosen = load_voice(voice)
    cache = None if no_cache else ClipCache(cache_dir or default_cache_dir())
    browser = None if no_browser or terminal else find_browser()
    if browser is None and not no_browser:
        check_audio_output()  # no sound output: said now, before any rendering
    with scratch_folder("play") as root:  # $TMPDIR/spacealert-play-PID-…
        err(f"rendering {loaded.title} with voice {chosen.id}")
        site = prepare(loaded, chosen, root, cache)
        if no_browser:
            err("serving the player page: open the address below (Ctrl+C stops)")
            serve_in_browser(site, None, sys.stdout)
            return
        if browser is not None:
            err("playing in the browser (Ctrl+C stops)")
            if serve_in_browser(site, browser, sys.stdout):
                return
            err("could not start the browser: playing here instead")
            check_audio_output()
        err("playing with ffplay: Space pauses and resumes, q stops, Ctrl+C ends")
        code = play_in_terminal(site, sys.stdout, sys.stdin)
    if code != 0:
        err(f"error: ffplay stopped with status {code}")
        raise typer.Exit(3)
