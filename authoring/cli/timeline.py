"""``spacealert timeline``: prints every cue of a mission's soundtrack with its start time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from authoring.cli._common import FiguresOption, PlayersOption, reports_errors
from authoring.crew import choose_crew
from authoring.lint.playability import load_playable_mission
from authoring.mission.timecode import format_ms
from authoring.mission.timeline import compile_timeline

app = typer.Typer()

_SOUND_LABELS = {"chirp": "[start chirp]", "transfer_beep": "[beep]", "static": "[static]"}


@app.command()
@reports_errors
def timeline(
    mission: Annotated[Path, typer.Argument(help="The mission file.", show_default=False)],
    players: PlayersOption = None,
    figures: FiguresOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Emit the timeline as JSON.")] = False,
) -> None:
    """Print the compiled timeline: every cue the soundtrack will contain, in ms.

    Includes the derived cues: the start announcement, the one-minute and twenty-second
    warnings, the end-of-phase countdowns, communications restored and the operation end.
    """
    loaded = load_playable_mission(mission)
    crew = choose_crew(loaded.crew, players, figures)
    compiled = compile_timeline(loaded, crew)
    if as_json:
        typer.echo(json.dumps(compiled.to_dict(), indent=2, ensure_ascii=False))
        return
    typer.echo(f"# {compiled.mission_id}, {crew.describe()}, "
               f"{len(compiled.cues)} cues")
    for cue in compiled.cues:
        label = cue.text or _SOUND_LABELS.get(cue.kind, cue.kind)
        if cue.until_ms is not None:
            label += f" until {format_ms(cue.until_ms)}"
        typer.echo(f"{format_ms(cue.start_ms):>10}  P{cue.phase}  {cue.kind:<22} {label}")
