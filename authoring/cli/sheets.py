"""``spacealert sheets``: prints a mission's briefing, threat cards, comms-officer sheet or key."""

from __future__ import annotations

import dataclasses
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from authoring.cli._campaign import campaign_or_none
from authoring.cli._common import FiguresOption, PlayersOption, err, reports_errors
from authoring.crew import choose_crew
from authoring.errors import UsageError
from authoring.mission import Mission

if TYPE_CHECKING:
    from authoring.render.sheets import Difficulty

app = typer.Typer()


class Kind(StrEnum):
    """The sheet kinds."""

    briefing = "briefing"
    threats = "threats"
    comms_officer = "comms-officer"
    answer_key = "answer-key"
    campaign_log = "campaign-log"


class PaperSize(StrEnum):
    """The paper sizes."""

    a4 = "a4"
    letter = "letter"


def _difficulty(mission: Mission) -> Difficulty:
    """Rates the mission by simulation for the briefing's difficulty box."""
    # imported on use: every other command starts faster without them
    from authoring.cli._progress import simulation_progress
    from authoring.render.sheets import Difficulty
    from authoring.simulation.rating import rate_mission

    with simulation_progress("rating"):
        rating, why = rate_mission(mission)
    if rating is None:
        return Difficulty("not rated", why)
    survival_low, survival_high = rating.survival_interval
    # words for the table first; the model's figures below them, in the small print
    return Difficulty(
        f"{rating.in_words()} {rating.play()}.",
        f"That is {rating.compared()}.",
        (("how it was measured", f"{rating.value:.1f} ± {rating.margin:.1f} of 100 by "
          f"simulation (95 %); official missions 1-8: {rating.low:.1f}-{rating.high:.1f}"),
         ("survival, 95 %", f"{survival_low:.0%}-{survival_high:.0%}"),
         ("crew model", f"{rating.crew} (docs/simulation.md)")))


@app.command()
@reports_errors
def sheets(
    mission: Annotated[Path, typer.Argument(
        help="The mission file, or a campaign file for --kind briefing (an overview and "
        "one briefing per mission) or --kind campaign-log.",
        show_default=False)],
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", show_default=False, metavar="OUT",
        help="Output file, .pdf or .html (default: MISSION-KIND.pdf in the current folder).")]
        = None,
    kind: Annotated[Kind, typer.Option("--kind", "-k", help="Which sheet to print.")]
        = Kind.briefing,
    paper: Annotated[PaperSize, typer.Option("--paper", help="Paper size.")] = PaperSize.a4,
    seed: Annotated[int | None, typer.Option(
        "--seed", min=0, show_default=False, metavar="N",
        help="Answer key: draw the unpinned cards and trajectories with this seed.")] = None,
    players: PlayersOption = None,
    figures: FiguresOption = None,
    templates: Annotated[list[Path] | None, typer.Option(
        "--templates", show_default=False, metavar="DIR",
        help="A folder of templates that override the packaged ones (repeatable).")] = None,
    rate: Annotated[bool, typer.Option(
        "--rate", help="Briefing: add the difficulty rating from the linter's simulation "
        "(500 games: 10-20 s on two idle cores, about 40 s under load; a progress bar on a "
        "terminal).")] = False,
) -> None:
    """Print a mission sheet as PDF or HTML.

    briefing: title, profile, decks, trajectories and a timeline picture.
    threats: one block per threat card the mission's decks can bring up, with its tracks.
    comms-officer: every announcement in time order with a tick box.
    answer-key: the cards and trajectories of one draw (--seed N), for teaching.
    campaign-log (a campaign file): per mission the damage and squads carried over, the
    repairs, points and confirmation, and the campaign score, to fill in at the table.
    A campaign file with --kind briefing prints the campaign's missions in order, then each
    mission's briefing (with the campaign's decks and players) under a strip listing them.
    """
    target = output or Path(f"{mission.stem}-{kind.value}.pdf")
    if target.suffix.lower() not in (".pdf", ".html", ".htm"):
        raise UsageError(f"expected an output file ending in .pdf or .html, got {str(target)!r}")
    for folder in templates or []:
        if not folder.is_dir():
            raise UsageError(f"--templates: expected a folder, got {str(folder)!r}")
    campaign = campaign_or_none(mission)
    if campaign is None and kind is Kind.campaign_log:
        raise UsageError("--kind campaign-log goes with a campaign file")
    if campaign is not None and kind not in (Kind.briefing, Kind.campaign_log):
        raise UsageError(f"a campaign file prints --kind briefing or campaign-log, not "
                         f"{kind.value}", hint="print that sheet for each mission file")
    if campaign is not None and kind is Kind.campaign_log:
        from authoring.render.campaign_log import build_campaign_log

        if rate or players is not None or figures is not None or seed is not None:
            raise UsageError("--rate, --players, --figures and --seed do not apply to the "
                             "campaign log")
        build_campaign_log(campaign, target, paper=paper.value,
                           templates=tuple(templates or ()))
        err(f"wrote {target}")
        return
    if campaign is not None:
        from authoring.render.campaign_briefing import build_campaign_briefing

        if seed is not None:
            raise UsageError("--seed goes with --kind answer-key")
        build_campaign_briefing(campaign, target, paper=paper.value,
                                templates=tuple(templates or ()), players=players,
                                rate=_difficulty if rate else None, figures=figures)
        err(f"wrote {target} ({len(campaign.missions)} mission briefings)")
        return
    from authoring.lint.playability import load_playable_mission
    from authoring.render.build import build_sheet

    loaded = load_playable_mission(mission)  # no sheet of a mission the engine cannot deal
    crew = choose_crew(loaded.crew, players, figures)
    if crew != loaded.crew:  # the sheet and its rating are for the crew at the table
        loaded = dataclasses.replace(loaded, players=crew.players, figures=crew.figures)
    difficulty = None
    if rate:
        if kind is not Kind.briefing:
            raise UsageError("--rate goes with --kind briefing")
        difficulty = _difficulty(loaded)
    build_sheet(loaded, target, kind=kind.value, paper=paper.value, seed=seed,
                templates=tuple(templates or ()), difficulty=difficulty)
    err(f"wrote {target}")
