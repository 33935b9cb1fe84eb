"""Hermetic test environment: scrubbed environment, caches in tmp, no network."""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


def pytest_addoption(parser: pytest.Parser) -> None:
    # an option, not an environment variable: a stray UPDATE_GOLDEN in a shell would otherwise
    # turn every golden comparison into a writer that always passes
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite golden files from the current output instead of comparing")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    """True only when this pytest run was started with ``--update-golden``."""
    return bool(request.config.getoption("--update-golden"))


@pytest.fixture(autouse=True)
def _no_golden_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Clears UPDATE_GOLDEN for every test (its own name: folder conftests override _hermetic)."""
    monkeypatch.delenv("UPDATE_GOLDEN", raising=False)


@pytest.fixture(autouse=True)
def _hermetic(monkeypatch: pytest.MonkeyPatch,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    cache = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("SPACEALERT_CACHE_DIR", str(cache))
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("SPACEALERT_DOCS_URL", raising=False)  # rule links: the default
    monkeypatch.delenv("NO_COLOR", raising=False)
    yield


@pytest.fixture(autouse=True)
def _no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    """Refuses connections outside loopback: tests never reach the network."""
    real_connect = socket.socket.connect

    def guarded(self: socket.socket, address: object) -> object:
        host = address[0] if isinstance(address, tuple) else address
        if isinstance(host, str) and (host.startswith("127.") or host in ("localhost", "::1")):
            return real_connect(self, address)  # type: ignore[arg-type]
        if isinstance(host, str) and host.startswith("/"):
            return real_connect(self, address)  # type: ignore[arg-type]
        raise OSError(f"network access blocked in tests: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", guarded)


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Headless Debian Chromium driven by Playwright (no downloaded browser builds).

    One browser for the whole session, shared by every test that needs one: Playwright's sync
    API refuses a second instance while one is open.
    """
    import os

    from tests.site.helpers import CHROMIUM, FLAGS

    if not Path(CHROMIUM).exists():
        message = "needs Debian chromium at /usr/bin/chromium (bash .ci/setup installs it)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(message)  # in CI a missing browser is a broken set-up, not a skip
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def fewer_games(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[int], None]]:
    """Rates and runs the simulation G rules with ``n`` games in this test
    (tests/tools/ratings.py)."""
    from tests.tools import ratings

    yield lambda games: ratings.fewer_games(monkeypatch, games)
    ratings.forget_simulations()
