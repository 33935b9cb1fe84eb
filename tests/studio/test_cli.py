"""``spacealert studio`` as a user starts it: address printed, page served, Ctrl-C ends it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from tests.studio.conftest import MISSION, REPO


def _as_a_terminal_starts_it() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("where", ["file", "folder"])
def test_serves_the_mission_until_ctrl_c(tmp_path: Path, where: str) -> None:
    shutil.copy(MISSION, tmp_path / "m1.yaml")
    target = tmp_path / "m1.yaml" if where == "file" else tmp_path
    env = {**os.environ, "PYTHONPATH": str(REPO), "SPACEALERT_CACHE_DIR": str(tmp_path / "c")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "authoring", "studio", str(target), "--no-browser"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        process_group=0, preexec_fn=_as_a_terminal_starts_it)
    try:
        assert proc.stdout is not None
        url = proc.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        assert url.endswith("#file=m1.yaml") == (where == "file")
        base = url.split("#")[0]
        with urllib.request.urlopen(base + "api/session", timeout=30) as answer:
            session = json.load(answer)
        assert session["files"] == ["m1.yaml"]
        assert session["first"] == ("m1.yaml" if where == "file" else None)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130
    assert err.strip().splitlines()[-1] == "interrupted" and "Traceback" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["nowhere.yaml"], "no such file or folder"),
    (["notes.txt"], "expected a mission file"),
    (["--port", "70000"], "65535"),
])
def test_bad_arguments_are_usage_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                        args: list[str], message: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("x", encoding="utf-8")
    result = CliRunner().invoke(app, ["studio", *args, "--no-browser"])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


def test_a_port_in_use_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.chdir(tmp_path)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["studio", "--port", str(port), "--no-browser"])
    assert result.exit_code == 2
    assert f"--port {port}: cannot listen" in result.output
