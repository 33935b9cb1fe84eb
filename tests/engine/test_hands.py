"""Action-card hands (docs/rules.md §16): the deck data, the deal, legality and projection."""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections import Counter
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from authoring.engine import PlanError, make_crew_plan
from authoring.engine.errors import SetupError
from authoring.engine.rules.hands import (
    DATA_TRANSFER,
    HALVES,
    INCOMING_DATA,
    Card,
    Hands,
    check,
    deal,
    decode_rows,
    load_deck,
    playable,
    project,
    project_codes,
    timeline,
)
from authoring.engine.rules.plan import DOUBLE_PAIRS, CrewPlan, encode

SCHEMA = Path(__file__).resolve().parents[2] / "schemas" / "action-cards.schema.json"
PHASE_EVENTS = [(1, INCOMING_DATA), (1, DATA_TRANSFER), (2, INCOMING_DATA),
                (2, DATA_TRANSFER), (3, DATA_TRANSFER)]


def _raw() -> dict:  # type: ignore[type-arg]
    text = resources.files("authoring.engine").joinpath("data/action-cards.json").read_text(
        "utf-8")
    return json.loads(text)  # type: ignore[no-any-return]


def test_the_deck_validates_against_its_schema() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["$id"] == "https://spacealert.invalid/schemas/action-cards.schema.json"
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(_raw())) == []
    broken = {**_raw(), "action_cards": [{"move": "r", "action": "D", "count": 1}]}
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(broken))


def test_the_deck_is_the_box_inventory() -> None:
    deck = load_deck()
    assert len(deck.cards) == 90
    for move in "rbl":
        counts = Counter(c.action for c in deck.cards if c.move == move)
        assert counts == {"A": 10, "B": 8, "C": 7, "R": 5}
    assert sorted(c.text() for c in deck.heroics) == [
        "A+/>LB", "A+/>LR", "B+/>UB", "B+/>UR", "R+/>LW", "R+/>UW"]
    assert all(c.heroic for c in deck.heroics) and not any(c.heroic for c in deck.cards)


def _sizes(hands: Hands, label: str) -> list[int]:
    """Cards a player got at each moment (deals and incoming data)."""
    got = Counter(hands.moments.index(m) for _, m in
                  [(c, m) for c, m in hands.cards_of(label)])
    return [got[i] for i in range(len(hands.moments))]


@pytest.mark.parametrize(("players", "androids", "first", "later"), [
    (5, 0, 4, 5), (4, 0, 5, 5), (4, 1, 6, 5), (3, 1, 6, 6), (3, 2, 7, 6), (2, 2, 9, 6),
    (2, 3, 10, 6)])
def test_deal_sizes_follow_the_table(players: int, androids: int, first: int,
                                     later: int) -> None:
    labels = [f"P{i + 1}" for i in range(players)] + [f"A{i + 1}" for i in range(androids)]
    hands = deal(labels, PHASE_EVENTS, random.Random(3))
    moments = [m.name() for m in hands.moments]
    assert moments == ["phase 1", "incoming data (phase 1)", "data transfer (phase 1)",
                       "phase 2", "incoming data (phase 2)", "data transfer (phase 2)",
                       "phase 3", "data transfer (phase 3)"]
    for label in hands.players:
        assert _sizes(hands, label) == [first, 1, 0, later, 1, 0, later, 0]
    assert all(card is not None and card.heroic for card in hands.heroic)
    assert len({card for card in hands.heroic}) == players + androids  # six distinct cards
    everything = Counter(c for held in hands.held for c, _ in held)
    assert not everything - Counter(load_deck().cards)  # never more of a kind than the box


def test_solo_holds_the_whole_deck_and_ignores_the_events() -> None:
    hands = deal(["P1", "A1", "A2", "A3"], PHASE_EVENTS, random.Random(1))
    assert Counter(c for c, _ in hands.held[0]) == Counter(load_deck().cards)
    assert [m.kind for m in hands.moments] == ["deal", "deal", "deal"]


def test_an_empty_deck_deals_nothing_more() -> None:
    many = [(1, INCOMING_DATA)] * 10
    hands = deal([f"P{i}" for i in range(1, 6)], many, random.Random(0))
    assert sum(len(h) for h in hands.held) == 90


def test_the_deal_is_seeded_and_can_leave_out_heroics() -> None:
    labels = ["P1", "P2", "P3", "P4", "P5"]
    one = deal(labels, PHASE_EVENTS, random.Random(7))
    assert one == deal(labels, PHASE_EVENTS, random.Random(7))
    assert one != deal(labels, PHASE_EVENTS, random.Random(8))
    assert deal(labels, (), random.Random(7), heroics=False).heroic == (None,) * 5


def test_bad_events_and_crews_are_refused() -> None:
    with pytest.raises(SetupError, match="incoming_data or data_transfer"):
        timeline([(1, "comms_down")])
    with pytest.raises(SetupError, match="phase 1 to 3"):
        timeline([(4, INCOMING_DATA)])
    with pytest.raises(SetupError, match="at least one player"):
        deal(["A1", "A2"], (), random.Random(0))


def _hands(cards: dict[str, list[tuple[str, int]]], events: list[tuple[int, str]] = (),  # type: ignore[assignment]
           heroic: dict[str, str] | None = None, androids: tuple[str, ...] = ()) -> Hands:
    """Hand-made hands: per player the cards ``"r/A"`` with the moment index they arrive."""
    moments = timeline(events)
    labels = (*cards, *androids)
    held = tuple(tuple((Card(*text.split("/")), when) for text, when in own)
                 for own in cards.values())
    gold = tuple(Card(*(heroic[label].split("/")[::-1])) if heroic and label in heroic
                 else None for label in labels)
    return Hands(labels, moments, held, gold)


def _crew(**rows: str) -> tuple[CrewPlan, ...]:
    return tuple(make_crew_plan(label, tokens) for label, tokens in rows.items())


def test_a_card_plays_one_half_once() -> None:
    hands = _hands({"P1": [("r/A", 0)]})
    check(hands, _crew(P1="A"))
    check(hands, _crew(P1="- - r"))
    check(hands, _crew(P1="A!"))  # a tripped card is played
    with pytest.raises(PlanError, match=r"P1 cannot play r in turn 2: no card with r is left "
                                        r"in the hands held in phase 1"):
        check(hands, _crew(P1="A r"))
    with pytest.raises(PlanError, match="cannot play B in turn 1"):
        check(hands, _crew(P1="B"))


def test_cards_are_held_from_their_phase_on() -> None:
    hands = _hands({"P1": [("r/A", 1), ("l/C", 0)]})  # moment 1 = the phase-2 deal
    check(hands, _crew(P1="- - - A"))
    check(hands, _crew(P1="- - - - - - - - - - - C"))  # left over from phase 1
    with pytest.raises(PlanError, match=r"cannot play A in turn 3: .* phase 1"):
        check(hands, _crew(P1="- - A"))


def test_incoming_data_is_held_from_its_draw() -> None:
    events = [(2, INCOMING_DATA)]
    hands = _hands({"P1": [("b/B", 2)]}, events)  # moments: deal 1, deal 2, incoming, deal 3
    assert hands.moments[2].kind == INCOMING_DATA
    check(hands, _crew(P1="- - - - - - B"))
    assert not playable(hands, _crew(P1="- - B"))


def test_a_transfer_gives_one_card_per_player_from_its_phase_on() -> None:
    cards = {"P1": [], "P2": [("b/C", 0), ("l/A", 0)]}
    plan = _crew(P1="C", P2="")
    assert not playable(_hands(cards), plan)
    assert playable(_hands(cards, [(1, DATA_TRANSFER)]), plan)
    late = _hands(cards, [(2, DATA_TRANSFER)])
    assert not playable(late, plan)
    assert playable(late, _crew(P1="- - - - C", P2=""))
    both = _crew(P1="C A", P2="")
    assert not playable(_hands(cards, [(1, DATA_TRANSFER)]), both)
    assert playable(_hands(cards, [(1, DATA_TRANSFER), (1, DATA_TRANSFER)]), both)
    # the giver keeps what it plays: one A for two players is not enough; b/C and l/A are
    assert not playable(_hands(cards, [(1, DATA_TRANSFER)]), _crew(P1="A", P2="A"))
    assert playable(_hands(cards, [(1, DATA_TRANSFER)]), _crew(P1="A", P2="b"))
    # a card drawn after the transfer cannot be given in it
    drawn = _hands({"P1": [], "P2": [("b/C", 2)]}, [(1, DATA_TRANSFER), (1, INCOMING_DATA)])
    assert not playable(drawn, _crew(P1="C", P2=""))


def test_androids_play_the_players_cards_and_only_their_own_heroic() -> None:
    hands = _hands({"P1": [("r/A", 0)], "P2": [("l/B", 0)]}, heroic={
        "P1": "A+/>LB", "A1": "R+/>UW"}, androids=("A1",))
    check(hands, _crew(P1="", P2="", A1="A B"))
    check(hands, _crew(P1="- A+", P2="", A1="R+"))
    check(hands, _crew(P1=">LB", P2="", A1=">UW l"))
    assert not playable(hands, _crew(P1="", P2="", A1="A+"))  # P1's heroic is P1's
    with pytest.raises(PlanError, match=r"P1 cannot play R\+ in turn 1: P1's heroic card is "
                                        r"A\+/>LB"):
        check(hands, _crew(P1="R+", P2="", A1=""))
    with pytest.raises(PlanError, match="no heroic cards are dealt"):
        check(hands, _crew(P1="", P2="A+", A1=""))


def test_the_hands_must_be_the_plans_crew() -> None:
    hands = _hands({"P1": []})
    with pytest.raises(PlanError, match=r"expected the crew the hands were dealt to \(P1\)"):
        check(hands, _crew(P1="", P2=""))


def test_projection_blanks_what_finds_no_card_and_keeps_the_earliest() -> None:
    hands = _hands({"P1": [("r/A", 0), ("b/A", 0)]})
    crew = _crew(P1="A r A b")
    projected = project(hands, crew)
    assert projected[0].line() == "P1: A r"
    assert playable(hands, projected)
    assert project(hands, projected) == projected
    rows = [[encode(a) for a in row.actions] for row in crew]
    assert project_codes(hands, rows) == [[encode(a) for a in projected[0].actions]]


TOKENS = ["-", "-", "-", "r", "b", "l", "A", "A", "B", "C", "R", "A!", "l!"]
HEROIC = ["A+", "B+", "R+", ">UR", ">UW", ">UB", ">LR", ">LW", ">LB"]


@st.composite
def tables(draw: st.DrawFn) -> tuple[Hands, tuple[CrewPlan, ...]]:
    """Random dealt hands and a random plan for the same crew."""
    players, androids = draw(st.sampled_from([(5, 0), (4, 0), (4, 1), (3, 1), (3, 2), (2, 2),
                                              (2, 3), (1, 3)]))
    labels = [f"P{i + 1}" for i in range(players)] + [f"A{i + 1}" for i in range(androids)]
    events = draw(st.lists(st.tuples(st.integers(1, 3),
                                     st.sampled_from([INCOMING_DATA, DATA_TRANSFER])),
                           max_size=6))
    events.sort(key=lambda e: e[0])
    hands = deal(labels, events, random.Random(draw(st.integers(0, 2**32))),
                 heroics=draw(st.booleans()))
    rows = []
    for label in labels:
        tokens = draw(st.lists(st.sampled_from(TOKENS), min_size=12, max_size=12))
        if draw(st.booleans()):
            tokens[draw(st.integers(0, 11))] = draw(st.sampled_from(HEROIC))
        if label.startswith("A"):
            tokens = [t.rstrip("!") for t in tokens]
        rows.append(make_crew_plan(label, tokens))
    return hands, tuple(rows)


@settings(max_examples=120, deadline=None)
@given(tables())
def test_projection_is_always_playable_and_only_blanks(
        table: tuple[Hands, tuple[CrewPlan, ...]]) -> None:
    hands, crew = table
    projected = project(hands, crew)
    assert playable(hands, projected)
    for row, kept in zip(crew, projected, strict=True):
        for want, got in zip(row.actions, kept.actions, strict=True):
            assert got == want or got.is_blank
    assert project(hands, projected) == projected  # a playable plan comes back unchanged
    if playable(hands, crew):
        assert projected == crew


def test_the_exact_check_reroutes_gifts_the_slot_by_slot_play_cannot() -> None:
    from authoring.engine.rules.hands import _greedy

    # P1 needs an A and a b from the one transfer: the A must come from P3, the b from P2
    hands = _hands({"P1": [], "P2": [("r/A", 0), ("b/C", 0)], "P3": [("l/A", 0)]},
                   [(1, DATA_TRANSFER)])
    crew = _crew(P1="A b", P2="", P3="")
    assert _greedy(hands, crew) == ([(0, 2, crew[0].actions[1])], True)  # P2 gave the A first
    check(hands, crew)
    assert project(hands, crew) == crew
    assert not playable(hands, _crew(P1="A b C", P2="", P3=""))


DA_SCHEMA = SCHEMA.with_name("double-action-cards.schema.json")


def _da(text: str) -> Card:
    """A double-action card written as ``Card.text`` writes it: ``rA/B``."""
    double, single = text.split("/")
    return Card(single, double)


def test_the_double_action_deck_validates_against_its_schema() -> None:
    schema = json.loads(DA_SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    raw = json.loads(resources.files("authoring.engine").joinpath(
        "data/double-action-cards.json").read_text("utf-8"))
    assert list(jsonschema.Draft202012Validator(schema).iter_errors(raw)) == []
    for broken in ({"double": "AD", "single": "l", "count": 1},
                   {"double": "AB", "single": "rA", "count": 1},
                   {"double": "AB", "single": "l", "count": 3}):
        assert list(jsonschema.Draft202012Validator(schema).iter_errors(
            {**raw, "double_action_cards": [broken]}))


def test_the_double_action_deck_is_the_expansions_inventory() -> None:
    # the counts docs/rules.md §19.5 gives: 90 cards, 78 kinds, 36 two-action halves (the
    # faces a plan may write), one-action halves 17 l, 14 r, 14 b, 13 A, 12 C, 11 B, 9 R
    deck = load_deck(double_actions=True)
    assert len(deck.cards) == 90 and all(card.double for card in deck.cards)
    assert len(set(deck.cards)) == 78
    assert {card.action for card in deck.cards} == set(DOUBLE_PAIRS)
    assert Counter(card.move for card in deck.cards) == {
        "l": 17, "r": 14, "b": 14, "A": 13, "C": 12, "B": 11, "R": 9}
    assert all(card.move not in card.action for card in deck.cards)  # no symbol twice
    assert deck.heroics == load_deck().heroics  # the heroic cards stay the base deck's
    assert _da("rA/B").text() == "rA/B" and not Card("r", "A").double


@pytest.mark.parametrize(("players", "androids", "incoming"), [
    (5, 0, [1] * 5), (4, 1, [2, 1, 1, 1]), (3, 2, [2, 2, 1]), (2, 3, [3, 2]), (3, 1, [2, 1, 1])])
def test_double_action_incoming_data_shares_out_the_androids_draws(
        players: int, androids: int, incoming: list[int]) -> None:
    labels = [f"P{i + 1}" for i in range(players)] + [f"A{i + 1}" for i in range(androids)]
    hands = deal(labels, [(1, INCOMING_DATA)], random.Random(5), double_actions=True)
    base = deal(labels, [(1, INCOMING_DATA)], random.Random(5))
    for seat, label in enumerate(hands.players):
        sizes, base_sizes = _sizes(hands, label), _sizes(base, label)
        assert sizes[0] == base_sizes[0]  # the same hand sizes as the base deck
        assert sizes[1] == incoming[seat] and base_sizes[1] == 1
    assert all(card.double for held in hands.held for card, _ in held)


def test_a_double_action_card_plays_its_two_action_half_or_its_one_action_half() -> None:
    hands = _hands({"P1": []})
    hands = Hands(hands.labels, hands.moments, (((_da("rA/B"), 0),),), hands.heroic)
    check(hands, _crew(P1="rA"))
    check(hands, _crew(P1="- B"))
    check(hands, _crew(P1="rA!"))
    for plan, half in (("rA B", "B"), ("A", "A"), ("r", "r"), ("Ar", "Ar")):
        assert not playable(hands, _crew(P1=plan)), half  # one half, and only its own
    with pytest.raises(PlanError, match="P1 cannot play AB in turn 1: no card with AB"):
        check(hands, _crew(P1="AB"))


def test_a_double_action_card_is_given_whole_at_a_transfer() -> None:
    cards = ((), ((_da("lC/A"), 0), (_da("bB/r"), 0)))
    hands = Hands(("P1", "P2"), timeline([(1, DATA_TRANSFER)]), cards, (None, None))
    assert playable(hands, _crew(P1="lC", P2="r"))
    assert playable(hands, _crew(P1="A", P2="bB"))
    assert not playable(hands, _crew(P1="lC", P2="A"))  # the card given is gone from P2
    assert not playable(hands, _crew(P1="lC bB", P2=""))  # one card per transfer


def test_a_double_action_deal_projects_alike_in_every_build() -> None:
    from authoring.engine.cores import chands
    hands = deal(["P1", "P2", "P3", "A1", "A2"], [(1, DATA_TRANSFER), (2, INCOMING_DATA)],
                 random.Random(8), double_actions=True)
    crew = _crew(P1="rA AB bl", P2="lC Cb", P3="Rr", A1="B A", A2="bb rR")
    rows = [[encode(a) for a in row.actions] for row in crew]
    projected = project(hands, crew)
    assert [[encode(a) for a in row.actions] for row in projected] == \
        project_codes(hands, rows) == chands.project_codes(hands, rows)
    assert playable(hands, projected)


def _brute_force(hands: Hands, crew: tuple[CrewPlan, ...]) -> bool:
    """An independent oracle for tiny plans: every way to give each slot its own card."""
    from itertools import permutations, product

    from authoring.engine.rules.hands import half_of
    from authoring.engine.rules.ship import TURN_PHASE

    players = hands.players
    cards = [(seat, card, when) for seat, held in enumerate(hands.held) for card, when in held]
    slots = [(row.label, TURN_PHASE[turn] + 1, half_of(action))
             for row in crew for turn, action in enumerate(row.actions, 1)
             if not action.is_blank]
    moments = hands.moments
    transfers = [w for w, m in enumerate(moments) if m.kind == DATA_TRANSFER]
    for chosen in permutations(range(len(cards)), len(slots)):
        options: list[list[tuple[int, int] | None]] = []
        for (label, phase, half), index in zip(slots, chosen, strict=True):
            seat, card, when = cards[index]
            if half not in card.halves or moments[when].phase > phase:
                break
            if not label.startswith("P") or players.index(label) == seat:
                options.append([None])  # its own card, or any player's for an android
                continue
            gifts = [(seat, w) for w in transfers if when < w and moments[w].phase <= phase]
            if not gifts:
                break
            options.append(list(gifts))
        else:
            for pick in product(*options):
                given = [g for g in pick if g is not None]
                if len(given) == len(set(given)):  # one card per giver per transfer
                    return True
    return False


@st.composite
def tiny_tables(draw: st.DrawFn) -> tuple[Hands, tuple[CrewPlan, ...]]:
    """Small hand-made hands and plans of at most three cards, for the brute-force oracle."""
    players = draw(st.integers(2, 3))
    androids = draw(st.integers(0, 1))
    events = draw(st.lists(st.tuples(st.integers(1, 3),
                                     st.sampled_from([INCOMING_DATA, DATA_TRANSFER])),
                           max_size=3))
    events.sort(key=lambda e: e[0])
    moments = timeline(events)
    arrivals = [w for w, m in enumerate(moments) if m.kind != DATA_TRANSFER]
    doubles = draw(st.booleans())  # the double-action deck (docs/rules.md §19.5)
    pool = [card for card in load_deck(True).cards] if doubles else \
        [Card(m, a) for m in "rbl" for a in "ABCR"]
    held = tuple(tuple((draw(st.sampled_from(pool)), draw(st.sampled_from(arrivals)))
                       for _ in range(draw(st.integers(1, 4)))) for _ in range(players))
    labels = tuple(f"P{i + 1}" for i in range(players)) + tuple(
        f"A{i + 1}" for i in range(androids))
    hands = Hands(labels, moments, held, (None,) * len(labels))
    rows = [["-"] * 12 for _ in labels]
    for _ in range(draw(st.integers(1, 3))):
        row, turn = draw(st.integers(0, len(labels) - 1)), draw(st.integers(0, 11))
        rows[row][turn] = draw(st.sampled_from(
            ["r", "b", "l", "A", "B", "C", "R", *(("rA", "AB", "bl", "Rr", "lC", "Cb")
                                                  if doubles else ())]))
    return hands, tuple(make_crew_plan(label, row) for label, row in zip(labels, rows,
                                                                          strict=True))


@settings(max_examples=300, deadline=None)
@given(tiny_tables())
def test_the_legality_check_agrees_with_a_brute_force_oracle(
        table: tuple[Hands, tuple[CrewPlan, ...]]) -> None:
    hands, crew = table
    assert playable(hands, crew) == _brute_force(hands, crew)


def test_preferred_slots_keep_their_cards_first() -> None:
    hands = _hands({"P1": [("r/A", 0)]})
    crew = _crew(P1="A r")
    assert project(hands, crew)[0].line() == "P1: A"
    assert project(hands, crew, prefer={(0, 2)})[0].line() == "P1: - r"


@st.composite
def neighbourhoods(draw: st.DrawFn) -> tuple[Hands, list[tuple[CrewPlan, ...]]]:
    """Hands and a walk of plans, each a few cards away from one before it (a search's)."""
    hands, crew = draw(tables())
    if draw(st.booleans()):  # every slot a card: gifts are asked for, and refused
        crew = tuple(make_crew_plan(row.label, draw(st.lists(
            st.sampled_from(HALVES), min_size=12, max_size=12))) for row in crew)
    plans = [crew]
    for _ in range(draw(st.integers(1, 12))):
        base = plans[draw(st.integers(0, len(plans) - 1))]
        rows = [[a.token() for a in row.actions] for row in base]
        for _ in range(draw(st.integers(1, 3))):
            member = draw(st.integers(0, len(rows) - 1))
            rows[member][draw(st.integers(0, 11))] = draw(st.sampled_from(TOKENS)).rstrip("!")
        plans.append(tuple(make_crew_plan(row.label, tokens)
                           for row, tokens in zip(base, rows, strict=True)))
    return hands, plans


@settings(max_examples=150, deadline=None)
@given(neighbourhoods())
def test_a_plan_resumed_from_a_neighbours_first_turns_projects_as_laid_afresh(
        walk: tuple[Hands, list[tuple[CrewPlan, ...]]]) -> None:
    import dataclasses

    from authoring.engine.rules.hands import _greedy, _network

    hands, plans = walk
    again = dataclasses.replace(hands)  # equal cards, a network of its own
    for crew in plans:
        resumed = _greedy(hands, crew), project(hands, crew)
        _network(again).laid.clear()  # nothing to resume from: every slot laid again
        laid = _greedy(again, crew)
        _network(again).laid.clear()
        assert (laid, project(again, crew)) == resumed
        assert playable(hands, crew) == playable(again, crew)


def test_a_projection_does_not_depend_on_what_was_projected_before() -> None:
    # On these hands the lazily grown network of the old code blanked P4's turn 2 (or kept
    # it) depending on whether `before` had been projected first.
    events = [(1, DATA_TRANSFER), (2, INCOMING_DATA), (2, DATA_TRANSFER), (3, INCOMING_DATA)]
    labels = ["P1", "P2", "P3", "P4", "P5"]
    before = [[0, 5, 0, 0, 4, 7, 6, 6, 1, 37, 0, 0], [0, 4, 2, 0, 2, 0, 2, 0, 0, 7, 0, 0],
              [4, 0, 4, 0, 2, 1, 6, 0, 4, 37, 36, 0], [2, 7, 37, 5, 4, 3, 5, 0, 0, 1, 5, 0],
              [3, 3, 0, 0, 536, 0, 0, 3, 23, 0, 792, 0]]
    plan = [[0, 5, 0, 0, 4, 7, 6, 6, 1, 37, 0, 0], [5, 4, 2, 0, 2, 0, 6, 0, 0, 7, 0, 0],
            [4, 0, 4, 0, 2, 1, 6, 0, 4, 37, 36, 0], [2, 7, 37, 5, 4, 3, 5, 0, 0, 1, 5, 0],
            [3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]]
    fresh = deal(labels, events, random.Random(1003), heroics=False)
    alone = project_codes(fresh, plan)
    used = deal(labels, events, random.Random(1003), heroics=False)
    project_codes(used, before)
    assert project_codes(used, plan) == alone


@settings(max_examples=100, deadline=None)
@given(neighbourhoods())
def test_a_walk_of_projections_projects_as_each_plan_alone(
        walk: tuple[Hands, list[tuple[CrewPlan, ...]]]) -> None:
    import dataclasses

    hands, plans = walk
    for crew in plans:  # one network for the whole walk, a new one for each plan alone
        assert project(hands, crew) == project(dataclasses.replace(hands), crew)


def _native_hands():  # type: ignore[no-untyped-def]
    from authoring.engine.cores import NATIVE, available, module

    return module(NATIVE, "hands") if NATIVE in available() else None


@pytest.mark.skipif(_native_hands() is None, reason="native engine core not built "
                    "(tests/engine/test_differential.py fails in CI when it is not)")
@settings(max_examples=200, deadline=None)
@given(neighbourhoods(), st.integers(0, 2**32))
def test_the_compiled_hands_module_deals_checks_and_projects_as_the_reference(
        walk: tuple[Hands, list[tuple[CrewPlan, ...]]], seed: int) -> None:
    # the crews take deals, matchers and projections from the native build when it is there
    # (engine/cores.hands_module): the readable module must say what it says, slot for slot
    native = _native_hands()
    hands, plans = walk
    events = [(m.phase, m.kind) for m in hands.moments if m.kind != "deal"]
    theirs = native.deal(hands.labels, events, random.Random(seed))
    reference = deal(hands.labels, events, random.Random(seed))
    assert theirs.describe() == reference.describe()
    for crew in plans:  # a walk of neighbours: the native side resumes too
        assert [row.line() for row in native.project(theirs, crew)] == \
            [row.line() for row in project(reference, crew)]
        assert native.playable(theirs, crew) == playable(reference, crew)
        try:
            check(reference, crew)
            message = ""
        except PlanError as error:
            message = str(error)
        with pytest.raises(PlanError, match="^" + re.escape(message) + "$") if message \
                else contextlib.nullcontext():
            native.check(theirs, crew)


def test_a_deal_pickles_in_both_builds() -> None:
    # solve --hands sends its deal to worker processes; the compiled classes have no __dict__
    import pickle

    from authoring.engine.rules import hands as reference

    for module in [reference, *[m for m in (_native_hands(),) if m is not None]]:
        hands = module.deal(["P1", "P2", "P3", "A1"], PHASE_EVENTS, random.Random(3))
        again = pickle.loads(pickle.dumps(hands))
        assert type(again) is type(hands)
        assert again == hands
        assert again.describe() == hands.describe()


def test_a_playable_plan_projects_onto_itself_in_any_order() -> None:
    # Served rows first or preferred slots first, the greedy laying may miss a slot of a plan
    # the crew can play (its proof holds in turn order only): the projection must still give
    # the plan back (a search's `within` asked for this order and lost a card it could play).
    from tests.engine.hands_cases import cases

    rng = random.Random(404)
    orders = 0
    for hands, _, playable_rows in cases(5, 1500, project_codes):
        members = len(playable_rows)
        first = tuple(m for m in range(members) if rng.random() < 0.3)
        slots = [(m, t) for m, row in enumerate(playable_rows) for t, c in enumerate(row, 1) if c]
        prefer = {slot for slot in slots if rng.random() < 0.5}
        laid = project_codes(hands, playable_rows, first=first, prefer=prefer)
        assert laid == playable_rows, (hands.describe(), playable_rows, first, sorted(prefer))
        orders += bool(first or prefer)
    assert orders > 1000


def test_a_playable_plan_the_exact_check_gives_up_on_still_projects_onto_itself() -> None:
    # A plan solve proposed on double-action easier 1 (seed 0): laid with some of its cards
    # first, a gift is refused and the exact check runs out of branches; laid in turn order it
    # finds a card for every slot at once. The projection used to blank its 3rd slot.
    from authoring.mission import load_mission
    from authoring.solve import prepare

    mission = Path(__file__).resolve().parents[2] / "missions" / "official" / (
        "double-action-easier-1.yaml")
    hands = prepare(load_mission(mission), seed=0, hands=True).hands
    assert hands is not None
    rows = [[3, 2, 24579, 4, 1, 3, 0, 0, 7, 0, 0, 2], [3, 6, 3, 0, 0, 0, 0, 28673, 0, 0, 8197, 0],
            [3, 6, 2, 3, 5, 1, 0, 280, 0, 0, 0, 4097], [3, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
            [2, 0, 3, 1, 3, 0, 0, 0, 6, 0, 0, 0]]
    assert playable(hands, decode_rows(hands, rows))
    rng = random.Random(1)
    slots = [(m, t) for m, row in enumerate(rows) for t, code in enumerate(row, 1) if code]
    for _ in range(300):
        prefer = {slot for slot in slots if rng.random() < 0.8}
        assert project_codes(hands, rows, prefer=prefer) == rows, sorted(prefer)


def test_check_decides_a_plan_the_crews_projection_gives_up_on() -> None:
    # a random plan (tests/engine/hands_cases.py, seed 11, case 246) whose gifts take 71
    # branches to place: the crews' projection stops at 64 and blanks a slot; check, which
    # resolve --hands runs on one plan, searches on and accepts it (docs/rules.md §16.1)
    from authoring.engine.rules import hands as hands_rules
    from tests.engine.hands_cases import cases

    hands, rows, projected = list(cases(11, 247, hands_rules.project_codes))[-1]
    crew = hands_rules.decode_rows(hands, rows)
    assert projected != rows
    assert not hands_rules.playable(hands, crew)
    hands_rules.check(hands, crew)
    # with the crews' limit it says it cannot tell, and names no slot it cannot prove
    with pytest.raises(PlanError, match=r"cannot tell whether the crew can play the plan.*"
                       r"gave up after 64 branches"):
        hands_rules.check(hands, crew, branches=64)
