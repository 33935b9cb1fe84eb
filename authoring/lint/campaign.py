"""Lints exploration campaigns (docs/rules.md §18): the file, its missions and how they chain.

A campaign is validated like a mission file (schema problems, ``C001`` missing and ``C002``
invalid missions); each mission it names is linted with the usual rules in its own file,
unless that file is linted anyway; then the enabled campaign rules (family C, one module each
under ``authoring/lint/rules/campaign/``, selected and configured like every other rule) look
at the missions in order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path

from authoring.lint.problem import Problem
from authoring.mission.campaign import Campaign, check_campaign, mission_refs
from authoring.mission.load import Document, read_document
from authoring.mission.schema import schema_problems

LintFile = Callable[[Document], list[Problem]]
#: Runs the enabled campaign rules on a valid campaign (``Linter.lint_campaign_rules``).
CampaignRules = Callable[[Campaign, Document], list[Problem]]


def lint_campaign(doc: Document, path: Path, lint_file: LintFile,
                  campaign_rules: CampaignRules,
                  skip: Iterable[Path] = ()) -> list[tuple[str, list[Problem], str]]:
    """Lints a campaign document; returns (file, problems, text) for it and its missions.

    ``lint_file`` lints one mission document, ``campaign_rules`` runs the C rules on the
    valid campaign; missions whose resolved path is in ``skip`` are not linted again (they
    are linted on their own).
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
        from authoring.lint.playability import campaign_deck_problems

        own.extend(campaign_rules(campaign, doc))
        own.extend(campaign_deck_problems(doc, campaign))
    return [(doc.file, sorted(own), doc.text), *results]
