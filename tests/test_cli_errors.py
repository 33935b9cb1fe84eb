"""Bugs are told apart from bad input: exit 70 with one line, and validate/lint go on."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import authoring.cli.lint as lint_cli
import authoring.cli.schema as schema_cli
import authoring.mission.fast as fast
from authoring.cli import EXIT_INTERNAL_ERROR, app, main

MISSIONS = Path(__file__).resolve().parents[1] / "missions" / "official"
ONE, TWO, THREE = (str(MISSIONS / f"mission-{n}.yaml") for n in (1, 2, 3))
runner = CliRunner()


@pytest.fixture
def signal_handlers() -> Iterator[None]:
    # main() installs the CLI's handlers in this (pytest's) process: put pytest's back
    saved = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def _run_main(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
              *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "argv", ["spacealert", *args])
    with pytest.raises(SystemExit) as done:
        main()
    code = done.value.code
    assert isinstance(code, int)
    return code, capsys.readouterr().err


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise RuntimeError("boom\nsecond line")


@pytest.mark.usefixtures("signal_handlers")
def test_a_bug_exits_70_with_one_line_asking_for_a_report(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("SPACEALERT_DEBUG", raising=False)
    monkeypatch.setattr(schema_cli, "data_dir", _boom)
    code, err = _run_main(monkeypatch, capsys, "schema", "--path")
    assert code == EXIT_INTERNAL_ERROR
    assert err.count("\n") == 1
    assert "internal error (RuntimeError: boom)" in err
    assert "please report" in err and "Traceback" not in err


@pytest.mark.usefixtures("signal_handlers")
def test_the_debug_variable_shows_the_traceback(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SPACEALERT_DEBUG", "1")
    monkeypatch.setattr(schema_cli, "data_dir", _boom)
    code, err = _run_main(monkeypatch, capsys, "schema", "--path")
    assert code == EXIT_INTERNAL_ERROR
    assert "Traceback" in err and "RuntimeError: boom" in err


@pytest.mark.usefixtures("signal_handlers")
def test_bad_input_still_exits_1_and_usage_2(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\n", encoding="utf-8")
    assert _run_main(monkeypatch, capsys, "validate", str(bad))[0] == 1
    assert _run_main(monkeypatch, capsys, "validate", "--nope")[0] == 2


def test_validate_goes_on_after_a_bug_and_prints_the_summary(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = fast.check_mission_file

    def flaky(path: Any, display: str) -> Any:
        if display == TWO:
            raise RuntimeError("boom")
        return real(path, display=display)

    monkeypatch.setattr(fast, "check_mission_file", flaky)
    result = runner.invoke(app, ["validate", ONE, TWO, THREE])
    assert result.exit_code == EXIT_INTERNAL_ERROR
    assert f"{TWO}: internal error (RuntimeError: boom)" in result.stderr
    assert f"{THREE}: ok" in result.stderr
    assert result.stderr.rstrip().splitlines()[-1] == (
        "3 files checked, 1 invalid, 0 problems, 1 not checked (internal error)")


def test_lint_goes_on_after_a_bug_and_prints_the_summary(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = lint_cli.lint_paths

    def flaky(paths: Any, **options: Any) -> Any:
        paths = list(paths)
        if any(display == TWO for display, _ in paths):  # all at once, then file by file
            raise RuntimeError("boom")
        return real(paths, **options)

    monkeypatch.setattr(lint_cli, "lint_paths", flaky)
    result = runner.invoke(app, ["lint", "--output-format", "json", ONE, TWO, THREE])
    assert result.exit_code == EXIT_INTERNAL_ERROR
    assert f"{TWO}: internal error (RuntimeError: boom)" in result.stderr
    assert ONE in result.stdout and THREE in result.stdout  # the files that were linted
    assert result.stderr.rstrip().endswith(", 1 not checked (internal error)")
