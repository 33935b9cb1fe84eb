"""Reads a YAML 1.2 file into plain data plus positions, refusing hostile or broken input.

This module and ``yaml_guard`` (the bounds checked while parsing) are the only ones that
import the YAML library. Every failure becomes a ``Problem`` (family ``S0``) with a 1-based
line and column; nothing here raises on bad user input.
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import MarkedYAMLError, ReusedAnchorWarning, YAMLError

from authoring.mission.problem import Problem
from authoring.mission.yaml_guard import (
    MAX_EXPANDED_NODES,
    GuardedConstructor,
    GuardedParser,
    Refusal,
    oversize,
)

__all__ = ["MAX_EXPANDED_NODES", "MAX_FILE_BYTES", "Document", "dump_yaml", "locate",
           "parse_document", "plain_data", "read_document"]

#: Mission files are a few kilobytes; anything this large is a mistake or an attack.
MAX_FILE_BYTES = 1024 * 1024


@dataclass
class Document:
    """A parsed YAML file: its data (ruamel containers keep positions) and where it came from."""

    file: str
    data: Any
    text: str = ""
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Tells whether the file parsed into data."""
        return not self.problems

    def locate(self, path: Sequence[str | int], *, key: bool = False) -> tuple[int, int]:
        """Returns the 1-based (line, col) of the value at ``path``; of its key if ``key``."""
        return locate(self.data, path, key=key)


def plain_data(value: Any) -> Any:
    """Returns ruamel containers (recursively) as plain dicts and lists with string keys."""
    if isinstance(value, dict):
        return {str(k): plain_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain_data(v) for v in value]
    return value


def dump_yaml(data: Any) -> str:
    """Returns ``data`` as YAML 1.2 text (block style, collections of scalars inline)."""
    yaml = YAML()
    yaml.default_flow_style = None
    stream = io.StringIO()
    yaml.dump(plain_data(data), stream)
    return stream.getvalue()


def _problem(file: str, line: int, col: int, code: str, name: str, message: str,
             hint: str | None = None) -> Problem:
    return Problem(file, line, col, code, name, message, hint=hint)


def locate(data: Any, path: Sequence[str | int], *, key: bool = False) -> tuple[int, int]:
    """Walks ruamel containers along ``path`` and returns the deepest known 1-based position.

    With ``key`` the last step points at the mapping key rather than its value (used for
    unknown keys). A path that leaves the containers stops at the last container reached.
    """
    line, col = 0, 0
    node = data
    if isinstance(node, (CommentedMap, CommentedSeq)):
        line, col = node.lc.line, node.lc.col
    for index, step in enumerate(path):
        last = index == len(path) - 1
        try:
            if isinstance(node, CommentedMap) and step in node:
                pos = node.lc.key(step) if (key and last) else node.lc.value(step)
                line, col = pos
                node = node[step]
            elif isinstance(node, CommentedSeq) and isinstance(step, int) and step < len(node):
                line, col = node.lc.item(step)
                node = node[step]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    return line + 1, col + 1


def _mark_position(error: MarkedYAMLError) -> tuple[int, int]:
    mark = error.problem_mark or error.context_mark
    if mark is None:
        return 1, 1
    return mark.line + 1, mark.column + 1


def _reader() -> YAML:
    """Returns a round-trip YAML reader that enforces the bounds of ``yaml_guard``."""
    yaml = YAML()
    yaml.Parser = GuardedParser
    yaml.Constructor = GuardedConstructor
    return yaml


def _yaml_message(error: MarkedYAMLError) -> str:
    parts = [p for p in (error.context, error.problem) if p]
    return "; ".join(p.strip() for p in parts) or "invalid YAML"


def _decode(file: str, raw: bytes) -> tuple[str | None, Problem | None]:
    nul = raw.find(b"\x00")
    if nul >= 0:
        return None, _problem(file, 1, 1, "S003", "unreadable-file",
                              f"binary data (NUL byte at offset {nul}): expected a YAML text file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        col = error.start - (before.rfind(b"\n") + 1) + 1
        return None, _problem(file, line, col, "S003", "unreadable-file",
                              f"invalid UTF-8 byte 0x{raw[error.start]:02x}: "
                              "expected a UTF-8 text file",
                              hint="save the file as UTF-8")
    return text.removeprefix("\ufeff"), None


def read_document(path: str | Path, *, display: str | None = None) -> Document:
    """Reads and parses ``path``; on any failure the document carries one problem."""
    file = display if display is not None else str(path)
    try:
        size = Path(path).stat().st_size
        if size > MAX_FILE_BYTES:
            return Document(file, None, problems=[_problem(
                file, 1, 1, "S003", "unreadable-file",
                f"file too large: {size} bytes, the limit is {MAX_FILE_BYTES}")])
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        return Document(file, None, problems=[_problem(
            file, 1, 1, "S003", "unreadable-file", f"cannot read the file: {reason.lower()}")])
    if len(raw) > MAX_FILE_BYTES:  # grew between stat and read, or a pipe
        return Document(file, None, problems=[_problem(
            file, 1, 1, "S003", "unreadable-file",
            f"file too large: more than {MAX_FILE_BYTES} bytes")])
    return parse_document(raw, file)


def parse_document(raw: bytes | str, file: str = "<string>") -> Document:
    """Parses YAML bytes or text (YAML 1.2, duplicate keys refused) into a ``Document``."""
    if isinstance(raw, bytes):
        text, problem = _decode(file, raw)
        if problem is not None or text is None:
            return Document(file, None, problems=[problem] if problem else [])
    else:
        text = raw
    if not text.strip() or all(_is_comment_or_blank(line) for line in text.splitlines()):
        # the same reader takes missions, plans, voices, packs and lint configurations
        return Document(file, None, text, [_problem(
            file, 1, 1, "S001", "yaml-syntax",
            "empty file: expected a YAML mapping (key: value lines)")])
    bound = oversize(text)  # refused before the parse, which these sizes would make slow
    if bound is not None:
        line, col, message, hint = bound
        return Document(file, None, text, [_problem(file, line, col, "S006", "too-large",
                                                    message, hint=hint)])
    try:
        with warnings.catch_warnings():
            # YAML 1.2 allows an anchor to be defined again (the later one counts); ruamel's
            # warning about it would reach the terminal as a stray Python warning.
            warnings.simplefilter("ignore", ReusedAnchorWarning)
            data = _reader().load(text)
    except Refusal as refusal:
        return Document(file, None, text, [_problem(file, refusal.line, refusal.col, refusal.code,
                                                    refusal.name, refusal.message,
                                                    hint=refusal.hint)])
    except MarkedYAMLError as error:
        line, col = _mark_position(error)
        name = type(error).__name__
        if name == "DuplicateKeyError":
            key = _duplicate_key(error)
            return Document(file, None, text, [_problem(
                file, line, col, "S002", "duplicate-key",
                f"duplicate key {key!r}" if key else "duplicate key",
                hint="each key may appear once per mapping")])
        return Document(file, None, text, [_problem(file, line, col, "S001", "yaml-syntax",
                                                    _yaml_message(error))])
    except YAMLError as error:
        return Document(file, None, text, [_problem(
            file, 1, 1, "S001", "yaml-syntax", str(error).splitlines()[0])])
    return Document(file, data, text)


def _duplicate_key(error: MarkedYAMLError) -> str | None:
    problem = error.problem or ""
    start = problem.find('"')
    end = problem.find('"', start + 1)
    return problem[start + 1 : end] if 0 <= start < end else None


def _is_comment_or_blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#") or stripped in {"---", "..."}
