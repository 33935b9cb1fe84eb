"""The bundled missions validate, and the official ones match the reference transcriptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.mission import check_mission, read_document
from tests.tools.official_missions import TSV, convert

MISSIONS = Path(__file__).parents[1] / "missions"
# missions/plans/ holds crew plans for ``spacealert resolve``, not missions.
ALL = sorted(p for p in MISSIONS.rglob("*.yaml") if p.relative_to(MISSIONS).parts[0] != "plans")
OFFICIAL_NAMES = (
    [f"test-run-{n}.yaml" for n in (1, 2)]
    + [f"simulation-{n}.yaml" for n in (1, 2, 3)]
    + [f"advanced-simulation-{n}.yaml" for n in (1, 2, 3)]
    + [f"mission-{n}.yaml" for n in range(1, 9)]
)


def test_the_sixteen_official_tracks_are_bundled() -> None:
    assert sorted(p.name for p in (MISSIONS / "official").glob("*.yaml")) == sorted(OFFICIAL_NAMES)


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(MISSIONS)))
def test_bundled_mission_validates(path: Path) -> None:
    mission, problems = check_mission(read_document(path))
    assert problems == []
    assert mission is not None


@pytest.mark.skipif(not TSV.exists(), reason="../shared/reference is not beside this checkout")
def test_official_tracks_are_the_converted_reference() -> None:
    for name, text in convert().items():
        assert (MISSIONS / "official" / name).read_text("utf-8") == text, name
