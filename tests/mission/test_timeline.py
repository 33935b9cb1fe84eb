"""The compiled timeline follows the timing model of docs/soundtrack.md §4."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.crew import crew_size
from authoring.mission import load_mission
from authoring.mission.model import CommsDown, DataTransfer, IncomingData, Mission, Threat
from authoring.mission.timeline import Cue, compile_timeline

OFFICIAL = Path(__file__).parents[2] / "missions" / "official"


def _mission(events: tuple[object, ...] = (), phases: tuple[int, ...] = (225, 450, 600),
             players: int = 5, figures: int | None = None) -> Mission:
    return Mission(id="t", title="T", profile="base", players=players, phases=phases,
                   events=events, figures=figures)  # type: ignore[arg-type]


def _at(cues: tuple[Cue, ...], kind: str) -> list[int]:
    return [c.start_ms for c in cues if c.kind == kind]


def test_mission_start_has_chirp_then_speech() -> None:
    cues = compile_timeline(_mission()).cues
    assert (cues[0].kind, cues[0].start_ms) == ("chirp", 0)
    assert (cues[1].kind, cues[1].start_ms) == ("mission_start", 2_000)
    assert cues[1].text == "Alert. Enemy activity detected. Please begin first phase."


def test_each_phase_has_warnings_countdown_and_closing_line() -> None:
    cues = compile_timeline(_mission()).cues
    assert [(c.start_ms, c.text) for c in cues if c.kind == "warning"] == [
        (165_000, "First phase ends in one minute."),
        (205_000, "First phase ends in twenty seconds."),
        (390_000, "Second phase ends in one minute."),
        (430_000, "Second phase ends in twenty seconds."),
        (540_000, "Operation ends in one minute."),
        (580_000, "Operation ends in twenty seconds."),
    ]
    assert _at(cues, "countdown") == [217_000, 442_000, 592_000]
    # five … one on the whole seconds before each phase end, the last in the final second
    counts = [(c.start_ms, c.params["n"]) for c in cues if c.kind == "count"]
    assert counts == [(end - n * 1_000, n) for end in (225_000, 450_000, 600_000)
                      for n in range(5, 0, -1)]
    assert [(c.start_ms, c.text) for c in cues if c.kind in ("phase_ended", "operation_ended")] == [
        (226_000, "First phase has ended. Please begin second phase."),
        (451_000, "Second phase has ended. Please begin third phase."),
        (601_000, "Mission complete. Jumping to hyperspace."),
    ]


def test_test_run_profile_has_two_phases_and_operation_ends_after_the_second() -> None:
    timeline = compile_timeline(load_mission(OFFICIAL / "test-run-2.yaml"))
    texts = [c.text for c in timeline.cues if c.kind == "warning"]
    assert texts == ["First phase ends in one minute.", "First phase ends in twenty seconds.",
                     "Operation ends in one minute.", "Operation ends in twenty seconds."]
    assert timeline.phases_ms == (220_000, 420_000)


def test_threat_wording_and_parameters() -> None:
    cues = compile_timeline(_mission((Threat(10, 3, "red", serious=True),
                                       Threat(55, 4, "internal")))).cues
    threats = [c for c in cues if c.kind == "threat"]
    assert threats[0].text == ("Alert. Time T plus three. Serious threat. Zone red. "
                               "Repeat: Time T plus three. Serious threat. Zone red.")
    assert threats[1].text == ("Alert. Time T plus four. Internal threat. "
                               "Repeat: Time T plus four. Internal threat.")
    assert dict(threats[0].params) == {"turn": 3, "zone": "red", "serious": True,
                                       "unconfirmed": False}
    assert (threats[0].start_ms, threats[0].event) == (10_000, 0)


@pytest.mark.parametrize(("players", "figures", "announced"), [
    (5, None, True), (4, None, False), (3, None, False), (4, 5, True), (3, 5, True),
    (2, 5, True), (1, None, False)])
def test_unconfirmed_reports_play_only_with_five_figures(players: int, figures: int | None,
                                                         announced: bool) -> None:
    # figures, not players (docs/rules.md §16): 4 players and an android hear the report
    mission = _mission((Threat(10, 1, "red", unconfirmed=True),), players=players,
                       figures=figures)
    threats = [c for c in compile_timeline(mission).cues if c.kind == "threat"]
    assert bool(threats) is announced
    if announced:  # announced as on the CD; five players play it as a normal threat
        assert threats[0].text == ("Alert. Unconfirmed report. Time T plus one. Threat. Zone red. "
                                   "Repeat: Time T plus one. Threat. Zone red.")
        assert threats[0].nominal_ms == 1_150 + 1_670 + 2 * (1_780 + 840 + 1_440) + 810


def test_player_count_argument_overrides_the_mission() -> None:
    mission = _mission((Threat(10, 1, "red", unconfirmed=True),), players=5)
    assert not [c for c in compile_timeline(mission, crew_size(4)).cues if c.kind == "threat"]


def test_comms_down_has_static_until_restored() -> None:
    cues = compile_timeline(_mission((CommsDown(170, 10),))).cues
    assert _at(cues, "comms_down") == [170_000]
    static = next(c for c in cues if c.kind == "static")
    assert (static.start_ms, static.until_ms) == (170_000, 180_000)
    assert _at(cues, "comms_restored") == [180_000]


def test_data_transfer_counts_down_to_the_beep() -> None:
    cues = compile_timeline(_mission((DataTransfer(100),))).cues
    assert _at(cues, "data_transfer") == [100_000]
    assert [c.start_ms for c in cues if c.kind == "count" and c.event == 0] == [
        105_000, 106_000, 107_000, 108_000, 109_000]
    assert _at(cues, "transfer_beep") == [110_000]
    assert _at(cues, "data_transfer_complete") == [110_500]


def test_closing_line_of_a_transfer_is_dropped_when_the_next_event_is_close() -> None:
    cues = compile_timeline(_mission((DataTransfer(100), CommsDown(110, 10)))).cues
    assert _at(cues, "transfer_beep") == [110_000]
    assert _at(cues, "data_transfer_complete") == []
    cues = compile_timeline(_mission((DataTransfer(100), IncomingData(113)))).cues
    assert _at(cues, "data_transfer_complete") == [110_500]


def test_cues_are_sorted_and_mission_one_is_complete() -> None:
    timeline = compile_timeline(load_mission(OFFICIAL / "mission-1.yaml"))
    starts = [c.start_ms for c in timeline.cues]
    assert starts == sorted(starts)
    kinds = [c.kind for c in timeline.cues]
    assert kinds.count("threat") == 6  # the unconfirmed T+3 report plays with 5 players
    four = compile_timeline(load_mission(OFFICIAL / "mission-1.yaml"), crew_size(4))
    assert [c.kind for c in four.cues].count("threat") == 5
    assert kinds.count("warning") == 6
    assert kinds.count("comms_down") == kinds.count("comms_restored") == 4
    assert kinds.count("data_transfer") == 4 and kinds.count("incoming_data") == 2
    assert timeline.end_ms == 601_000 + 3_600


def test_timeline_is_a_pure_function() -> None:
    mission = load_mission(OFFICIAL / "mission-5.yaml")
    assert compile_timeline(mission).to_dict() == compile_timeline(mission).to_dict()
