"""Bounds on what a YAML file may ask of the parser, checked while it is read.

``load.py`` parses with the two classes below instead of ruamel's own: the parser checks
every event as the composer takes it (before anything is built), the constructor turns a
value ruamel cannot build into a located refusal. Together they keep every file under the
size limit to one pass, bounded recursion and bounded time (with the checks on the raw text
before parsing: ``long_line``, ``too_many_lines``, ``too_much_content``):

* nesting deeper than ``MAX_DEPTH`` would recurse through ruamel's composer (and later
  through schema validation) until ``RecursionError``;
* more than ``MAX_NODES`` values is far beyond any data contract (a mission of 200 events,
  the schema maximum, has at most about 2,700) and would cost seconds to build: ruamel
  needs 50-100 microseconds per value (``bench/fuzz.py --bounds`` measures the worst files);
* aliases may not expand to more than ``MAX_EXPANDED_NODES`` values ("billion laughs");
* a number longer than ``MAX_NUMBER_CHARS`` characters is refused before it is built: a
  decimal one over 4,300 digits cannot be built at all, and a hexadecimal one cannot be
  printed in a message.

A refusal is raised as ``Refusal`` and becomes a ``Problem`` in ``load.py``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ruamel.yaml.constructor import RoundTripConstructor
from ruamel.yaml.error import StreamMark
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    ScalarEvent,
)
from ruamel.yaml.nodes import Node, ScalarNode, SequenceNode
from ruamel.yaml.parser import RoundTripParser

#: Collections inside collections; the data contracts need at most 5 levels.
MAX_DEPTH = 32
#: Scalars, collections and aliases written in one file (keys count).
MAX_NODES = 6_000
#: The number of scalars a document may stand for once its aliases are expanded.
MAX_EXPANDED_NODES = 100_000
#: Characters of one number (sign, prefix and underscores included).
MAX_NUMBER_CHARS = 100
#: Characters of one line. The longest text any schema allows is 5,000 characters; see
#: ``long_line`` for why longer lines are refused.
MAX_LINE_CHARS = 10_000
#: Lines of one file. A mission of 200 events with a comment on each needs some 600; ruamel
#: spends about a microsecond on each empty line, and 1 MiB holds a million of them.
MAX_LINES = 20_000

_CORE = "tag:yaml.org,2002:"
#: What ruamel's constructors raise on a value that does not fit its tag (``assert`` for a
#: repeated key of ``!!omap``).
_BUILD_ERRORS = (ArithmeticError, AssertionError, AttributeError, LookupError, TypeError,
                 ValueError)
_NUMBER_TAGS = (_CORE + "int", _CORE + "float")
#: What a value with a core tag must look like, for the message of a value ruamel cannot build.
_EXPECTED = {
    "int": "an integer such as 42",
    "float": "a number such as 1.5",
    "bool": "true or false",
    "null": "null, ~ or nothing",
    "timestamp": "a real date or time such as 2024-02-29 or 2024-02-29T10:30:00",
    "binary": "base64 text",
    "omap": "a list of one-key mappings, each key once",
    "pairs": "a list of one-key mappings",
    "set": "a mapping with empty values",
    "str": "text",
    "seq": "a list",
    "map": "a mapping",
}


class Refusal(Exception):
    """A file asks more of the parser than any valid file needs, or holds a value that cannot be
    built; carries the 1-based position and the problem's code, name and message."""

    def __init__(self, mark: StreamMark | None, code: str, name: str, message: str,
                 hint: str | None = None) -> None:
        super().__init__(message)
        self.line = mark.line + 1 if mark is not None else 1
        self.col = mark.column + 1 if mark is not None else 1
        self.code = code
        self.name = name
        self.message = message
        self.hint = hint


def short_tag(tag: str) -> str:
    """Returns ``!!int`` for ``tag:yaml.org,2002:int``; other tags unchanged."""
    return "!!" + tag.removeprefix(_CORE) if tag.startswith(_CORE) else tag


def long_line(text: str) -> tuple[int, int] | None:
    """Returns (line number, length) of the first line longer than ``MAX_LINE_CHARS``.

    ruamel's round-trip scanner keeps comments, and it copies each comment one character at a
    time (a ``peek``/``forward`` call pair and a string concatenation per character). That is
    linear only while CPython can extend the string in place; under a tracer (coverage, a
    debugger, the fuzzing harness that found this) each character copies the whole comment
    so far, and a 1 MiB comment line took 17-19 s. Stripping comments ourselves would need a
    second YAML lexer (``#`` is text inside quoted and block scalars), so lines are bounded
    instead: the cost of a comment grows with the square of its line, and no valid file needs
    a line twice as long as the longest text a schema allows.
    """
    if len(text) <= MAX_LINE_CHARS:
        return None
    start = 0
    number = 1
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        if end - start > MAX_LINE_CHARS:
            return number, end - start
        start = end + 1
        number += 1
    return None


#: Characters outside comments and blank lines. ruamel reads text at about a microsecond a
#: character; the largest valid files (a pack of 200 missions, a mission of 200 events and a
#: 5,000-character description) hold under 70,000, so this leaves four times that and keeps
#: the rest of the 1 MiB limit for comments, which are cheaper to skip.
MAX_CONTENT_CHARS = 256 * 1024


def too_much_content(text: str) -> int | None:
    """Returns the line on which the text outside comments passes ``MAX_CONTENT_CHARS``.

    A line whose first non-blank character is ``#`` counts as a comment (inside a block
    scalar it is text, so this may count too little, never too much of a plain file).
    """
    if len(text) <= MAX_CONTENT_CHARS:
        return None
    total = 0
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.lstrip()
        if stripped and not stripped.startswith("#"):
            total += len(line)
            if total > MAX_CONTENT_CHARS:
                return number
    return None


def too_many_lines(text: str) -> int | None:
    """Returns the number of the first line past ``MAX_LINES``, if there is one."""
    if text.count("\n", 0, len(text) - 1) < MAX_LINES:
        return None
    return MAX_LINES + 1


def oversize(text: str) -> tuple[int, int, str, str | None] | None:
    """The first bound a text passes before parsing: (line, column, message, hint), or None."""
    past = too_many_lines(text)
    if past is not None:
        return (past, 1, f"more than {MAX_LINES} lines: expected a few hundred (a mission has "
                         "at most 200 events)", None)
    too_long = long_line(text)
    if too_long is not None:
        number, length = too_long
        return (number, MAX_LINE_CHARS + 1,
                f"line of {length} characters: expected at most {MAX_LINE_CHARS}",
                "break long text over several lines (YAML folds quoted text)")
    past = too_much_content(text)
    if past is not None:
        return (past, 1, f"more than {MAX_CONTENT_CHARS} characters outside comments: expected "
                         "a few thousand (a mission has at most 200 events)", None)
    return None


class GuardedParser(RoundTripParser):
    """ruamel's round-trip parser, checking each event as the composer takes it.

    Every event reaches the composer through ``get_event`` exactly once, before the node it
    starts is built, so a refusal here stops the parse before any recursion or construction.
    """

    def __init__(self, loader: Any) -> None:
        super().__init__(loader)
        self._stack: list[tuple[str | None, int]] = []  # (anchor, expanded size) per collection
        self._anchors: dict[str, int] = {}
        self._nodes = 0
        self._documents = 0

    def get_event(self) -> Any:
        event = super().get_event()
        if isinstance(event, DocumentStartEvent):
            self._documents += 1
            if self._documents > 1:
                raise Refusal(event.start_mark, "S001", "yaml-syntax",
                              "expected one YAML document, found a second one",
                              hint="remove the '---' line or split the file")
            return event
        if isinstance(event, CollectionStartEvent | ScalarEvent | AliasEvent):
            self._nodes += 1
            if self._nodes > MAX_NODES:
                raise Refusal(event.start_mark, "S006", "too-large",
                              f"more than {MAX_NODES} values in one file: expected a few "
                              "hundred (a mission has at most 200 events)")
        if isinstance(event, CollectionStartEvent):
            if len(self._stack) >= MAX_DEPTH:
                raise Refusal(event.start_mark, "S006", "too-large",
                              f"collections nested more than {MAX_DEPTH} deep: expected a "
                              "few levels (a mission needs 4)")
            self._stack.append((event.anchor, 0))
            return event
        size = 0
        if isinstance(event, CollectionEndEvent):
            anchor, size = self._stack.pop()
            size += 1
            if anchor:
                self._anchors[anchor] = size
        elif isinstance(event, ScalarEvent):
            self._check_number(event)
            size = 1
            if event.anchor:
                self._anchors[event.anchor] = 1
        elif isinstance(event, AliasEvent):
            size = self._anchors.get(event.anchor, 1)
        else:
            return event
        if self._stack:
            anchor, count = self._stack[-1]
            self._stack[-1] = (anchor, count + size)
        if size > MAX_EXPANDED_NODES or (self._stack and self._stack[-1][1] > MAX_EXPANDED_NODES):
            raise Refusal(event.start_mark, "S004", "alias-expansion",
                          f"aliases expand to more than {MAX_EXPANDED_NODES} values",
                          hint="a mission needs no repeated aliases; write the values out")
        return event

    def _check_number(self, event: ScalarEvent) -> None:
        if len(event.value) <= MAX_NUMBER_CHARS:
            return
        tag = event.tag
        if tag is None or tag == "!":
            tag = self.loader.resolver.resolve(ScalarNode, event.value, event.implicit)
        if tag in _NUMBER_TAGS:
            raise Refusal(event.start_mark, "S006", "too-large",
                          f"a number of {len(event.value)} characters: expected at most "
                          f"{MAX_NUMBER_CHARS}")


class GuardedConstructor(RoundTripConstructor):
    """ruamel's round-trip constructor; a value it cannot build becomes a located refusal.

    ruamel checks tagged values only when it builds them, and then fails with whatever the
    Python conversion raises (``ValueError`` for ``!!int abc`` or ``2020-02-30``,
    ``KeyError`` for ``!!bool maybe``, ``AttributeError`` for ``!!omap x``).
    """

    def construct_non_recursive_object(self, node: Any, tag: str | None = None) -> Any:
        try:
            data = super().construct_non_recursive_object(node, tag)
        except Refusal:
            raise
        except _BUILD_ERRORS as error:
            raise _unbuildable(node, tag, error) from None
        # A collection finishes building after its first ``yield``: ruamel appends the rest
        # of its generator to ``state_generators`` (last) and runs it later, so a failure
        # there would be blamed on no node. Wrap it with its node.
        pending = self.state_generators
        if pending and isinstance(node, Node) and _generator_node(pending[-1]) is node:
            pending[-1] = _located(pending[-1], node, tag)
        return data


def _generator_node(generator: Any) -> Node | None:
    frame = getattr(generator, "gi_frame", None)
    node = frame.f_locals.get("node") if frame is not None else None
    return node if isinstance(node, Node) else None


def _located(generator: Iterator[Any], node: Node, tag: str | None) -> Iterator[Any]:
    try:
        yield from generator
    except Refusal:
        raise
    except _BUILD_ERRORS as error:
        raise _unbuildable(node, tag, error) from None


def _unbuildable(node: Node, given: str | None, error: Exception) -> Refusal:
    tag = str(given or node.tag or "")
    name = tag.removeprefix(_CORE) if tag.startswith(_CORE) else ""
    expected = _EXPECTED.get(name, f"a value {short_tag(tag)} can build")
    if isinstance(node, ScalarNode):
        value = node.value if len(node.value) <= 40 else node.value[:37] + "…"
        what = f"{value!r}"
    else:
        what = "a list" if isinstance(node, SequenceNode) else "a mapping"
    if name == "timestamp":
        message = f"cannot read {what} as a date ({_reason(error)}): expected {expected}"
        hint = "quote the value to keep it as text"
    else:
        message = f"cannot read {what} as {short_tag(tag)}: expected {expected}"
        hint = "remove the tag to let the value's form decide its type"
    return Refusal(node.start_mark, "S005", "unbuildable-value", message, hint=hint)


def _reason(error: Exception) -> str:
    text = str(error).splitlines()[0] if str(error) else type(error).__name__
    return text[:80]
