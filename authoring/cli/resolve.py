"""``spacealert resolve``: plays a crew plan against a mission with the rules engine."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from authoring.cli._campaign import (
    campaign_or_none,
    load_plan,
    print_campaign,
    resolve_campaign_files,
)
from authoring.cli._common import reports_errors
from authoring.engine import (
    Estimate,
    Odds,
    estimate,
    exact_outcome,
    format_result,
    resolve_mission,
    setup_from_mission,
)
from authoring.errors import InvalidInputError, UsageError

app = typer.Typer()


@app.command()
@reports_errors
def resolve(
    mission: Annotated[Path, typer.Argument(
        help="The mission file, or a campaign file (docs/rules.md §18).", show_default=False)],
    plans: Annotated[list[Path], typer.Argument(
        help="The crew plan: a YAML file (schemas/plan.schema.json) or the compact .txt form. "
        "For a campaign: one plan per mission played, or one campaign plan file "
        "(schemas/campaign-plan.schema.json).", show_default=False)],
    repairs: Annotated[list[str] | None, typer.Option(
        "--repairs", help="Campaigns: the repairs after a mission, e.g. 'P1=red:structural "
        "P2=squad A1=-'; once per step between missions (missing: the stated policy).",
        show_default=False)] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Seed of the damage-token draws (default: the plan's).")] = None,
    level: Annotated[int | None, typer.Option(
        "--level", min=1, max=4,
        help="Rule level 1-4 (default: 1 for test runs, else 4, the full game).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    trace: Annotated[bool, typer.Option(
        "--trace", help="Include the state notation after every turn.")] = False,
    exact: Annotated[bool, typer.Option(
        "--exact", help="Also give the win probability and expected score over every "
        "damage-token draw: exact, or for a plan with too many draws to follow a sampled "
        "estimate with its standard error (the output says which).")] = False,
    samples: Annotated[int, typer.Option(
        "--samples", min=0,
        help="Also estimate the odds over this many seeds (0: no estimate).")] = 0,
    hands: Annotated[bool, typer.Option(
        "--hands", help="First check that the crew can play the plan from the action cards "
        "`solve --hands` deals with the plan's seed (docs/rules.md §16; on double-action "
        "tracks the double-action deck, docs/rules.md §19.5); exit 1 naming the "
        "first card the hands lack.")] = False,
) -> None:
    """Resolve a crew plan against a mission: turn-by-turn log, outcome and score.

    The plan gives each crew member's 12 actions, the threat cards and
    trajectories that came up, and the seed of the damage-token draws.
    Exit code 0 when the plan was resolved (whether or not the ship
    survived), 1 for an invalid mission or plan.

    A campaign file plays its missions in a row with the repairs between
    them and prints every mission's log and the campaign score.
    """
    campaign = campaign_or_none(mission)
    if campaign is not None:
        if exact or samples or hands or seed is not None or level is not None:
            raise UsageError("--exact, --samples, --hands, --seed and --level apply to single "
                             "missions (each mission of a campaign uses its plan's seed)")
        played = resolve_campaign_files(campaign, plans, repairs or [], trace=trace)
        print_campaign(campaign, played, as_json=as_json)
        return
    if len(plans) != 1 or repairs:
        raise UsageError(f"expected one plan for a mission (several plans and --repairs are "
                         f"for campaigns), got {len(plans)} plans")
    plan = plans[0]
    from authoring.lint.playability import load_playable_mission

    # a card that does not fit its event is blamed on the mission, not on the plan that meets it
    loaded = load_playable_mission(mission)
    exact_result: Odds | None = None
    estimated: Estimate | None = None
    dealt = None
    try:
        crew_plan = load_plan(plan)
        if hands:
            from authoring.engine.cores import hands_module
            from authoring.simulation.dealing import deal_for

            rules = setup_from_mission(loaded, crew_plan, level=level).level
            dealt = deal_for(loaded, [m.label for m in crew_plan.crew], crew_plan.seed, rules)
            hands_module().check(dealt, crew_plan.crew)  # the module that dealt them
        result = resolve_mission(loaded, crew_plan, seed=seed, level=level, trace=trace)
        if exact or samples:
            setup = setup_from_mission(loaded, crew_plan, level=level)
        if exact:
            exact_result = exact_outcome(setup, crew_plan)
        if samples:
            estimated = estimate(setup, crew_plan, samples=samples,
                                 seed=crew_plan.seed if seed is None else seed)
    except ValueError as error:  # EngineError: the plan does not fit the mission
        raise InvalidInputError(f"{plan}: {error}") from None
    if as_json:
        data = result.to_dict()
        if exact_result is not None:
            data["exact"] = exact_result.to_dict()
        if estimated is not None:
            data["estimate"] = estimated.to_dict()
        if dealt is not None:
            data["hands"] = dealt.to_mapping()
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    if dealt is not None:
        typer.echo(f"The crew can play the plan from the hands dealt with seed {crew_plan.seed}.")
    typer.echo(format_result(result), nl=False)
    if trace:
        for turn, line in enumerate(result.trace):
            typer.echo(f"after {turn:2}: {line}")
    if exact_result is not None:
        typer.echo(_odds_text(exact_result))
    if estimated is not None:
        mean = "-" if estimated.mean_score is None else f"{float(estimated.mean_score):.2f}"
        typer.echo(f"Estimate over {samples} seeds: win rate {float(estimated.win_rate):.3f}, "
                   f"mean score of a win {mean}")


def _odds_text(odds: Odds) -> str:
    """Returns the ``--exact`` line: exact fractions, or a sampled estimate with its errors."""
    if odds.exact:
        # "-" where no draw is won, as the estimate's line says it
        exact_score = "-" if odds.expected_score is None else str(odds.expected_score)
        return (f"Exact: win probability {odds.win}, expected score of a win {exact_score}")
    score = ("-" if odds.expected_score is None else
             f"{float(odds.expected_score):.2f} ± {odds.score_error or 0:.2f}")
    return (f"Sampled (too many draws to follow exactly; mean of {odds.samples} stratified "
            f"samples ± standard error): win probability {float(odds.win):.3f} ± "
            f"{odds.win_error or 0:.3f}, expected score of a win {score}")
