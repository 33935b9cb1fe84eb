"""``spacealert generate`` through Typer's CliRunner."""

from __future__ import annotations

from pathlib import Path

import pytest
from gen_helpers import valid_mission
from typer.testing import CliRunner

from authoring.cli import app
from authoring.generate import GenerateOptions, generate_mission, generated_text


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def test_prints_the_mission_to_stdout(runner: CliRunner) -> None:
    result = runner.invoke(app, ["generate", "--seed", "12"])
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout == generated_text(generate_mission(GenerateOptions(seed=12)))
    valid_mission(result.stdout)


def test_writes_a_file_and_replaces_it_atomically(runner: CliRunner, tmp_path: Path) -> None:
    # one overwrite policy for every command: -o is replaced, only once the new file is whole
    target = tmp_path / "m.yaml"
    result = runner.invoke(app, ["generate", "--seed", "3", "--profile", "training",
                                 "-o", str(target)])
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == f"wrote {target} (seed 3)\n"
    text = target.read_text("utf-8")
    assert valid_mission(text).profile == "training"
    target.write_text("mine", "utf-8")
    again = runner.invoke(app, ["generate", "--seed", "3", "--profile", "training",
                                "-o", str(target)])
    assert again.exit_code == 0
    assert target.read_text("utf-8") == text
    forced = runner.invoke(app, ["generate", "--seed", "3", "--profile", "training",
                                 "-o", str(target), "--force"])  # still accepted
    assert forced.exit_code == 0
    assert target.read_text("utf-8") == text
    assert [p.name for p in tmp_path.iterdir()] == ["m.yaml"]  # no temporary files left


def test_count_writes_one_file_per_seed(runner: CliRunner, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    result = runner.invoke(app, ["generate", "--profile", "double-action", "--seed", "100",
                                 "--count", "3", "-o", str(folder)])
    assert result.exit_code == 0
    assert result.stderr == f"wrote 3 missions to {folder} (seeds 100..102)\n"
    names = sorted(p.name for p in folder.iterdir())
    assert names == ["double-action-100.yaml", "double-action-101.yaml",
                     "double-action-102.yaml"]
    for seed in (100, 101, 102):
        text = (folder / f"double-action-{seed}.yaml").read_text("utf-8")
        assert text == generated_text(generate_mission(
            GenerateOptions(profile="double-action", seed=seed)))
    (folder / "double-action-102.yaml").write_text("old", "utf-8")
    again = runner.invoke(app, ["generate", "--profile", "double-action", "--seed", "102",
                                "--count", "2", "-o", str(folder)])
    assert again.exit_code == 0
    assert (folder / "double-action-102.yaml").read_text("utf-8") == text  # seed 102's
    assert (folder / "double-action-103.yaml").exists()


@pytest.mark.parametrize(("args", "message"), [
    (["--serious", "3..1"], "error: --serious: expected MIN..MAX with MIN <= MAX, got '3..1'\n"
                            "  hint: did you mean 1..3?\n"),
    (["--length", "99:99"], "error: --length: expected a time m:ss such as 10:00 "
                            "(seconds 00-59), got '99:99'\n"),
    (["--threat-level", "30"], "error: --threat-level: expected 1..14 threat points for the "
                               "base profile, got 30\n"),
    (["--profile", "huge"], "error: --profile: expected one of test-run, training, base, "
                            "double-action, got 'huge'\n"),
    (["--players", "5", "--figures", "4"], "error: --players/--figures: expected 5 figures "
                                           "(players and androids) for 5 players, got 4\n"),
    (["--count", "2"], "error: --count needs -o DIR: the folder to write the missions into\n"),
    (["--decks", "purple"],
     "error: --decks: expected one of white, yellow, mixed, red, got 'purple'\n"),
])
def test_bad_options_exit_2_with_one_message(runner: CliRunner, args: list[str],
                                             message: str) -> None:
    result = runner.invoke(app, ["generate", "--seed", "1", *args])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith(message)
    assert "Traceback" not in result.stderr


def test_without_seed_the_header_names_the_seed_used(runner: CliRunner) -> None:
    result = runner.invoke(app, ["generate", "--profile", "test-run"])
    assert result.exit_code == 0
    first = result.stdout.splitlines()[0]
    seed = int(first.rsplit("seed ", 1)[1].rstrip("."))
    again = runner.invoke(app, ["generate", "--profile", "test-run", "--seed", str(seed)])
    assert again.stdout == result.stdout
