"""Counts in messages read as English: "1 data transfer", "2 data transfers"."""

from __future__ import annotations

from tests.lint.lint_helpers import lint_text

ONE_OF_EACH = """\
format: 1
id: one-of-each
title: "One of each"
profile: base
players: 5
phases: ["3:02", "7:30", "9:00"]
events:
  - {at: "0:12", threat: {turn: 1, zone: red}}
  - {at: "1:00", data_transfer: {}}
  - {at: "1:11", comms_down: {seconds: 10}}
  - {at: "2:05", threat: {turn: 3, zone: blue, unconfirmed: true}}
  - {at: "5:00", data_transfer: {}}
"""


def test_a_count_of_one_is_singular() -> None:
    messages = [p.message for p in lint_text(ONE_OF_EACH, ["M113", "M114"])]
    assert "1 communications-down period: expected 2-5 for the base profile" in messages
    assert "1 data transfer in phase 1: expected 0-1" not in messages  # inside its range
    assert "0 data transfers in phase 3: expected 0-2" not in messages
    assert "2 data transfers in the mission: expected 3-4 for the base profile" in messages
    one = ONE_OF_EACH.replace('  - {at: "5:00", data_transfer: {}}\n', "")
    messages = [p.message for p in lint_text(one, ["M113"])]
    assert "1 data transfer in the mission: expected 3-4 for the base profile" in messages
    assert all("1 data transfers" not in m for m in messages)


def test_unconfirmed_reports_count_in_the_singular() -> None:
    messages = [p.message for p in lint_text(ONE_OF_EACH, ["M108"],
                                             options={"M108": {"count": [2, 3]}})]
    assert "1 unconfirmed report: expected 2-3 for the base profile" in messages
