"""``build_pack`` end to end with the real linter, audio renderer and sheet printer."""

from __future__ import annotations

import io
import os
import re
import shutil
import stat
import subprocess
import zipfile
from pathlib import Path

import pytest

from authoring.errors import InvalidInputError, UsageError
from authoring.mission import InvalidFileError
from authoring.publish import BuildOptions, BuildResult, build_pack
from authoring.publish.build import MARKER
from tests.site.conftest import build_test_pack
from tests.site.helpers import PACK

TEXT_SUFFIXES = {".html", ".css", ".js", ".vtt", ".srt", ".json", ".yaml", ".txt"}
EXPECTED = {
    "index.html", "missions/tiny-drill.html", "assets/site.css", "assets/player.js",
    "files/tiny-drill/tiny-drill.en.mp3", "files/tiny-drill/tiny-drill.en.vtt",
    "files/tiny-drill/tiny-drill.en.srt", "files/tiny-drill/tiny-drill.en.json",
    "files/tiny-drill/tiny-drill.en-gb.mp3", "files/tiny-drill/tiny-drill.en-gb.vtt",
    "files/tiny-drill/tiny-drill.en-gb.srt", "files/tiny-drill/tiny-drill.en-gb.json",
    "files/tiny-drill/tiny-drill-briefing.pdf", "files/tiny-drill/tiny-drill.yaml",
    "test-b-pack-b.zip", MARKER,
}


def site_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_build_writes_pages_downloads_and_zip(built: BuildResult) -> None:
    files = site_files(built.out)
    assert set(files) == EXPECTED
    assert built.missions == 1 and built.tracks == 2 and built.files == len(EXPECTED)
    assert files["files/tiny-drill/tiny-drill.en.mp3"][:3] in (b"ID3", b"\xff\xfb")
    assert files["files/tiny-drill/tiny-drill-briefing.pdf"].startswith(b"%PDF")
    assert files["files/tiny-drill/tiny-drill.en.vtt"].startswith(b"WEBVTT")
    assert files["files/tiny-drill/tiny-drill.yaml"] == \
        (PACK / "missions" / "tiny-drill.yaml").read_bytes()
    page = files["missions/tiny-drill.html"].decode()
    assert 'href="../files/tiny-drill/tiny-drill-briefing.pdf"' in page
    assert "built 2023-11-14" in page  # SOURCE_DATE_EPOCH


def test_lint_warnings_are_reported_and_shown(built: BuildResult) -> None:
    assert {p.code for p in built.problems} >= {"T101", "T102"}
    assert all(p.severity != "error" for p in built.problems)
    page = (built.out / "missions" / "tiny-drill.html").read_text("utf-8")
    warnings = sum(p.severity == "warning" for p in built.problems)
    assert f"0 errors, {warnings} warnings" in page


def test_rating_by_simulation_is_shown(built: BuildResult) -> None:
    page = (built.out / "missions" / "tiny-drill.html").read_text("utf-8")
    # a test-run mission with a serious threat, which the level-1 rules refuse: the page says
    # why it is not rated (docs/rules.md §17) instead of a difficulty
    assert '<p class="rating">Difficulty ' not in page
    assert ('<p class="rating muted">Not rated by simulation: cannot simulate the mission: '
            "expected no serious threat at rule level 1 (first game), got SE") in page


def test_zip_holds_sources_and_downloads_in_order(built: BuildResult) -> None:
    with zipfile.ZipFile(io.BytesIO((built.out / "test-b-pack-b.zip").read_bytes())) as z:
        names = z.namelist()
        assert names == sorted(names)
        # the pack's sources and the whole site but the zip itself: it browses offline
        site = EXPECTED - {"test-b-pack-b.zip", MARKER}
        assert set(names) == {f"test-b-pack-b/{n}" for n in (
            "pack.yaml", "missions/tiny-drill.yaml", "voices/en-gb.yaml", *site)}
        assert {i.date_time for i in z.infolist()} == {(2023, 11, 14, 22, 13, 20)}
        assert z.read("test-b-pack-b/pack.yaml") == (PACK / "pack.yaml").read_bytes()
        for name in ("missions/tiny-drill.html", "assets/site.css", "assets/player.js"):
            assert z.read(f"test-b-pack-b/{name}") == (built.out / name).read_bytes()
        index = z.read("test-b-pack-b/index.html").decode()
        assert 'href="missions/tiny-drill.html"' in index
        assert "test-b-pack-b.zip" not in index  # no link to a file the copy does not hold
        assert "test-b-pack-b.zip" in (built.out / "index.html").read_text("utf-8")


def test_site_has_no_external_urls(built: BuildResult) -> None:
    offenders = []
    for name, data in site_files(built.out).items():
        if Path(name).suffix in TEXT_SUFFIXES:
            offenders += [f"{name}: {m}" for m in
                          re.findall(r"https?://[^\s\"'<>]+", data.decode("utf-8"))]
    assert offenders == []


def test_files_are_world_readable(built: BuildResult) -> None:
    modes = {stat.S_IMODE(p.stat().st_mode) for p in built.out.rglob("*") if p.is_file()}
    assert modes == {0o644}


@pytest.mark.slow
def test_rebuild_is_byte_identical_and_replaces_an_earlier_build(
        built: BuildResult, tmp_path: Path) -> None:
    # The first build's cache, now warm: clips read back must give the same samples.
    cache = built.out.parent / "cache"
    again_dir = tmp_path / "again"
    again_dir.mkdir()
    (again_dir / MARKER).write_text("old build\n", encoding="utf-8")
    (again_dir / "stale.html").write_text("old", encoding="utf-8")
    # the staging folder of a build killed with kill -9 (its process is gone, it is older)
    child = subprocess.Popen(["true"])
    child.wait()
    leftover = tmp_path / f".again.{child.pid}-k2j4h5g6.tmp"
    (leftover / "files").mkdir(parents=True)
    os.utime(leftover, (1_000_000_000, 1_000_000_000))
    again = build_test_pack(tmp_path, "again", cache=cache)
    assert not leftover.exists()
    assert site_files(again.out) == site_files(built.out)
    assert not list(tmp_path.glob(".again*"))  # no staging or old folder left behind


def test_errors_stop_the_build_before_rendering(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    mission = pack / "missions" / "tiny-drill.yaml"
    mission.write_text(mission.read_text("utf-8").replace('"0:12"', '"0:05"'), "utf-8")
    with pytest.raises(InvalidFileError) as caught:
        build_pack(pack, tmp_path / "out", BuildOptions(cache_dir=tmp_path / "c"))
    assert "T104" in [p.code for p in caught.value.problems]
    assert {p.severity for p in caught.value.problems} == {"error"}
    assert caught.value.problems[0].file == str(pack / "missions" / "tiny-drill.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pack"]


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    with pytest.raises(InvalidFileError) as caught:
        build_test_pack(tmp_path, strict=True)
    assert caught.value.problems
    assert {p.severity for p in caught.value.problems} == {"warning"}
    assert not (tmp_path / "site").exists()


def test_refuses_a_non_empty_folder_it_did_not_build(tmp_path: Path) -> None:
    out = tmp_path / "site"
    out.mkdir()
    (out / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(UsageError, match="refusing to overwrite"):
        build_test_pack(tmp_path)
    assert (out / "notes.txt").read_text("utf-8") == "mine"


def test_refuses_an_output_that_contains_the_pack(tmp_path: Path) -> None:
    shutil.copytree(PACK, tmp_path / "pack")
    with pytest.raises(UsageError, match="must not contain the pack"):
        build_pack(tmp_path / "pack", tmp_path)


def test_mission_language_must_be_listed(tmp_path: Path) -> None:
    shutil.copytree(PACK, tmp_path / "pack")
    manifest = tmp_path / "pack" / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8").replace("languages: [en]",
                                                            "languages: [de]"), "utf-8")
    with pytest.raises(InvalidInputError, match="language 'en' is not among"):
        build_pack(tmp_path / "pack", tmp_path / "out")


def test_encoding_is_deterministic_and_reused_from_the_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from authoring.audio.export import AudioSettings, StereoPcm
    from authoring.publish import build as build_module

    pcm = StereoPcm(bytes(range(256)) * 700)  # 0.25 s of 16-bit stereo noise at 44.1 kHz
    mp3 = AudioSettings("mp3")
    build_module._encode(pcm, {tmp_path / "a.mp3": mp3}, None)
    build_module._encode(pcm, {tmp_path / "b.mp3": mp3}, None)
    assert (tmp_path / "a.mp3").read_bytes() == (tmp_path / "b.mp3").read_bytes()
    build_module._encode(pcm, {tmp_path / "c.mp3": mp3}, tmp_path / "cache")
    assert len(list((tmp_path / "cache" / "encoded").rglob("*.mp3"))) == 1

    def no_encoder(*args: object) -> None:
        raise AssertionError("encoded again instead of reusing the cache")

    monkeypatch.setattr(build_module, "open_audio", no_encoder)
    build_module._encode(pcm, {tmp_path / "d.mp3": mp3}, tmp_path / "cache")
    assert (tmp_path / "d.mp3").read_bytes() == (tmp_path / "a.mp3").read_bytes()


def test_each_mission_gets_the_voices_of_its_language() -> None:
    from dataclasses import replace

    from authoring.audio import load_voice
    from authoring.mission import load_mission
    from authoring.publish.build import _voices_for
    from authoring.publish.checks import CheckedMission

    path = PACK / "missions" / "tiny-drill.yaml"
    voices = [load_voice("en"), load_voice("de"), load_voice(PACK / "voices" / "en-gb.yaml")]
    english = CheckedMission(path, "m.yaml", load_mission(path), ())
    german = replace(english, mission=replace(english.mission, language="de-AT"))
    assert [v.id for v in _voices_for(english, voices)] == ["en", "en-gb"]
    assert [v.id for v in _voices_for(german, voices)] == ["de"]
    with pytest.raises(InvalidInputError, match="no voice of the pack speaks 'de-AT'"):
        _voices_for(german, voices[:1])


def test_one_mix_feeds_every_format_with_the_pack_settings(tmp_path: Path) -> None:
    import json
    import wave

    from authoring.audio import ClipCache, load_voice, render_timeline
    from authoring.audio.export import AudioSettings, Tags, write_audio
    from authoring.mission import load_mission
    from authoring.mission.timeline import compile_timeline
    from authoring.publish.build import _encode

    timeline = compile_timeline(load_mission(PACK / "missions" / "tiny-drill.yaml"))
    rendering = render_timeline(timeline, load_voice("en"), cache=ClipCache(tmp_path / "c"))
    tags = Tags("Tiny drill", "Ann Author", "Test pack")
    targets = {tmp_path / "t.opus": AudioSettings("opus", None, 24, tags),
               tmp_path / "t.mp3": AudioSettings("mp3", 2, 48, tags),
               tmp_path / "t.wav": AudioSettings("wav", 1, None, tags)}
    warnings: list[str] = []
    _encode(rendering, targets, None, warnings)
    assert warnings == []
    for path, settings in targets.items():
        if settings.fmt == "wav":
            with wave.open(str(path)) as w:
                assert (w.getnchannels(), w.getnframes()) == (1, rendering.frames)
            continue
        info = json.loads(subprocess.run(
            ["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json",
             str(path)], capture_output=True, check=True, text=True).stdout)
        stream = info["streams"][0]
        assert stream["channels"] == settings.out_channels
        tagged = {**info["format"].get("tags", {}), **stream.get("tags", {})}
        assert {k.lower(): v for k, v in tagged.items()}["album"] == "Test pack"
        # each file is what encoding it alone gives: the shared mix changes no byte
        alone = tmp_path / f"alone.{settings.fmt}"
        write_audio(rendering, alone, settings)
        assert alone.read_bytes() == path.read_bytes()


def test_a_file_as_cache_dir_builds_the_same_site_with_one_warning(
        built: BuildResult, tmp_path: Path) -> None:
    blocker = tmp_path / "cache-file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = build_test_pack(tmp_path, "site", cache=blocker)
    assert site_files(result.out) == site_files(built.out)
    assert len(result.warnings) == 1
    assert str(blocker) in result.warnings[0] and "Not a directory" in result.warnings[0]
    assert blocker.read_text(encoding="utf-8") == "not a folder"
