"""Start-up: ``--version`` and ``--help`` load no command and no heavy library.

Measured in a fresh interpreter from ``sys.modules`` at exit (the modules really imported, not
a guess from the source); the time itself is measured by ``bench/startup.py``, not here.
"""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from authoring.cli import COMMANDS
from authoring.cli._app import app

# Libraries and toolkit layers a command may need but --help and --version never do.
HEAVY = ("numpy", "scipy", "jsonschema", "referencing", "rich", "ruamel", "pydub", "jinja2",
         "pyloudnorm", "gtts", "requests", "authoring.engine", "authoring.mission",
         "authoring.lint", "authoring.audio", "authoring.render", "authoring.generate",
         "authoring.solve", "authoring.publish", "authoring.report",
         "authoring.studio")


def _imported(*args: str, code: int = 0) -> set[str]:
    # sys.modules at exit of a fresh interpreter running the console script's main()
    # (``-X importtime`` would miss modules loaded through importlib.import_module)
    script = ("import atexit, sys\n"
              "atexit.register(lambda: sys.__stderr__.write('MODULES ' + ' '.join(sys.modules)))\n"
              f"sys.argv = ['spacealert', *{list(args)!r}]\n"
              "from authoring.cli import main\n"
              "main()\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          check=False, timeout=60)
    assert done.returncode == code, done.stderr[-2000:]
    names = set(done.stderr.rpartition("MODULES ")[2].split())
    assert "authoring.cli" in names  # the report was written
    return names


@pytest.mark.parametrize(("args", "code"), [
    (["--version"], 0), (["--help"], 0), (["-h"], 0), (["pack", "--help"], 0),
    ([], 2),  # no command: the help, as a usage error
], ids=lambda v: " ".join(v) if isinstance(v, list) else str(v))
def test_help_and_version_import_nothing_heavy(args: list[str], code: int) -> None:
    imported = _imported(*args, code=code)
    heavy = sorted(n for n in imported if any(n == h or n.startswith(h + ".") for h in HEAVY))
    assert heavy == []


def test_version_imports_no_third_party_package() -> None:
    imported = _imported("--version")
    assert not any(n.split(".")[0] in {"typer", "click"} for n in imported)


def test_a_command_loads_only_its_own_module() -> None:
    imported = _imported("schema", "--path")
    commands = {n for n in imported if n.startswith("authoring.cli.") and n != "authoring.cli._app"}
    assert commands == {"authoring.cli.schema", "authoring.cli._common"}


@pytest.mark.parametrize("name", list(COMMANDS))
def test_listed_summary_is_the_commands_first_docstring_line(name: str) -> None:
    group = typer.main.get_command(app)
    command = group.get_command(typer.Context(group), name)  # type: ignore[attr-defined]
    first_line = (command.help or "").strip().splitlines()[0]
    assert COMMANDS[name].summary == first_line


def _all_paths() -> list[list[str]]:
    root = typer.main.get_command(app)
    paths: list[list[str]] = []

    def walk(command: Any, prefix: list[str]) -> None:
        if hasattr(command, "list_commands"):
            context = typer.Context(command)
            for name in command.list_commands(context):
                paths.append([*prefix, name])
                walk(command.get_command(context, name), [*prefix, name])

    walk(root, [])
    return paths


@pytest.mark.parametrize("path", _all_paths(), ids=" ".join)
def test_help_names_values_not_python_types(path: list[str]) -> None:
    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": "100"})
    assert result.exit_code == 0
    types = r"<(?:str|bool|int|float|path|file|text|list\[[^>]*\]|\w+ range)>"
    assert re.findall(types, result.stdout) == []
    assert "╭" not in result.stdout  # plain help, no Rich boxes
