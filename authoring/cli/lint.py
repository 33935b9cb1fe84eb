"""``spacealert lint``: checks missions against the rules of good Space Alert tracks."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from authoring.cli import EXIT_INTERNAL_ERROR
from authoring.cli._common import (
    OutputFormat,
    err,
    expand_paths,
    internal_error_line,
    reports_errors,
)
from authoring.cli._progress import simulation_progress
from authoring.errors import AuthoringError
from authoring.lint import lint_paths
from authoring.lint.linter import FileResult, check_profile
from authoring.report import FORMATS, summary_line
from authoring.report.formats import summary

app = typer.Typer()


@app.command()
@reports_errors
def lint(
    files: Annotated[list[str], typer.Argument(
        help="Mission files, folders or glob patterns.", show_default=False)],
    profile: Annotated[str | None, typer.Option(
        "--profile", help="Lint under this profile (base, training, test-run, double-action) "
        "instead of each mission's own.")] = None,
    config: Annotated[Path | None, typer.Option(
        "--config", help="Configuration file (default: .spacealert-lint.yaml in the "
        "mission's folder or above).")] = None,
    select: Annotated[list[str] | None, typer.Option(
        "--select", help="Rules to run (replaces the configuration's select): ALL, a code "
        "prefix (M, T1, T104) or a name. Repeat or separate with commas.")] = None,
    ignore: Annotated[list[str] | None, typer.Option(
        "--ignore", help="Rules not to run (added to the configuration's ignore).")] = None,
    output_format: Annotated[OutputFormat, typer.Option(
        "--output-format", help="How to print problems.")] = OutputFormat.full,
    strict: Annotated[bool, typer.Option(
        "--strict", help="Exit 1 on warnings too.")] = False,
    voice: Annotated[str | None, typer.Option(
        "--voice", help="Voice whose real audio lengths the A rules measure.")] = None,
    quiet: Annotated[bool, typer.Option(
        "--quiet", "-q", help="Do not print the summary line.")] = False,
) -> None:
    """Lint mission files: structure, threats, timing and (opt-in) audio and simulation.

    Every file is linted even when some fail to parse. Exit code 0 when no errors (and, with
    --strict, no warnings) were found, 1 otherwise, 2 for a usage or configuration error, 70
    when a bug stopped a file (the other files are still linted).
    Run 'spacealert rules' to list the rules and 'spacealert rules CODE' to explain one.
    """
    check_profile(profile)
    items = list(expand_paths(files))
    results: list[FileResult] = []
    crashed = 0
    try:  # all at once: a campaign's missions named on the command line are linted once
        with simulation_progress("G rules: simulating"):  # the G rules play many games
            results = lint_paths(items, config=config, select=select or None,
                                 ignore=ignore or (), profile=profile, voice=voice)
    except AuthoringError:
        raise  # a configuration or usage error concerns every file
    except Exception:
        # a bug: again one file at a time, so that it does not hide the others' results
        for item in items:
            try:
                results += lint_paths([item], config=config, select=select or None,
                                      ignore=ignore or (), profile=profile, voice=voice)
            except AuthoringError:
                raise
            except Exception as error:
                crashed += 1
                err(internal_error_line(item[0], error))
    text = FORMATS[output_format.value](results)
    if text:
        typer.echo(text, nl=False)
    if not quiet:
        err(summary_line(results) + (f", {crashed} not checked (internal error)"
                                     if crashed else ""))
    counts = summary(results)
    if crashed:
        raise typer.Exit(EXIT_INTERNAL_ERROR)
    if counts["errors"] or (strict and counts["warnings"]):
        raise typer.Exit(1)
