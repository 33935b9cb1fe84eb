"""The mission contract: file format, schema validation, model and compiled timeline."""

from __future__ import annotations

from pathlib import Path

from authoring.errors import InvalidInputError
from authoring.mission.campaign import Campaign, CampaignMission, check_campaign, is_campaign
from authoring.mission.check import check_mission
from authoring.mission.load import Document, parse_document, read_document
from authoring.mission.model import Mission
from authoring.mission.problem import Problem
from authoring.mission.schema import schema_problems

__all__ = [
    "Campaign",
    "CampaignMission",
    "Document",
    "InvalidFileError",
    "Mission",
    "Problem",
    "check_campaign",
    "check_mission",
    "is_campaign",
    "load_campaign",
    "load_document",
    "load_mission",
    "parse_document",
    "read_document",
]


class InvalidFileError(InvalidInputError):
    """A file does not hold a valid mission (or plan); carries every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        first = problems[0]
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{first.location()}: {first.code} {first.message}{more}",
                         hint=first.hint)
        self.problems = problems


def load_mission(path: str | Path, *, display: str | None = None) -> Mission:
    """Reads, validates and builds a mission; raises ``InvalidFileError`` with all problems."""
    mission, problems = check_mission(read_document(path, display=display))
    if mission is None:
        raise InvalidFileError(problems)
    return mission


def load_document(path: str | Path, schema: str, *, display: str | None = None) -> Document:
    """Reads a YAML file and validates it against ``schemas/<schema>.schema.json``.

    Used for the other data contracts (plans, voices, packs, lint config); raises
    ``InvalidFileError`` with every problem located as file:line:col.
    """
    doc = read_document(path, display=display)
    problems = list(doc.problems) or schema_problems(doc, schema)
    if problems:
        raise InvalidFileError(problems)
    return doc


def load_campaign(path: str | Path, *, display: str | None = None) -> Campaign:
    """Reads and validates a campaign and its missions; raises ``InvalidFileError``."""
    doc = read_document(path, display=display)
    campaign, problems = check_campaign(doc, path)
    if campaign is None:
        raise InvalidFileError(problems)
    return campaign
