"""The campaign engine's refusals and invariants (docs/rules.md §18); the rules themselves are
golden scenarios in scenarios/campaign.txt."""

from __future__ import annotations

import pytest

from authoring.engine import make_setup, parse_plan, parse_repairs, resolve, resolve_campaign
from authoring.engine.errors import PlanError
from authoring.engine.rules.campaign import (
    CarryOver,
    Wreck,
    policy_repairs,
    repair,
)
from authoring.engine.rules.notation import notation, parse_notation
from authoring.engine.rules.ship import GRAVOLIFT, REACTOR, SHIELD, STRUCTURAL

WRECK = Wreck(((STRUCTURAL,), (SHIELD, REACTOR, GRAVOLIFT), ()), 1, ("P1", "P2", "P3", "A1"),
              ("P3",))


def test_a_third_repair_in_one_zone_is_refused() -> None:
    with pytest.raises(PlanError, match="at most 2 tokens"):
        repair(WRECK, {"P1": "white:shield", "P2": "white:reactor", "A1": "white:gravolift"})


def test_knocked_out_crew_repair_nothing() -> None:
    with pytest.raises(PlanError, match="P3 was knocked out"):
        repair(WRECK, {"P3": "squad"})


@pytest.mark.parametrize(("choices", "message"), [
    ({"P1": "blue:shield"}, "no unrepaired shield token in the blue zone"),
    ({"P1": "squad", "P2": "squad"}, "no disabled squad is left"),
    ({"P9": "squad"}, "expected repairs by the crew"),
    ({"P1": "white:hull"}, "expected a repair zone:token"),
])
def test_impossible_repairs_are_refused(choices: dict[str, str], message: str) -> None:
    with pytest.raises(PlanError, match=message):
        repair(WRECK, choices)


def test_repairs_keep_the_rest_in_draw_order() -> None:
    carry, done = repair(WRECK, {"P1": "red:structural", "A1": "white:reactor"}, "LR")
    assert carry == CarryOver(((), (SHIELD, GRAVOLIFT), ()), 1, "LR")
    assert [str(r) for r in done] == ["P1=red:structural", "A1=white:reactor"]


def test_the_policy_goes_in_seat_order_and_skips_the_knocked_out() -> None:
    assert policy_repairs(WRECK) == {"P1": "red:structural", "P2": "white:reactor",
                                     "A1": "white:shield"}


def test_parse_repairs() -> None:
    assert parse_repairs("P1=red:structural, P2=squad A1=-") == {
        "P1": "red:structural", "P2": "squad", "A1": "-"}
    with pytest.raises(PlanError, match="two for P1"):
        parse_repairs("P1=squad P1=-")
    with pytest.raises(PlanError, match="expected repairs like"):
        parse_repairs("P1")


def test_a_campaign_of_one_mission_scores_like_the_single_game() -> None:
    setup = make_setup([(1, "white", "E1-10"), (1, "internal", "I1-06")], "T1 T3 T2 T4")
    plan = parse_plan("P1: C - - C - - - C\nP2: l C C\nseed: 4")
    single = resolve(setup, plan)
    campaign = resolve_campaign([setup], [plan])
    assert single.score is not None and campaign.score is not None
    assert campaign.score.total == single.score.total
    assert campaign.missions[0].result.damage == single.damage


def test_more_than_three_missions_or_missing_plans_are_refused() -> None:
    setup = make_setup([], "T1 T2 T3 T4")
    plan = parse_plan("P1: C")
    with pytest.raises(PlanError, match="1 to 3 missions"):
        resolve_campaign([setup] * 4, [plan] * 4)
    with pytest.raises(PlanError, match="one plan per mission"):
        resolve_campaign([setup] * 2, [plan])
    with pytest.raises(PlanError, match="repairs after mission 1"):
        resolve_campaign([setup] * 2, [plan] * 2, [{"P1": "squad"}])


def test_the_hull_field_round_trips_and_is_left_out_of_single_missions() -> None:
    setup = make_setup([], "T1 T2 T3 T4")
    single = resolve(setup, parse_plan("P1: C"), trace=True).trace[0]
    assert "hull=" not in single
    assert notation(parse_notation(single)) == single
    state = parse_notation(single)
    state.hull = [1, 2, 1]
    text = notation(state)
    assert text.endswith(" hull=1.2.1")
    assert parse_notation(text).hull == [1, 2, 1]
