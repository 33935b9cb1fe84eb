"""``generate --count`` over several worker processes writes what one process writes."""

from __future__ import annotations

from authoring.generate import GenerateOptions, generate_mission, generated_text
from authoring.generate.batch import PARALLEL_FROM, generate_many


def test_workers_give_the_same_missions_in_seed_order() -> None:
    base = GenerateOptions(profile="base", seed=0)
    seeds = range(500, 500 + PARALLEL_FROM)
    spread = generate_many(base, seeds, jobs=2)
    alone = generate_many(base, seeds, jobs=1)
    assert spread == alone
    for seed, (mission_id, text) in zip(seeds[::50], spread[::50], strict=True):
        made = generate_mission(GenerateOptions(profile="base", seed=seed))
        assert (mission_id, text) == (made.mission.id, generated_text(made))


def test_no_seeds_no_missions() -> None:
    assert generate_many(GenerateOptions(profile="base", seed=0), []) == []
