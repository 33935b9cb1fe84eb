"""Each root cause of issue 21's hostile-input crashes, as an input and its exact refusal.

Root causes 1-6 are files in ``regressions/`` (``expected.txt`` holds the refusal of each);
the ones of root cause 7 (too much inside the 1 MiB limit) are built here, as their files
would be large.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.lint.linter import Linter
from authoring.mission import check_mission, parse_document
from authoring.mission.load import MAX_FILE_BYTES
from tests.fuzz.harness import first_line, input_path, run

FOLDER = Path(__file__).parent / "regressions"
MISSION_1 = (Path(__file__).parents[2] / "missions" / "official" / "mission-1.yaml"
             ).read_text("utf-8")
HEAD = MISSION_1.split("events:")[0] + "events:\n"


def _expected() -> dict[str, str]:
    table: dict[str, str] = {}
    for line in (FOLDER / "expected.txt").read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            name, refusal = line.split("\t", 1)
            table[name] = refusal
    return table


EXPECTED = _expected()


def test_every_regression_file_has_an_expectation() -> None:
    assert sorted(p.name for p in FOLDER.glob("rc*")) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_regression_is_refused_exactly(name: str, tmp_path: Path) -> None:
    kind = name.split(".")[1]
    error = run(kind, (FOLDER / name).read_text("utf-8"), tmp_path)
    assert first_line(error, input_path(kind, tmp_path)) == EXPECTED[name]


def _first(text: str) -> str:
    _, problems = check_mission(parse_document(text, "m.yaml"))
    first = problems[0]
    return f"{first.line}:{first.col} {first.code} {first.message}"


def test_a_1_mib_comment_line_is_refused_by_its_length() -> None:
    # the limit is in bytes, a line's length in characters: mission 1 has a two-byte character
    size = len(MISSION_1.encode())
    text = MISSION_1 + "# " + "x" * (MAX_FILE_BYTES - size - 3) + "\n"
    assert len(text.encode()) <= MAX_FILE_BYTES
    line = MISSION_1.count("\n") + 1
    assert _first(text) == (f"{line}:10001 S006 line of {MAX_FILE_BYTES - size - 1} "
                            "characters: expected at most 10000")


def test_a_million_blank_lines_are_refused_by_their_number() -> None:
    text = MISSION_1 + "\n" * (MAX_FILE_BYTES - len(MISSION_1))
    assert _first(text) == ("20001:1 S006 more than 20000 lines: expected a few hundred (a "
                            "mission has at most 200 events)")


def test_a_megabyte_of_folded_text_is_refused_by_its_size_outside_comments() -> None:
    line = "  " + "word " * 1000 + "\n"  # 5,002 characters and the line break
    text = HEAD.replace("events:\n", "description:\n") + line * 200
    # the head's 10 lines of YAML hold under 300 characters, so the 53rd line of text (line
    # 13 + 53) passes 262,144
    assert _first(text) == ("66:1 S006 more than 262144 characters outside comments: expected "
                            "a few thousand (a mission has at most 200 events)")


def test_29000_events_are_refused_at_the_line_limit() -> None:
    event = '  - {at: "0:10", incoming_data: {}}\n'
    assert _first(HEAD + event * 29_000) == ("20001:1 S006 more than 20000 lines: expected a "
                                            "few hundred (a mission has at most 200 events)")


def test_1300_events_are_refused_at_the_value_limit() -> None:
    event = '  - {at: "0:10", incoming_data: {}}\n'
    text = HEAD + event * 1_300
    # 26 values up to the events list (root mapping, keys, values, tags and phases lists),
    # then 5 per event: the 6,001st is the 5th of event 1,195 (line 13 + 1,195), its '{}'
    assert _first(text) == ("1208:33 S006 more than 6000 values in one file: expected a few "
                            "hundred (a mission has at most 200 events)")


def test_50000_unknown_keys_are_refused_at_the_line_limit() -> None:
    text = MISSION_1 + "".join(f"k{i}: 1\n" for i in range(50_000))
    assert _first(text).startswith("20001:1 S006 more than 20000 lines")


def test_5000_unknown_keys_are_refused_at_the_value_limit() -> None:
    text = MISSION_1 + "".join(f"k{i}: 1\n" for i in range(5_000))
    # mission 1 holds 144 values (29 lines): the 6,001st is the key on line 29 + 2,929
    assert _first(text) == ("2958:1 S006 more than 6000 values in one file: expected a few "
                            "hundred (a mission has at most 200 events)")


def test_a_decimal_integer_over_4300_digits_is_refused_before_it_is_built() -> None:
    text = MISSION_1.replace("players: 5", "players: " + "9" * 5000)
    assert _first(text) == "11:10 S006 a number of 5000 characters: expected at most 100"


def test_200_identical_events_are_one_overlap_cluster() -> None:
    text = HEAD + '  - {at: "1:00", threat: {turn: 2, zone: red}}\n' * 200
    problems = Linter().lint_document(parse_document(text, "m.yaml"))
    overlaps = [p for p in problems if p.code == "T106"]
    assert len(overlaps) == 1
    assert overlaps[0].message.startswith("200 announcements overlap (19900 pairs) from "
                                          "1:00.000: the T+2 threat announcement at 1:00.000")
    assert len(problems) < 1000  # was 20,113


FOUND = Path(__file__).parent / "found"  # inputs that bench/fuzz.py's 100,000-input run crashed on


def test_a_phase_end_given_twice_in_jsamg_text_is_a_located_error(tmp_path: Path) -> None:
    text = (FOUND / "phase-end-twice.jsamg-text.txt").read_text("utf-8")
    error = run("jsamg-text", text, tmp_path)
    assert error is not None and "the end of the 2nd phase is given twice" in str(error)


def test_a_voice_name_too_long_for_the_file_system_is_an_unknown_voice(tmp_path: Path) -> None:
    text = f"format: 1\nid: long\nextends: {'x' * 5000}\n"
    error = run("voice", text, tmp_path)
    assert error is not None and "extends unknown voice" in str(error)
