"""The briefing of a whole campaign (docs/rules.md §18): an overview, then one briefing per
mission.

The first page names the campaign and lists its missions in playing order with the campaign's
deck choice, soundtrack and story; then each mission's briefing (the single-mission briefing's
facts, timeline and events, with the campaign's decks and player count) starts on a new page
under a strip that lists every mission of the campaign with the current one in bold.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from authoring._files import write_atomic
from authoring.crew import choose_crew
from authoring.mission.campaign import Campaign
from authoring.mission.model import Mission
from authoring.render.campaign_log import campaign_log_context
from authoring.render.env import make_environment
from authoring.render.pdf import html_to_pdf
from authoring.render.sheets import Difficulty, Paper, SheetOptions, sheet_context

#: Rates a mission for its briefing's difficulty box (``spacealert sheets --rate``).
Rater = Callable[[Mission], Difficulty]


def campaign_briefing_context(campaign: Campaign, paper: str = "a4",
                              players: int | None = None,
                              rate: Rater | None = None,
                              figures: int | None = None) -> dict[str, Any]:
    """Returns the template context: the campaign log's mission list and one briefing each.

    ``players`` and ``figures`` override every mission's crew (else the campaign's soundtrack
    choice, else the mission's; ``authoring.crew.choose_crew``).
    """
    context = campaign_log_context(campaign, paper)
    context["kind"] = "campaign-briefing"
    context["campaign_title"] = campaign.title
    briefings = []
    for number, entry in enumerate(campaign.missions, 1):
        crew = choose_crew(entry.crew, players, figures)
        # the briefing and its rating are for the crew at the table
        mission = dataclasses.replace(entry.mission, players=crew.players, figures=crew.figures)
        options = SheetOptions("briefing", cast(Paper, paper),
                               difficulty=rate(mission) if rate else None)
        one = sheet_context(mission, options)
        briefings.append({"number": number, "mission": entry.mission,
                          "announcement": entry.announcement, "facts": one["facts"],
                          "picture": one["picture"], "events": one["events"],
                          "difficulty": one["difficulty"]})
        context.setdefault("zone_fill", one["zone_fill"])
        context.setdefault("zone_stroke", one["zone_stroke"])
    context["briefings"] = briefings
    return context


def campaign_briefing_html(campaign: Campaign, paper: str = "a4",
                           templates: Sequence[Path] = (), players: int | None = None,
                           rate: Rater | None = None, figures: int | None = None) -> str:
    """Returns the campaign briefing as one self-contained HTML page."""
    env = make_environment(tuple(templates))
    return env.get_template("campaign-briefing.html.j2").render(
        campaign_briefing_context(campaign, paper, players, rate, figures))


def build_campaign_briefing(campaign: Campaign, target: Path, *, paper: str = "a4",
                            templates: Sequence[Path] = (), players: int | None = None,
                            rate: Rater | None = None, figures: int | None = None) -> None:
    """Writes the campaign briefing to ``target``: PDF for ``.pdf``, HTML otherwise."""
    html = campaign_briefing_html(campaign, paper, templates, players, rate, figures)
    if target.suffix.lower() == ".pdf":
        write_atomic(target, html_to_pdf(html))
    else:
        write_atomic(target, html.encode("utf-8"))
