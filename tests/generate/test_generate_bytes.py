"""The generator's fast paths give the bytes the plain ones gave (same seed, same file).

``GENERATOR_VERSION`` promises that a seed keeps its mission; the speed work on the generator
(a direct weighted draw, cached fixed-cue clearance, cached phase cues, pre-quoted clocks) must
not move a single byte. The digest below was taken with the code before that work.
"""

from __future__ import annotations

import hashlib
import importlib
import random
from itertools import accumulate

from hypothesis import given
from hypothesis import strategies as st

from authoring.generate import GENERATOR_VERSION, GenerateOptions, generate_mission, generated_text
from authoring.generate.threats import RetryError, weighted
from authoring.mission import timeline
from authoring.mission.timecode import format_clock

# the package re-exports the function ``mission_yaml`` under the module's name
yaml_module = importlib.import_module("authoring.generate.interchange.mission_yaml")

#: sha256 of the texts of seeds 0-149 for each option set below, generator v1.
GOLDEN_V1 = "4d28419637f233794141a7678979b901d674f73d101c519b632f70c3c8e77c26"
OPTION_SETS: list[dict[str, object]] = [
    {"profile": "base"}, {"profile": "training"}, {"profile": "test-run"},
    {"profile": "double-action"}, {"players": 4},
    {"decks": "white", "threat_level": 10, "ambush": 0.5},
]


def test_seeds_keep_their_bytes() -> None:
    assert GENERATOR_VERSION == 1, "a new generator version needs a new golden digest"
    digest = hashlib.sha256()
    for options in OPTION_SETS:
        for seed in range(150):
            made = generate_mission(GenerateOptions(seed=seed, **options))  # type: ignore[arg-type]
            digest.update(generated_text(made).encode())
    assert digest.hexdigest() == GOLDEN_V1


@given(st.dictionaries(st.integers(-5, 60), st.one_of(
    st.integers(0, 40), st.floats(0, 50, allow_nan=False)), min_size=1, max_size=12),
    st.integers(0, 2**32))
def test_weighted_draws_what_random_choices_draws(weights: dict[int, float], seed: int) -> None:
    """Same key and same generator state after it as ``rng.choices`` (the code it replaced)."""
    mine, theirs = random.Random(seed), random.Random(seed)
    keys = sorted(k for k, w in weights.items() if w > 0)
    if not keys:
        try:
            weighted(mine, weights)
        except RetryError:
            return
        raise AssertionError("no positive weight must be a RetryError")
    for _ in range(5):
        expected = theirs.choices(keys, weights=[weights[k] for k in keys])[0]
        assert weighted(mine, weights) == expected
    assert mine.getstate() == theirs.getstate()


def test_weighted_keeps_choices_float_arithmetic() -> None:
    # a draw right at a cumulative boundary goes where choices' bisect sends it
    weights = {1: 0.1, 2: 0.2, 3: 0.7}
    cumulative = list(accumulate(weights.values()))
    for seed in range(2_000):
        rng = random.Random(seed)
        expected = random.Random(seed).choices([1, 2, 3], cum_weights=cumulative)[0]
        assert weighted(rng, weights) == expected


def test_quoted_clocks_are_the_json_quoted_clock() -> None:
    for seconds in range(-700, 1_500):
        assert yaml_module._quoted_clock(seconds) == yaml_module._quote(format_clock(seconds))


def test_cached_phase_cues_equal_fresh_ones() -> None:
    cached = timeline._phase_cues(2, 420_000, False)
    assert timeline._phase_cues(2, 420_000, False) is cached  # computed once
    fresh = timeline._phase_cues.__wrapped__(2, 420_000, False)
    assert fresh == cached and fresh is not cached
    assert [c.kind for c in cached] == ["warning", "warning", "countdown", "count", "count",
                                        "count", "count", "count", "phase_ended"]
