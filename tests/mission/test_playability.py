"""``validate`` refuses what cannot be played as written, and ``lint`` agrees with it."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from authoring.cli import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

PINS = """\
format: 1
id: pins
title: "Pins"
profile: base
players: 5
phases: ["3:45", "7:30", "10:00"]
events:
  - {at: "0:10", threat: {turn: 1, zone: red, card: E1-07}}
  - {at: "0:40", threat: {turn: 2, zone: blue, card: E1-07}}
  - {at: "1:40", threat: {turn: 3, zone: white, card: E9-99}}
  - {at: "2:40", threat: {turn: 4, zone: internal, card: E1-01}}
  - {at: "4:40", threat: {turn: 6, zone: white, serious: true, card: SE1-02}}
"""

SHARED_TURN = """\
format: 1
id: shared
title: "Shared turn"
profile: base
players: 5
phases: ["3:45", "7:30", "10:00"]
events:
  - {at: "0:10", threat: {turn: 2, zone: red}}
  - {at: "0:40", threat: {turn: 2, zone: internal}}
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_validate_refuses_unknown_repeated_and_misplaced_pinned_cards(tmp_path: Path) -> None:
    path = _write(tmp_path, "pins.yaml", PINS)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    lines = [line for line in result.stdout.splitlines() if ": M005 " in line]
    assert lines == [
        f"{path}:9:54: M005 card E1-07 (Fighter) is pinned twice (first by event 1): each "
        "card is in its deck once",
        f"{path}:10:55: M005 unknown threat card 'E9-99': expected the id of a threat card of "
        "the base game, such as E1-07 or SI2-03",
        f"{path}:11:58: M005 card E1-01 (Pulse Ball) is an external threat: expected an "
        "internal card for this event",
    ]
    lint = runner.invoke(app, ["lint", str(path), "--output-format", "concise"])
    assert lint.exit_code == 1
    assert sum(": M005 " in line for line in lint.stdout.splitlines()) == 3


def test_resolve_blames_the_pinned_card_not_the_plan(tmp_path: Path) -> None:
    path = _write(tmp_path, "pins.yaml", PINS)
    plan = ROOT / "tests" / "engine" / "plans" / "mission-1-4p.yaml"
    result = runner.invoke(app, ["resolve", str(path), str(plan)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {path}:9:54: M005 card E1-07 (Fighter) is pinned "
                                    "twice")
    assert str(plan) not in result.stderr


def test_validate_and_lint_agree_on_two_threats_in_one_turn(tmp_path: Path) -> None:
    path = _write(tmp_path, "shared.yaml", SHARED_TURN)
    validate = runner.invoke(app, ["validate", str(path)])
    lint = runner.invoke(app, ["lint", str(path), "--output-format", "concise"])
    assert validate.exit_code == 1 and lint.exit_code == 1
    where, what = f"{path}:9:33: M105 ", "threat number 2 on turn T+2 (at 0:40): expected at most 1"
    for output in (validate.stdout, lint.stdout):
        assert any(line.startswith(where) and what in line for line in output.splitlines())
    double = _write(tmp_path, "double.yaml", SHARED_TURN.replace(
        "profile: base", "profile: double-action").replace(
        '["3:45", "7:30", "10:00"]', '["5:00", "9:30", "13:30"]'))
    assert runner.invoke(app, ["validate", str(double)]).exit_code == 0  # allowed there


def test_the_bundled_missions_stay_valid() -> None:
    result = runner.invoke(app, ["validate", str(ROOT / "missions"), "-q"])
    assert result.exit_code == 0, result.output
