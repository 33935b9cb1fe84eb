"""Many missions at once (``generate --count``), spread over the available cores.

Each seed is an independent mission, so the files are the same whichever worker made them and
however many there were. The first seed is made in this process: options that admit no mission
fail at once, before any worker starts. Workers run under the toolkit's interrupt policy
(authoring/_workers.py).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from authoring._native import GENERATOR_NAME, generator_target, status
from authoring._workers import ordered_map
from authoring.generate import GenerateOptions, generate_mission, generated_text
from authoring.generate.generator import Generated

#: Below this many missions a worker's start-up costs more than it saves.
PARALLEL_FROM = 200


@functools.cache
def native_generator() -> Callable[[GenerateOptions], Generated] | None:
    """Returns the compiled ``generate_mission`` when it is built for these sources, else None.

    The compiled copy (authoring/_native.py) makes the same missions, byte for byte
    (tests/generate/test_native_generator.py), with about 1.4x less CPU a mission.
    """
    if status(generator_target()) is not None:
        return None
    try:
        module = importlib.import_module(f"authoring.{GENERATOR_NAME}.generate.generator")
    except ImportError:  # a build for another platform or a damaged one: run the reference
        return None
    made: Callable[[GenerateOptions], Generated] = module.generate_mission
    return made


def _made(options: GenerateOptions) -> tuple[str, str]:
    """One mission: its id and its file text (the compiled generator when there is one)."""
    generated = (native_generator() or generate_mission)(options)
    return generated.mission.id, generated_text(generated)


def _made_with_seed(base: GenerateOptions, seed: int) -> tuple[str, str]:
    """The mission of ``base`` with ``seed``: a worker is sent the options once per chunk of
    seeds and each seed as a bare number, not one pickled copy of the options per seed."""
    return _made(replace(base, seed=seed))


def generate_many(base: GenerateOptions, seeds: Sequence[int],
                  jobs: int | None = None) -> Iterator[tuple[str, str]]:
    """Yields (mission id, file text) for each seed, in order (``jobs``: worker processes).

    A generator, so that the caller can write each file while the next ones are made.
    """
    if not seeds:
        return
    yield _made(replace(base, seed=seeds[0]))
    yield from ordered_map(functools.partial(_made_with_seed, base), list(seeds[1:]),
                           jobs=jobs, parallel_from=PARALLEL_FROM)
