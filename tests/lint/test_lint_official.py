"""The official tracks lint without errors under their own profile.

The warnings and infos below are the places where an official track really departs from the
norm the rules encode; each is documented in its rule's docstring.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.lint import lint_mission

OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"

EXPECTED = [
    ("advanced-simulation-2.yaml", 13, "M111", "warning"),  # 5:1 threat points by half
    ("double-action-12.yaml", 28, "M112", "info"),          # zone white twice
    ("double-action-6.yaml", 29, "M112", "info"),           # zone white twice
    ("double-action-easier-1.yaml", 25, "M112", "info"),    # zone blue twice
    # 9 threat points: the one public transcription misses one (docs/soundtrack.md §5.3)
    ("double-action-easier-2.yaml", 14, "M106", "warning"),
    ("double-action-easier-6.yaml", 28, "M112", "info"),    # zone white twice
    ("mission-1.yaml", 23, "M112", "info"),                 # zone blue twice (internal between)
    ("mission-3.yaml", 29, "T107", "warning"),              # comms-down 10 s after a transfer
    ("mission-5.yaml", 21, "M112", "info"),                 # zone red twice (across phases)
]


def test_official_tracks_give_exactly_the_documented_problems() -> None:
    found = []
    files = sorted(OFFICIAL.glob("*.yaml"))
    assert len(files) == 34  # 16 base-game tracks, 18 New Frontier
    for path in files:
        for problem in lint_mission(path):
            found.append((path.name, problem.line, problem.code, problem.severity))
    assert found == EXPECTED


def test_official_tracks_are_clean_of_errors_under_all_rules() -> None:
    for path in sorted(OFFICIAL.glob("*.yaml")):
        problems = lint_mission(path, config={"select": ["S", "M", "T"]})
        assert [p for p in problems if p.severity == "error"] == [], path.name


def test_a_mission_object_lints_like_its_file() -> None:
    from authoring.mission import load_mission

    mission = load_mission(OFFICIAL / "mission-3.yaml")
    codes = [(p.code, p.message) for p in lint_mission(mission)]
    assert codes == [(p.code, p.message) for p in lint_mission(OFFICIAL / "mission-3.yaml")]
    assert all((p.line, p.col) == (1, 1) for p in lint_mission(mission))
    assert [p.path for p in lint_mission(mission)] == ["$.events[15].at"]


@pytest.mark.slow
def test_hard_official_missions_pass_the_simulation_rules() -> None:
    # G101 rates a mission with 500 games at the calibrated search (about 50 s per mission on
    # a 2-core machine), so it runs on mission 4 only: the hardest under the calibration, the
    # edge every other official mission rates below. Missions 2 and 4 hold the serious
    # internal threats the undestroyable-threat search (G102, a fraction of a second) used to
    # miss.
    assert lint_mission(OFFICIAL / "mission-4.yaml", config={"select": ["G101"]}) == []
    for number in (2, 4, 7):
        problems = lint_mission(OFFICIAL / f"mission-{number}.yaml", config={"select": ["G102"]})
        assert problems == [], number
