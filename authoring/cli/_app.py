"""The Typer application: a root group that imports each command's module only when it runs.

``spacealert --help`` lists the commands from ``authoring.cli.COMMANDS`` without importing
them; ``spacealert lint …`` imports ``authoring.cli.lint`` (and what it needs) and nothing else.
Help is plain Click formatting (no Rich): it loads faster and wraps whole sentences.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any

import typer
import typer.main
from typer.core import TyperGroup

from authoring import __version__
from authoring.cli import COMMANDS


def _value_name(param: Any) -> str:
    # Typer names values after Python types (<str>, <list[str]>, <int range>); a user wants
    # what to write: the option's own name (FILES..., --seed SEED) or the choices.
    choices = getattr(getattr(param, "type_descriptor", None), "choices", None)
    if choices:
        return "|".join(str(getattr(c, "value", c)) for c in choices)
    if param.param_type_name == "argument":
        return ""  # the row already names the argument
    return (param.name or "value").upper()


def _plain_help(command: Any) -> None:
    # Typer's Rich help boxes show metavars such as <bool> and cut sentences mid-line; plain
    # Click help does neither, and does not import Rich.
    if hasattr(command, "rich_markup_mode"):
        command.rich_markup_mode = None
    for param in getattr(command, "params", []):
        if hasattr(param, "display_type") and (param.metavar is None
                                               or param.param_type_name == "argument"):
            text = _value_name(param)
            param.display_type = lambda ctx, text=text: text
    for sub in getattr(command, "commands", {}).values():
        _plain_help(sub)


class LazyGroup(TyperGroup):
    """The root group: commands come from ``COMMANDS`` and are built on first use."""

    # Typer vendors its own Click (typer._click, private): the signatures say Any.
    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(f"authoring.cli.{entry.module}")
        group = typer.main.get_group(module.app)
        command = group if entry.group else group.commands[cmd_name]
        command.name = cmd_name
        _plain_help(command)
        return command

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, entry.summary) for name, entry in COMMANDS.items()])


app = typer.Typer(
    name="spacealert",
    cls=LazyGroup,
    help="Write, voice, check, print and publish missions for the board game Space Alert.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    # help as wide as the terminal, up to 120 columns (Click stops at 80 by default)
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120},
)


def _show_version(value: bool) -> None:
    if value:
        from authoring._native import describe

        typer.echo(f"spacealert {__version__}\n{describe()}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[bool, typer.Option(
        "--version", callback=_show_version, is_eager=True,
        help="Show the version and exit.")] = False,
) -> None:
    """Write, voice, check, print and publish missions for the board game Space Alert."""
