"""Reproducible pieces: the build date and the zip archive."""

from __future__ import annotations

import io
import os
import zipfile
from pathlib import Path

import pytest

from authoring.errors import UsageError
from authoring.publish.reproducible import ZIP_EPOCH, build_epoch, zip_bytes


def test_zip_is_sorted_stamped_and_identical_for_identical_input() -> None:
    entries = {"b/sound.mp3": b"\xff\xfb" * 100, "a.txt": b"hello " * 50, "b/a.yaml": b"x: 1\n"}
    first = zip_bytes(entries, 1_700_000_000)
    again = zip_bytes(dict(reversed(list(entries.items()))), 1_700_000_000)
    assert first == again
    with zipfile.ZipFile(io.BytesIO(first)) as archive:
        infos = archive.infolist()
        assert [i.filename for i in infos] == ["a.txt", "b/a.yaml", "b/sound.mp3"]
        assert {i.date_time for i in infos} == {(2023, 11, 14, 22, 13, 20)}
        assert {i.external_attr >> 16 for i in infos} == {0o100644}
        assert infos[2].compress_type == zipfile.ZIP_STORED
        assert infos[0].compress_type == zipfile.ZIP_DEFLATED
        assert archive.read("b/sound.mp3") == entries["b/sound.mp3"]
    assert zip_bytes(entries, 1_700_003_600) != first  # zip times have 2 s steps


def test_zip_dates_before_1980_are_clamped() -> None:
    with zipfile.ZipFile(io.BytesIO(zip_bytes({"a": b"1"}, 0))) as archive:
        assert archive.infolist()[0].date_time == (1980, 1, 1, 0, 0, 0)


def test_build_epoch_prefers_source_date_epoch(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    f = tmp_path / "a.yaml"
    f.write_text("x", encoding="utf-8")
    os.utime(f, (1_600_000_000, 1_600_000_000))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1234567890")
    assert build_epoch([f]) == 1_234_567_890
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert build_epoch([f]) == 1_600_000_000
    assert build_epoch([]) == ZIP_EPOCH


@pytest.mark.parametrize("value", ["soon", "-5", "1.5"])
def test_build_epoch_refuses_bad_values(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    with pytest.raises(UsageError, match="SOURCE_DATE_EPOCH"):
        build_epoch([])
