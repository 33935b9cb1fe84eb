"""The ``spacealert`` command line: a thin face over the library.

Each command group lives in its own module with its own ``typer.Typer()``; this module mounts
them, in the order a mission author meets them, and holds the global options. Nothing imports
the CLI.
"""

from __future__ import annotations

from typing import Annotated

import typer

from authoring import __version__
from authoring.cli import (
    generate,
    interchange,
    lint,
    pack,
    play,
    render,
    resolve,
    rules,
    schema,
    sheets,
    simulate,
    solve,
    timeline,
    validate,
    voices,
)

app = typer.Typer(
    name="spacealert",
    help="Write, voice, check, print and publish missions for the board game Space Alert.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)
for module in (validate, timeline, lint, rules, render, voices, simulate, resolve, solve,
               sheets, generate, interchange, schema):
    app.add_typer(module.app)
app.add_typer(pack.app, name="pack")
app.add_typer(play.app)


def _show_version(value: bool) -> None:
    if value:
        typer.echo(f"spacealert {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True,
        help="Show the version and exit.")] = False,
) -> None:
    """Write, voice, check, print and publish missions for the board game Space Alert."""


def main() -> None:
    """Runs the command line (the ``spacealert`` console script)."""
    app(prog_name="spacealert")
