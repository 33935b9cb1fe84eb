"""One crew-size rule (docs/rules.md §16): unconfirmed reports are played with 5 figures.

The rule lives in ``authoring/crew.py``; here every consumer is asked the same question about
the same mission — is the unconfirmed report of official mission 1 (T+3 internal, at 0:55)
played? — and must give the rule's answer: the soundtrack, the briefing, the answer key, the
generator, the linter, the engine's setup and the simulated crew.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from authoring.cli._app import app
from authoring.crew import FIGURES, CrewSize, CrewSizeError, choose_crew, crew_size
from authoring.engine import Plan, make_crew_plan, setup_from_mission
from authoring.generate import GenerateOptions, generate_mission, generated_text
from authoring.lint.context import LintContext
from authoring.lint.rules.game import undestroyable
from authoring.mission import Mission, load_mission
from authoring.render.catalogue import load_faces
from authoring.render.sheets import SheetOptions, render_html
from authoring.simulation.dealing import crew_labels
from authoring.simulation.montecarlo import figures_for

ROOT = Path(__file__).resolve().parent.parent
MISSION_1 = ROOT / "missions" / "official" / "mission-1.yaml"
#: (players, figures written in the file or None) and whether the report is played.
CREWS = [(5, None, True), (4, None, False), (4, 4, False), (4, 5, True), (3, 5, True),
         (3, None, False), (2, 5, True), (1, None, False)]


def _mission(tmp_path: Path, players: int, figures: int | None) -> tuple[Path, Mission]:
    text = MISSION_1.read_text(encoding="utf-8").replace(
        "players: 5\n", f"players: {players}\n" + (f"figures: {figures}\n" if figures else ""))
    path = tmp_path / f"m-{players}-{figures}.yaml"
    path.write_text(text, encoding="utf-8")
    return path, load_mission(path)


def _consumers(path: Path, mission: Mission, monkeypatch: pytest.MonkeyPatch) -> dict[str, bool]:
    """Whether each consumer plays the unconfirmed report (the mission's only one)."""
    from authoring.mission.timeline import compile_timeline

    played: dict[str, bool] = {}
    cues = compile_timeline(mission).cues
    played["timeline"] = any(c.kind == "threat" and c.params["unconfirmed"] for c in cues)
    faces = load_faces()
    briefing = re.sub(r"<[^>]+>", "", render_html(mission, SheetOptions(kind="briefing")))
    played["briefing events"] = "0:55 T+3 internal threat (unconfirmed)" in briefing
    played["briefing facts"] = f"{len(mission.threats())} announced" in briefing
    key = render_html(mission, SheetOptions(kind="answer-key", seed=4), faces)
    played["answer key"] = "T+3, internal" in key
    crew = tuple(make_crew_plan(label, "") for label in mission.crew.labels())
    setup = setup_from_mission(mission, Plan(crew=crew, seed=3))
    played["engine"] = len(setup.threats) == len(mission.threats())
    played["simulation"] = figures_for(mission) == 5 and len(
        crew_labels(mission.players, figures_for(mission))) == 5
    examined: list[int] = []

    def record(ctx: Any, index: int, *args: Any) -> bool:
        examined.append(index)
        return True

    monkeypatch.setattr(undestroyable, "can_destroy", record)
    list(undestroyable.check(LintContext(mission, "base"), undestroyable.DEFAULTS))
    report = [i for i, t in enumerate(mission.threats()) if t.unconfirmed]
    played["lint"] = report[0] in examined
    played["lint timeline"] = any(c.kind == "threat" and c.params["unconfirmed"]
                                  for c in LintContext(mission, "base").timeline.cues)
    return played


@pytest.mark.parametrize(("players", "figures", "expected"), CREWS,
                         ids=[f"{p}p-{f}f" for p, f, _ in CREWS])
def test_every_consumer_agrees_on_the_unconfirmed_report(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, players: int, figures: int | None,
        expected: bool) -> None:
    path, mission = _mission(tmp_path, players, figures)
    assert mission.crew.plays_unconfirmed is expected
    played = _consumers(path, mission, monkeypatch)
    assert played == dict.fromkeys(played, expected)


@pytest.mark.parametrize(("figures", "expected"), [(None, False), (5, True)])
def test_the_generator_agrees_for_four_players(figures: int | None, expected: bool) -> None:
    generated = generate_mission(GenerateOptions(players=4, figures=figures, seed=3))
    text = generated_text(generated)
    assert generated.mission.crew == crew_size(4, figures)
    assert ("not played" not in text) is expected
    assert (f"figures: {figures}" in text) is (figures is not None)
    assert ("--figures 5" in text) is expected  # the reproduce line keeps the crew


def test_the_cli_takes_the_crew_the_same_way_everywhere(tmp_path: Path) -> None:
    runner = CliRunner()
    commands = {"timeline": [str(MISSION_1)], "sheets": [str(MISSION_1), "-o",
                                                        str(tmp_path / "s.html")],
                "solve": [str(MISSION_1), "-n", "1"], "generate": ["--seed", "1"],
                "render": [str(MISSION_1), "-o", str(tmp_path / "r.wav")],
                "import": [str(tmp_path / "none.xml"), "--from", "jsamg-xml"]}
    for name, args in commands.items():
        help_text = runner.invoke(app, [name, "--help"], terminal_width=200).stdout
        assert "--players" in help_text and "--figures" in help_text, name
        for bad, option in ((["--players", "6"], "--players"), (["--figures", "3"], "--figures")):
            result = runner.invoke(app, [name, *args, *bad])
            assert result.exit_code == 2, (name, bad, result.stderr)
            assert option in result.stderr and "Traceback" not in result.stderr
        if name in ("import",):
            continue
        result = runner.invoke(app, [name, *args, "--players", "5", "--figures", "4"])
        assert result.exit_code == 2, (name, result.stderr)
        assert "expected 5 figures (players and androids) for 5 players, got 4" in result.stderr


def test_timeline_of_four_players_and_an_android() -> None:
    result = CliRunner().invoke(app, ["timeline", str(MISSION_1), "-p", "4", "--figures", "5"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith("# cd-mission-1, 4 players and 1 android, ")
    assert "Unconfirmed report" in result.stdout
    four = CliRunner().invoke(app, ["timeline", str(MISSION_1), "-p", "4"])
    assert "Unconfirmed report" not in four.stdout


def test_an_illegal_pair_in_a_mission_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(MISSION_1.read_text(encoding="utf-8").replace(
        "players: 5\n", "players: 5\nfigures: 4\n"), encoding="utf-8")
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1)
                if text.startswith("figures"))
    assert f"{path}:{line}:10: M006 expected 5 figures (players and androids) for 5 players, " \
           "got 4" in result.stdout + result.stderr


def test_the_rule_itself() -> None:
    assert [(p, f) for p in range(1, 6) for f in FIGURES[p]] == [
        (1, 4), (2, 4), (2, 5), (3, 4), (3, 5), (4, 4), (4, 5), (5, 5)]
    assert crew_size(3) == CrewSize(3, 4) and crew_size(3).labels() == ("P1", "P2", "P3", "A1")
    assert crew_size(1).describe() == "1 player and 3 androids"
    written = CrewSize(4, 5)
    assert choose_crew(written) == written
    assert choose_crew(written, players=4) == CrewSize(4, 4)  # --players 4: the 4-player track
    assert choose_crew(written, figures=4) == CrewSize(4, 4)
    for players, figures in ((0, None), (6, None), (5, 4), (1, 5), (True, None)):
        with pytest.raises(CrewSizeError):
            crew_size(players, figures)  # type: ignore[arg-type]
