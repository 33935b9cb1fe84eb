"""The crews' plan search in C chooses the same plans as the Python reference.

``PlanSearch.run`` (authoring/simulation/localsearch.py) runs in C when it can; the Python
methods are the reference. Both must return the same plan, value and count of plans rated
on every board: random boards of every profile, phases 1-3, 1-3 seeds, descents cut short
by their cap and descents to a local optimum (docs/simulation.md "The search").
"""

from __future__ import annotations

import random

import pytest

from authoring.engine.cores import ccore
from tests.simulation.searchcases import random_search_case

pytestmark = pytest.mark.skipif(
    not ccore.available(), reason="the C core is not built (python -m authoring._native build)")

CASES = 120


@pytest.mark.parametrize("chunk", range(4))
def test_c_search_chooses_the_python_reference_plan(chunk: int) -> None:
    rng = random.Random(f"native-search:{chunk}")
    compared = 0
    for _ in range(CASES // 4):
        case = random_search_case(rng)
        native = case.run(native=True)
        reference = case.run(native=False)
        assert native == reference, f"the C search differs from the reference on {case}"
        compared += 1
    assert compared == CASES // 4
