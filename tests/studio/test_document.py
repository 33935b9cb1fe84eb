"""Edits on the YAML document itself: comments, quotes, order and refusals (no server)."""

from __future__ import annotations

import pytest

from authoring.studio.document import EditError, apply_edit, roundtrip

TEXT = """\
# top comment
format: 1
id: t
title: 'Single quoted'   # kept
profile: base
players: 5
phases: ["3:45", "7:30", "10:00"]
events:
  # the first threat
  - {at: "0:20", threat: {turn: 1, zone: red}}
  - {at: 90, incoming_data: {}}   # a time written as a number (schema error)
  - {at: "2:00", data_transfer: {}}   # transfer
"""


def test_an_unchanged_document_is_written_back_byte_for_byte() -> None:
    assert roundtrip(TEXT) == TEXT


def test_a_value_with_an_unreadable_time_stays_after_its_neighbour() -> None:
    text, index = apply_edit(TEXT, {"op": "move", "index": 2, "at": "0:10"})
    lines = text.splitlines()
    assert index == 0
    # a comment line above the first item belongs to the list (ruamel): it stays on top
    events = lines[lines.index("events:") + 2:]
    assert lines[lines.index("events:") + 1] == "  # the first threat"
    assert events[0].startswith('  - {at: "0:10", data_transfer') and "# transfer" in events[0]
    assert events[-1].startswith("  - {at: 90,") and "# a time written" in events[-1]


def test_meta_keeps_the_users_quoting_and_removes_keys_given_null() -> None:
    text, _ = apply_edit(TEXT, {"op": "meta", "fields": {"title": "New", "players": None}})
    # the comment keeps its column
    assert "title: 'New'             # kept" in text and "players" not in text


def test_a_new_event_is_one_flow_line_in_time_order() -> None:
    text, index = apply_edit(TEXT, {"op": "add", "fields": {
        "at": "1:00", "comms_down": {"seconds": 10}}})
    # after the unreadable "at: 90", which sorts with the event before it
    assert index == 2 and '  - {at: "1:00", comms_down: {seconds: 10}}\n' in text


def test_set_changes_the_kind_in_place() -> None:
    text, index = apply_edit(TEXT, {"op": "set", "index": 0, "fields": {
        "announcement": {"text": "Hello: world"}}})
    assert index == 0
    assert "{at: \"0:20\", announcement: {text: 'Hello: world'}}" in text


@pytest.mark.parametrize("text", ["[1, 2]", "a: [", "", "events: {a: 1}"])
def test_documents_that_cannot_be_edited(text: str) -> None:
    with pytest.raises(EditError):
        apply_edit(text, {"op": "add", "fields": {"at": "1:00", "incoming_data": {}}})


def test_a_text_over_the_size_limit_is_refused() -> None:
    with pytest.raises(EditError, match="larger than"):
        apply_edit("a: 1\n" + "#" * (1024 * 1024), {"op": "delete", "index": 0})
