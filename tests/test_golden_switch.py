"""Golden files are rewritten only on request (``--update-golden``), never by a stray variable."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def test_golden_writes_are_off_unless_asked(update_golden: bool) -> None:
    assert "UPDATE_GOLDEN" not in os.environ
    assert update_golden is False


def test_a_stray_update_golden_variable_does_not_turn_tests_into_writers() -> None:
    env = {**os.environ, "UPDATE_GOLDEN": "1", "PYTHONPATH": str(REPO)}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         f"{Path(__file__).relative_to(REPO)}::test_golden_writes_are_off_unless_asked",
         "tests/lint/test_lint_corpus.py::test_corpus_triggers_every_rule"],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
