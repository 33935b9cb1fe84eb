"""Ratings say what they do while they work (issue 38, item 5): on a terminal, ``sheets
--rate``, ``lint --select G`` and ``simulate`` draw a progress line (games played, percent)
on stderr; in a pipe nothing is drawn. The commands run in a real pseudo-terminal."""

from __future__ import annotations

import os
import pty
import re
import select
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHORT = ROOT / "tests" / "site" / "data" / "first-watch.yaml"  # a short mission to rate


# The rating of ``sheets --rate`` is the pack's one scale (500 games, no option), which is
# 50 s of simulation for a progress line; the child plays 40 (the drawing does not depend
# on the count). The lint run gets its 40 games from a configuration file, as a user would.
_FORTY_GAMES = ("from authoring.simulation import calibration; "
                "calibration.DEFAULT_SETTINGS['games'] = 40; "
                "from authoring.cli import main; main()")


def _in_a_terminal(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """Runs the CLI with stderr on a pseudo-terminal; returns (exit code, stdout, stderr)."""
    main, side = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TERM": "xterm", "COLUMNS": "100"}
    env.pop("FORCE_COLOR", None)
    (cwd / ".spacealert-lint.yaml").write_text("rules:\n  G103: {games: 40}\n", "utf-8")
    child = subprocess.Popen([sys.executable, "-c", _FORTY_GAMES, *args], cwd=cwd, env=env,
                             stdout=subprocess.PIPE, stderr=side, text=True)
    os.close(side)
    seen = b""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        ready, _, _ = select.select([main], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(main, 65536)
            except OSError:  # the child closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif child.poll() is not None:
            break
    os.close(main)
    out = child.stdout.read() if child.stdout else ""
    if child.stdout:
        child.stdout.close()
    return child.wait(), out, seen.decode("utf-8", "replace")


@pytest.mark.parametrize(("args", "what"), [
    (["sheets", str(SHORT), "--rate", "-o", "rated.pdf"], "rating (planner crew)"),
    (["lint", "--select", "G103", "rated.yaml"], "G rules: simulating (planner crew)"),
    (["simulate", str(SHORT), "--games", "40", "--no-compare", "--jobs", "2"],
     "simulating (planner crew)"),
])
def test_a_simulation_shows_its_progress_on_a_terminal(tmp_path: Path, args: list[str],
                                                       what: str) -> None:
    shutil.copy(SHORT, tmp_path / "rated.yaml")  # beside the configuration file
    code, _out, drawn = _in_a_terminal(args, tmp_path)
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", drawn)  # the text, without colours
    assert code in (0, 1), shown[-2000:]  # lint may find what the G rules report
    assert what in shown, shown[-2000:]
    steps = [int(n) for n in re.findall(r"(\d+)/\d+ games", shown)]
    assert len(set(steps)) >= 5 and steps == sorted(steps), steps  # it moved, forward
    assert re.search(r"(\d+)/\1 games\s+100%", shown), shown[-2000:]


def test_in_a_pipe_nothing_is_drawn(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "authoring", "simulate", str(SHORT),
                           "--games", "20", "--no-compare", "--jobs", "1"], cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "games" not in done.stderr and "\x1b[" not in done.stderr
