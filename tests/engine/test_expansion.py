"""The expansion's threat cards: every one is listed with the rules it needs, and refused
with them (docs/rules.md §19.7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.engine import SetupError, make_setup
from authoring.engine.expansion import CARD_MECHANICS, MECHANICS, markdown
from authoring.engine.threats.cards import load_cards

RULES = Path(__file__).resolve().parents[2] / "docs/rules.md"


def test_every_card_of_the_expansion_names_the_rules_it_needs() -> None:
    expansion = {c.id for c in load_cards().values() if c.set != "base"}
    assert len(expansion) == 48
    assert set(CARD_MECHANICS) == expansion
    used = {m for needs in CARD_MECHANICS.values() for m in needs}
    assert used == set(MECHANICS)


def test_the_rules_page_shows_the_current_table() -> None:
    text = RULES.read_text(encoding="utf-8")
    shown = text.split("<!-- expansion:start -->\n", 1)[1].split("\n<!-- expansion:end -->")[0]
    assert shown == markdown(), "regenerate docs/rules.md §19.7 from expansion.markdown()"


@pytest.mark.parametrize(("card", "words"), [
    ("E1-101", "plasmatic attacks"),
    ("SI2-101", "phasing: out of reach every other turn"),
    ("SE3-105", "releases a bonus threat"),
])
def test_an_unplayed_card_is_refused_with_the_rules_it_needs(card: str, words: str) -> None:
    zone = "internal" if card.startswith(("I", "SI")) else "red"
    with pytest.raises(SetupError,
                       match=rf"{card} .*New Frontier.* needs .*{words}.*docs/rules.md §19.7"):
        make_setup([(1, zone, card)], "T1 T2 T3 T4")
