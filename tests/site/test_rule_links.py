"""The pack site links each lint code it shows to the rule's documentation page."""

from __future__ import annotations

import dataclasses

import pytest

from authoring.mission.problem import Problem
from authoring.publish.checks import rule_pages
from authoring.render.site import render_pages
from tests.site.helpers import golden_model


def test_lint_results_link_the_rule_pages_when_the_docs_are_on_the_web(
        monkeypatch: pytest.MonkeyPatch) -> None:
    found = [Problem("m.yaml", 12, 3, code, "name", "text", "warning")
             for code in ("T102", "T101", "T102")]
    assert rule_pages(found) == ()  # a checkout path means nothing to a site's visitors
    monkeypatch.setenv("SPACEALERT_DOCS_URL", "https://example.org/sa")
    pages = rule_pages(found)
    assert pages == (("T101", "https://example.org/sa/lint/T101/"),
                     ("T102", "https://example.org/sa/lint/T102/"))
    model = golden_model()
    entry = model.missions[0]
    linked = dataclasses.replace(entry, lint=dataclasses.replace(entry.lint, rule_pages=pages))
    model = dataclasses.replace(model, missions=(linked, *model.missions[1:]))
    page = render_pages(model)[f"missions/{entry.slug}.html"].decode()
    assert ('What the codes mean:\n<a href="https://example.org/sa/lint/T101/">T101</a>, '
            '<a href="https://example.org/sa/lint/T102/">T102</a>.') in page
