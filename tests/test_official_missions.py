"""The bundled missions validate, and the official ones match the reference transcriptions."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.mission import check_campaign, check_mission, is_campaign, read_document
from tests.tools.official_missions import TSV, convert

MISSIONS = Path(__file__).parents[1] / "missions"
#: missions/pack.yaml is the demo pack's manifest (tests/site/test_demo_pack.py), no mission
ALL = sorted(p for p in MISSIONS.rglob("*.yaml") if p != MISSIONS / "pack.yaml")
OFFICIAL_NAMES = (
    [f"test-run-{n}.yaml" for n in (1, 2)]
    + [f"simulation-{n}.yaml" for n in (1, 2, 3)]
    + [f"advanced-simulation-{n}.yaml" for n in (1, 2, 3)]
    + [f"mission-{n}.yaml" for n in range(1, 9)]
)
#: The New Frontier CD's double-action tracks (docs/soundtrack.md §5.3)
DOUBLE_ACTION_NAMES = ([f"double-action-{n}.yaml" for n in range(1, 13)]
                       + [f"double-action-easier-{n}.yaml" for n in range(1, 7)])


def test_the_official_tracks_are_bundled() -> None:
    assert sorted(p.name for p in (MISSIONS / "official").glob("*.yaml")) == sorted(
        OFFICIAL_NAMES + DOUBLE_ACTION_NAMES)


@pytest.mark.parametrize("path", ALL, ids=lambda p: str(p.relative_to(MISSIONS)))
def test_bundled_mission_validates(path: Path) -> None:
    doc = read_document(path)
    # a bundled campaign (docs/rules.md §18) validates with every mission it names
    found, problems = check_campaign(doc, path) if is_campaign(doc) else check_mission(doc)
    assert problems == []
    assert found is not None


@pytest.mark.skipif(not TSV.exists(), reason="../shared/reference is not beside this checkout")
def test_official_tracks_are_the_converted_reference() -> None:
    for name, text in convert().items():
        assert (MISSIONS / "official" / name).read_text("utf-8") == text, name
