"""``spacealert schema``: prints a packaged JSON Schema or its path, for editors and other tools."""

from __future__ import annotations

from typing import Annotated

import typer

from authoring._resources import data_dir
from authoring.cli._common import reports_errors
from authoring.errors import UsageError

app = typer.Typer()


def _names() -> list[str]:
    return sorted(p.name.removesuffix(".schema.json")
                  for p in data_dir("schemas").glob("*.schema.json"))


@app.command()
@reports_errors
def schema(
    name: Annotated[str, typer.Argument(help="Which schema (mission, voice, plan …).",
                                        autocompletion=_names)] = "mission",
    path: Annotated[bool, typer.Option("--path", help="Print the file's path instead.")] = False,
) -> None:
    """Print a JSON Schema shipped with the toolkit (Draft 2020-12).

    Point yaml-language-server at the path (--path) to get help and completion while editing.
    """
    if name not in _names():
        raise UsageError(f"unknown schema {name!r}: expected one of {', '.join(_names())}")
    file = data_dir("schemas") / f"{name}.schema.json"
    typer.echo(str(file) if path else file.read_text("utf-8").rstrip("\n"))
