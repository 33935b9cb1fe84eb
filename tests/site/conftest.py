"""Fixtures of the site tests: one real build of the test pack, a preview server, Chromium."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from authoring.publish import BuildOptions, BuildResult, PreviewServer, build_pack
from tests.site.helpers import PACK
from tests.tools import ratings

EPOCH = "1700000000"


def build_test_pack(tmp: Path, out_name: str = "site", cache: Path | None = None,
                    strict: bool = False) -> BuildResult:
    """Copies the test pack into ``tmp`` and builds it (fixed build date, private cache)."""
    pack = tmp / "pack"
    if not pack.exists():
        shutil.copytree(PACK, pack)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
        # the default crew and scale from fewer games: 500 per mission take seconds each
        ratings.fewer_games(mp, 40)
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
