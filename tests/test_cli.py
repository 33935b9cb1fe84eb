"""The command line's shared behaviour: help everywhere, version, module entry, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from authoring import __version__
from authoring._native import describe
from authoring.cli import app

MISSION_1 = Path(__file__).parents[1] / "missions" / "official" / "mission-1.yaml"
runner = CliRunner()


def _command_paths() -> list[list[str]]:
    root = get_command(app)
    paths: list[list[str]] = []

    def walk(command: typer.core.TyperCommand, prefix: list[str]) -> None:
        # list_commands/get_command, not .commands: the root group loads commands on use
        if hasattr(command, "list_commands"):
            context = typer.Context(command)
            for name in sorted(command.list_commands(context)):
                child = command.get_command(context, name)
                assert child is not None, name
                paths.append([*prefix, name])
                walk(child, [*prefix, name])

    walk(root, [])
    return paths


def test_version() -> None:
    result = runner.invoke(app, ["--version"])
    assert (result.exit_code, result.stdout) == (0, f"spacealert {__version__}\n{describe()}\n")


@pytest.mark.parametrize("path", _command_paths(), ids=" ".join)
def test_every_command_has_help(path: list[str]) -> None:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    assert "Usage:" in result.stdout


def test_core_commands_are_present() -> None:
    names = {p[0] for p in _command_paths()}
    assert {"validate", "timeline"} <= names


def test_unknown_option_is_a_usage_error() -> None:
    result = runner.invoke(app, ["validate", "--nope", str(MISSION_1)])
    assert result.exit_code == 2


def test_timeline_json_is_pure_json_on_stdout() -> None:
    result = runner.invoke(app, ["timeline", "--json", str(MISSION_1)])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["mission"] == "cd-mission-1"
    assert data["phases_ms"] == [225_000, 450_000, 600_000]
    assert data["cues"][1] == {
        "start_ms": 2000, "time": "0:02.000", "kind": "mission_start",
        "text": "Alert. Enemy activity detected. Please begin first phase.", "nominal_ms": 4400,
        "phase": 1, "params": {}, "event": None, "until_ms": None}


def test_timeline_text_lists_every_cue() -> None:
    result = runner.invoke(app, ["timeline", str(MISSION_1), "--players", "4"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    # start 2 + 3 phases × 9 + 5 threats + 2 incoming + 4 transfers × 8 + 4 comms-downs × 3
    assert lines[0] == "# cd-mission-1, 4 players, 80 cues"
    assert "0:10.000  P1  threat" in lines[3]
    assert "Time T plus two. Serious threat. Zone white." in lines[3]
    assert lines[-1].strip().startswith("10:01.000  P3  operation_ended")


def test_timeline_of_an_invalid_mission_exits_1_with_location(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nid: x\n", encoding="utf-8")
    result = runner.invoke(app, ["timeline", str(bad)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"error: {bad}:1:1: S103 missing key" in result.stderr


def test_python_dash_m_runs_the_cli() -> None:
    result = subprocess.run([sys.executable, "-m", "authoring", "--version"],
                            capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout) == (0, f"spacealert {__version__}\n{describe()}\n")


def test_shell_completion_is_available() -> None:
    result = runner.invoke(app, ["--help"])
    assert "--install-completion" in result.stdout
    completion = runner.invoke(app, [], prog_name="spacealert", env={
        "_SPACEALERT_COMPLETE": "complete_bash", "COMP_WORDS": "spacealert tim",
        "COMP_CWORD": "1"})
    assert "timeline" in completion.stdout


def test_schema_prints_the_mission_schema_and_its_path() -> None:
    result = runner.invoke(app, ["schema", "mission"])
    assert result.exit_code == 0
    assert json.loads(result.stdout)["$id"].endswith("/mission.schema.json")
    result = runner.invoke(app, ["schema", "--path"])
    assert Path(result.stdout.strip()).name == "mission.schema.json"


def test_unknown_schema_is_a_usage_error() -> None:
    result = runner.invoke(app, ["schema", "nope"])
    assert result.exit_code == 2
    assert "unknown schema 'nope': expected one of " in result.stderr
    assert "mission" in result.stderr.split("expected one of ")[1]
