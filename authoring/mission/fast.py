"""A fast path for mission files that are valid, for ``validate`` over many files.

Almost all the time of validating a file goes into ruamel's pure-Python round-trip parser,
which is needed only to locate problems (line and column). Here a file is first parsed with
libyaml (PyYAML's C parser, when installed) and checked with the same schema and the same
semantic checks; only when that finds nothing wrong is the answer "valid" taken from it.
Whenever anything is found, or the fast parse has the least doubt, the file goes through the
full path (``read_document`` + ``check_mission``), so problems and their ``file:line:col`` are
exactly those of the full path.

Scalars are resolved by ruamel's own YAML 1.2 resolver (so ``1:30`` stays a string, ``yes`` is
not a boolean) and constructed here only in their plain forms (decimal integers, simple floats,
``true``/``false``, null, strings); anything else (dates, octal or hex numbers, tags, anchors,
merge keys, duplicate keys) sends the file to the full path.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from authoring._workers import ordered_map
from authoring.mission.build import build_mission
from authoring.mission.load import MAX_FILE_BYTES, Document, read_document
from authoring.mission.model import Mission
from authoring.mission.problem import Problem
from authoring.mission.schema import validator

try:  # PyYAML with libyaml; without it every file takes the full path
    import yaml
    from yaml import CSafeLoader as _CLoader
except ImportError:  # pragma: no cover - depends on the installation
    yaml = None
    _CLoader = None

_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
_FLOAT = re.compile(r"[-+]?(?:[0-9]+\.[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_BOOL = {"true": True, "True": True, "TRUE": True, "false": False, "False": False,
         "FALSE": False}
_TAG = "tag:yaml.org,2002:"


class _Doubt(Exception):
    """The fast parse cannot promise the same data as ruamel: use the full path."""


def _make_loader() -> Any:
    if _CLoader is None:
        return None
    from ruamel.yaml.nodes import ScalarNode as RuamelScalar
    from ruamel.yaml.resolver import VersionedResolver

    ruamel_resolver = VersionedResolver()  # YAML 1.2, as parse_document reads files

    class Loader(_CLoader):  # type: ignore[misc]
        def resolve(self, kind: Any, value: Any, implicit: Any) -> Any:
            if kind is yaml.ScalarNode:
                return str(ruamel_resolver.resolve(RuamelScalar, value, implicit))
            return super().resolve(kind, value, implicit)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            keys = [key.value for key, _ in node.value]
            if len(set(keys)) != len(keys):
                raise _Doubt  # duplicate keys: the full path reports S002
            return super().construct_mapping(node, deep=deep)

    def scalar(loader: Any, node: Any) -> Any:
        text = node.value
        tag = node.tag
        if node.style is not None and tag == _TAG + "str":  # quoted or block scalar
            return text
        if tag == _TAG + "str":
            return text
        if tag == _TAG + "null":
            return None
        if tag == _TAG + "bool" and text in _BOOL:
            return _BOOL[text]
        if tag == _TAG + "int" and _INT.fullmatch(text):
            return int(text)
        if tag == _TAG + "float" and _FLOAT.fullmatch(text):
            return float(text)
        raise _Doubt

    Loader.yaml_constructors = dict(Loader.yaml_constructors)
    for name in ("null", "bool", "int", "float", "str"):
        Loader.add_constructor(_TAG + name, scalar)
    for name in ("timestamp", "binary", "omap", "pairs", "set", "merge", "value"):
        Loader.add_constructor(_TAG + name, _doubt)
    Loader.add_constructor(None, _doubt)  # any other tag
    return Loader


def _doubt(loader: Any, node: Any) -> Any:
    raise _Doubt


_LOADER = _make_loader()


def _fast(path: Path, display: str) -> tuple[Mission | None, bool]:
    """Returns (mission, True) when the file is certainly valid, else (None, False)."""
    if _LOADER is None:
        return None, False
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            return None, False
        raw = path.read_bytes()
    except OSError:
        return None, False
    if b"\x00" in raw or b"&" in raw or b"!" in raw:  # binary, anchors, tags: full path
        return None, False
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
        data = yaml.load(text, Loader=_LOADER)
    except (_Doubt, UnicodeDecodeError, yaml.YAMLError, RecursionError, ValueError,
            TypeError):
        return None, False
    if not isinstance(data, dict) or not validator("mission").is_valid(data):
        return None, False
    mission, problems = build_mission(Document(display, data, text))
    if problems or mission is None:
        return None, False
    return mission, True


def check_mission_file(path: str | Path, *, display: str | None = None,
                       ) -> tuple[Mission | None, list[Problem]]:
    """Like ``check_mission(read_document(path))``, faster for valid files; same problems."""
    from authoring.mission import check_mission

    shown = display if display is not None else str(path)
    mission, certain = _fast(Path(path), shown)
    if certain:
        return mission, []
    return check_mission(read_document(path, display=display))


def describe_error(error: BaseException) -> str:
    """``Type: first line of the message`` (at most 300 characters), for one-line reports."""
    return f"{type(error).__name__}: {error}".splitlines()[0][:300]


def check_one(item: tuple[str, Path]) -> tuple[list[Problem], str | None]:
    display, path = item
    try:
        return check_mission_file(path, display=display)[1], None
    except Exception as error:  # reported per file by the caller, which goes on
        return [], describe_error(error)


# Below this many files, starting worker processes costs more than it saves.
PARALLEL_FROM = 48


FileCheck = Callable[[tuple[str, Path]], tuple[list[Problem], str | None]]


def check_mission_files(items: Iterable[tuple[str, Path]], *, jobs: int | None = None,
                        check: FileCheck | None = None,
                        ) -> Iterator[tuple[str, list[Problem], str | None]]:
    """Checks (display, path) pairs, in order: (display, problems, internal error or None).

    ``check`` checks one pair (default: the mission format checks); a caller above this layer
    passes its own (a module-level function, so that worker processes can run it).

    Many files are spread over the available cores (worker processes under the toolkit's
    interrupt policy, authoring/_workers.py); the results come back in the input order.
    """
    one = check if check is not None else check_one
    listed = list(items)
    for item, (problems, crash) in zip(
            listed, ordered_map(one, listed, jobs=jobs, parallel_from=PARALLEL_FROM),
            strict=True):
        yield item[0], problems, crash
