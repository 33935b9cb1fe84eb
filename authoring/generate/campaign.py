"""Generates an exploration campaign (docs/rules.md §18): calibrated missions in a row.

The missions are generated with consecutive seeds and the same options except the decks,
which get harder from mission to mission (white, then mixed, then yellow common cards), as a
campaign should: the crew also carries its damage forward.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from authoring.generate.generator import generate_mission
from authoring.generate.options import GenerateOptions
from authoring.mission.load import dump_yaml

#: Common-deck colour of each mission of a generated campaign, from the first.
CAMPAIGN_DECKS: tuple[tuple[str, str], ...] = (("white", "white"), ("mixed", "white"),
                                               ("yellow", "mixed"))


@dataclass(frozen=True)
class GeneratedCampaign:
    """A generated campaign file and its missions' files, by file name."""

    campaign_name: str
    campaign_text: str
    missions: tuple[tuple[str, str], ...]  # (file name, mission text)


def generate_campaign(base: GenerateOptions, missions: int = 3) -> GeneratedCampaign:
    """Generates ``missions`` missions (seeds ``seed``, ``seed + 1`` …) and their campaign."""
    from authoring.generate import generated_text

    if not 1 <= missions <= len(CAMPAIGN_DECKS):
        raise ValueError(f"expected 1 to {len(CAMPAIGN_DECKS)} missions, got {missions}")
    files: list[tuple[str, str]] = []
    entries = []
    for number in range(missions):
        common, serious = CAMPAIGN_DECKS[number]
        options = replace(base, seed=base.seed + number, decks=common)  # type: ignore[arg-type]
        name = f"{base.profile}-{options.seed}.yaml"
        files.append((name, generated_text(generate_mission(options))))
        entry = {"mission": name, "decks": {"common": common, "serious": serious},
                 "soundtrack": {"players": base.players}}
        if number:
            entry["announcement"] = (f"Mission {number + 1} of {missions}. Whatever you did not "
                                     "repair is still broken.")
        entries.append(entry)
    data = {
        "campaign": 1,
        "id": f"generated-campaign-{base.seed}",
        "title": f"Generated campaign {base.seed}",
        "author": "spacealert generate",
        "description": f"{missions} generated missions in a row with one ship, harder decks "
                       "from mission to mission.",
        "language": "en",
        "missions": entries,
    }
    header = (f"# Generated campaign: spacealert generate --campaign --missions {missions}, "
              f"seed {base.seed}.\n")
    return GeneratedCampaign("campaign.yaml", header + dump_yaml(data), tuple(files))
