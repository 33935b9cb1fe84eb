"""Inline suppression comments and the unused/invalid suppression rules."""

from __future__ import annotations

from lint_helpers import lint_text

from authoring.lint.suppress import comment_start, parse_directives

BASE = """\
format: 1
id: s
title: S
profile: base
phases: ["3:45", "7:30", "10:00"]
events:
"""


def test_comment_start_ignores_hashes_in_quotes() -> None:
    assert comment_start('title: "a # b"  # c') == 16
    assert comment_start("title: 'it''s # x'") is None
    assert comment_start("x: a#b") is None
    assert comment_start("# spacealert: disable=T1") == 0


def test_directive_targets() -> None:
    text = ("# spacealert: disable-file=M\n"
            "a: 1  # spacealert: disable=T104, t108\n"
            "# spacealert: disable=T105\n"
            "\n"
            "# other comment\n"
            "b: 2\n")
    directives, bad = parse_directives(text)
    assert bad == []
    assert [(d.line, d.target, d.codes) for d in directives] == [
        (1, None, ("M",)), (2, 2, ("T104", "T108")), (3, 6, ("T105",))]


def test_line_file_and_prefix_suppression() -> None:
    text = BASE + ('  - {at: "0:05", incoming_data: {}}  # spacealert: disable=T1\n'
                   '  - {at: "0:07", incoming_data: {}}\n')
    problems = lint_text(text, ["T104", "S201"])
    assert [(p.line, p.code) for p in problems] == [(8, "T104")]
    problems = lint_text("# spacealert: disable-file=ALL\n" + text, ["T104", "S201"])
    assert problems == []


def test_unused_suppression_of_a_rule_that_did_not_run_is_not_reported() -> None:
    text = BASE + '  - {at: "0:10", incoming_data: {}}  # spacealert: disable=T104\n'
    assert lint_text(text, ["S201"]) == []
    problems = lint_text(text, ["S201", "T104"])
    assert [(p.line, p.col, p.code) for p in problems] == [(7, 38, "S201")]
    assert problems[0].message == "unused suppression of T104: no T104 problem on line 7"


def test_validator_problems_are_not_hidden_by_a_bad_file() -> None:
    problems = lint_text("format: 1\nid: [\n", ["ALL"])
    assert [(p.line, p.code) for p in problems] == [(3, "S001")]
