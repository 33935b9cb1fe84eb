"""Ratings with fewer games, for tests about what is shown rather than about the figure.

A rating plays 500 games at the calibrated search (about 50 s on two cores). ``fewer_games``
sets a few instead, in one place: both the rating's settings and the G rules' defaults change
(they are one simulation: the studio's Rate reuses the rating's games for G101 and G103), and
the kept simulations are forgotten. The ``fewer_games`` fixture (tests/conftest.py) calls it
for one test; module and session fixtures call it inside their own ``MonkeyPatch.context()``.
"""

from __future__ import annotations

import dataclasses

import pytest


def fewer_games(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
    """Makes every default rating and simulation G rule play ``games`` games, until
    ``monkeypatch`` undoes it (the simulations kept before are forgotten)."""
    from authoring.lint.registry import all_rules
    from authoring.simulation import rating
    from authoring.simulation.calibration import SIMULATION_OPTIONS

    monkeypatch.setattr(rating, "DEFAULT_SETTINGS", {**rating.DEFAULT_SETTINGS, "games": games})
    rules = all_rules()
    for code, rule in rules.items():  # the rules that take the simulation options
        if rule.defaults.get("games") == SIMULATION_OPTIONS["games"]:
            monkeypatch.setitem(rules, code,  # type: ignore[arg-type]
                                dataclasses.replace(rule, defaults={**rule.defaults,
                                                                    "games": games}))
    forget_simulations()


def forget_simulations() -> None:
    """Forgets the simulations kept for reuse, so no later test sees a short one."""
    from authoring.simulation.montecarlo import _simulated

    _simulated.cache_clear()
