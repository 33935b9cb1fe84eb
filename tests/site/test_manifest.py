"""Reading pack.yaml: defaults, schema problems located as file:line:col, paths checked."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from authoring.errors import InvalidInputError
from authoring.mission import InvalidFileError
from authoring.publish import load_pack
from tests.site.helpers import PACK


def make_pack(tmp_path: Path, manifest: str) -> Path:
    pack = tmp_path / "p"
    shutil.copytree(PACK / "missions", pack / "missions")
    (pack / "pack.yaml").write_text(manifest, encoding="utf-8")
    return pack


MINIMAL = """\
format: 1
title: T
authors: [A]
licence: CC0-1.0
missions: [missions/tiny-drill.yaml]
"""


def test_defaults_fill_the_optional_fields(tmp_path: Path) -> None:
    pack = load_pack(make_pack(tmp_path, MINIMAL))
    assert (pack.voices, pack.languages, pack.audio, pack.sheets) == \
        (("en",), ("en",), ("mp3",), ("briefing", "comms-officer"))
    assert pack.missions == ((tmp_path / "p" / "missions" / "tiny-drill.yaml").resolve(),)


def test_the_test_pack_reads() -> None:
    pack = load_pack(PACK)
    assert pack.title == "Test <b>Pack</b>"
    assert pack.authors == ("Ann Author", "Bo <Builder>")


def test_schema_problem_points_at_line_and_column(tmp_path: Path) -> None:
    folder = make_pack(tmp_path, MINIMAL.replace("licence: CC0-1.0\n", "licence: CC0-1.0\n"
                                                 "audio: [mp3, flac]\n"))
    with pytest.raises(InvalidFileError) as caught:
        load_pack(folder)
    problem = caught.value.problems[0]
    assert (problem.line, problem.col) == (5, 14)
    assert "flac" in problem.message


def test_missing_required_key_is_reported(tmp_path: Path) -> None:
    with pytest.raises(InvalidFileError, match="licence"):
        load_pack(make_pack(tmp_path, MINIMAL.replace("licence: CC0-1.0\n", "")))


def test_missing_mission_file_is_located(tmp_path: Path) -> None:
    folder = make_pack(tmp_path, MINIMAL.replace("tiny-drill", "gone"))
    with pytest.raises(InvalidInputError, match=r"pack\.yaml:5:\d+: mission file "
                                                r"'missions/gone\.yaml' does not exist"):
        load_pack(folder)


def test_paths_may_not_leave_the_pack(tmp_path: Path) -> None:
    (tmp_path / "outside.yaml").write_text("x: 1\n", encoding="utf-8")
    folder = make_pack(tmp_path, MINIMAL.replace("missions/tiny-drill.yaml",
                                                 "missions/../../outside.yaml"))
    with pytest.raises(InvalidInputError, match="outside the pack folder"):
        load_pack(folder)


def test_a_folder_without_manifest_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInputError, match=r"expected a pack\.yaml"):
        load_pack(tmp_path)
    with pytest.raises(InvalidInputError, match="expected a pack folder, got nothing"):
        load_pack(tmp_path / "nope")


def test_a_pack_chooses_smaller_audio(tmp_path: Path) -> None:
    pack = load_pack(make_pack(tmp_path, MINIMAL + "audio: [opus, mp3]\naudio_channels: stereo\n"
                                         "audio_bitrate: {mp3: 48, opus: 24}\n"))
    assert pack.audio == ("opus", "mp3")
    assert (pack.channels, pack.bitrate("mp3"), pack.bitrate("opus"), pack.bitrate("ogg")) == \
        (2, 48, 24, None)
    assert load_pack(make_pack(tmp_path / "b", MINIMAL)).channels is None  # formats' defaults


@pytest.mark.parametrize(("extra", "where", "word"), [
    ("audio_channels: surround\n", (6, 17), "surround"),
    ("audio_bitrate: {mp3: 999}\n", (6, 22), "999"),
    ("audio_bitrate: {wav: 64}\n", (6, 17), "wav"),
])
def test_bad_audio_choices_are_located(tmp_path: Path, extra: str, where: tuple[int, int],
                                       word: str) -> None:
    with pytest.raises(InvalidFileError) as caught:
        load_pack(make_pack(tmp_path, MINIMAL + extra))
    problem = caught.value.problems[0]
    assert (problem.line, problem.col) == where
    assert word in problem.message
