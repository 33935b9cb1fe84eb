"""``spacealert solve``: finds the best crew plan for a mission and a threat draw."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from authoring._files import write_atomic
from authoring.cli._campaign import campaign_or_none
from authoring.cli._common import FiguresOption, PlayersOption, reports_errors
from authoring.engine import setup_from_mission
from authoring.errors import UsageError
from authoring.mission import Campaign
from authoring.mission.load import dump_yaml
from authoring.solve import (
    Progress,
    default_jobs,
    json_report,
    load_draw,
    load_plan,
    plan_table,
    prepare,
    text_report,
    to_plan,
)
from authoring.solve import (
    solve as run_solve,
)

app = typer.Typer()

DEFAULT_ITERATIONS = 100000


@app.command()
@reports_errors
def solve(
    mission: Annotated[Path, typer.Argument(
        help="The mission file, or a campaign file (plans every mission and the repairs).",
        show_default=False)],
    draw: Annotated[Path | None, typer.Option(
        "--draw", help="Threat cards and trajectory boards (schemas/draw.schema.json); "
        "cards not given are drawn from the mission's decks with --seed.",
        show_default=False)] = None,
    seed: Annotated[int, typer.Option(
        "--seed", "-s", help="Seeds the threat draw (without --draw) and the search.")] = 0,
    players: PlayersOption = None,
    figures: FiguresOption = None,
    iterations: Annotated[int | None, typer.Option(
        "--iterations", "-n", help=f"Search budget over all restarts (default "
        f"{DEFAULT_ITERATIONS} without --time-limit). DETERMINISTIC: the same mission, "
        "draw, seed and iterations give the same plan for any --jobs.",
        show_default=False)] = None,
    time_limit: Annotated[float | None, typer.Option(
        "--time-limit", "-t", help="Stop searching after about this many seconds. NOT "
        "deterministic (the plan depends on the machine's speed).", show_default=False)] = None,
    jobs: Annotated[int | None, typer.Option(
        "--jobs", "-j", help="Worker processes (default: the cores available).",
        show_default=False)] = None,
    restarts: Annotated[int, typer.Option(
        "--restarts", help="Seeded annealing runs; after each third of the budget the better "
        "half goes on, and the best plan wins.")] = 8,
    fix: Annotated[Path | None, typer.Option(
        "--fix", help="A plan file whose crew members are kept as written (matched by "
        "label); the solver fills in the others.", show_default=False)] = None,
    no_heroics: Annotated[bool, typer.Option(
        "--no-heroics", help="Plan without heroic actions (base rules of other solvers).")
    ] = False,
    hands: Annotated[bool, typer.Option(
        "--hands", help="Deal the crew its action cards with --seed (docs/rules.md §16: "
        "cards per phase, incoming data, data transfers) and plan only what those hands can "
        "play; the hands are printed with the plan.")] = False,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="Also write the plan file (YAML, for `spacealert resolve`).",
        show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Find the crew plan with the best expected score for a mission and a threat draw.

    Prints the plan as a 12-column table in plan notation (it can be fed to resolve), its
    expected score over the damage-token draws and its survival probability. The expectation
    is exact (every draw outcome played) unless the plan takes so much damage that the draw
    tree has over 20000 branches; then it is a stratified sample and says so.
    """
    if jobs is not None and jobs < 1:
        raise UsageError(f"expected --jobs of at least 1, got {jobs}")
    if iterations is not None and iterations < 0:
        raise UsageError(f"expected --iterations of at least 0, got {iterations}")
    if time_limit is not None and time_limit <= 0:
        raise UsageError(f"expected a positive --time-limit, got {time_limit}")
    if restarts < 1:
        raise UsageError(f"expected --restarts of at least 1, got {restarts}")
    if iterations is None and time_limit is None:
        iterations = DEFAULT_ITERATIONS
    campaign = campaign_or_none(mission)
    if campaign is not None:
        if hands:
            raise UsageError("--hands applies to single missions, not to campaigns")
        _solve_campaign(campaign, seed=seed, iterations=iterations, time_limit=time_limit,
                        jobs=jobs, restarts=restarts, heroics=not no_heroics, output=output,
                        as_json=as_json, others=(draw, players, figures, fix))
        return
    from authoring.lint.playability import load_playable_mission

    problem = prepare(load_playable_mission(mission), seed=seed, players=players, figures=figures,
                      draw=load_draw(draw) if draw is not None else None,
                      fixed=load_plan(fix) if fix is not None else None, hands=hands)
    request = problem.request(iterations=iterations, time_limit=time_limit,
                              jobs=jobs or default_jobs(), restarts=restarts,
                              heroics=not no_heroics)
    bar = _ProgressBar() if _stderr_is_terminal() else None
    try:
        solution = run_solve(request, bar.update if bar else None)
    finally:
        if bar is not None:
            bar.close()
    plan = to_plan(problem, solution.slots)
    if output is not None:
        _write_plan(output, problem.mission.id, plan.to_mapping(), solution.value.expected,
                    solution.value.survival)
    if as_json:
        report = json_report(problem, plan, solution)
        if problem.hands is not None:
            report["hands"] = problem.hands.to_mapping()
        typer.echo(json.dumps(report, indent=2))
    else:
        if problem.hands is not None:
            typer.echo(f"# hands dealt with seed {seed} (docs/rules.md §16):")
            typer.echo("".join(f"#   {line}\n" for line in
                               problem.hands.describe().splitlines()), nl=False)
        typer.echo(text_report(problem, plan, solution), nl=False)


def _stderr_is_terminal() -> bool:
    """Tells whether stderr is an interactive terminal (the progress bar goes there)."""
    return sys.stderr.isatty() and os.environ.get("TERM") != "dumb"


class _ProgressBar:
    """A one-line progress bar with the best value so far, redrawn on stderr."""

    def __init__(self) -> None:
        self.shown = False

    def update(self, progress: Progress) -> None:
        if progress.total:
            share = min(1.0, progress.done / progress.total)
            filled = int(share * 30)
            bar = f"[{'#' * filled}{'.' * (30 - filled)}] {share:4.0%}"
        else:
            bar = f"{progress.done} iterations"
        sys.stderr.write(f"\r{bar}  best {progress.best:7.2f}  {progress.elapsed:5.1f} s ")
        sys.stderr.flush()
        self.shown = True

    def close(self) -> None:
        if self.shown:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _write_plan(path: Path, mission_id: str, data: dict[str, object], expected: float,
                survival: float) -> None:
    """Writes the plan file atomically: a temp file in the same folder, then a rename."""
    document = {"format": 1, "mission": mission_id,
                "description": f"found by spacealert solve: expected score {expected:.2f}, "
                               f"survival {survival:.1%}",
                **{k: v for k, v in data.items() if k != "format"}}
    write_atomic(path, dump_yaml(document))


def _solve_campaign(campaign: Campaign, *, seed: int, iterations: int | None,
                    time_limit: float | None, jobs: int | None, restarts: int, heroics: bool,
                    output: Path | None, as_json: bool, others: tuple[object, ...]) -> None:
    """Plans a campaign: each mission solved, then the repairs by look-ahead."""
    from authoring.engine import format_campaign, resolve_campaign
    from authoring.solve.campaign import solve_campaign

    if any(o is not None for o in others):
        raise UsageError("--draw, --players, --figures and --fix apply to single missions; a "
                         "campaign's soundtrack choice gives the players")
    if time_limit is not None or iterations is None:
        raise UsageError("campaigns are solved with --iterations (deterministic), not "
                         "--time-limit")
    found = solve_campaign(campaign, seed=seed, iterations=iterations,
                           jobs=jobs or default_jobs(), restarts=restarts, heroics=heroics,
                           progress=lambda text: typer.echo(text, err=True))
    data = found.to_mapping()
    if output is not None:
        write_atomic(output, dump_yaml(data))
    played = resolve_campaign([setup_from_mission(e.mission, p) for e, p in
                               zip(campaign.missions, found.plans, strict=True)],
                              list(found.plans), list(found.repairs), record=False)
    if as_json:
        result = played.to_dict()
        for record in result["missions"]:
            record["result"].pop("log")
            record["result"].pop("trace")
        typer.echo(json.dumps({"campaign_plan": data, "values": list(found.values),
                               "resolved": result}, indent=2))
        return
    for number, plan in enumerate(found.plans, 1):
        typer.echo(f"# mission {number}: {campaign.missions[number - 1].mission.id}")
        typer.echo(plan_table(plan).rstrip("\n"))
        if number <= len(found.repairs):
            chosen = " ".join(f"{k}={v}" for k, v in found.repairs[number - 1].items())
            typer.echo(f"# repairs after mission {number}: {chosen or 'none'} (estimated "
                       f"value of the rest {found.values[number - 1]:.2f})")
    summary = format_campaign(played).strip().splitlines()
    typer.echo(f"# with the plans' seeds: {summary[-1] if summary else ''}")
