"""The pack page's "what makes it hard" sentence, with and without dealt hands (a rating
run with --no-hands deals none; every track deals hands by default: docs/rules.md §19.5)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from authoring.render.site import render_pages
from authoring.simulation.breakdown import Breakdown, Figure
from tests.site.helpers import golden_model


def _figure(crew: str, hands: bool, survival: float) -> Figure:
    return Figure(crew, hands, 40, survival, (0.0, 1.0), 50.0, ())


def _sentence(figures: tuple[Figure, ...]) -> str:
    model = golden_model()
    rated = next(e for e in model.missions if e.rating is not None)
    entry = dataclasses.replace(rated, breakdown=Breakdown(rated.mission.id, 0, 40, figures))
    model = dataclasses.replace(model, missions=(entry,))
    page = next(v for k, v in render_pages(model).items() if k.startswith("missions/"))
    found = re.search(r'<p class="rating-breakdown">(.*?)</p>', page.decode("utf-8"), re.S)
    assert found is not None
    return found.group(1)


@pytest.mark.parametrize(("figures", "expected"), [
    ((_figure("planner", True, 0.25), _figure("planner", False, 0.3),
      _figure("informed", True, 0.5), _figure("informed", False, 0.6)),
     "What makes it hard, on the first 40 games: the planner crew survived 25 % with the action "
     "cards the rules deal and 30 % in free play (any action in any turn); the informed crew, "
     "which knows the whole draw, 50 % (60 % in free play)."),
    ((_figure("planner", False, 0.125), _figure("informed", False, 0.475)),
     "What makes it hard, on the first 40 games: the planner crew survived 12 % in free play "
     "(no hands dealt); the informed crew, which knows the whole draw, 48 % in free play."),
])
def test_the_sentence_says_how_the_cards_were_played(figures: tuple[Figure, ...],
                                                     expected: str) -> None:
    assert _sentence(figures) == expected
