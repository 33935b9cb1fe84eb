"""``docs/lint-rules.md``: the page that lint's help links point at, written from the registry.

Regenerate it with ``python -c "from authoring.report.rules_doc import rules_markdown as m;
print(m(), end='')" > docs/lint-rules.md``;
tests/test_validate_output_formats.py fails when the page and the registry disagree. Each rule has
an anchor named after its code in lower case (``#m101``), which the SARIF ``helpUri`` uses.

Links start at ``SPACEALERT_DOCS_URL`` when it is set (for example the address of the
repository's docs/ folder on a forge), else at the relative path ``docs/``, which resolves from
the repository root, where SARIF viewers and GitHub code scanning open the files.
"""

from __future__ import annotations

import os

from authoring.lint.registry import VALIDATOR_CODES, all_rules

PAGE = "lint-rules.md"


def docs_base() -> str:
    """The base of documentation links, ending with a slash."""
    base = os.environ.get("SPACEALERT_DOCS_URL", "").strip() or "docs/"
    return base if base.endswith("/") else base + "/"


def rule_url(code: str) -> str:
    """The link to one rule's section of ``docs/lint-rules.md``."""
    return f"{docs_base()}{PAGE}#{code.lower()}"


def rules_markdown() -> str:
    """The whole page: the file checks, then every lint rule with its full explanation."""
    lines = ["# Lint rules", "",
             "Written from the rule registry (`authoring/report/rules_doc.py`); "
             "`spacealert rules CODE` prints the same text.", "",
             "## File checks (validate and lint)", ""]
    for code, (name, text) in VALIDATOR_CODES.items():
        lines += [f'<a id="{code.lower()}"></a>', f"### {code} {name}", "", text, ""]
    lines += ["## Lint rules", ""]
    for rule in all_rules().values():
        lines += [f'<a id="{rule.code.lower()}"></a>', f"### {rule.code} {rule.name}", "",
                  f"Severity: {rule.severity}.", "", rule.doc.strip(), ""]
    return "\n".join(lines)
