"""Reports a mission far harder than every official mission under the same crew model.

**What it does.** Simulates the mission as ``G103`` does and reports an error when its
difficulty exceeds the hardest official mission's (under the calibrated default settings) by
more than ``margin`` points.

**Why it matters.** A custom mission that the same crew model finds much harder than any
official mission is probably unfair (too many serious threats on short turns, internal
threats on top of each other …). The comparison is relative on purpose: the crew models are
not real tables, so an absolute "lost in more than X % of the games" threshold would flag
the official missions too (the planner crew loses many games of the official missions).

**Options.** ``margin`` (10 difficulty points) and the simulation options of ``G103``.

This rule is opt-in (``--select G``).

Passes::

    # options: {games: 2, iterations: 5, styles: 2, jobs: 1}
    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}

Fails (with ``margin: -100``, every mission is "too hard")::

    # options: {games: 2, iterations: 5, styles: 2, jobs: 1, margin: -100}
    phases: ["3:45", "7:30", "10:00"]
    events:  # <- G101
      - {at: "0:10", threat: {turn: 1, zone: red}}
"""

from __future__ import annotations

from collections.abc import Iterator

from authoring.engine import EngineError
from authoring.lint.context import LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules._util import EVENTS_KEY
from authoring.simulation.calibration import SIMULATION_OPTIONS
from authoring.simulation.rating import rate

CODE = "G101"
NAME = "unsurvivable-mission"
SEVERITY = "error"
NEEDS = "simulation"
DEFAULTS: dict[str, object] = {**SIMULATION_OPTIONS, "margin": 10}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding when the mission is far harder than the hardest official one."""
    if not ctx.mission.threats():
        return
    try:
        stats = ctx.simulation(options)
    except (EngineError, ValueError) as error:  # ValueError: an unknown crew in the options
        yield Finding(EVENTS_KEY, f"cannot simulate the mission: {error}", key=True)
        return
    rated = rate(stats)
    rating, hardest = rated.value, rated.high
    if rating > hardest + float(options["margin"]):
        killers = ", ".join(f"{name} ({count}x)" for name, count
                            in stats.killers().most_common(3)) or "none"
        yield Finding(EVENTS_KEY, f"difficulty {rating:.1f} is more than "
                      f"{options['margin']} above the hardest official mission "
                      f"({hardest:.1f}); the ship survived {stats.survival_rate:.0%} of "
                      f"{stats.games} games; lost most often to: {killers}", key=True,
                      hint="remove a serious threat or give the crew more time")
