"""The fast validation path gives exactly the answers of the full path (authoring/mission/fast.py).

Differential: every file below goes through ``check_mission_file`` and through
``check_mission(read_document(...))``; problems must be equal to the byte, and a valid file
must give the same mission. Edge cases where YAML 1.1 (libyaml's habit) and YAML 1.2 (how the
toolkit reads files) disagree are built from a valid mission.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.mission import check_mission, read_document
from authoring.mission.fast import _fast, check_mission_file, check_mission_files

ROOT = Path(__file__).resolve().parents[2]
# every bundled mission (campaign files and pack manifests sit beside them and are not missions)
VALID = sorted(p for p in (ROOT / "missions").rglob("*.yaml")
               if not p.name.startswith("campaign") and p.name != "pack.yaml")
NEGATIVE = sorted((Path(__file__).parent / "negative").glob("*.yaml"))
MISSION_1 = (ROOT / "missions" / "official" / "mission-1.yaml").read_text("utf-8")


def _same(path: Path) -> None:
    fast = check_mission_file(path, display="shown.yaml")
    full = check_mission(read_document(path, display="shown.yaml"))
    assert [str(p.to_dict()) for p in fast[1]] == [str(p.to_dict()) for p in full[1]]
    assert fast[0] == full[0]


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.name)
def test_valid_missions_take_the_fast_path_and_build_the_same_mission(path: Path) -> None:
    mission, certain = _fast(path, str(path))
    assert certain
    assert mission == check_mission(read_document(path))[0]


@pytest.mark.parametrize("path", NEGATIVE, ids=lambda p: p.name)
def test_invalid_files_get_the_full_paths_problems(path: Path) -> None:
    assert not _fast(path, str(path))[1]
    _same(path)


# (original text, replacement) applied to mission 1: each changes what libyaml would read
EDGES = [
    ('title: ', 'title: 2020-02-20 #'),      # a date (ruamel: timestamp)
    ('at: "4:50"', "at: 4:50"),              # YAML 1.1 sexagesimal 290, YAML 1.2 string
    ("format: 1", "format: 01"),             # 1.1 octal
    ("format: 1", "format: 0o1"),            # 1.2 octal
    ("format: 1", "format: 1_0"),            # underscores
    ("format: 1", "format: yes"),            # 1.1 boolean
    ("format: 1", "format: !!str 1"),        # an explicit tag
    ("format: 1", "format: &a 1"),           # an anchor
    ("format: 1", "format: 1\nformat: 1"),   # a duplicate key
    ("format: 1", "format: 1.0"),            # a float where an integer is expected
    ("format: 1", "format: .inf"),
    ("format: 1", "format: ~"),
]


@pytest.mark.parametrize(("old", "new"), EDGES, ids=[n for _, n in EDGES])
def test_yaml_1_1_and_1_2_edge_cases_agree(tmp_path: Path, old: str, new: str) -> None:
    assert old in MISSION_1
    path = tmp_path / "m.yaml"
    path.write_text(MISSION_1.replace(old, new, 1), encoding="utf-8")
    _same(path)


def test_many_files_on_two_cores_give_the_serial_answers_in_order(tmp_path: Path) -> None:
    sources = [*VALID, *NEGATIVE]
    items = []
    for index in range(60):
        source = sources[index % len(sources)]
        path = tmp_path / f"{index:03d}-{source.name}"
        path.write_bytes(source.read_bytes())
        items.append((str(path), path))
    serial = list(check_mission_files(items, jobs=1))
    parallel = list(check_mission_files(items, jobs=2))
    assert [d for d, _, _ in parallel] == [d for d, _ in items]
    assert parallel == serial
    assert any(problems for _, problems, _ in serial)
