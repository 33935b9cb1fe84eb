"""Fixtures of the site tests: one real build of the test pack, a preview server, Chromium."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from authoring.publish import BuildOptions, BuildResult, PreviewServer, build_pack
from tests.site.helpers import CHROMIUM, FLAGS, PACK

EPOCH = "1700000000"


def build_test_pack(tmp: Path, out_name: str = "site", cache: Path | None = None,
                    strict: bool = False) -> BuildResult:
    """Copies the test pack into ``tmp`` and builds it (fixed build date, private cache)."""
    pack = tmp / "pack"
    if not pack.exists():
        shutil.copytree(PACK, pack)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
        return build_pack(pack, tmp / out_name,
                          BuildOptions(strict=strict, cache_dir=cache or tmp / "cache",
                                       rate=True))


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    """The test pack built once per session with the real audio, lint and sheet code."""
    return build_test_pack(tmp_path_factory.mktemp("built"))


@pytest.fixture(scope="session")
def server(built: BuildResult) -> Iterator[PreviewServer]:
    """The Range-capable preview server on a free port, serving the built site."""
    srv = PreviewServer(built.out, 0, quiet=True)
    srv.start_in_background()
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[object]:
    """Headless Debian Chromium driven by Playwright (no downloaded browser builds)."""
    if not Path(CHROMIUM).exists():
        message = "needs Debian chromium at /usr/bin/chromium (bash .ci/setup installs it)"
        if os.environ.get("CI", "").lower() in ("true", "1"):
            pytest.fail(message)  # in CI a missing browser is a broken set-up, not a skip
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()
