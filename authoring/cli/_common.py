"""What every command shares: the stderr console, error reporting and path expansion."""

from __future__ import annotations

import functools
import glob
import os
import sys
from collections.abc import Callable, Iterator
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, ParamSpec, TypeVar

import typer

from authoring.crew import FIGURES_RANGE, PLAYERS_RANGE, CrewSizeError
from authoring.errors import AuthoringError

if TYPE_CHECKING:  # imported on use: a command's --help loads neither the engine nor the model
    from authoring.mission.problem import Problem

P = ParamSpec("P")
R = TypeVar("R")


#: ``--players``, declared once for every command that takes a crew size (docs/rules.md §16).
PlayersOption = Annotated[int | None, typer.Option(
    "--players", "-p", min=PLAYERS_RANGE[0], max=PLAYERS_RANGE[1], show_default=False,
    help=f"Players at the table, {PLAYERS_RANGE[0]}-{PLAYERS_RANGE[1]} (default: the "
         "mission's; generate and import: 5); without --figures androids fill only the seats "
         "the rules require.")]
#: ``--figures``: players and androids together; 5 play the unconfirmed reports.
FiguresOption = Annotated[int | None, typer.Option(
    "--figures", min=FIGURES_RANGE[0], max=FIGURES_RANGE[1], show_default=False,
    help=f"Figures, players and androids, {FIGURES_RANGE[0]} or {FIGURES_RANGE[1]} (default: "
         "the mission's, or the fewest legal for --players); unconfirmed reports need 5.")]


class OutputFormat(StrEnum):
    """The ``--output-format`` choices, shared by ``lint`` and ``validate``."""

    full = "full"
    concise = "concise"
    json = "json"
    github = "github"
    sarif = "sarif"


def err(text: str) -> None:
    """Prints a diagnostic line on stderr (stdout stays for the command's output)."""
    typer.echo(text, err=True)


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Turns an ``AuthoringError`` into its message, its hint and its exit code."""

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except CrewSizeError as error:  # only options can be illegal: files are checked (M006)
            err(f"error: --players/--figures: {error}")
            raise typer.Exit(2) from None
        except ValueError as error:
            # the engine (stdlib only) raises ValueError subclasses for setups it cannot play
            from authoring.engine.errors import EngineError

            if not isinstance(error, EngineError):
                raise
            err(f"error: {error}")
            raise typer.Exit(1) from None
        except AuthoringError as error:
            err(f"error: {error.message}")
            if error.hint:
                err(f"  hint: {error.hint}")
            problems: list[Problem] = getattr(error, "problems", [])
            for problem in problems[1:]:
                err(f"{problem.location()}: {problem.code} {problem.message}")
            raise typer.Exit(error.exit_code) from None
        # KeyboardInterrupt (Ctrl-C, SIGTERM) passes through: authoring.cli.main reports it

    return wrapper


def internal_error_line(display: str, error: BaseException | str) -> str:
    """One line for a file that a bug stopped: what failed, and a request to report it."""
    detail = (error if isinstance(error, str)
              else f"{type(error).__name__}: {error}".splitlines()[0][:300])
    return (f"{display}: internal error ({detail}); this is a bug in spacealert, please "
            "report it with this file")


def format_problem(problem: Problem) -> str:
    """Formats a problem as ``file:line:col: CODE message`` plus an indented hint line."""
    text = f"{problem.location()}: {problem.code} {problem.message}"
    if problem.hint:
        text += f"\n  hint: {problem.hint}"
    return text


YAML_SUFFIXES = (".yaml", ".yml")
#: YAML files a folder holds that are not missions: skipped when a folder is expanded.
NOT_MISSIONS = ("pack.yaml", ".spacealert-lint.yaml", ".spacealert-lint.yml")


def expand_paths(patterns: list[str]) -> Iterator[tuple[str, Path]]:
    """Yields (display name, path) for files, folders (their YAML files) and glob patterns.

    A pattern that matches nothing is yielded as given, so that it is reported as unreadable
    rather than silently skipped.
    """
    for pattern in patterns:
        path = Path(pattern)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                # a pack's manifest (e.g. the demo pack, missions/pack.yaml) and lint
                # configurations are no missions; named on their own they are read as given
                if found.suffix in YAML_SUFFIXES and found.is_file() \
                        and found.name not in NOT_MISSIONS:
                    yield str(found), found
        elif not path.exists() and glob.has_magic(pattern):
            matches = sorted(glob.glob(pattern, recursive=True))
            if not matches:
                yield pattern, path
            for match in matches:
                yield match, Path(match)
        else:
            yield pattern, path


def stdout_is_terminal() -> bool:
    """Tells whether stdout is an interactive terminal (progress bars and colour)."""
    return sys.stdout.isatty() and os.environ.get("TERM") != "dumb"
