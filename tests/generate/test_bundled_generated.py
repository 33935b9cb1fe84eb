"""The generated tracks bundled for the calibration are what ``spacealert generate`` writes for
their seeds (missions/generated, docs/simulation.md "Double-action tracks")."""

from __future__ import annotations

from pathlib import Path

import pytest

from authoring.generate import GenerateOptions, generate_mission, generated_text

GENERATED = Path(__file__).resolve().parents[2] / "missions" / "generated"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_bundled_generated_track_is_reproduced_by_its_seed(seed: int) -> None:
    path = GENERATED / f"generated-double-action-{seed}.yaml"
    options = GenerateOptions(profile="double-action", players=5, seed=seed)
    assert path.read_text("utf-8") == generated_text(generate_mission(options))
