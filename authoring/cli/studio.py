"""``spacealert studio``: edit a mission on a visual timeline in the browser, served locally."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from authoring.cli._common import err, reports_errors
from authoring.errors import UsageError

app = typer.Typer()


@app.command()
@reports_errors
def studio(
    target: Annotated[Path, typer.Argument(
        help="A mission file to open, or the folder of missions to work in (default: here).",
        metavar="MISSION|DIR")] = Path("."),
    port: Annotated[int, typer.Option(
        "--port", metavar="PORT", min=0, max=65535,
        help="Port on 127.0.0.1 (default: a free one).")] = 0,
    no_browser: Annotated[bool, typer.Option(
        "--no-browser", help="Print the address only; do not open a browser.")] = False,
    voice: Annotated[str | None, typer.Option(
        "--voice", metavar="VOICE", show_default=False,
        help="Voice id or voice file for cue lengths and listening; default: en.")] = None,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", metavar="DIR", show_default=False,
        help="Clip cache folder (default: $SPACEALERT_CACHE_DIR or the platform cache).")]
        = None,
) -> None:
    """Edit missions on a visual timeline in the browser, with live checks and listening.

    Starts a server on 127.0.0.1 (it answers only its own page), prints its address and
    opens the browser. The page shows phases, events, derived warnings and each cue's real
    length; dragging, the event form and the YAML text re-run validate and lint at once;
    cues play through the clip cache. Saving writes the file atomically and keeps its
    comments; a file changed on disk meanwhile is not overwritten unseen. Ctrl+C stops.
    """
    from authoring.audio import DEFAULT_VOICE, default_cache_dir, load_voice
    from authoring.publish.play import find_browser
    from authoring.studio.server import StudioServer

    if target.is_dir():
        folder, first = target, None
    elif target.suffix.lower() in (".yaml", ".yml") and target.is_file():
        folder, first = target.parent, target.name
    elif target.exists():
        raise UsageError(f"{target}: expected a mission file (.yaml) or a folder")
    else:
        raise UsageError(f"{target}: no such file or folder")
    chosen = load_voice(voice or DEFAULT_VOICE)
    try:
        server = StudioServer(folder, chosen, first=first, port=port,
                              cache_dir=cache_dir or default_cache_dir(), quiet=True)
    except OSError as error:
        raise UsageError(f"--port {port}: cannot listen on 127.0.0.1: "
                         f"{error.strerror or error}") from None
    with server:
        url = server.url + (f"#file={first}" if first else "")
        typer.echo(url)
        err(f"spacealert studio: editing {server.folder.root} (Ctrl+C stops)")
        browser = None if no_browser else find_browser()
        if browser is not None and not browser.open(url):
            err("could not start the browser: open the address above")
        server.serve_forever()
