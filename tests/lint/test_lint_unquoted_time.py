"""S203: unquoted times are read right here (YAML 1.2) but not by YAML 1.1 tools."""

from __future__ import annotations

from tests.lint.lint_helpers import lint_text

MISSION = """\
format: 1
id: unquoted
title: "Unquoted"
profile: base
players: 5
phases: [3:45, "7:30", '10:00']
events:
  - {at: 1:30, incoming_data: {}}
  - at: 2:00
    data_transfer: {}
  - {at: "2:30", data_transfer: {}}
"""


def test_each_unquoted_time_is_a_warning_at_its_value() -> None:
    found = [(p.line, p.col, p.code, p.severity, p.message)
             for p in lint_text(MISSION, ["S203"])]
    assert found == [
        (6, 10, "S203", "warning", 'unquoted time 3:45: write it as "3:45"'),
        (8, 10, "S203", "warning", 'unquoted time 1:30: write it as "1:30"'),
        (9, 9, "S203", "warning", 'unquoted time 2:00: write it as "2:00"'),
    ]


def test_the_unquoted_time_means_the_same_time() -> None:
    problems = lint_text(MISSION, ["S203", "T"])
    assert all(p.code != "S102" for p in problems)  # read as 1:30, not refused
