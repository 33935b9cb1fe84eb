"""``spacealert simulate``: plays a mission many times with a crew model and prints statistics."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Annotated

import typer

from authoring._files import write_atomic
from authoring.cli._campaign import campaign_or_none
from authoring.cli._common import err, reports_errors
from authoring.cli._progress import simulation_progress
from authoring.errors import UsageError
from authoring.report.histogram import svg_histogram, text_histogram
from authoring.simulation import CREW_SIMPLIFICATION, CREWS, SimulationStats
from authoring.simulation.breakdown import breakdown
from authoring.simulation.calibration import DEFAULT_CREW, DEFAULT_SETTINGS
from authoring.simulation.montecarlo import ALIASES, search_settings, simulate_with
from authoring.simulation.rating import Rating, rate, rating_json

app = typer.Typer()


def _scale_note(rating: Rating) -> str:
    """Says how the figures compare with the official ratings (G103, sheets, pack pages)."""
    from authoring.simulation.calibration import DEFAULT_CREW

    note = (f"official missions 1-8 under the {rating.crew} crew: {rating.low:.1f}-"
            f"{rating.high:.1f}")
    if rating.crew != DEFAULT_CREW:
        note += (f"; lint --select G103, sheets --rate and pack pages rate with the "
                 f"{DEFAULT_CREW} crew")
    return note


def _report(stats: SimulationStats, hands: bool = True) -> str:
    scores = stats.scores
    rating = rate(stats)
    survival_low, survival_high = rating.survival_interval
    lines = [f"# {stats.mission}: {stats.games} games, crew {stats.crew}, seed {stats.seed}"
             + ("" if hands else ", no hands (any action in any turn)"),
             f"survival rate      {stats.survival_rate:.1%} (95 %: {survival_low:.1%}-"
             f"{survival_high:.1%})",
             f"difficulty         {rating.value:.1f} ± {rating.margin:.1f} / 100 (95 %, "
             f"{rating.label})",
             f"                   {_scale_note(rating)}"]
    if scores:
        lines.append(f"score (survived)   mean {statistics.mean(scores):.1f}, median "
                     f"{statistics.median(scores):g}, min {min(scores)}, max {max(scores)}")
    lines.append("")
    lines.append("score histogram (survived games):")
    lines.append(text_histogram(scores).rstrip("\n"))
    lines.append("")
    lines.append("threats blamed for losses:")
    killers = stats.killers().most_common()
    lines += [f"  {name:<32} {count:>5} ({count / stats.games:.0%} of games)"
              for name, count in killers] or ["  none"]
    lines.append("")
    lines.append("threats destroyed:")
    lines += [f"  {label:<32} {rate:.0%}" for label, rate
              in zip(stats.labels, stats.destroyed_rate(), strict=True)]
    lines.append("")
    lines.append("mean damage per zone: " + ", ".join(
        f"{zone} {value:.2f}" for zone, value in stats.mean_damage().items()))
    return "\n".join(lines) + "\n"


@app.command("simulate")
@reports_errors
def simulate_command(
    mission: Annotated[Path, typer.Argument(
        help="The mission file, or a campaign file (docs/rules.md §18).", show_default=False)],
    games: Annotated[int, typer.Option("--games", "-n", min=1, max=1_000_000,
                                       help="Number of games.")] = DEFAULT_SETTINGS["games"],
    crew: Annotated[str | None, typer.Option(
        "--crew", show_default=False,
        help="Crew model: planner (the solver's search, phase by phase; the default, the one "
        "every rating uses), heuristic (rules of thumb, phase by phase; campaigns' default) or "
        "informed (the planner's plan improved knowing the whole draw; not an upper bound; "
        "formerly omniscient). See docs/simulation.md.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed: same seed, same numbers.")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=0, max=64,
                                      help="Processes to use, 0 for every core (results do "
                                      "not depend on it).")] = 0,
    iterations: Annotated[int, typer.Option(
        "--iterations", min=-1, help="Planner/informed: the most plans one descent may rate "
        "(a guard: descents end at a local optimum first; -1: the crew's calibrated value).")
    ] = -1,
    styles: Annotated[int, typer.Option(
        "--styles", min=-1, help="Planner/informed: starts per search, each descended to a "
        "local optimum: the search's budget (-1: the crew's calibrated value).")] = -1,
    hands: Annotated[bool, typer.Option(
        "--hands/--no-hands", help="Deal the crew the action cards of the rules and play only "
        "them (docs/rules.md §16.1); --no-hands lets it play any action in any turn.")] = True,
    compare: Annotated[bool, typer.Option(
        "--compare/--no-compare", help="Also play the first 100 games in free play and with "
        "the informed crew, with and without hands, and print the figures side by side: what "
        "the cards and the information cost (docs/simulation.md).")] = True,
    explain: Annotated[bool, typer.Option(
        "--explain", help="With the comparison, the threats most often blamed for the "
        "losses of each crew and way of play.")] = False,
    plot: Annotated[Path | None, typer.Option("--plot", help="Write an SVG histogram of the "
                                              "scores to this file.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the statistics as JSON.")]
    = False,
) -> None:
    """Play a mission many times with a crew model: survival, scores, killers, damage.

    Each game draws threat cards from the mission's decks and random trajectories (unless
    pinned), lets the crew plan (phase by phase, knowing only the threats announced so far;
    the informed crew knows everything) and resolves the plan with the rules engine. The
    defaults are the ratings' (lint --select G103, sheets --rate, pack pages): the same
    mission gives the same figures everywhere.

    A campaign plays its missions in a row with one ship; between missions the crew repairs
    by a stated policy (printed with the results): structural damage first, then reactor and
    shield tokens, disabled squads, cannons and gravolifts, at most two tokens per zone.
    """
    if crew is not None and crew not in CREWS and crew not in ALIASES:
        raise UsageError(f"unknown crew {crew!r}: expected one of {', '.join(CREWS)}")
    campaign = campaign_or_none(mission)
    if campaign is not None:
        crew = crew or "heuristic"  # campaigns have no calibrated crew: the fast one
        if plot is not None or crew != "heuristic" or not hands:
            raise UsageError("campaigns are simulated with the heuristic crew, its hands and no "
                             "--plot")
        from authoring.simulation.campaign import report, simulate_campaign

        played = simulate_campaign(campaign, games=games, crew=crew, seed=seed, jobs=jobs)
        if as_json:
            typer.echo(json.dumps({
                "campaign": played.campaign, "missions": [e.mission.id for e in
                                                          campaign.missions],
                "crew": played.crew, "games": played.games, "seed": played.seed,
                "survival_rate": played.survival_rate,
                "difficulty": round(played.difficulty(), 2), "scores": played.scores,
                "lost_by_mission": played.lost_by_mission(),
                "mean_carried_tokens": played.mean_carried(),
                "repair_policy": played.policy, "crew_model": CREW_SIMPLIFICATION}, indent=2))
        else:
            typer.echo(report(played, [e.mission.title for e in campaign.missions]), nl=False)
        return
    from authoring.lint.playability import load_playable_mission

    loaded = load_playable_mission(mission)  # a mis-pinned card: validate's M005, located
    # the ratings' own entry point: the same settings give the very same games
    settings = {"crew": crew or DEFAULT_CREW, "games": games, "seed": seed,
                "iterations": iterations, "styles": styles, "hands": hands}
    with simulation_progress():
        stats = simulate_with(loaded, settings, jobs=jobs)
        compared = breakdown(loaded, settings, jobs=jobs) if compare else None
    if as_json:
        rated = rating_json(rate(stats))  # the studio's Rate shows the same object
        typer.echo(json.dumps({
            "mission": stats.mission, "seed": stats.seed, "survival_rate": stats.survival_rate,
            **rated,
            # the names of earlier versions, kept for scripts that read them
            "difficulty_margin": rated["margin"],
            "official_range": [rated["official_low"], rated["official_high"]],
            "scores": stats.scores,
            "killers": dict(stats.killers().most_common()),
            "destroyed_rate": dict(zip(stats.labels, stats.destroyed_rate(), strict=True)),
            "mean_damage": stats.mean_damage(),
            "hands": hands, "crew_model": CREW_SIMPLIFICATION,
            "search": search_settings(settings),
            **({"compare": compared.to_mapping()} if compared else {})}, indent=2))
    else:
        typer.echo(_report(stats, hands), nl=False)
        if compared is not None:
            typer.echo("\n" + "\n".join(compared.lines(explain=explain)))
    if plot is not None:
        write_atomic(plot, svg_histogram(
            stats.scores, f"{stats.mission}: scores of {len(stats.scores)} survived games "
            f"of {stats.games} ({stats.crew} crew, seed {stats.seed})"))
        err(f"wrote {plot}")
