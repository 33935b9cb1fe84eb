"""Runs every PASS and FAIL example written in the rules' docstrings.

Each example is linted with its rule selected (and only what the example asks for), and the
complete list of (line, code) problems must equal the ``# <- CODE`` markers, so a rule's
documentation cannot drift from its behaviour.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lint_helpers import complete, lint_campaign_text, lint_text

from authoring.lint import all_rules
from authoring.lint.rule import Example, Rule

CASES = [(rule, example) for rule in all_rules().values() for example in rule.examples()]



@pytest.mark.parametrize(("rule", "example"), CASES,
                         ids=[f"{r.code}-{i}-{e.title.split()[0].lower()}"
                              for i, (r, e) in enumerate(CASES)])
def test_docstring_example(rule: Rule, example: Example, tmp_path: Path) -> None:
    if rule.needs == "campaign":
        # a campaign example is a campaign file in a folder next to the official missions
        problems = lint_campaign_text(example.snippet, [rule.code, *example.also_select],
                                      tmp_path, options={rule.code: example.options})
    else:
        problems = lint_text(complete(example.snippet), [rule.code, *example.also_select],
                             options={rule.code: example.options}, profile=example.profile)
    assert [(p.line, p.code) for p in problems] == list(example.expected), \
        "\n".join(f"{p.line}:{p.col} {p.code} {p.message}" for p in problems)


@pytest.mark.parametrize("rule", list(all_rules().values()), ids=lambda r: r.code)
def test_every_rule_documents_a_pass_and_a_fail(rule: Rule) -> None:
    kinds = {example.passes for example in rule.examples()}
    assert kinds == {True, False}, f"{rule.code} needs at least one Passes and one Fails example"


@pytest.mark.parametrize("rule", list(all_rules().values()), ids=lambda r: r.code)
def test_fail_examples_raise_only_their_rule(rule: Rule) -> None:
    for example in rule.examples():
        codes = {code for _, code in example.expected}
        assert codes <= {rule.code, *example.also_select}
