"""What ``validate`` checks beyond the format: whether the mission can be played as written.

``validate`` answers "can this file be played?"; ``lint`` answers "does it follow the official
norms?" and includes everything ``validate`` reports. A mission is unplayable as written when:

* the format checks fail (S0xx syntax, S1xx schema, M001-M004 phases and event times);
* a pinned threat card is unknown, of the wrong kind for its event, or pinned twice (M005):
  the rules engine could not deal the threats;
* a turn carries more threats than the profile allows (M105, ``shared-threat-turn``): the
  cards of one turn would resolve in one step, which the profile's decks and rules exclude.

Lint's other errors (timing, audio, difficulty) are matters of the track and stay lint's.
"""

from __future__ import annotations

from authoring.engine.setup import pinned_card_problems
from authoring.lint.config import LintConfig
from authoring.lint.linter import Linter
from authoring.mission.load import Document
from authoring.mission.model import Mission
from authoring.mission.problem import Problem

#: Lint rules whose errors make a mission unplayable; ``validate`` runs them too.
PLAYABILITY_RULES: tuple[str, ...] = ("M105",)

PINNED_CARD = ("M005", "pinned-card")


def card_problems(doc: Document | None, mission: Mission) -> list[Problem]:
    """M005 problems at each offending ``card:`` value (1:1 without a document)."""
    found = []
    for index, message in pinned_card_problems(mission):
        line, col = doc.locate(["events", index, "threat", "card"]) if doc else (1, 1)
        found.append(Problem(doc.file if doc else mission.source, line, col, *PINNED_CARD,
                             message, hint="remove `card:` to draw it at play time",
                             path=f"$.events[{index}].threat.card"))
    return found


def playability_problems(doc: Document, mission: Mission) -> list[Problem]:
    """The problems that make a format-valid mission unplayable (see the module docstring)."""
    rules = Linter(LintConfig(select=PLAYABILITY_RULES)).lint_document(doc)
    return sorted([*card_problems(doc, mission),
                   *(p for p in rules if p.code in PLAYABILITY_RULES and p.severity == "error")])
