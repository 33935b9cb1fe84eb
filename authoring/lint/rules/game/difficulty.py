"""Rates the mission's difficulty by simulation and compares it with the official missions.

**What it does.** Plays the mission ``games`` times with a crew model (threat cards drawn
from the mission's decks, random trajectories unless pinned, random damage tokens) and
reports the difficulty 0-100 (how far the crew falls short: half for survival, half for the
share of threat points banked; see ``SimulationStats.difficulty``), the survival rate and
the threat that most often destroys the ship, next to the range of official missions 1-8
under the same crew (``authoring/simulation/calibration.json``). Both figures carry their
95 % interval (``authoring/simulation/rating.py``): 500 games rate a mission to about ± 2-3
points. ``simulate``, ``sheets --rate`` and pack pages show the same rating (the same
settings, the same games).

**Why it matters.** Nobody can tell from the file whether a custom mission is fair; a rating
on the official scale can.

**Options.** ``crew`` (``planner``, the default; ``heuristic``; ``informed``, formerly
``omniscient``: see docs/simulation.md), ``games`` (500), ``seed`` (0), ``jobs`` (processes;
0: every core), the crew's search options ``iterations``, ``styles``, ``seeds`` (-1: the
crew's calibrated value) and ``hands`` (true: the crew plays only the action cards the rules
deal, docs/rules.md §16.1; false: any action in any turn). The official range is calibrated
for each crew's defaults.

The crews are models: they play from dealt hands, the ``heuristic`` and ``planner`` crews
phase by phase knowing only the threats announced so far, the ``informed`` one knowing the
whole draw; none of them is an upper bound. Compare ratings, not absolute survival
rates. This rule is opt-in (``--select G``).

Passes (no threats: nothing to rate)::

    # options: {games: 2, iterations: 5, styles: 2, jobs: 1}
    phases: ["3:45", "7:30", "10:00"]
    events: []

Fails (a rating is always reported when there are threats)::

    # options: {games: 2, iterations: 5, styles: 2, jobs: 1}
    phases: ["3:45", "7:30", "10:00"]
    events:  # <- G103
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

CODE = "G103"
NAME = "difficulty-rating"
SEVERITY = "info"
NEEDS = "simulation"
DEFAULTS: dict[str, object] = {**SIMULATION_OPTIONS}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding with the rating."""
    if not ctx.mission.threats():
        return
    try:
        stats = ctx.simulation(options)
    except (EngineError, ValueError) as error:  # ValueError: an unknown crew in the options
        yield Finding(EVENTS_KEY, f"cannot simulate the mission: {error}", key=True)
        return
    rating = rate(stats)
    survival_low, survival_high = rating.survival_interval
    killer = stats.killers().most_common(1)
    worst = f"; most often lost to {killer[0][0]}" if killer else ""
    yield Finding(EVENTS_KEY, f"difficulty {rating.describe()}; survived "
                  f"{rating.survival:.1%} ({survival_low:.1%}-{survival_high:.1%}){worst}",
                  key=True)
