"""``spacealert pack``: builds a mission pack into a static website, previews it, starts one."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from authoring import __version__
from authoring.cli._common import err, format_problem, reports_errors
from authoring.errors import UsageError

if TYPE_CHECKING:
    from authoring.publish import BuildOptions, PreviewServer
    from authoring.publish.watch import Snapshot

app = typer.Typer(no_args_is_help=True,
                  help="Build a mission pack into a static website with an in-browser player.")


@app.command()
@reports_errors
def build(
    packdir: Annotated[Path, typer.Argument(
        help="The pack folder (holds pack.yaml).", show_default=False, metavar="PACKDIR")],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", show_default=False, metavar="OUT",
        help="The site folder (default: PACKDIR/_site). An existing folder is replaced only "
             "if an earlier build wrote it.")] = None,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Fail on lint warnings too, not only on errors.")] = False,
    templates: Annotated[list[Path] | None, typer.Option(
        "--templates", show_default=False, metavar="DIR",
        help="A folder of templates that override the theme's (repeatable).")] = None,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="Synthesize every phrase again; neither read nor write the cache.")]
        = False,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", show_default=False, metavar="DIR",
        help="Clip and encoding cache folder (default: $SPACEALERT_CACHE_DIR or the "
             "platform cache).")]
        = None,
    rate: Annotated[bool, typer.Option(
        "--rate", help="Rate each mission's difficulty by simulation, on the scale of the "
        "official missions (500 games: 10-20 s per mission on two idle cores, about 40 s under "
        "load).")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print problems only.")] = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print what was built (site, counts, problems) as JSON on stdout.")]
        = False,
) -> None:
    """Build the pack's website: checks, soundtracks, captions, sheets, pages and a zip.

    Every mission is validated and linted first; errors (and warnings with --strict) stop the
    build before anything is rendered (exit 1). Dates and zip timestamps come from
    SOURCE_DATE_EPOCH when set, so the same input gives the same bytes.
    """
    # the publisher is imported on use: every other command starts faster without it
    from authoring.publish import BuildOptions, build_pack

    for folder in templates or []:
        if not folder.is_dir():
            raise UsageError(f"--templates: expected a folder, got {str(folder)!r}")
    options = BuildOptions(strict=strict, templates=tuple(templates or ()),
                           use_cache=not no_cache, cache_dir=cache_dir,
                           generator=f"spacealert-authoring {__version__}", rate=rate)
    result = build_pack(packdir, output, options, progress=(lambda _: None) if quiet else err)
    if as_json:
        typer.echo(json.dumps({
            "site": str(result.out), "index": str(result.out / "index.html"),
            "missions": result.missions, "soundtracks": result.tracks,
            "files": result.files, "bytes": result.size,
            "problems": [p.to_dict() for p in result.problems]}, indent=2))
        return
    for problem in result.problems:
        if problem.severity != "info" or not quiet:
            err(f"{problem.severity}: {format_problem(problem)}")
    for warning in result.warnings:
        err(f"warning: {warning}")
    typer.echo(str(result.out / "index.html"))
    if not quiet:
        err(f"built {_count(result.missions, 'mission')}, "
            f"{_count(result.tracks, 'soundtrack')}: {_count(result.files, 'file')}, "
            f"{result.size / 1_000_000:.1f} MB in {result.out}")


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


@app.command()
@reports_errors
def serve(
    path: Annotated[Path, typer.Argument(
        help="A built site, or a pack folder (its PACKDIR/_site is served).",
        metavar="PACKDIR_OR_SITE")] = Path("."),
    port: Annotated[int, typer.Option(
        "--port", "-p", min=0, max=65535, metavar="PORT",
        help="The port on 127.0.0.1 (0 picks a free one).")]
        = 8000,
    watch: Annotated[bool, typer.Option(
        "--watch", help="Rebuild the site when a file of the pack changes (needs a pack "
        "folder; builds it first if it has no site yet).")] = False,
    interval: Annotated[float, typer.Option(
        "--interval", min=0.05, max=60.0, metavar="SECONDS",
        help="How often --watch looks for changes.")] = 0.5,
    no_cache: Annotated[bool, typer.Option(
        "--no-cache", help="With --watch: synthesize every phrase again.")] = False,
    cache_dir: Annotated[Path | None, typer.Option(
        "--cache-dir", show_default=False, metavar="DIR",
        help="With --watch: the clip cache folder (default: $SPACEALERT_CACHE_DIR or the "
             "platform cache).")] = None,
) -> None:
    """Preview a built site on http://127.0.0.1:PORT/ (with the byte ranges audio seeking needs).

    The server answers only on this computer. With --watch, a pack folder is rebuilt whenever
    one of its files changes; a failed rebuild is reported and the last good site stays.
    Stop it with Ctrl+C.
    """
    from authoring.publish import BuildOptions, PreviewServer, build_pack
    from authoring.publish.build import MARKER
    from authoring.publish.manifest import MANIFEST

    root = path
    is_pack = (path / MANIFEST).is_file()
    if is_pack and not (path / "index.html").is_file():
        root = path / "_site"
    if watch and not is_pack:
        raise UsageError(f"{path}: --watch needs a pack folder (with {MANIFEST})",
                         hint="give the pack folder, not its built site")
    options = BuildOptions(use_cache=not no_cache, cache_dir=cache_dir,
                           generator=f"spacealert-authoring {__version__}")
    from authoring.publish.watch import snapshot

    # the state the served site is built from: an edit from here on triggers a rebuild
    baseline = snapshot(path, [root]) if watch else {}
    if watch and not (root / "index.html").is_file():
        err(f"building {path} first")
        build_pack(path, root, options, progress=err)
    if not (root / "index.html").is_file():
        hint = f"build it first with `spacealert pack build {path}`" \
            if is_pack else "give a built site or a pack folder"
        raise UsageError(f"{root}: no index.html here to serve", hint=hint)
    if not (root / MARKER).is_file():
        err(f"note: {root} was not built by `spacealert pack build`; serving it anyway")
    try:
        server = PreviewServer(root, port)
    except OSError as error:
        raise UsageError(f"cannot listen on 127.0.0.1:{port}: {error.strerror}",
                         hint="choose another --port (0 picks a free one)") from None
    typer.echo(server.url)
    err(f"serving {root} on {server.url} (Ctrl+C stops)")
    with server:
        if not watch:
            server.serve_forever()
            return
        _serve_and_watch(server, path, root, options, interval, baseline)


def _serve_and_watch(server: PreviewServer, pack: Path, root: Path, options: BuildOptions,
                     interval: float, baseline: Snapshot) -> None:
    """Serves from a thread and rebuilds in this one (Ctrl-C then stops a build cleanly)."""
    import threading

    from authoring.publish.watch import Rebuild, watch

    def report(rebuild: Rebuild) -> None:
        what = ", ".join(rebuild.changed[:3]) + (" …" if len(rebuild.changed) > 3 else "")
        if rebuild.error is not None:
            err(f"rebuild after {what} failed (still serving the last good site): "
                f"{rebuild.error.message}")
            return
        err(f"rebuilt after {what}")

    stop = threading.Event()
    server.start_in_background()
    err(f"watching {pack} for changes")
    try:
        watch(pack, root, options, report, stop, interval, baseline)
    finally:
        stop.set()
        server.shutdown()


@app.command("new")
@reports_errors
def new(
    folder: Annotated[Path, typer.Argument(help="The new pack folder.", show_default=False,
                                           metavar="DIR")],
    title: Annotated[str | None, typer.Option(
        "--title", show_default=False, metavar="TEXT",
        help="The pack's title (default: from the folder name).")]
        = None,
) -> None:
    """Start a pack: pack.yaml and one example mission that builds as it is.

    Refuses a folder that exists and is not empty.
    """
    from authoring.publish import new_pack

    for written in new_pack(folder, title):
        typer.echo(str(written))
    err(f"next: spacealert pack build {folder}")
