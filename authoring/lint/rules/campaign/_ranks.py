"""Deck colours from the easiest to the hardest, shared by the campaign rules."""

from __future__ import annotations

from authoring.mission.model import Decks

DECK_RANK = {"white": 0, "mixed": 1, "yellow": 2, "red": 3}


def deck_rank(decks: Decks) -> int:
    """Returns how hard a deck choice is: the sum of the common and serious ranks."""
    return DECK_RANK[decks.common] + DECK_RANK[decks.serious]
