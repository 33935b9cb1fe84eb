"""Reads exploration-campaign files: up to three missions played in a row (docs/rules.md §18).

A campaign file is a YAML mapping with the top-level key ``campaign: 1`` (that key is what
tells it from a mission file); ``schemas/campaign.schema.json`` is its contract. Each entry
names a mission file (a path relative to the campaign file) or a mission id of a file in the
campaign's folder, and may choose that mission's deck difficulty, its soundtrack (players,
voice) and a story announcement played before it.

Problems of the campaign file are located in it; problems of a referenced mission are the
mission's own, located in the mission file.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring.crew import CrewSize, CrewSizeError, choose_crew
from authoring.mission.check import check_mission
from authoring.mission.load import Document, read_document
from authoring.mission.model import Decks, Mission
from authoring.mission.problem import Problem
from authoring.mission.schema import schema_problems

#: Suffixes that make a mission reference a path rather than an id.
PATH_SUFFIXES = (".yaml", ".yml")


@dataclass(frozen=True)
class CampaignMission:
    """One mission of a campaign, with the choices the campaign makes for it."""

    mission: Mission  # its decks are the campaign's choice
    reference: str  # as written in the campaign file
    file: str  # the mission file, as displayed in messages
    players: int | None = None  # soundtrack rendered for this many players (None: mission's)
    voice: str | None = None
    announcement: str = ""  # story text played before this mission
    figures: int | None = None  # players + androids (None: the mission's, or the fewest legal)

    @property
    def crew(self) -> CrewSize:
        """The crew this mission is played with (``authoring.crew.choose_crew``)."""
        return choose_crew(self.mission.crew, self.players, self.figures)


@dataclass(frozen=True)
class Campaign:
    """A validated campaign: metadata and its missions in playing order."""

    id: str
    title: str
    missions: tuple[CampaignMission, ...]
    author: str = ""
    description: str = ""
    language: str = "en"
    source: str = ""


def is_campaign(doc: Document) -> bool:
    """Tells whether a parsed document is a campaign (top-level key ``campaign``)."""
    return isinstance(doc.data, Mapping) and "campaign" in doc.data


def _mission_ids(folder: Path, skip: Path) -> dict[str, Path]:
    """Returns ``{id: path}`` of the mission files in ``folder`` (a pack), sorted by path."""
    found: dict[str, Path] = {}
    for path in sorted(folder.rglob("*")):
        if path.suffix not in PATH_SUFFIXES or not path.is_file() or path == skip:
            continue
        doc = read_document(path)
        data = doc.data
        if doc.ok and isinstance(data, Mapping) and "campaign" not in data \
                and isinstance(data.get("id"), str) and "events" in data:
            found.setdefault(str(data["id"]), path)
    return found


@dataclass(frozen=True)
class MissionRef:
    """Where a campaign entry's mission is: its file, or None when it cannot be found."""

    index: int
    reference: str
    path: Path | None
    shown: str  # the mission file as displayed in messages
    problem: Problem | None  # why it cannot be found


def mission_refs(doc: Document, path: str | Path) -> list[MissionRef]:
    """Finds the mission file of every entry of a schema-valid campaign document."""
    folder = Path(path).parent
    shown_folder = os.path.dirname(doc.file)
    ids: dict[str, Path] | None = None
    refs: list[MissionRef] = []
    for index, raw in enumerate(doc.data["missions"]):
        reference = str(raw["mission"])
        line, col = doc.locate(["missions", index, "mission"])
        where = f"$.missions[{index}].mission"
        if reference.endswith(PATH_SUFFIXES):
            mission_path = folder / reference
            shown = os.path.normpath(os.path.join(shown_folder, reference))
            if not mission_path.is_file():
                refs.append(MissionRef(index, reference, None, shown, Problem(
                    doc.file, line, col, "C001", "missing-mission",
                    f"mission file {reference!r} does not exist",
                    hint="paths are relative to the campaign file", path=where)))
                continue
        else:
            if ids is None:
                ids = _mission_ids(folder, Path(path))
            if reference not in ids:
                known = ", ".join(sorted(ids)) or "none"
                refs.append(MissionRef(index, reference, None, reference, Problem(
                    doc.file, line, col, "C001", "missing-mission",
                    f"no mission with id {reference!r} in the campaign's folder",
                    hint=f"known ids: {known}; or give a path ending in .yaml", path=where)))
                continue
            mission_path = ids[reference]
            shown = os.path.normpath(os.path.join(shown_folder,
                                                  os.path.relpath(mission_path, folder)))
        refs.append(MissionRef(index, reference, mission_path, shown, None))
    return refs


def check_campaign(doc: Document, path: str | Path) -> tuple[Campaign | None, list[Problem]]:
    """Validates a parsed campaign document and every mission it names.

    ``path`` is the campaign file on disk (mission paths are relative to its folder). Returns
    the campaign, or None with every problem found: the campaign's first, then each invalid
    mission's own, located in the mission file.
    """
    if not doc.ok:
        return None, list(doc.problems)
    problems = schema_problems(doc, "campaign")
    if problems:
        return None, problems
    data = doc.data
    entries: list[CampaignMission] = []
    own: list[Problem] = []
    theirs: list[Problem] = []
    for ref in mission_refs(doc, path):
        if ref.path is None:
            if ref.problem is not None:
                own.append(ref.problem)
            continue
        mission, found = check_mission(read_document(ref.path, display=ref.shown))
        if mission is None:
            theirs.extend(found)
            line, col = doc.locate(["missions", ref.index, "mission"])
            own.append(Problem(doc.file, line, col, "C002", "invalid-mission",
                               f"mission {ref.reference!r} is invalid ({len(found)} "
                               f"problem{'s' if len(found) > 1 else ''} in {ref.shown})",
                               path=f"$.missions[{ref.index}].mission"))
            continue
        entry = _entry(data["missions"][ref.index], mission, ref.reference, ref.shown)
        try:
            # checked once here, so that every later ``entry.crew`` is legal
            choose_crew(entry.mission.crew, entry.players, entry.figures)
        except CrewSizeError as error:
            key = "figures" if entry.figures is not None else "players"
            line, col = doc.locate(["missions", ref.index, "soundtrack", key])
            own.append(Problem(doc.file, line, col, "M006", "crew-size", str(error),
                               path=f"$.missions[{ref.index}].soundtrack.{key}"))
            continue
        entries.append(entry)
    if own or theirs:
        return None, sorted(own) + theirs
    return Campaign(
        id=str(data["id"]), title=str(data["title"]), missions=tuple(entries),
        author=str(data.get("author", "")), description=str(data.get("description", "")),
        language=str(data.get("language", "en")), source=doc.file), []


def _entry(raw: Mapping[str, Any], mission: Mission, reference: str,
           shown: str) -> CampaignMission:
    decks = raw.get("decks") or {}
    chosen = Decks(common=decks.get("common", mission.decks.common),
                   serious=decks.get("serious", mission.decks.serious),
                   expansion=bool(decks.get("expansion", mission.decks.expansion)))
    soundtrack = raw.get("soundtrack") or {}
    players = soundtrack.get("players")
    figures = soundtrack.get("figures")
    voice = soundtrack.get("voice")
    return CampaignMission(
        mission=dataclasses.replace(mission, decks=chosen), reference=reference, file=shown,
        players=int(players) if players is not None else None,
        voice=str(voice) if voice is not None else None,
        announcement=str(raw.get("announcement", "")),
        figures=int(figures) if figures is not None else None)
