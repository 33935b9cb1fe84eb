"""Differential test: the compiled generator writes every mission exactly as the Python one.

``python -m authoring._native build`` compiles the generator's hot modules with mypyc into
``authoring._generate_native`` (authoring/_native.py); ``generate --count`` then uses them. Both
are given the same options and seeds, over every profile, both crew sizes and the options that
change the draw, and their mission texts must be equal byte for byte. Skipped where the
generator is not built, except in CI (CI=true), where .ci/setup builds it.
"""

from __future__ import annotations

import os
from dataclasses import replace

import pytest

from authoring import _native
from authoring.generate import GenerateOptions, generate_mission, generated_text
from authoring.generate.batch import native_generator
from authoring.generate.generator import GenerationError

STATUS = _native.status(_native.generator_target())
needs_native = pytest.mark.skipif(native_generator() is None,
                                  reason=f"native generator {STATUS}")
OPTION_SETS = [
    GenerateOptions(profile="base"),
    GenerateOptions(profile="base", players=4),
    GenerateOptions(profile="training"),
    GenerateOptions(profile="test-run"),
    GenerateOptions(profile="double-action", players=4),
    GenerateOptions(profile="base", threat_level=11, serious=(2, 3), internal=(1, 2),
                    unconfirmed=2, ambush=0.5, decks="yellow"),
    GenerateOptions(profile="base", length=540, decks="white"),
]
SEEDS_PER_SET = int(os.environ.get("SPACEALERT_DIFFERENTIAL_MISSIONS", "300"))


def test_the_native_generator_is_usable_where_it_was_built() -> None:
    allowed = {None} if os.environ.get("CI", "").lower() in ("true", "1") else {None,
                                                                               "not built"}
    if STATUS not in allowed:
        pytest.fail(f"native generator {STATUS}: run `{_native.BUILD_COMMAND}`", pytrace=False)


@needs_native
@pytest.mark.parametrize("base", OPTION_SETS, ids=lambda o: o.command_line())
def test_both_generators_write_the_same_missions(base: GenerateOptions) -> None:
    native = native_generator()
    assert native is not None
    for seed in range(SEEDS_PER_SET):
        options = replace(base, seed=seed * 7919 + 1)
        python_text = generated_text(generate_mission(options))
        native_text = generated_text(native(options))
        assert native_text == python_text, f"first difference at {options.command_line()}"


@needs_native
def test_the_native_generator_refuses_what_the_python_one_refuses() -> None:
    native = native_generator()
    assert native is not None
    # valid options that no draw can satisfy: the generator itself gives up (not the checks)
    impossible = GenerateOptions(profile="test-run", internal=(3, 3), seed=1)
    errors = []
    for made in (generate_mission, native):
        with pytest.raises(GenerationError) as raised:
            made(impossible)
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and "after 100 attempts" in errors[0]
