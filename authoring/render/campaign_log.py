"""The campaign log sheet (docs/rules.md §18): one block per mission to fill in at the table.

Per mission: its decks and soundtrack, the damage tokens and squads carried over (tick boxes
per zone and token), the threat and visual-confirmation points, the repairs each seat makes,
and at the end the campaign score worked out as the rules say.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from authoring._files import write_atomic
from authoring.engine.rules.ship import TOKEN_NAMES
from authoring.mission.campaign import Campaign
from authoring.render.env import make_environment
from authoring.render.pdf import html_to_pdf
from authoring.render.sheets import PAPERS, deck_words


def campaign_log_context(campaign: Campaign, paper: str = "a4") -> dict[str, Any]:
    """Returns the template context of the campaign log."""
    entries = []
    for number, entry in enumerate(campaign.missions, 1):
        mission = entry.mission
        entries.append({
            "number": number, "id": mission.id, "title": mission.title,
            "decks": deck_words(mission.decks),
            "soundtrack": entry.crew.describe() + (f", voice {entry.voice}" if entry.voice
                                                   else ""),
            "announcement": entry.announcement,
        })
    return {
        # base.html.j2 reads title, id, author and language from ``mission``
        "mission": campaign, "kind": "campaign-log", "paper": paper,
        "page_size": PAPERS[paper], "entries": entries,
        "zones": ("red", "white", "blue"),
        "tokens": tuple(name.replace("-", " ") for name in TOKEN_NAMES),
        # players and androids: up to five figures (docs/rules.md §16)
        "seats": [f"seat {n}" + (" (captain)" if n == 1 else "") for n in range(1, 6)],
    }


def campaign_log_html(campaign: Campaign, paper: str = "a4",
                      templates: tuple[Path, ...] = ()) -> str:
    """Returns the campaign log as a self-contained HTML page."""
    env = make_environment(templates)
    return env.get_template("campaign-log.html.j2").render(campaign_log_context(campaign, paper))


def build_campaign_log(campaign: Campaign, target: Path, *, paper: str = "a4",
                       templates: tuple[Path, ...] = ()) -> None:
    """Writes the campaign log to ``target``: PDF for ``.pdf``, HTML otherwise."""
    html = campaign_log_html(campaign, paper, templates)
    if target.suffix.lower() == ".pdf":
        write_atomic(target, html_to_pdf(html))
    else:
        write_atomic(target, html.encode("utf-8"))
