"""``spacealert validate``: checks mission files against the format and reports every problem."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from authoring.cli import EXIT_INTERNAL_ERROR
from authoring.cli._common import (
    OutputFormat,
    err,
    expand_paths,
    format_problem,
    internal_error_line,
)
from authoring.mission.fast import check_mission_files
from authoring.mission.problem import Problem

app = typer.Typer()


@app.command()
def validate(
    files: Annotated[list[str], typer.Argument(
        help="Mission or campaign files, folders or glob patterns (e.g. 'missions/**/*.yaml').",
        show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the problems as JSON.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print problems only.")] = False,
    output_format: Annotated[OutputFormat | None, typer.Option(
        "--output-format", help="Print the problems as lint does: full (with the source "
        "line), concise, json, github (Actions annotations) or sarif (SARIF 2.1.0). Default: "
        "one line per problem and its hint.", show_default=False)] = None,
) -> None:
    """Validate mission files: can each be played as written?

    Checks YAML syntax, the mission schema, phases and event times, pinned threat cards
    (known, of the event's kind, pinned once) and threats per turn (M105). `lint` checks all
    of this too, plus the official norms of timing, audio and difficulty.

    A campaign file (top-level key 'campaign') is validated with every mission it names;
    a mission's problems are reported in the mission's file.

    Every file is checked even when some fail; each problem is printed as
    file:line:col: CODE message. Exit code 0 when all are valid, 1 otherwise, 70 when a
    file could not be checked because of a bug (the other files are still checked).
    """
    from authoring.lint.playability import check_file

    problems: list[Problem] = []
    results: list[_Result] = []
    checked = invalid = crashed = 0
    for display, found, crash in check_mission_files(expand_paths(files), check=check_file):
        checked += 1
        if crash is not None:  # a bug must not hide the other files' results
            crashed += 1
            invalid += 1
            err(internal_error_line(display, crash))
            continue
        if output_format is not None:
            results.append(_Result(display, found, _source(found)))
        if found:
            invalid += 1
            problems.extend(found)
        elif not quiet and not as_json and output_format is None:
            err(f"{display}: ok")
    if output_format is not None:
        from authoring.report import FORMATS

        text = FORMATS[output_format.value](results)
        if text:
            typer.echo(text, nl=False)
        if not quiet:
            err(_summary(checked, invalid, len(problems), crashed))
    elif as_json:
        report: dict[str, object] = {"checked": checked, "invalid": invalid,
                                     "problems": [p.to_dict() for p in problems]}
        if crashed:
            report["internal_errors"] = crashed
        typer.echo(json.dumps(report, indent=2))
    else:
        for problem in problems:
            typer.echo(format_problem(problem))
        if not quiet:
            err(_summary(checked, invalid, len(problems), crashed))
    if crashed:
        raise typer.Exit(EXIT_INTERNAL_ERROR)
    if invalid:
        raise typer.Exit(1)


@dataclass(frozen=True)
class _Result:
    """One file's problems in the shape the lint formatters take (``report.formats``)."""

    file: str
    problems: list[Problem]
    text: str


def _source(problems: list[Problem]) -> str:
    # the full format quotes the source line of each problem; valid files need no text
    if not problems:
        return ""
    try:
        return Path(problems[0].file).read_text("utf-8", errors="replace")
    except OSError:
        return ""


def _summary(checked: int, invalid: int, problems: int, crashed: int) -> str:
    files_word = "file" if checked == 1 else "files"
    crashes = f", {crashed} not checked (internal error)" if crashed else ""
    return f"{checked} {files_word} checked, {invalid} invalid, {problems} problems{crashes}"
