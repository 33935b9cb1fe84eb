"""What ``resolve`` and ``simulate`` need for campaign files (docs/rules.md §18).

A campaign file is told from a mission by its top-level key ``campaign``; a campaign plan
file by ``campaign_plan`` (``schemas/campaign-plan.schema.json``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import typer

from authoring.engine import Plan, parse_plan, parse_repairs, setup_from_mission
from authoring.engine.rules.campaign import (
    CampaignResult,
    format_campaign,
    resolve_campaign,
)
from authoring.errors import InvalidInputError, UsageError
from authoring.mission import Campaign, is_campaign, load_document, read_document


def campaign_or_none(path: Path) -> Campaign | None:
    """Loads ``path`` as a campaign when it is one (top-level key ``campaign``), else None."""
    doc = read_document(path)
    if not is_campaign(doc):
        return None
    from authoring.lint.playability import load_playable_campaign

    return load_playable_campaign(path)  # its chosen decks can deal every mission (M007)


def load_plan(path: Path) -> Plan:
    """Reads a plan file: YAML/JSON checked against the plan schema, or the compact text form."""
    if path.suffix == ".txt":
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as error:
            raise InvalidInputError(f"{path}: cannot read the plan: {error.strerror}") from None
        return parse_plan(text)
    return Plan.from_mapping(load_document(path, "plan").data)


def _plan_entry(value: Any, folder: Path, where: str) -> Plan:
    if isinstance(value, str):
        return load_plan(folder / value)
    try:
        return Plan.from_mapping(value)
    except ValueError as error:
        raise InvalidInputError(f"{where}: {error}") from None


CampaignPlans = tuple[list[Plan], list[Mapping[str, str] | None], list[str | None]]


def load_campaign_plans(plans: Sequence[Path], repairs: Sequence[str]) -> CampaignPlans:
    """Returns the plans, repair choices and squad stations from the command line.

    Either one campaign plan file (key ``campaign_plan``), or one plan file per mission with
    ``--repairs`` once per step between missions (missing: the stated policy).
    """
    if len(plans) == 1 and plans[0].suffix != ".txt":
        doc = read_document(plans[0])
        if isinstance(doc.data, Mapping) and "campaign_plan" in doc.data:
            if repairs:
                raise UsageError("--repairs goes with plan files; a campaign plan file holds "
                                 "its own repairs")
            data = load_document(plans[0], "campaign-plan").data
            found: list[Plan] = []
            chosen: list[Mapping[str, str] | None] = []
            stations: list[str | None] = []
            for index, entry in enumerate(data["missions"]):
                where = f"{plans[0]}: missions[{index}]"
                found.append(_plan_entry(entry["plan"], plans[0].parent, where))
                raw = entry.get("repairs")
                chosen.append(None if raw is None else {str(k): str(v) for k, v in raw.items()})
                stations.append(entry.get("squads"))
            return found, chosen[:-1], stations[:-1]
    found = [load_plan(path) for path in plans]
    if len(repairs) > max(0, len(found) - 1):
        raise UsageError(f"expected at most {max(0, len(found) - 1)} --repairs (one per step "
                         f"between missions), got {len(repairs)}")
    return found, [parse_repairs(text) for text in repairs], []


def resolve_campaign_files(campaign: Campaign, plans: Sequence[Path], repairs: Sequence[str],
                           *, trace: bool = False) -> CampaignResult:
    """Resolves a campaign with the plans and repairs given on the command line."""
    found, chosen, stations = load_campaign_plans(plans, repairs)
    if len(found) > len(campaign.missions):
        raise UsageError(f"expected at most {len(campaign.missions)} plans (one per mission "
                         f"of {campaign.id}), got {len(found)}")
    try:
        setups = [setup_from_mission(entry.mission, plan)
                  for entry, plan in zip(campaign.missions, found, strict=False)]
        return resolve_campaign(setups, found, chosen, stations, trace=trace)
    except ValueError as error:  # EngineError: a plan or a repair the rules refuse
        raise InvalidInputError(f"{campaign.source}: {error}") from None


def print_campaign(campaign: Campaign, result: CampaignResult, *, as_json: bool) -> None:
    """Prints a campaign result as text or JSON."""
    if as_json:
        data = result.to_dict()
        data["campaign"] = campaign.id
        for record, entry in zip(data["missions"], campaign.missions, strict=False):
            record["mission"] = entry.mission.id
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    typer.echo(f"# Campaign {campaign.id}: {campaign.title}")
    titles = [f"mission {i}: {e.mission.title} ({e.mission.id})"
              for i, e in enumerate(campaign.missions, 1)]
    typer.echo("# " + "; ".join(titles))
    typer.echo(format_campaign(result), nl=False)
