"""Lints exploration campaigns (docs/rules.md §18): the file, its missions and how they chain.

A campaign is validated like a mission file (schema problems, missing or invalid missions);
each mission it names is linted with the usual rules in its own file, unless that file is
linted anyway; then the campaign rules look at the missions in order:

* ``C101 difficulty-falls-off`` (warning): a mission's chosen decks are easier than the
  previous mission's. Carried-over damage already makes later missions harder, but a campaign
  whose cards get easier plays as an anticlimax.
* ``C102 repeated-mission`` (warning): the same mission file twice in one campaign.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from authoring.lint.problem import Problem
from authoring.mission.campaign import Campaign, check_campaign, mission_refs
from authoring.mission.load import Document, read_document
from authoring.mission.schema import schema_problems

#: Deck colours from the easiest to the hardest.
_DECK_RANK = {"white": 0, "mixed": 1, "yellow": 2}

#: The codes of the campaign rules (not in the mission rule registry: they see several files).
CAMPAIGN_RULES = {"C101": "difficulty-falls-off", "C102": "repeated-mission"}

LintFile = Callable[[Document], list[Problem]]


def campaign_rules(campaign: Campaign, doc: Document) -> list[Problem]:
    """Returns the findings of the campaign rules (C1xx) for a valid campaign."""
    found: list[Problem] = []
    previous: tuple[int, int] | None = None
    seen: dict[str, int] = {}
    for index, entry in enumerate(campaign.missions):
        decks = entry.mission.decks
        rank = (_DECK_RANK[decks.common], _DECK_RANK[decks.serious])
        if previous is not None and sum(rank) < sum(previous):
            line, col = doc.locate(["missions", index])
            found.append(Problem(
                doc.file, line, col, "C101", CAMPAIGN_RULES["C101"],
                f"mission {index + 1} ({entry.reference}) plays easier decks "
                f"({decks.common}/{decks.serious}) than mission {index}",
                severity="warning", path=f"$.missions[{index}]",
                hint="choose the same or harder decks for later missions"))
        previous = rank
        key = str(Path(entry.file))
        if key in seen:
            line, col = doc.locate(["missions", index, "mission"])
            found.append(Problem(
                doc.file, line, col, "C102", CAMPAIGN_RULES["C102"],
                f"mission {entry.reference!r} is already mission {seen[key] + 1} of the "
                "campaign", severity="warning", path=f"$.missions[{index}].mission"))
        else:
            seen[key] = index
    return found


def lint_campaign(doc: Document, path: Path, lint_file: LintFile,
                  skip: Iterable[Path] = ()) -> list[tuple[str, list[Problem], str]]:
    """Lints a campaign document; returns (file, problems, text) for it and its missions.

    ``lint_file`` lints one mission document; missions whose resolved path is in ``skip`` are
    not linted again (they are linted on their own).
    """
    if not doc.ok:
        return [(doc.file, sorted(doc.problems), doc.text)]
    problems = schema_problems(doc, "campaign")
    if problems:
        return [(doc.file, problems, doc.text)]
    skipped = {p.resolve() for p in skip}
    results: list[tuple[str, list[Problem], str]] = []
    own: list[Problem] = []
    for ref in mission_refs(doc, path):
        if ref.path is None:
            if ref.problem is not None:
                own.append(ref.problem)
            continue
        if ref.path.resolve() in skipped:
            continue
        skipped.add(ref.path.resolve())
        mission_doc = read_document(ref.path, display=ref.shown)
        results.append((ref.shown, lint_file(mission_doc), mission_doc.text))
    campaign, checked = check_campaign(doc, path)
    if campaign is None:
        own.extend(p for p in checked if p.file == doc.file and p not in own)
    else:
        own.extend(campaign_rules(campaign, doc))
    return [(doc.file, sorted(own), doc.text), *results]
