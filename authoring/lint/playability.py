"""What ``validate`` checks beyond the format: whether the mission can be played as written.

``validate`` answers "can this file be played?"; ``lint`` answers "does it follow the official
norms?" and includes everything ``validate`` reports. A mission is unplayable as written when:

* the format checks fail (S0xx syntax, S1xx schema, M001-M004 phases and event times, M006
  the crew size);
* a pinned threat card is unknown, of the wrong kind for its event, or pinned twice (M005):
  the rules engine could not deal the threats;
* a pile of the mission's decks holds fewer cards than the mission draws from it (M007): the
  red colour without the expansion, or expansion piles the engine's played cards cannot fill;
* a turn carries more threats than the profile allows (M105, ``shared-threat-turn``): the
  cards of one turn would resolve in one step, which the profile's decks and rules exclude.

Lint's other errors (timing, audio, difficulty) are matters of the track and stay lint's.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from authoring.mission import (
    InvalidFileError,
    check_campaign,
    check_mission,
    fast,
    is_campaign,
)
from authoring.mission.campaign import Campaign
from authoring.mission.fast import describe_error
from authoring.mission.load import Document, read_document
from authoring.mission.model import Mission
from authoring.mission.problem import Problem

#: Lint rules whose errors make a mission unplayable; ``validate`` runs them too.
PLAYABILITY_RULES: tuple[str, ...] = ("M105",)

PINNED_CARD = ("M005", "pinned-card")
DECK_SIZE = ("M007", "deck-size")
#: Cards in the smallest pile of the base game's decks (yellow serious internal,
#: docs/rules.md §19.9): a mission drawing no more from any pile needs no deck check.
SMALLEST_BASE_PILE = 5


def card_problems(doc: Document | None, mission: Mission) -> list[Problem]:
    """M005 problems at each offending ``card:`` value and M007 problems at each pile's
    ``decks`` colour (1:1 without a document)."""
    decks = mission.decks
    threats = list(mission.threats())
    piles = Counter((t.zone == "internal", t.serious) for t in threats)
    if all(t.card is None and t.bonus is None for t in threats) and not decks.expansion \
            and "red" not in (decks.common, decks.serious) \
            and max(piles.values(), default=0) <= SMALLEST_BASE_PILE:
        return []  # nothing pinned and the base piles suffice: no engine to load
    from authoring.engine.rules.decks import deck_problems
    from authoring.engine.rules.setup import pinned_bonus_problems, pinned_card_problems

    file = doc.file if doc else mission.source
    found = []
    for index, message in pinned_card_problems(mission):
        line, col = doc.locate(["events", index, "threat", "card"]) if doc else (1, 1)
        found.append(Problem(file, line, col, *PINNED_CARD,
                             message, hint="remove `card:` to draw it at play time",
                             path=f"$.events[{index}].threat.card"))
    for index, message in pinned_bonus_problems(mission):
        line, col = doc.locate(["events", index, "threat", "bonus"]) if doc else (1, 1)
        found.append(Problem(file, line, col, *PINNED_CARD, message,
                             hint="remove `bonus:` to draw it at play time",
                             path=f"$.events[{index}].threat.bonus"))
    for key, message in deck_problems(mission):
        # the colour's value, or the ``decks`` mapping when the colour is left at its default
        line, col = doc.locate(["decks", key]) if doc else (1, 1)
        found.append(Problem(file, line, col, *DECK_SIZE, message,
                             hint="docs/rules.md §19.9 lists the cards of each pile",
                             path=f"$.decks.{key}"))
    return found


def campaign_deck_problems(doc: Document, campaign: Campaign) -> list[Problem]:
    """M007 problems of a campaign's missions with the decks the campaign chose for them (an
    entry's ``decks`` replaces the mission's), located at the entry (docs/rules.md §19.9)."""
    from authoring.engine.rules.decks import deck_problems

    found = []
    for index, entry in enumerate(campaign.missions):
        for key, message in deck_problems(entry.mission):
            line, col = doc.locate(["missions", index, "decks", key])
            found.append(Problem(doc.file, line, col, *DECK_SIZE, f"{entry.file}: {message}",
                                 hint="docs/rules.md §19.9 lists the cards of each pile",
                                 path=f"$.missions[{index}].decks.{key}"))
    return found


def load_playable_campaign(path: str | Path) -> Campaign:
    """Reads a campaign whose missions the engine can deal with the decks it chose, or raises
    ``InvalidFileError`` as validate reports it."""
    doc = read_document(path)
    campaign, problems = check_campaign(doc, path)
    if campaign is None:
        raise InvalidFileError(problems)
    decks = campaign_deck_problems(doc, campaign)
    if decks:
        raise InvalidFileError(decks)
    return campaign


def load_playable_mission(path: str | Path, *, display: str | None = None) -> Mission:
    """Reads a mission that the engine can play, or raises ``InvalidFileError`` as validate
    reports it: the format's problems, else each mis-pinned card (M005) at its file:line:col.

    Every command that plays, prints, renders or converts a mission loads it through here, so
    that a card that does not fit its event is refused before any work starts, with the same
    message and location everywhere (not an engine error without a place, nor a sheet of a
    mission nobody can play).
    """
    doc = read_document(path, display=display)
    mission, problems = check_mission(doc)
    if mission is None:
        raise InvalidFileError(problems)
    return checked_cards(doc, mission)


def checked_cards(doc: Document, mission: Mission) -> Mission:
    """Returns ``mission`` when its pinned cards fit; raises ``InvalidFileError`` (M005)."""
    pinned = card_problems(doc, mission)
    if pinned:
        raise InvalidFileError(pinned)
    return mission


def playability_problems(doc: Document, mission: Mission) -> list[Problem]:
    """The problems that make a format-valid mission unplayable (see the module docstring)."""
    from authoring.lint.config import LintConfig
    from authoring.lint.linter import Linter

    rules = Linter(LintConfig(select=PLAYABILITY_RULES)).lint_document(doc)
    return sorted([*card_problems(doc, mission),
                   *(p for p in rules if p.code in PLAYABILITY_RULES and p.severity == "error")])


def _quick_playability(mission: Mission) -> bool:
    """Tells, without the document, whether a valid mission has any playability problem."""
    if card_problems(None, mission):
        return True
    turns = [threat.turn for threat in mission.threats()]
    if PLAYABILITY_RULES == ("M105",) and len(turns) == len(set(turns)):
        # M105 only ever reports the second and later threats of one turn
        # (lint/rules/mission/shared_turn.py): most files need no linter, so none is loaded
        # (a shortcut for M105 alone: another playability rule would need the linter)
        return False
    from authoring.lint.config import LintConfig
    from authoring.lint.linter import Linter

    found = Linter(LintConfig(select=PLAYABILITY_RULES)).lint_mission(mission)
    return any(p.code in PLAYABILITY_RULES and p.severity == "error" for p in found)


def _check(path: Path, display: str) -> list[Problem]:
    mission, found = fast.check_mission_file(path, display=display)
    if mission is not None and not found:
        if not _quick_playability(mission):  # the common case: the fast path answers alone
            return []
        # located again through the full reader, which knows every value's line and column
        return playability_problems(read_document(path, display=display), mission)
    doc = read_document(path, display=display)
    if is_campaign(doc):  # a campaign is checked with every mission it names
        campaign, found = check_campaign(doc, path)
        return found if campaign is None else campaign_deck_problems(doc, campaign)
    mission, found = check_mission(doc)
    return found if mission is None or found else playability_problems(doc, mission)


def check_file(item: tuple[str, Path]) -> tuple[list[Problem], str | None]:
    """``validate``'s check of one (display, path) pair, a mission or a campaign.

    Returns its problems, or the one-line description of an internal error (the caller reports
    it and goes on with the next file). A module-level function: worker processes run it.
    """
    display, path = item
    try:
        return _check(path, display), None
    except Exception as error:  # reported per file by the caller, which goes on
        return [], describe_error(error)
