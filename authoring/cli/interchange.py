"""``spacealert import`` and ``spacealert export``: missions from and for other tools."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from authoring import __version__
from authoring.cli._common import FiguresOption, PlayersOption, err, reports_errors
from authoring.crew import choose_crew, crew_size
from authoring.errors import UsageError
from authoring.generate.interchange import EXPORTERS, IMPORTERS, export_mission, import_file
from authoring.generate.interchange.exporting import lost_in_export
from authoring.generate.interchange.mission_yaml import mission_yaml
from authoring.generate.output import write_text_atomic
from authoring.mission.model import PROFILES

app = typer.Typer()


def _pick(value: str, allowed: list[str] | tuple[str, ...], option: str) -> str:
    if value not in allowed:
        raise UsageError(f"{option}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


def _emit(text: str, output: Path | None) -> None:
    if output is None:
        typer.echo(text, nl=False)
    else:
        write_text_atomic(output, text)
        err(f"wrote {output}")


@app.command("import")
@reports_errors
def import_(
    source: Annotated[Path, typer.Argument(help="The file to convert.", show_default=False)],
    fmt: Annotated[str, typer.Option(
        "--from", help=f"Its format: {', '.join(IMPORTERS)}.", show_default=False)],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Mission file to write (default stdout).",
        show_default=False)] = None,
    profile: Annotated[str | None, typer.Option(
        "--profile", help="Profile of the mission (default: guessed from the phases and "
                          "threats).", show_default=False)] = None,
    players: PlayersOption = None,
    figures: FiguresOption = None,
    force: Annotated[bool, typer.Option(
        "--force", hidden=True, help="Accepted for old scripts: outputs are always replaced.")]
        = False,
) -> None:
    """Convert a mission from another tool's format into a mission file.

    Formats: JSAMG XML and text output, Flash-player code, MartinAltmayer's scripts and
    paploo's JSON transcriptions. A malformed file gives one error with its line and column.
    """
    _pick(fmt, list(IMPORTERS), "--from")
    if profile is not None:
        _pick(profile, PROFILES, "--profile")
    mission = import_file(source, fmt, profile=profile)  # type: ignore[arg-type]
    # the formats do not say who plays: 5 players (which plays the unconfirmed reports)
    crew = choose_crew(mission.crew, players, figures)
    if crew != mission.crew:
        mission = replace(mission, players=crew.players,
                          figures=None if crew == crew_size(crew.players) else crew.figures)
    header = [f"Imported from {source.name} ({fmt}) by spacealert {__version__}.",
              "Phase ends follow the official convention: the moment the countdown ends."]
    _emit(mission_yaml(mission, header), output)


@app.command("export")
@reports_errors
def export(
    mission: Annotated[Path, typer.Argument(help="The mission file.", show_default=False)],
    fmt: Annotated[str, typer.Option(
        "--to", help=f"Format to write: {', '.join(EXPORTERS)}.", show_default=False)],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="File to write (default stdout).", show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", hidden=True, help="Accepted for old scripts: outputs are always replaced.")]
        = False,
) -> None:
    """Write a mission in a format other players read (Flash-player code, JSAMG XML).

    These formats hold the phase ends and timed events only: what they cannot hold is listed
    on stderr, with the import options that bring back what matters for play.
    """
    _pick(fmt, list(EXPORTERS), "--to")
    from authoring.lint.playability import load_playable_mission

    loaded = load_playable_mission(mission)
    _emit(export_mission(loaded, fmt), output)
    lost, options = lost_in_export(loaded, fmt)
    if lost:
        err(f"note: {fmt} cannot hold {'; '.join(lost)}")
    if options:
        err(f"note: to read it back as it was: spacealert import FILE --from {fmt} "
            f"{' '.join(options)}")
