"""``spacealert validate``: checks mission files against the format and reports every problem."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from authoring.cli._common import err, expand_paths, format_problem
from authoring.mission import check_campaign, check_mission, is_campaign, read_document
from authoring.mission.problem import Problem

app = typer.Typer()


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(
        help="Mission or campaign files, folders or glob patterns (e.g. 'missions/**/*.yaml').",
        show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the problems as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print problems only.")] = False,
) -> None:
    """Validate mission files: can each be played as written?

    Checks YAML syntax, the mission schema, phases and event times, pinned threat cards
    (known, of the event's kind, pinned once) and threats per turn (M105). `lint` checks all
    of this too, plus the official norms of timing, audio and difficulty.

    A campaign file (top-level key 'campaign') is validated with every mission it names;
    a mission's problems are reported in the mission's file.

    Every file is checked even when some fail; each problem is printed as
    file:line:col: CODE message. Exit code 0 when all are valid, 1 otherwise.
    """
    from authoring.lint.playability import playability_problems

    problems: list[Problem] = []
    checked = invalid = 0
    for display, path in expand_paths(files):
        checked += 1
        doc = read_document(path, display=display)
        # a campaign (top-level key 'campaign') is checked with every mission it names
        if is_campaign(doc):
            _, found = check_campaign(doc, path)
        else:
            mission, found = check_mission(doc)
            if mission is not None:
                found = playability_problems(doc, mission)
        if found:
            invalid += 1
            problems.extend(found)
        elif not quiet and not as_json:
            err(f"{display}: ok")
    if as_json:
        typer.echo(json.dumps({"checked": checked, "invalid": invalid,
                               "problems": [p.to_dict() for p in problems]}, indent=2))
    else:
        for problem in problems:
            typer.echo(format_problem(problem))
        if not quiet:
            files_word = "file" if checked == 1 else "files"
            err(f"{checked} {files_word} checked, {invalid} invalid, {len(problems)} problems")
    if invalid:
        raise typer.Exit(1)
