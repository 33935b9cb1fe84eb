"""Validates a parsed document as a mission: the one check that missions and campaigns share."""

from __future__ import annotations

from authoring.mission.build import build_mission
from authoring.mission.load import Document
from authoring.mission.model import Mission
from authoring.mission.problem import Problem
from authoring.mission.schema import schema_problems


def check_mission(doc: Document) -> tuple[Mission | None, list[Problem]]:
    """Validates a parsed document as a mission: parse, schema and semantic problems, sorted."""
    if not doc.ok:
        return None, list(doc.problems)
    problems = schema_problems(doc, "mission")
    if problems:
        return None, problems
    mission, semantic = build_mission(doc)
    if semantic:
        return None, sorted(semantic)
    return mission, []
