"""Fixtures of the studio tests: a copy of a bundled mission in a folder, a running studio."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from authoring.audio import load_voice
from authoring.studio.server import StudioServer

REPO = Path(__file__).resolve().parents[2]
MISSION = REPO / "missions" / "official" / "mission-1.yaml"


@pytest.fixture(scope="session")
def clip_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One clip cache for the session: the voice's clips are synthesized once."""
    return tmp_path_factory.mktemp("clips")


@dataclass
class Studio:
    """A studio serving ``folder`` and a small client for its API."""

    server: StudioServer
    folder: Path

    @property
    def url(self) -> str:
        return self.server.url

    def call(self, method: str, path: str, body: Any = None, *,
             headers: dict[str, str] | None = None, raw: bytes | None = None
             ) -> tuple[int, Any, dict[str, str]]:
        """Sends a request; returns (status, JSON body or bytes, headers)."""
        data = raw if raw is not None else (
            None if body is None else json.dumps(body).encode("utf-8"))
        sent = {"Content-Type": "application/json"} if data is not None else {}
        sent.update(headers or {})
        request = urllib.request.Request(self.url.rstrip("/") + path, data=data, method=method,
                                         headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=120) as response:
                status, payload, got = response.status, response.read(), response.headers
        except urllib.error.HTTPError as error:
            status, payload, got = error.code, error.read(), error.headers
        kind = got.get("Content-Type", "")
        value: Any = json.loads(payload) if kind.startswith("application/json") else payload
        return status, value, dict(got)


@pytest.fixture
def studio(tmp_path: Path, clip_cache: Path) -> Iterator[Studio]:
    """The studio over a folder holding a copy of official mission 1 as ``m1.yaml``."""
    folder = tmp_path / "missions"
    folder.mkdir()
    shutil.copy(MISSION, folder / "m1.yaml")
    server = StudioServer(folder, load_voice("en"), first="m1.yaml", cache_dir=clip_cache,
                          quiet=True)
    server.start_in_background()
    yield Studio(server, folder)
    server.shutdown()
    server.server_close()
