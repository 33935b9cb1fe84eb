"""The expansion's threat cards: every one is listed with the rules it needs, and refused
with them (docs/rules.md §19.7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.engine import SetupError, make_setup
from authoring.engine.rules import expansion
from authoring.engine.rules.expansion import CARD_MECHANICS, MECHANICS, markdown
from authoring.engine.rules.threats.cards import load_cards

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


def test_an_unplayed_card_is_refused_with_the_rules_it_needs() -> None:
    with pytest.raises(SetupError,
                       match=r"SI3-104 .*New Frontier.* needs .*time slip.*docs/rules.md §19.7"):
        make_setup([(1, "internal", "SI3-104")], "T1 T2 T3 T4")


def test_a_refusal_names_only_the_mechanics_not_played_yet() -> None:
    # SI3-104 releases a bonus threat (played: the five other carriers, docs/rules.md §19.8)
    # and slips time (not yet)
    with pytest.raises(SetupError) as refused:
        make_setup([(1, "internal", "SI3-104")], "T1 T2 T3 T4")
    assert MECHANICS["time-slip"] in str(refused.value)
    assert MECHANICS["bonus-threat"] not in str(refused.value)


def test_the_white_deck_is_played() -> None:
    white = {"E1-101", "E1-102", "SE1-101", "SE1-102", "I1-101", "SI1-101"}
    played = {c.id for c in load_cards().values() if c.set != "base" and c.playable}
    assert white <= played
    for card in white:
        make_setup([(1, "internal" if card.startswith(("I", "SI")) else "white", card)],
                   "T1 T2 T3 T4")


def test_the_table_shows_cards_of_a_partly_played_mechanic() -> None:
    row = next(line for line in markdown().splitlines() if line.startswith("| releases a bonus"))
    status = row.split("|")[-2].strip()
    assert status == "E3-107, SE3-104, SE3-105, SI3-102, SI3-103; not yet SI3-104"


def test_a_card_whose_mechanics_are_all_played_elsewhere_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # no such card today (I3-101 was one until it was played): pretend SI3-107's parasite is played
    monkeypatch.setattr(expansion, "played_mechanics",
                        lambda: frozenset(MECHANICS))
    assert expansion.missing_rules("SI3-107").startswith(
        "is not played yet, though the engine plays its mechanics on other cards "
        f"({MECHANICS['parasite']})")
