"""Structure-aware mutants of every input the toolkit reads, and the functions they are fed to.

Shared by the Hypothesis tests (``tests/fuzz/test_fuzz.py``, which draw the mutation numbers)
and ``bench/fuzz.py`` (which draws them from a seeded ``random.Random``): a mutant is a seed
file of one kind plus a few ``(operation, where, what)`` triples, so the same numbers always
give the same bytes.

Each kind goes through the functions behind the commands that read it (``validate``,
``lint``, ``timeline``, ``export``, ``import``, ``resolve``, ``pack``, ``voices``). The
property: each input either succeeds or fails with the toolkit's own error (``AuthoringError``,
or ``EngineError`` for a plan the rules engine cannot play) carrying a location.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from authoring.crew import crew_size
from authoring.engine import Plan, resolve_mission
from authoring.engine.errors import EngineError
from authoring.errors import AuthoringError, InvalidInputError
from authoring.generate.interchange import (
    EXPORTERS,
    IMPORTERS,
    ImportFormatError,
    import_file,
    import_text,
)
from authoring.mission import InvalidFileError, Mission, check_mission, load_document, read_document
from authoring.mission.timeline import compile_timeline

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "generate" / "data"
PACK = REPO / "tests" / "site" / "data" / "pack"

LINT_CONFIG = """\
# A lint configuration touching every key.
select: [S, M, T]
ignore: [T103]
severity: {T102: info, overlapping-announcements: warning}
rules:
  T108: {min_gap: 8}
profiles:
  test-run:
    ignore: [T101]
"""

#: Values that broke (or could break) a reader: the seven root causes of issue 21 and
#: their neighbours. Placed where a scalar was, so the structure around them stays valid.
HOSTILE = (
    "2020-02-30", "2021-13-01", "2020-01-01T25:00:00", "!!int abc", '!!int ""', "!!float x",
    "!!bool maybe", "!!omap x", "!!set x", "!!omap [{a: 1}, {a: 2}]", "!!binary ?!", "!!null x",
    "!!timestamp x", "!foo x", "!!str", "0x" + "f" * 5000, "0o" + "7" * 5000, "1" * 5000,
    "-" + "9" * 4400, "1e99999", ".nan", "-.inf", "~", "null", "-1", "0", "99999999999",
    "[" * 300 + "]" * 300, "{a: " * 200 + "1" + "}" * 200, "&a [*a, *a]", "*nope", "²", "٣",
    "１", "'", '"', "[", "]", "{", "}", ":", "- ", "? ", "|", ">", "#", "%", "@", "`", "\t",
    "\x85", "\u2028", "\ufeff", "é" * 50, "x" * 300, "", " ", "true", "yes", "on", "0:00",
    "59:59", "60:00", "1:5", "T+9", "T+" + "1" * 5000, "CS" + "1" * 5000, "PE" + "1" * 5000,
    "PE0", "PE9", "3rd phase ends in 5, 4, 3, 2, 1... 4th phase begins.", "&amp;", "<x/>",
    "<!DOCTYPE x>", "]]>", "\\u0000", "NaN", "Infinity", "1" * 5000 + ".0",
)

#: A word, a number or a time: the scalars a mutation may replace.
_TOKEN = re.compile(r"[A-Za-z0-9_.+:-]+")


@dataclass(frozen=True)
class Seed:
    """One valid input file: what kind it is, its name and text."""

    kind: str
    name: str
    text: str


@cache
def seeds() -> dict[str, list[Seed]]:
    """Returns the valid seed files of every kind, read once."""
    found: dict[str, list[Seed]] = {}

    def add(kind: str, path: Path, text: str | None = None) -> None:
        body = text if text is not None else path.read_text("utf-8")
        found.setdefault(kind, []).append(Seed(kind, path.name, body))

    for path in sorted((REPO / "missions").rglob("*.yaml")):
        if "plans" not in path.parts and path.name != "pack.yaml":  # the demo pack manifest
            add("mission", path)
    for path in sorted((REPO / "tests" / "engine" / "plans").glob("*.yaml")):
        add("plan", path)
    for path in sorted((REPO / "voices").glob("*.yaml")):
        add("voice", path)
    add("voice", PACK / "voices" / "en-gb.yaml")
    add("pack", PACK / "pack.yaml")
    add("lint-config", Path(".spacealert-lint.yaml"), LINT_CONFIG)
    add("jsamg-xml", DATA / "jsamg-generated.xml")
    add("jsamg-text", DATA / "jsamg-generated.txt")
    add("flash-code", DATA / "mission-1.flash.txt")
    add("ma-script", DATA / "mission-1.ma.txt")
    add("ps-json", DATA / "mission-1.ps.json")
    return found


KINDS = ("mission", "plan", "voice", "pack", "lint-config", *IMPORTERS)

# ---------------------------------------------------------------------------- mutations

Op = tuple[int, int, int]  # (operation, where, what): any non-negative numbers


def _replace_token(text: str, where: int, what: int) -> str:
    tokens = list(_TOKEN.finditer(text))
    if not tokens:
        return text + HOSTILE[what % len(HOSTILE)]
    token = tokens[where % len(tokens)]
    return text[: token.start()] + HOSTILE[what % len(HOSTILE)] + text[token.end():]


def _insert(text: str, where: int, what: int) -> str:
    at = where % (len(text) + 1)
    return text[:at] + HOSTILE[what % len(HOSTILE)] + text[at:]


def _lines(text: str) -> list[str]:
    return text.splitlines(keepends=True) or [""]


def _duplicate_line(text: str, where: int, what: int) -> str:
    lines = _lines(text)
    index = where % len(lines)
    times = (2, 10, 200, 3000)[what % 4]
    return "".join(lines[:index] + [lines[index]] * times + lines[index + 1:])


def _delete_line(text: str, where: int, _: int) -> str:
    lines = _lines(text)
    del lines[where % len(lines)]
    return "".join(lines)


def _swap_lines(text: str, where: int, what: int) -> str:
    lines = _lines(text)
    a, b = where % len(lines), what % len(lines)
    lines[a], lines[b] = lines[b], lines[a]
    return "".join(lines)


def _truncate(text: str, where: int, _: int) -> str:
    return text[: where % (len(text) + 1)]


def _long_line(text: str, where: int, what: int) -> str:
    lines = _lines(text)
    filler = ("# " + "x" * 20_000, "#" + " " * 20_000, "a: " + "b" * 20_000,
              "  - " + "[" * 40 + "]" * 40, "# spacealert: disable=A" + " " * 5000 + "B")
    lines.insert(where % (len(lines) + 1), filler[what % len(filler)] + "\n")
    return "".join(lines)


def _data_value(text: str, where: int, what: int) -> str:
    """Parses JSON input, replaces one value (a key, an item) with another type, re-encodes."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # a mutant nested past Python's recursion limit
        return _replace_token(text, where, what)
    slots: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key in node:
                slots.append((node, key))
                walk(node[key])
        elif isinstance(node, list):
            for index, item in enumerate(node):
                slots.append((node, index))
                walk(item)

    walk(data)
    if not slots:
        return text
    values: tuple[Any, ...] = (None, True, -1, 0, 10**30, 1.5, float("inf"), "", "x" * 50,
                               [], {}, [[[[1]]]], {"a": {"b": 1}}, "2:99", "⁵")
    container, key = slots[where % len(slots)]
    container[key] = values[what % len(values)]
    return json.dumps(data, allow_nan=True)


OPERATIONS: tuple[Callable[[str, int, int], str], ...] = (
    _replace_token, _replace_token, _replace_token, _insert, _duplicate_line, _delete_line,
    _swap_lines, _truncate, _long_line, _data_value,
)


#: Mutants are cut here: every reader refuses more than 1 MiB before parsing, so a larger
#: mutant only tests that refusal (and would cost the harness time to write).
MAX_MUTANT_CHARS = 1024 * 1024 + 4096


def mutate(text: str, ops: Sequence[Op]) -> str:
    """Applies each (operation, where, what) in turn."""
    for operation, where, what in ops:
        text = OPERATIONS[operation % len(OPERATIONS)](text, where, what)[:MAX_MUTANT_CHARS]
    return text


# ---------------------------------------------------------------------------- targets


@cache
def _official() -> Mission:
    mission, problems = check_mission(read_document(REPO / "missions" / "official" /
                                                    "mission-1.yaml"))
    assert mission is not None, problems
    return mission


def _mission(path: Path, text: str) -> None:
    from authoring.lint.linter import Linter

    doc = read_document(path)
    mission, problems = check_mission(doc)
    for problem in problems:
        _located(problem.line, problem.col, f"{problem.code} {problem.message}")
    lint = Linter().lint_document(doc)
    for problem in lint:
        _located(problem.line, problem.col, f"{problem.code} {problem.message}")
    if mission is None:
        raise InvalidFileError(problems)
    for players in (mission.players, 2):
        compile_timeline(mission, crew_size(players))
    for fmt in EXPORTERS:
        try:
            exported = EXPORTERS[fmt](mission)
        except AuthoringError:
            continue
        import_text(exported, fmt, f"exported.{fmt}")
    # the plan was written for mission 1; ``resolve`` reports a mismatch at the plan file
    with contextlib.suppress(ValueError):
        resolve_mission(mission, _seed_plan())


@cache
def _seed_plan() -> Plan:
    return Plan.from_mapping(load_document(REPO / "tests" / "engine" / "plans" /
                                           "mission-1-4p.yaml", "plan").data)


def _plan(path: Path, text: str) -> None:
    doc = load_document(path, "plan")
    try:  # as ``spacealert resolve`` does: a plan the engine refuses is refused at its file
        resolve_mission(_official(), Plan.from_mapping(doc.data))
    except ValueError as error:
        raise InvalidInputError(f"{path}: {error}") from None


def _voice(path: Path, text: str) -> None:
    from authoring.audio.voice import load_voice

    load_voice(path)


def _pack(path: Path, text: str) -> None:
    from authoring.publish.manifest import load_pack

    load_pack(path.parent)  # a copy of the test pack, with this text as its pack.yaml


def _lint_config(path: Path, text: str) -> None:
    from authoring.lint.config import read_config
    from authoring.lint.linter import Linter

    linter = Linter(read_config(path))
    linter.lint_mission(_official())


def _importer(fmt: str) -> Callable[[Path, str], None]:
    def run(path: Path, text: str) -> None:
        mission = import_file(path, fmt)  # as ``spacealert import`` reads: 1 MiB at most
        compile_timeline(mission)

    return run


TARGETS: dict[str, Callable[[Path, str], None]] = {
    "mission": _mission, "plan": _plan, "voice": _voice, "pack": _pack,
    "lint-config": _lint_config, **{fmt: _importer(fmt) for fmt in IMPORTERS},
}
_SUFFIX = {"mission": ".yaml", "plan": ".yaml", "voice": ".yaml", "pack": ".yaml",
           "lint-config": ".yaml"}


class Unlocated(AssertionError):
    """The toolkit refused an input without saying where."""


def _located(line: int | None, col: int | None, what: str) -> None:
    if line is None or line < 1 or (col is not None and col < 1):
        raise Unlocated(f"no position: {what}")


def check_located(error: Exception, path: Path) -> None:
    """Raises ``Unlocated`` unless a refusal says where (file:line, or line and column)."""
    if isinstance(error, InvalidFileError):
        for problem in error.problems:
            _located(problem.line, problem.col, f"{problem.code} {problem.message}")
        return
    if isinstance(error, ImportFormatError):
        _located(error.line, error.col if error.col is not None else 1, error.message)
        return
    message = str(getattr(error, "message", error))
    if str(path) not in message and path.name not in message:
        raise Unlocated(f"{type(error).__name__} does not name the file: {message}")


def run(kind: str, text: str, folder: Path) -> Exception | None:
    """Feeds ``text`` as a file of ``kind`` to its target in ``folder``.

    Returns the toolkit's own error if the input was refused, ``None`` if it was accepted;
    any other exception (a crash) propagates, as does ``Unlocated``.
    """
    path = input_path(kind, folder)
    if kind == "pack" and not path.parent.exists():
        shutil.copytree(PACK, path.parent)
    path.write_text(text, "utf-8", newline="")
    try:
        TARGETS[kind](path, text)
    except (AuthoringError, EngineError) as error:
        check_located(error, path)
        return error
    return None


def first_line(error: Exception | None, path: Path) -> str:
    """Returns the refusal as one line (the first problem of a file, the input file written
    ``FILE``), or "ok"."""
    if error is None:
        return "ok"
    if isinstance(error, InvalidFileError):
        first = error.problems[0]
        return f"{first.line}:{first.col} {first.code} {first.message}"
    return str(getattr(error, "message", error)).splitlines()[0].replace(str(path), "FILE")


def input_path(kind: str, folder: Path) -> Path:
    """Returns where ``run`` writes an input of ``kind``."""
    if kind == "pack":
        return folder / "pack" / "pack.yaml"
    name = {"lint-config": ".spacealert-lint.yaml"}.get(kind, f"input{_SUFFIX.get(kind, '.txt')}")
    return folder / name
