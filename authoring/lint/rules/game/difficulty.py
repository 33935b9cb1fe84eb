"""Rates the mission's difficulty by simulation and compares it with the official missions.

**What it does.** Plays the mission ``games`` times with a crew model (threat cards drawn
from the mission's decks, random trajectories unless pinned, random damage tokens) and
reports the difficulty 0-100 (how far the crew falls short: half for survival, half for the
share of threat points banked; see ``SimulationStats.difficulty``), the survival rate and
the threat that most often destroys the ship, next to the range of official missions 1-8
under the same settings (``authoring/simulation/calibration.json``). Both figures carry
their 95 % interval (``authoring/simulation/rating.py``): 20 games rate a mission to about
± 10 points, enough to tell a walk-over from a massacre, not two neighbours apart.

**Why it matters.** Nobody can tell from the file whether a custom mission is fair; a rating
on the official scale can.

**Options.** ``crew`` (``planner`` or ``heuristic``), ``games`` (20), ``seed`` (0),
``iterations`` (the planner's search steps per phase, 60), ``styles`` (heuristic styles
the planner tries per phase, 40), ``hands`` (true: the crew plays only the action cards the
rules deal, docs/rules.md §16; false: any action in any turn), ``jobs`` (processes, 1). The
official range is calibrated for the defaults.

The crews are models, far weaker than an experienced table (no heroic actions); compare
ratings, not absolute survival rates.
This rule is opt-in (``--select G``).

Passes (no threats: nothing to rate)::

    # options: {games: 2, iterations: 5, styles: 2}
    phases: ["3:45", "7:30", "10:00"]
    events: []

Fails (a rating is always reported when there are threats)::

    # options: {games: 2, iterations: 5, styles: 2}
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
from authoring.simulation.calibration import DEFAULT_SETTINGS
from authoring.simulation.rating import rate

CODE = "G103"
NAME = "difficulty-rating"
SEVERITY = "info"
NEEDS = "simulation"
DEFAULTS: dict[str, object] = {**DEFAULT_SETTINGS, "jobs": 1}


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields one finding with the rating."""
    if not ctx.mission.threats():
        return
    try:
        stats = ctx.simulation(options)
    except EngineError as error:
        yield Finding(EVENTS_KEY, f"cannot simulate the mission: {error}", key=True)
        return
    rating = rate(stats)
    survival_low, survival_high = rating.survival_interval
    killer = stats.killers().most_common(1)
    worst = f"; most often lost to {killer[0][0]}" if killer else ""
    yield Finding(EVENTS_KEY, f"difficulty {rating.describe()}; survived "
                  f"{rating.survival:.0%} ({survival_low:.0%}-{survival_high:.0%}) of "
                  f"{rating.games} games with the {rating.crew} crew{worst}", key=True)
