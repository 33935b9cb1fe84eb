"""The negative corpus: hand-written broken missions whose full problem list is golden.

``tests/lint/corpus/expected.txt`` holds the concise output of linting each corpus file with
every structural and audio rule (``--select S,M,T,A``; a ``# lint-profile: NAME`` comment
in a file lints it under that profile). Regenerate it after a deliberate change with
``python -m pytest tests/lint/test_lint_corpus.py --update-golden`` and review the diff.
"""

from __future__ import annotations

import re
from pathlib import Path

from authoring.lint import all_rules, lint_paths
from authoring.report import FORMATS

CORPUS = Path(__file__).resolve().parent / "corpus"
GOLDEN = CORPUS / "expected.txt"
_PROFILE = re.compile(r"^#\s*lint-profile:\s*([a-z-]+)\s*$", re.MULTILINE)


def _lint_corpus() -> str:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        text = path.read_text("utf-8")
        wanted = _PROFILE.search(text)
        results = lint_paths([(f"corpus/{path.name}", path)], select=["S", "M", "T", "A"],
                             profile=wanted.group(1) if wanted else None)
        out.append(FORMATS["concise"](results))
    return "".join(out)


def test_corpus_output_is_golden(update_golden: bool) -> None:
    got = _lint_corpus()
    if update_golden:
        GOLDEN.write_text(got, "utf-8")
    assert got == GOLDEN.read_text("utf-8")


def test_corpus_triggers_every_rule() -> None:
    codes = {line.split(": ")[1].split()[0] for line in GOLDEN.read_text("utf-8").splitlines()}
    structural = {code for code in all_rules() if code[0] in "SMTA"}
    assert structural <= codes, sorted(structural - codes)
    assert "S001" in codes  # a file that fails to parse is reported, and the rest are linted
