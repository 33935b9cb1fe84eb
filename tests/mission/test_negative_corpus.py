"""Every mistake of the negative corpus is reported exactly, as line:col CODE, without a crash."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.mission import check_mission, read_document
from authoring.mission.load import MAX_FILE_BYTES

CORPUS = Path(__file__).parent / "negative"


def _expected() -> dict[str, list[str]]:
    table: dict[str, list[str]] = {}
    for line in (CORPUS / "expected.txt").read_text("utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            name, *problems = line.split()
            table[name] = [" ".join(p) for p in zip(problems[::2], problems[1::2], strict=True)]
    return table


EXPECTED = _expected()


def test_every_corpus_file_has_an_expectation() -> None:
    files = sorted(p.name for p in CORPUS.glob("*.yaml"))
    assert files == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_problems_are_located_exactly(name: str) -> None:
    mission, problems = check_mission(read_document(CORPUS / name))
    assert mission is None
    assert [f"{p.line}:{p.col} {p.code}" for p in problems] == EXPECTED[name]
    for problem in problems:
        assert problem.message[0].islower() or problem.message[0] in "'\"$"
        assert not problem.message.endswith(".")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cli_reports_and_exits_1_without_traceback(name: str) -> None:
    path = CORPUS / name
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 1, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    line_col, code = EXPECTED[name][0].split()
    assert f"{path}:{line_col}: {code} " in result.stdout


def test_every_file_is_checked_even_if_one_fails(tmp_path: Path) -> None:
    good = Path(__file__).parents[2] / "missions" / "official" / "mission-1.yaml"
    result = CliRunner().invoke(app, ["validate", str(CORPUS / "empty.yaml"), str(good),
                                      str(CORPUS / "binary.yaml")])
    assert result.exit_code == 1
    assert "3 files checked, 2 invalid, 2 problems" in result.stderr
    assert f"{good}: ok" in result.stderr


def test_a_50_mb_file_is_refused_by_size_without_reading_it(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    with big.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)
    tracemalloc.start()
    mission, problems = check_mission(read_document(big))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert mission is None
    assert [(p.code, p.line, p.col) for p in problems] == [("S003", 1, 1)]
    assert f"the limit is {MAX_FILE_BYTES}" in problems[0].message
    assert peak < 5 * 1024 * 1024


def test_alias_bomb_is_refused_in_bounded_memory() -> None:
    tracemalloc.start()
    _, problems = check_mission(read_document(CORPUS / "alias-bomb.yaml"))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert [p.code for p in problems] == ["S004"]
    assert peak < 20 * 1024 * 1024


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["validate", str(tmp_path / "nope.yaml")])
    assert result.exit_code == 1
    assert "S003 cannot read the file: no such file or directory" in result.stdout


def test_all_problems_of_a_file_are_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "many.yaml"
    path.write_text(
        'format: 2\nid: Bad Id\ntitle: ""\nprofile: base\nphases: ["3:45", "7:30", "10:00"]\n'
        'events:\n  - {at: "0:10", threat: {turn: 0, zone: red}}\n'
        '  - {at: "1:5", comms_down: {}}\n',
        encoding="utf-8")
    _, problems = check_mission(read_document(path))
    assert [f"{p.line}:{p.col} {p.code}" for p in problems] == [
        "1:9 S104", "2:5 S104", "3:8 S100", "7:33 S104", "8:10 S104", "8:29 S103"]


@pytest.mark.parametrize(("args", "code"), [
    (["resolve", "missions/official/mission-1.yaml", "{empty}"], 1),      # a plan
    (["lint", "--config", "{empty}", "missions/official/mission-1.yaml"], 2),  # an option's file
    (["validate", "{empty}"], 1),                                          # a mission
])
def test_an_empty_file_of_any_kind_is_told_what_was_expected(tmp_path: Path, args: list[str],
                                                             code: int) -> None:
    empty = tmp_path / "empty.yaml"
    empty.write_text("# nothing yet\n")
    root = Path(__file__).resolve().parents[2]
    result = CliRunner().invoke(app, [a.replace("{empty}", str(empty)) if "{" in a
                                      else str(root / a) if a.startswith("missions/") else a
                                      for a in args])
    assert result.exit_code == code
    assert f"{empty}:1:1:" in result.output
    assert "empty file: expected a YAML mapping (key: value lines)" in result.output
    assert "mission keys" not in result.output


def test_a_pattern_ends_at_the_end_of_the_string_as_json_schema_says(tmp_path: Path) -> None:
    # ECMA-262's `$` (JSON Schema's dialect) does not match before a final newline, Python's
    # does: the id "nl\n" was valid and `render` named its file "nl\n.wav"
    mission = tmp_path / "nl.yaml"
    mission.write_text('format: 1\nid: "nl\\n"\ntitle: T\nprofile: base\n'
                       'phases: ["3:45", "7:30", "10:00"]\nevents: []\n')
    result = CliRunner().invoke(app, ["validate", str(mission)])
    assert result.exit_code == 1
    assert f"{mission}:2:5: S104 invalid value 'nl\\n' at $.id" in result.output
    mission.write_text(mission.read_text().replace('"nl\\n"', "nl"))
    assert CliRunner().invoke(app, ["validate", str(mission)]).exit_code == 0
