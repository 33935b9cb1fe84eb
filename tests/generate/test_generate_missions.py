"""The generator: valid, self-checked, lint-clean, deterministic missions; bad options refused."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest
from gen_helpers import ROOT, valid_mission
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from authoring.errors import UsageError
from authoring.generate import (
    GenerateOptions,
    GenerationError,
    check_options,
    generate_mission,
    generated_text,
    parse_length,
    parse_range,
)
from authoring.generate.placement import (
    FIRST_EVENT,
    GRID,
    Board,
    event_span_ms,
    hold_seconds,
)
from authoring.generate.selfcheck import self_check
from authoring.generate.stats import mission_stats
from authoring.lint import lint_mission
from authoring.mission.model import (
    CommsDown,
    DataTransfer,
    Event,
    IncomingData,
    Mission,
    Threat,
)
from authoring.mission.timeline import Timeline, compile_timeline

PROFILES = ("base", "training", "test-run", "double-action")


@pytest.mark.parametrize("profile", PROFILES)
@pytest.mark.parametrize("players", [4, 5])
def test_missions_are_valid_self_checked_and_lint_clean(profile: str, players: int) -> None:
    for seed in range(25):
        options = GenerateOptions(profile=profile, players=players, seed=seed)  # type: ignore[arg-type]
        generated = generate_mission(options)
        text = generated_text(generated)
        mission = valid_mission(text)
        assert mission.events == generated.mission.events
        assert mission.phases == generated.mission.phases
        assert mission.profile == profile and mission.players == players
        assert self_check(mission, options.points(), options.unconfirmed_points()) == []
        assert generated.self_check_rejections == 0
        assert [(p.code, p.message) for p in lint_mission(mission)] == []


def test_same_seed_same_bytes_and_other_seeds_differ() -> None:
    first = generated_text(generate_mission(GenerateOptions(seed=42)))
    again = generated_text(generate_mission(GenerateOptions(seed=42)))
    other = generated_text(generate_mission(GenerateOptions(seed=43)))
    assert first == again
    assert first != other
    assert first.startswith("# Generated mission: spacealert generate, generator v1, seed 42.")
    assert "seed 42" in first.splitlines()[0]
    assert "# Reproduce: spacealert generate --profile base --players 5 --seed 42" in first


def test_output_does_not_depend_on_hash_seed() -> None:
    code = ("from authoring.generate import *; import sys; "
            "sys.stdout.write(generated_text(generate_mission("
            "GenerateOptions(profile='double-action', seed=7))))")
    outputs = set()
    for hash_seed in ("0", "1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              check=True, cwd=ROOT)
        outputs.add(done.stdout)
    assert len(outputs) == 1


def test_four_players_keep_the_report_and_say_so() -> None:
    text = generated_text(generate_mission(GenerateOptions(players=4, seed=3)))
    assert "With 4 players the unconfirmed reports are not played: the crew faces 7 points." \
        in text
    assert "# unconfirmed report: not played with fewer than 5 players" in text
    mission = valid_mission(text)
    assert sum(t.points for t in mission.threats()) == 8
    heard = [c for c in compile_timeline(mission).cues if c.kind == "threat"]
    assert len(heard) == len(mission.threats()) - 1


def test_options_shape_the_mission() -> None:
    options = GenerateOptions(seed=9, threat_level=10, serious=(3, 3), internal=(2, 2),
                              unconfirmed=2, ambush=1.0, decks="yellow")
    generated = generate_mission(options)
    stats = mission_stats(generated.mission)
    assert (stats.points, stats.serious, stats.internal) == (10, 3, 2)
    assert sum(t.points for t in generated.mission.threats() if t.unconfirmed) == 2
    assert stats.ambushes == 2  # one per threat phase
    assert generated.mission.decks.common == "yellow"
    text = generated_text(generated)
    assert "# ambush: after the one-minute warning" in text
    assert "decks: {common: yellow, serious: yellow}" in text
    valid_mission(text)


def test_length_option_sets_the_mission_end() -> None:
    for seconds in (560, 600, 640):
        mission = generate_mission(GenerateOptions(seed=1, length=seconds)).mission
        assert mission.length == seconds
        assert self_check(mission, 8, 1) == []


def test_no_ambush_when_asked() -> None:
    for seed in range(30):
        mission = generate_mission(GenerateOptions(seed=seed, ambush=0.0)).mission
        assert mission_stats(mission).ambushes == 0


@pytest.mark.parametrize(("options", "message"), [
    (GenerateOptions(threat_level=30), "--threat-level: expected 1..14 threat points"),
    (GenerateOptions(serious=(5, 6)), "--serious: 5..6 serious threats do not fit"),
    (GenerateOptions(internal=(0, 5)), "--internal: expected at most 3 internal threats"),
    (GenerateOptions(unconfirmed=8), "--unconfirmed: expected 0..7 points"),
    (GenerateOptions(ambush=1.5), "--ambush: expected a probability 0..1, got 1.5"),
    (GenerateOptions(length=900), "--length: expected 9:00..11:00 for the base profile"),
    (GenerateOptions(players=6), "--players/--figures: expected 1 to 5 players, got 6"),
    (GenerateOptions(players=4, figures=3), "--players/--figures: expected 4 or 5 figures"),
    (GenerateOptions(players=5, figures=4), "--players/--figures: expected 5 figures"),
    (GenerateOptions(threat_level=10, serious=(0, 0)), "no threat mix fits 10 threat points"),
])
def test_impossible_options_are_usage_errors(options: GenerateOptions, message: str) -> None:
    with pytest.raises(UsageError) as caught:
        generate_mission(options)
    assert caught.value.exit_code == 2
    assert message in caught.value.message


@pytest.mark.parametrize(("text", "expected"), [("1..3", (1, 3)), ("2", (2, 2)),
                                                  (" 0 .. 2 ", (0, 2))])
def test_parse_range(text: str, expected: tuple[int, int]) -> None:
    assert parse_range(text, "--serious") == expected


@pytest.mark.parametrize(("text", "message"), [
    ("3..1", "expected MIN..MAX with MIN <= MAX, got '3..1'"),
    ("a..b", "expected MIN..MAX such as 1..3, got 'a..b'"),
    ("-1..2", "expected MIN..MAX such as 1..3"),
])
def test_parse_range_refuses(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message.replace(".", r"\.")):
        parse_range(text, "--serious")


@pytest.mark.parametrize(("text", "message"), [
    ("99:99", "expected a time m:ss"), ("10", "expected a time m:ss"),
    ("10:03", "expected a multiple of 5 seconds"),
])
def test_parse_length_refuses(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        parse_length(text)


def _fits_by_definition(board: Board, at: int, event: Event) -> bool:
    """The placement rules spelled out one by one (placement.py's docstring), at one time."""
    if at % GRID or at < FIRST_EVENT:
        return False
    phase = next((i for i, end in enumerate(board.phases, 1) if at < end), len(board.phases))
    _, end = board.phase_bounds(phase)
    return (at <= end - board.end_margin and board.clear_of_fixed(at, event)
            and board.clear_of_events(at, hold_seconds(event)))


@pytest.mark.parametrize(("seed", "profile"), [(5, "double-action"), (1, "base"),
                                               (2, "training"), (3, "test-run")])
def test_free_times_and_fits_agree_with_the_placement_rules(seed: int, profile: str) -> None:
    """The fast search (cached fixed-cue clearance, blocked grid ranges) gives exactly the
    times where each rule holds, and ``fits`` says yes exactly there."""
    mission = generate_mission(GenerateOptions(seed=seed, profile=profile)).mission  # type: ignore[arg-type]
    board = Board(mission.phases, 35)
    for event in mission.events[::2]:
        board.place(event.at, event)
    for probe in (IncomingData(0), DataTransfer(0), CommsDown(0, 25), CommsDown(0, 5),
                  Threat(0, 8, "white", True, True), Threat(0, 2, "internal", False, False)):
        for phase in range(1, len(mission.phases) + 1):
            start, end = board.phase_bounds(phase)
            brute = [t for t in range(start - 3, end + 3)
                     if _fits_by_definition(board, t, probe)]
            assert board.free_times(probe, phase) == [t for t in brute if start <= t < end]
            assert [t for t in range(start - 3, end + 3) if board.fits(t, probe)] == brute


def test_lengths_come_from_the_compiled_timeline() -> None:
    # a data transfer's closing line ends 12.3 s after its start; a 20 s comms-down is
    # followed by "communications restored" (2.3 s)
    assert event_span_ms(DataTransfer(0)) == 12_300
    assert event_span_ms(CommsDown(0, 20)) == 22_300
    assert hold_seconds(DataTransfer(0)) == 15
    assert hold_seconds(CommsDown(0, 20)) == 25
    longest = event_span_ms(Threat(0, 8, "white", True, True))
    assert longest > 13_000  # includes "Unconfirmed report"
    assert hold_seconds(Threat(0, 8, "white", True, True)) == 15


def test_self_check_finds_the_published_bugs() -> None:
    good = generate_mission(GenerateOptions(seed=11)).mission
    assert self_check(good, 8, 1) == []
    # a dropped threat (SAMG-A): one point fewer than requested
    dropped = replace(good, events=tuple(e for e in good.events
                                         if not (isinstance(e, Threat) and not e.serious
                                                 and not e.unconfirmed))[:])
    assert any("threat points" in p for p in self_check(dropped, 8, 1))
    # an event over the final countdown (JSAMG seed 7)
    end = good.length
    late = replace(good, events=(*good.events, CommsDown(end - 25, 15)))
    problems = self_check(late, 8, 1)
    assert any("final countdown" in p for p in problems)
    assert any("overlaps" in p for p in problems)
    # two events on one second (the lost-announcement bug)
    first = good.events[0]
    twice = replace(good, events=(first, IncomingData(first.at), *good.events[1:]))
    assert any("strictly increasing" in p for p in self_check(twice, 8, 1))


def test_self_check_finds_a_phase_without_its_announcements(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the lost final countdown of JSAMG: a timeline that drops phase 2's twenty-second warning
    from authoring.generate import selfcheck

    real = selfcheck.compile_timeline

    def losing(mission: Mission, players: int | None = None) -> Timeline:
        timeline = real(mission, players)
        kept = tuple(c for c in timeline.cues if not (
            c.kind == "warning" and c.phase == 2 and c.params.get("left") == "20s"))
        return replace(timeline, cues=kept)

    good = generate_mission(GenerateOptions(seed=11)).mission
    monkeypatch.setattr(selfcheck, "compile_timeline", losing)
    assert self_check(good, 8, 1) == [
        "phase 2 announcements are [('countdown', ''), ('phase_ended', ''), "
        "('warning', '1min')], expected [('countdown', ''), ('phase_ended', ''), "
        "('warning', '1min'), ('warning', '20s')]"]


def test_generation_error_is_reported_not_raised_as_crash() -> None:
    # 13 points with three internal threats (at most 3 internal points) leave more serious
    # threats than external ones: the options pass the quick checks, no draw succeeds
    with pytest.raises(GenerationError) as caught:
        generate_mission(GenerateOptions(threat_level=13, internal=(3, 3), seed=1))
    assert "could not generate a base mission for seed 1 after 100 attempts" \
        in caught.value.message
    assert caught.value.exit_code == 2


_options = st.builds(
    GenerateOptions,
    profile=st.sampled_from(PROFILES),
    players=st.sampled_from([4, 5]),
    seed=st.integers(0, 2**40),
    threat_level=st.none() | st.integers(-2, 24),
    serious=st.none() | st.tuples(st.integers(0, 6), st.integers(0, 6)),
    internal=st.none() | st.tuples(st.integers(0, 4), st.integers(0, 4)),
    unconfirmed=st.none() | st.integers(0, 4),
    ambush=st.none() | st.floats(0, 1),
    length=st.none() | st.integers(72, 180).map(lambda n: n * 5),
    decks=st.sampled_from(["white", "yellow", "mixed"]),
)


@settings(max_examples=150, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(_options)
def test_any_options_give_a_sound_mission_or_a_usage_error(options: GenerateOptions) -> None:
    try:
        check_options(options)
    except UsageError:
        return
    try:
        generated = generate_mission(options)
    except GenerationError:
        return
    mission: Mission = generated.mission
    assert self_check(mission, options.points(), options.unconfirmed_points()) == []
    assert not [p for p in lint_mission(mission) if p.severity == "error"]
