"""A pinned card that does not fit its event is refused by every command as validate refuses it.

Issue 38 item 12: ``validate`` reported such a card with file:line:col (M005), but
``simulate`` stopped with an engine error without a place (or played a serious card on a
normal threat), ``solve`` did the same, and ``sheets``, ``render``, ``timeline`` and ``export``
wrote their outputs. Every command now loads missions through
``authoring.lint.playability.load_playable_mission``: the same message at the same place.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app

ROOT = Path(__file__).resolve().parents[1]
MISSION_1 = ROOT / "missions" / "official" / "mission-1.yaml"
PLAN = ROOT / "tests" / "engine" / "plans" / "mission-1-4p.yaml"
INTERNAL = "threat: {turn: 5, zone: internal}"

#: One card of each kind of misfit: external on internal, unknown, serious on normal,
#: an expansion card the engine does not play (docs/rules.md §19.7).
CARDS = {"external": "E1-07", "unknown": "E1-99", "serious": "SI1-01", "expansion": "SI3-102"}

COMMANDS = {
    "simulate": ["simulate", "{m}", "--games", "2", "--no-compare", "--jobs", "1"],
    "solve": ["solve", "{m}", "--iterations", "5", "--jobs", "1"],
    "resolve": ["resolve", "{m}", str(PLAN)],
    "sheets": ["sheets", "{m}", "-o", "{out}.pdf"],
    "sheets --rate": ["sheets", "{m}", "--rate", "-o", "{out}.pdf"],
    "render": ["render", "{m}", "-o", "{out}.wav"],
    "timeline": ["timeline", "{m}"],
    "export": ["export", "{m}", "--to", "flash-code", "-o", "{out}.txt"],
    "play": ["play", "{m}", "--terminal"],
}

runner = CliRunner()


def _mission(tmp_path: Path, card: str) -> Path:
    text = MISSION_1.read_text("utf-8")
    assert INTERNAL in text
    path = tmp_path / "mispinned.yaml"
    path.write_text(text.replace(INTERNAL, f"threat: {{turn: 5, zone: internal, card: {card}}}",
                                 1), "utf-8")
    return path


@pytest.mark.parametrize("kind", CARDS)
@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_mispinned_card_where_validate_does(
        tmp_path: Path, kind: str, command: str) -> None:
    mission = _mission(tmp_path, CARDS[kind])
    checked = runner.invoke(app, ["validate", str(mission)])
    assert checked.exit_code == 1
    located = checked.output.splitlines()[0]  # "…/mispinned.yaml:21:58: M005 …"
    assert ": M005 " in located
    out = tmp_path / "out"
    args = [a.format(m=mission, out=out) for a in COMMANDS[command]]
    done = runner.invoke(app, args)
    assert done.exit_code == 1, done.output
    assert f"error: {located}" in done.output.splitlines()
    assert "internal error" not in done.output
    assert not any(p.name.startswith("out") for p in tmp_path.iterdir())  # nothing written


@pytest.mark.parametrize("kind", CARDS)
def test_the_studio_does_not_rate_a_mispinned_card(tmp_path: Path, kind: str) -> None:
    from authoring.audio import DEFAULT_VOICE, load_voice
    from authoring.studio.analysis import Checker

    mission = _mission(tmp_path, CARDS[kind])
    answer = Checker(tmp_path, load_voice(DEFAULT_VOICE)).rate(
        mission.read_text("utf-8"), mission.name)
    assert answer["rating"] is None
    assert [p["code"] for p in answer["problems"]] == ["M005"]
    assert answer["problems"][0]["line"] == 21
