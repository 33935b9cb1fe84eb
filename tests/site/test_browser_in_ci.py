"""Browser tests skip on a developer's machine without Chromium, and fail in CI (CI=true)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ONE_BROWSER_TEST = "tests/site/test_browser_in_ci.py::test_the_browser_starts"


def test_the_browser_starts(chromium: object) -> None:
    # the lightest browser test: the fixture itself (no pack is built)
    assert chromium.is_connected()  # type: ignore[attr-defined]


def _run(ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SPACEALERT_CHROMIUM": "/nonexistent/chromium"}
    env.pop("CI", None)
    if ci is not None:
        env["CI"] = ci
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "-rs", ONE_BROWSER_TEST], cwd=ROOT, env=env, capture_output=True,
                          text=True, check=False, timeout=300)


@pytest.mark.parametrize(("ci", "code", "word"), [(None, 0, "skipped"), ("true", 1, "error")])
def test_missing_chromium_skips_locally_and_fails_in_ci(ci: str | None, code: int,
                                                        word: str) -> None:
    done = _run(ci)
    assert done.returncode == code, done.stdout[-2000:]
    assert word in done.stdout.splitlines()[-1]
    assert "needs Debian chromium" in done.stdout
