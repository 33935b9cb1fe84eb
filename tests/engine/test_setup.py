"""Tests the mission adapter (duck-typed on authoring.mission.model) and setup checks."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from authoring.engine import SetupError, ThreatEvent, parse_plan, setup_from_mission
from authoring.engine.setup import make_setup


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
    with pytest.raises(SetupError, match="expected 4 or 5 crew members"):
        setup_from_mission(MISSION, parse_plan("P1:\nP2:"))
    solo = FakeMission(players=1, events=())
    with pytest.raises(SetupError, match=r"expected 4 crew members .* for 1 players, got 5"):
        setup_from_mission(solo, parse_plan("A1:\nA2:\nA3:\nA4:\nA5:"))


@pytest.mark.parametrize(("threats", "message"), [
    ([(1, "internal", "E1-01")], "expected card E1-01 on an external zone"),
    ([(1, "red", "I1-01")], "expected card I1-01 on the internal track"),
    ([(13, "red", "E1-01")], "expected a threat turn 1..12, got 13"),
    ([(1, "green", "E1-01")], "expected a zone"),
    ([(1, "red", "E3-101")], "not supported by the engine yet"),
    ([(1, "red", "E9-99")], "expected a threat card id"),
])
def test_bad_threats_are_rejected(threats: list[tuple[int, str, str]], message: str) -> None:
    with pytest.raises(SetupError, match=message):
        make_setup(threats, "T1 T2 T3 T4")


def test_bad_trajectories_are_rejected() -> None:
    with pytest.raises(SetupError, match="expected four different trajectories"):
        make_setup([], "T1 T1 T3 T4")
    with pytest.raises(SetupError, match=r"expected a trajectory T1\.\.T7, got .T8."):
        make_setup([], "T1 T8 T3 T4")
