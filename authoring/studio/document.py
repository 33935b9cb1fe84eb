"""Edits applied to the mission's YAML document, so that the user's comments and order survive.

The browser never rewrites YAML itself: it sends an edit (``move``, ``add``, ``delete`` or
``set`` an event, or ``meta`` for the top-level keys), the server loads the text with ruamel's
round-trip loader, changes only the nodes concerned and dumps it again. Events are kept in
time order (``M004``, docs/reference/mission.md): a moved event is re-inserted at its place
together with the comment written after it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.error import YAMLError
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, ScalarString

from authoring.errors import InvalidInputError
from authoring.mission.load import MAX_FILE_BYTES, parse_document
from authoring.mission.timecode import format_clock, is_clock, parse_clock
from authoring.mission.yaml_guard import GuardedConstructor, GuardedParser

#: The event kinds of the mission format (docs/reference/mission.md).
EVENT_KINDS = ("threat", "incoming_data", "data_transfer", "comms_down", "announcement")
#: Top-level keys the ``meta`` edit may set (events are edited one by one).
META_KEYS = ("id", "title", "author", "description", "language", "tags", "profile", "players",
             "figures", "phases", "decks", "trajectories")
#: Wide enough that ruamel never folds a one-line event mapping.
_WIDTH = 4096


class EditError(InvalidInputError):
    """An edit the document cannot take (a bad index, an unknown key, a broken file)."""


def _yaml() -> YAML:
    yaml = YAML()
    yaml.Parser = GuardedParser
    yaml.Constructor = GuardedConstructor
    yaml.preserve_quotes = True
    yaml.width = _WIDTH
    # the layout of the bundled missions: "events:" then "  - {at: ...}"
    yaml.indent(mapping=2, sequence=4, offset=2)
    return yaml


def load(text: str) -> CommentedMap:
    """Loads ``text`` for editing; ``EditError`` unless it parses into a mapping."""
    if len(text.encode("utf-8")) > MAX_FILE_BYTES:
        raise EditError(f"the mission text is larger than {MAX_FILE_BYTES} bytes")
    parsed = parse_document(text, "mission")  # the toolkit's own guards and messages
    if parsed.problems:
        first = parsed.problems[0]
        raise EditError(f"line {first.line}:{first.col}: {first.message}",
                        hint="fix the YAML text before editing on the timeline")
    try:
        data = _yaml().load(text)
    except YAMLError as error:  # pragma: no cover - parse_document refused it already
        raise EditError(f"cannot read the YAML: {error}") from None
    if not isinstance(data, CommentedMap):
        raise EditError("the mission text is not a mapping of keys")
    return data


def dump(data: CommentedMap) -> str:
    """Returns the document as text (comments, quotes, flow style and key order kept)."""
    stream = io.StringIO()
    _yaml().dump(data, stream)
    return stream.getvalue()


def roundtrip(text: str) -> str:
    """Loads and dumps ``text`` unchanged (what an edit does to the untouched parts)."""
    return dump(load(text))


def _events(data: CommentedMap) -> CommentedSeq:
    events = data.get("events")
    if events is None:
        events = CommentedSeq()
        data["events"] = events
    if not isinstance(events, CommentedSeq):
        raise EditError("'events' is not a list")
    return events


def _index(events: CommentedSeq, index: Any) -> int:
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(events):
        raise EditError(f"no event {index!r}: the mission has {len(events)} events "
                        f"(indexes 0-{len(events) - 1})")
    return index


def _seconds(value: Any) -> int:
    """Accepts whole seconds or an ``m:ss`` string; the mission format writes ``m:ss``."""
    if isinstance(value, bool):
        raise EditError(f"'at': expected seconds or an m:ss time, got {value!r}")
    if isinstance(value, int):
        if not 0 <= value <= 59 * 60 + 59:
            raise EditError(f"'at': {value} s is outside 0:00-59:59")
        return value
    if isinstance(value, str) and is_clock(value):
        return parse_clock(value)
    raise EditError(f"'at': expected seconds or an m:ss time such as '1:30', got {value!r}")


def _clock(value: Any) -> str:
    """A mission time as the format writes it: a quoted ``"m:ss"`` string."""
    text: str = DoubleQuotedScalarString(format_clock(_seconds(value)))
    return text


def _flow(value: Any) -> Any:
    """Returns plain JSON data as ruamel nodes in flow style (``{turn: 2, zone: red}``)."""
    if isinstance(value, Mapping):
        node = CommentedMap()
        for key, item in value.items():
            node[str(key)] = _flow(item)
        node.fa.set_flow_style()
        return node
    if isinstance(value, list):
        seq = CommentedSeq(_flow(item) for item in value)
        seq.fa.set_flow_style()
        return seq
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise EditError(f"unsupported value {value!r}")


def _event_node(fields: Mapping[str, Any], node: CommentedMap | None = None) -> CommentedMap:
    """Fills ``node`` (a new flow mapping when None) with ``at`` and one event kind."""
    if not isinstance(fields, Mapping):
        raise EditError("'fields' must be an object such as {\"at\": \"1:00\", \"threat\": {...}}")
    unknown = sorted(set(fields) - {"at", *EVENT_KINDS})
    if unknown:
        raise EditError(f"unknown event key {unknown[0]!r}: expected 'at' and one of "
                        f"{', '.join(EVENT_KINDS)}")
    kinds = [k for k in EVENT_KINDS if k in fields]
    if len(kinds) > 1:
        raise EditError(f"an event has one kind, got {', '.join(kinds)}")
    if node is None:
        if "at" not in fields or not kinds:
            raise EditError("a new event needs 'at' and one of " + ", ".join(EVENT_KINDS))
        node = CommentedMap()
        node.fa.set_flow_style()
    if "at" in fields:
        node["at"] = _clock(fields["at"])
    if kinds:
        body = fields[kinds[0]]
        if body is not None and not isinstance(body, Mapping):
            raise EditError(f"'{kinds[0]}' must be an object")
        for old in [k for k in node if k in EVENT_KINDS and k != kinds[0]]:
            del node[old]
        node[kinds[0]] = _flow(dict(body or {}))
    return node


def _sort(events: CommentedSeq, follow: int | None) -> int | None:
    """Puts the events in time order (stable), moving each one's comment along with it.

    Returns the new index of the event that was at ``follow``. Items whose time cannot be
    read stay where they are relative to their neighbours (validation reports them).
    """
    keys: list[int] = []
    for item in events:
        at = item.get("at") if isinstance(item, Mapping) else None
        keys.append(parse_clock(at) if isinstance(at, str) and is_clock(at)
                    else (keys[-1] if keys else -1))
    order = sorted(range(len(events)), key=keys.__getitem__)
    if order == list(range(len(events))):
        return follow
    items = [events[i] for i in order]
    comments = {new: events.ca.items.get(old) for new, old in enumerate(order)}
    events.ca.items.clear()
    for new, item in enumerate(items):
        events[new] = item
        if comments[new] is not None:
            events.ca.items[new] = comments[new]
    return None if follow is None else order.index(follow)


def apply_edit(text: str, edit: Mapping[str, Any]) -> tuple[str, int | None]:
    """Applies one edit to the mission ``text``; returns the new text and the event's index.

    Edits (JSON): ``{"op": "move", "index": 3, "at": "1:05"}``, ``{"op": "set", "index": 3,
    "fields": {"threat": {"turn": 4, "zone": "red"}}}``, ``{"op": "add", "fields": {"at":
    "2:00", "incoming_data": {}}}``, ``{"op": "delete", "index": 3}`` and ``{"op": "meta",
    "fields": {"title": "…", "phases": ["3:45", "7:30", "10:00"]}}`` (``null`` removes a key).
    """
    if not isinstance(edit, Mapping):
        raise EditError("an edit must be an object with an 'op'")
    op = edit.get("op")
    data = load(text)
    index: int | None = None
    if op == "meta":
        fields = edit.get("fields")
        if not isinstance(fields, Mapping) or not fields:
            raise EditError("'meta' needs 'fields': an object of top-level keys")
        for key, value in fields.items():
            if key not in META_KEYS:
                raise EditError(f"'meta' cannot set {key!r}: expected one of "
                                f"{', '.join(META_KEYS)}")
            if value is None:
                data.pop(key, None)
            elif key == "phases":
                if not isinstance(value, list):
                    raise EditError("'phases' must be a list of m:ss times")
                data[key] = _flow([_clock(v) for v in value])  # quoted "m:ss" strings
            elif isinstance(value, str) and isinstance(data.get(key), ScalarString):
                data[key] = type(data[key])(value)  # the quoting the user chose
            elif isinstance(value, str | int | float | bool):
                data[key] = value
            else:
                data[key] = _flow(value)
        return dump(data), None
    events = _events(data)
    if op == "move":
        index = _index(events, edit.get("index"))
        if not isinstance(events[index], CommentedMap):
            raise EditError(f"event {index} is not a mapping")
        events[index]["at"] = _clock(edit.get("at"))
    elif op == "set":
        index = _index(events, edit.get("index"))
        if not isinstance(events[index], CommentedMap):
            raise EditError(f"event {index} is not a mapping")
        _event_node(edit.get("fields", None), events[index])
    elif op == "add":
        node = _event_node(edit.get("fields", None))
        events.append(node)
        index = len(events) - 1
    elif op == "delete":
        index = _index(events, edit.get("index"))
        # ruamel drops the comment written after it and moves the later ones up by one
        del events[index]
        return dump(data), None
    else:
        raise EditError(f"unknown edit {op!r}: expected move, set, add, delete or meta")
    index = _sort(events, index)
    return dump(data), index
