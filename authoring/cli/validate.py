"""``spacealert validate``: checks mission files against the format and reports every problem."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from authoring.cli import EXIT_INTERNAL_ERROR
from authoring.cli._common import err, expand_paths, format_problem, internal_error_line
from authoring.mission.fast import check_mission_files
from authoring.mission.problem import Problem

app = typer.Typer()


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(
        help="Mission files, folders or glob patterns (e.g. 'missions/**/*.yaml').",
        show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the problems as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print problems only.")] = False,
) -> None:
    """Validate mission files: YAML syntax, the mission schema and playability.

    Every file is checked even when some fail; each problem is printed as
    file:line:col: CODE message. Exit code 0 when all are valid, 1 otherwise, 70 when a
    file could not be checked because of a bug (the other files are still checked).
    """
    problems: list[Problem] = []
    checked = invalid = crashed = 0
    for display, found, crash in check_mission_files(expand_paths(files)):
        checked += 1
        if crash is not None:  # a bug must not hide the other files' results
            crashed += 1
            invalid += 1
            err(internal_error_line(display, crash))
        elif found:
            invalid += 1
            problems.extend(found)
        elif not quiet and not as_json:
            err(f"{display}: ok")
    if as_json:
        report: dict[str, object] = {"checked": checked, "invalid": invalid,
                                     "problems": [p.to_dict() for p in problems]}
        if crashed:
            report["internal_errors"] = crashed
        typer.echo(json.dumps(report, indent=2))
    else:
        for problem in problems:
            typer.echo(format_problem(problem))
        if not quiet:
            files_word = "file" if checked == 1 else "files"
            crashes = f", {crashed} not checked (internal error)" if crashed else ""
            err(f"{checked} {files_word} checked, {invalid} invalid, {len(problems)} problems"
                f"{crashes}")
    if crashed:
        raise typer.Exit(EXIT_INTERNAL_ERROR)
    if invalid:
        raise typer.Exit(1)
