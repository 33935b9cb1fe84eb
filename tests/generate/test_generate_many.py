"""``generate --count`` over several worker processes writes what one process writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.generate import (
    GenerateOptions,
    GenerationError,
    batch,
    generate_mission,
    generated_text,
)
from authoring.generate.batch import PARALLEL_FROM, generate_many


def test_workers_give_the_same_missions_in_seed_order() -> None:
    base = GenerateOptions(profile="base", seed=0)
    seeds = range(500, 500 + PARALLEL_FROM)
    spread = list(generate_many(base, seeds, jobs=2))
    alone = list(generate_many(base, seeds, jobs=1))
    assert spread == alone
    for seed, (mission_id, text) in zip(seeds[::50], spread[::50], strict=True):
        made = generate_mission(GenerateOptions(profile="base", seed=seed))
        assert (mission_id, text) == (made.mission.id, generated_text(made))


def test_no_seeds_no_missions() -> None:
    assert list(generate_many(GenerateOptions(profile="base", seed=0), [])) == []


def test_a_failing_seed_leaves_no_file_and_no_temp_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # files are written while later seeds are still being made: a failure must undo them all
    real = batch._made

    def failing(options: GenerateOptions) -> tuple[str, str]:
        if options.seed == 13:
            raise GenerationError("no mission found for seed 13")
        return real(options)

    monkeypatch.setattr(batch, "_made", failing)
    (tmp_path / "base-10.yaml").write_text("kept\n")
    result = CliRunner().invoke(app, ["generate", "--count", "5", "--seed", "10",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 2, result.output
    assert "no mission found for seed 13" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["base-10.yaml"]
    assert (tmp_path / "base-10.yaml").read_text() == "kept\n"


def test_a_folder_in_the_way_stops_the_batch_before_any_file_is_written(tmp_path: Path) -> None:
    (tmp_path / "base-3.yaml").mkdir()
    result = CliRunner().invoke(app, ["generate", "--count", "5", "--seed", "1",
                                      "-o", str(tmp_path)])
    assert result.exit_code == 1
    assert "base-3.yaml: cannot write: it is a folder" in result.output
    assert [p.name for p in tmp_path.iterdir()] == ["base-3.yaml"]
