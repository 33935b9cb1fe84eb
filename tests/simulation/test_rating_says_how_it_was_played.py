"""A rating says how its crew played: the action cards dealt from the base deck, from the
double-action deck on a double-action track, or free play (issue 36 item 5; docs/rules.md
§19.5). The briefing, the pack pages and the studio print ``Rating.play``."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.mission import load_mission
from authoring.simulation.montecarlo import simulate
from authoring.simulation.rating import rate, rating_json

MISSIONS = Path(__file__).resolve().parents[2] / "missions"


@pytest.mark.parametrize(("file", "hands", "dealt", "words"), [
    ("official/mission-1.yaml", True, "base", "with the action cards the rules deal"),
    ("examples/double-action.yaml", True, "double-action",
     "with the double-action cards the rules deal"),
    ("official/mission-1.yaml", False, "", "in free play (any action in any turn, no hands "
                                           "dealt)"),
])
def test_the_rating_names_the_deck_or_free_play(file: str, hands: bool, dealt: str,
                                                words: str) -> None:
    stats = simulate(load_mission(MISSIONS / file), games=2, crew="heuristic", hands=hands)
    rating = rate(stats)
    assert rating.dealt == dealt and rating.play() == words
    shown = rating_json(rating)
    assert shown["dealt"] == (dealt or None) and shown["play"] == words
