"""The built wheel ships the data folders, so an installed toolkit finds its schemas."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_wheel_contains_schemas_missions_and_voices(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
         "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    (wheel,) = tmp_path.glob("*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "authoring/_data/schemas/mission.schema.json" in names
    assert "authoring/_data/missions/official/mission-1.yaml" in names
    assert "authoring/py.typed" in names
    assert any(n.startswith("authoring/_data/voices/") for n in names)
    # the studio's page (plain ES modules, no build step) is package data
    for name in ("index.html", "studio.js", "timeline.js", "api.js", "studio.css"):
        assert f"authoring/studio/static/{name}" in names
