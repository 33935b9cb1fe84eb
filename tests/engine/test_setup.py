"""Tests the mission adapter (duck-typed on authoring.mission.model) and setup checks."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from authoring.engine import SetupError, ThreatEvent, parse_plan, setup_from_mission
from authoring.engine.rules.setup import make_setup


@dataclass(frozen=True)
class FakeThreat:
    at: int
    turn: int
    zone: str
    serious: bool = False
    unconfirmed: bool = False
    card: str | None = None


@dataclass(frozen=True)
class FakeDecks:
    common: str = "mixed"
    serious: str = "mixed"


@dataclass(frozen=True)
class FakeMission:
    players: int
    events: tuple[FakeThreat, ...]
    decks: FakeDecks = field(default_factory=FakeDecks)
    trajectories: dict[str, str] | None = None

    def threats(self) -> tuple[FakeThreat, ...]:
        return self.events


MISSION = FakeMission(
    players=4,
    events=(FakeThreat(20, 1, "red", card="E1-07"), FakeThreat(60, 2, "white", unconfirmed=True),
            FakeThreat(90, 3, "internal", serious=True), FakeThreat(120, 4, "blue")),
    decks=FakeDecks("white", "yellow"),
)


def test_unconfirmed_reports_are_ignored_with_four_figures() -> None:
    setup = setup_from_mission(MISSION, parse_plan("P1:\nP2:\nP3:\nP4:"))
    assert [e.turn for e in setup.threats] == [1, 3, 4]
    assert setup.threats[0] == ThreatEvent(1, "red", "E1-07")
    assert setup.threats[1].card.startswith("SI2-")  # yellow serious internal deck
    assert setup.threats[2].card.startswith("E1-")  # white common external deck


def test_unconfirmed_reports_are_played_with_five_figures() -> None:
    setup = setup_from_mission(MISSION, parse_plan("P1:\nP2:\nP3:\nP4:\nA1:"))
    assert [e.turn for e in setup.threats] == [1, 2, 3, 4]


def test_the_plan_draw_wins_and_the_seed_decides_the_rest() -> None:
    plan = parse_plan("P1:\nP2:\nP3:\nP4:\ndraw: - - SI1-03 E1-02\ntrajectories: T1 T2 T3 T4")
    setup = setup_from_mission(MISSION, plan)
    assert [e.card for e in setup.threats] == ["E1-07", "SI1-03", "E1-02"]
    assert setup.trajectories["internal"] == "T4"
    random_a = setup_from_mission(MISSION, parse_plan("P1:\nP2:\nP3:\nP4:\nseed: 5"))
    random_b = setup_from_mission(MISSION, parse_plan("P1:\nP2:\nP3:\nP4:\nseed: 5"))
    assert random_a == random_b


def test_draw_length_must_match() -> None:
    with pytest.raises(SetupError, match="expected 4 cards in the draw"):
        setup_from_mission(MISSION, parse_plan("P1:\nP2:\nP3:\nP4:\ndraw: E1-01"))


def test_crew_size_must_fit_players() -> None:
    with pytest.raises(SetupError, match=r"expected 4 or 5 crew members .* for 2 players, got 2"):
        setup_from_mission(MISSION, parse_plan("P1:\nP2:"))
    solo = FakeMission(players=1, events=())
    with pytest.raises(SetupError, match=r"expected 4 crew members .* for 1 players, got 5"):
        setup_from_mission(solo, parse_plan("A1:\nA2:\nA3:\nA4:\nA5:"))
    assert setup_from_mission(solo, parse_plan("A1:\nA2:\nA3:\nA4:")).players == 1
    # A mission written for 5 players can be flown by 2 players and 2 androids.
    five = FakeMission(players=5, events=(FakeThreat(20, 1, "red", unconfirmed=True),))
    setup = setup_from_mission(five, parse_plan("P1:\nP2:\nA1:\nA2:"))
    assert (setup.players, setup.threats) == (2, ())


@pytest.mark.parametrize(("threats", "message"), [
    ([(1, "internal", "E1-01")], "expected card E1-01 on an external zone"),
    ([(1, "red", "I1-01")], "expected card I1-01 on the internal track"),
    ([(13, "red", "E1-01")], "expected a threat turn 1..12, got 13"),
    ([(1, "green", "E1-01")], "expected a zone"),
    ([(1, "internal", "SI3-104")], "needs a rule the engine does not play yet: time slip"),
    ([(1, "red", "E3-107", "E1-07")], "bonus threat card E1-07 .* is not internal"),
    ([(1, "red", "E1-07", "I1-01")], "expected no bonus threat for card E1-07"),
    ([(1, "red", "SE3-104", "SI3-102")], "SI3-102 .* carries a bonus threat itself"),
    ([(1, "red", "SE3-104", "SI3-104")], "SI3-104 .* needs a rule the engine does not play"),
    ([(1, "red", "SE3-104", "I1-01"), (2, "internal", "I1-01")],
     "expected each threat card at most once, got I1-01"),
    ([(1, "red", "E9-99")], "expected a threat card id"),
    ([(1, "red", "E1-01"), (2, "blue", "E1-01")], "expected each threat card at most once"),
])
def test_bad_threats_are_rejected(threats: list[tuple[int, str, str]], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        make_setup(threats, "T1 T2 T3 T4")


def test_bad_trajectories_are_rejected() -> None:
    with pytest.raises(SetupError, match="expected four different trajectories"):
        make_setup([], "T1 T1 T3 T4")
    with pytest.raises(SetupError, match=r"expected a trajectory T1\.\.T7, got .T8."):
        make_setup([], "T1 T8 T3 T4")


def test_rule_levels_limit_threats_and_plans() -> None:
    from authoring.engine import PlanError, resolve

    with pytest.raises(SetupError, match=r"expected no serious threat at rule level 1"):
        make_setup([(1, "red", "SE1-01")], "T4 T2 T6 T1", level=1)
    with pytest.raises(SetupError, match=r"expected no internal threat at rule level 2"):
        make_setup([(1, "internal", "I1-01")], "T4 T2 T6 T1", level=2)
    with pytest.raises(SetupError, match=r"expected threats in turns 1\.\.7 at rule level 1"):
        make_setup([(8, "red", "E1-01")], "T4 T2 T6 T1", level=1)
    with pytest.raises(SetupError, match=r"expected a rule level 1 to 4, got 5"):
        make_setup([], "T4 T2 T6 T1", level=5)
    level1 = make_setup([], "T4 T2 T6 T1", level=1)
    with pytest.raises(PlanError, match=r"expected blank slots after turn 7 at rule level 1"):
        resolve(level1, parse_plan("P1: - - - - - - - A"))
    with pytest.raises(PlanError, match=r"expected no tripped card at rule level 1"):
        resolve(level1, parse_plan("P1: A!"))
    with pytest.raises(PlanError, match=r"expected no heroic card at rule level 3"):
        resolve(make_setup([], "T4 T2 T6 T1", level=3), parse_plan("P1: A+"))


def test_test_run_profile_plays_level_1() -> None:
    mission = FakeMission(players=4, events=(FakeThreat(20, 1, "white", card="E1-01"),))
    object.__setattr__(mission, "profile", "test-run")
    setup = setup_from_mission(mission, parse_plan("P1:\nP2:\nP3:\nP4:\ntrajectories: T4 T2 T6 T1"))
    assert setup.level == 1
    assert setup_from_mission(mission, parse_plan("P1:\nP2:\nP3:\nP4:"), level=4).level == 4


def test_resolve_mission_plays_the_adapted_setup() -> None:
    from authoring.engine import resolve_mission

    mission = FakeMission(players=4, events=(FakeThreat(20, 1, "white", card="E1-10"),))
    plan = parse_plan("P1: A\nP2:\nP3:\nP4:\ntrajectories: T1 T2 T3 T4")
    result = resolve_mission(mission, plan)
    assert result.survived and result.score is not None and result.score.total == 4
