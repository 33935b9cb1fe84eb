"""``spacealert pack new|build|serve`` through the CLI: exit codes, stdout and stderr."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from authoring.cli import app
from authoring.publish import BuildResult, load_pack
from tests.site.helpers import PACK

runner = CliRunner()


def test_new_scaffolds_a_pack_that_validates_and_lints_clean(tmp_path: Path) -> None:
    folder = tmp_path / "ghost-convoy"
    result = runner.invoke(app, ["pack", "new", str(folder)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [str(folder / "pack.yaml"),
                                          str(folder / "missions" / "first-watch.yaml"),
                                          str(folder / ".github" / "workflows" / "pages.yml")]
    assert "next: spacealert pack build" in result.stderr
    pack = load_pack(folder)
    assert pack.title == "Ghost Convoy"
    lint = runner.invoke(app, ["lint", str(folder / "missions" / "first-watch.yaml")])
    assert lint.exit_code == 0, lint.output
    assert "0 errors, 0 warnings, 0 infos" in lint.stderr + lint.stdout


def test_new_refuses_a_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "mine.txt").write_text("keep", encoding="utf-8")
    result = runner.invoke(app, ["pack", "new", str(tmp_path), "--title", "X"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "not empty; refusing to overwrite" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine.txt"]


def test_new_title_with_quotes_stays_valid_yaml(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pack", "new", str(tmp_path / "p"), "--title",
                                 'The "Best" \\ Pack'])
    assert result.exit_code == 0, result.output
    assert load_pack(tmp_path / "p").title == 'The "Best" \\ Pack'


def test_build_without_manifest_is_invalid_input(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pack", "build", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert f"error: {tmp_path}: expected a pack.yaml in the pack folder" in result.stderr
    assert "hint: create a pack with `spacealert pack new DIR`" in result.stderr


def test_build_strict_lists_every_warning_and_fails(tmp_path: Path) -> None:
    shutil.copytree(PACK, tmp_path / "pack")
    result = runner.invoke(app, ["pack", "build", str(tmp_path / "pack"), "--strict"])
    assert result.exit_code == 1
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith(f"error: {tmp_path / 'pack' / 'missions' / 'tiny-drill.yaml'}:")
    assert "(and 5 more)" in lines[0]
    assert sum("tiny-drill.yaml:" in line for line in lines) == 6
    assert not (tmp_path / "pack" / "_site").exists()


def test_build_with_a_missing_templates_folder_is_a_usage_error(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pack", "build", str(PACK), "--templates",
                                 str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert "--templates: expected a folder" in result.stderr


def test_serve_refuses_a_folder_without_a_site(tmp_path: Path) -> None:
    shutil.copytree(PACK, tmp_path / "pack")
    result = runner.invoke(app, ["pack", "serve", str(tmp_path / "pack"), "--port", "0"])
    assert result.exit_code == 2
    assert f"error: {tmp_path / 'pack' / '_site'}: no index.html here to serve" \
        in result.stderr
    assert f"build it first with `spacealert pack build {tmp_path / 'pack'}`" in result.stderr


def test_serve_rejects_a_port_out_of_range() -> None:
    result = runner.invoke(app, ["pack", "serve", ".", "--port", "70000"])
    assert result.exit_code == 2


def test_new_creates_missing_parent_folders(tmp_path: Path) -> None:
    result = runner.invoke(app, ["pack", "new", str(tmp_path / "packs" / "mine")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "packs" / "mine" / "pack.yaml").is_file()


def test_build_prints_the_index_and_the_remaining_warnings(tmp_path: Path,
                                                           built: BuildResult) -> None:
    shutil.copytree(PACK, tmp_path / "pack")
    out = tmp_path / "www"
    result = runner.invoke(app, ["pack", "build", str(tmp_path / "pack"), "-o", str(out),
                                 "--cache-dir", str(built.out.parent / "cache")])
    assert result.exit_code == 0, result.output
    assert result.stdout == f"{out / 'index.html'}\n"
    lines = result.stderr.splitlines()
    assert "rendering tiny-drill with voice en-gb" in lines
    assert any(line.startswith("warning: ") and ": T101 " in line for line in lines)
    assert lines[-1].startswith("built 1 mission, 2 soundtracks: 16 files, ")
    assert (out / "missions" / "tiny-drill.html").is_file()


def test_build_warns_about_a_voice_that_reads_no_mission(tmp_path: Path,
                                                         built: BuildResult) -> None:
    shutil.copytree(PACK, tmp_path / "pack")
    manifest = tmp_path / "pack" / "pack.yaml"
    manifest.write_text(manifest.read_text("utf-8").replace(
        "voices: [en, voices/en-gb.yaml]", "voices: [en, de]"), encoding="utf-8")
    result = runner.invoke(app, ["pack", "build", str(tmp_path / "pack"), "-o",
                                 str(tmp_path / "www"), "--quiet",
                                 "--cache-dir", str(built.out.parent / "cache")])
    assert result.exit_code == 0, result.output
    assert ("warning: voice 'de' (de) reads none of the pack's missions (their languages: "
            "en): it is left out") in result.stderr
