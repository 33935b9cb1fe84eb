"""The five output formats of ``spacealert lint``.

* ``full`` — each problem with the source line, a caret under the column and the hint;
* ``concise`` — one line per problem: ``file:line:col: CODE [severity] message``;
* ``json`` — stable keys: ``{"version": 1, "summary": {...}, "problems": [...]}``;
* ``github`` — GitHub Actions workflow commands (``::error file=…,line=…``);
* ``sarif`` — SARIF 2.1.0 for code-scanning tools, with the rule catalogue.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence

from authoring.lint.problem import SEVERITY_RANK, Problem
from authoring.lint.registry import VALIDATOR_CODES, all_rules
from authoring.report.rules_doc import PAGE, docs_base, rule_url
from authoring.report.types import FileText

JSON_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def _problems(results: Sequence[FileText]) -> Iterator[Problem]:
    for result in results:
        yield from result.problems


def summary(results: Sequence[FileText]) -> dict[str, int]:
    """Counts files and problems by severity."""
    counts = Counter(p.severity for p in _problems(results))
    return {"files": len(results), "problems": sum(counts.values()),
            "errors": counts["error"], "warnings": counts["warning"], "infos": counts["info"],
            "files_with_errors": sum(1 for r in results
                                     if any(p.severity == "error" for p in r.problems))}


def summary_line(results: Sequence[FileText]) -> str:
    """Returns "3 files linted: 1 error, 2 warnings, 0 infos"."""
    s = summary(results)
    word = "file" if s["files"] == 1 else "files"

    def count(n: int, noun: str) -> str:
        return f"{n} {noun}" + ("" if n == 1 else "s")

    return (f"{s['files']} {word} linted: {count(s['errors'], 'error')}, "
            f"{count(s['warnings'], 'warning')}, {count(s['infos'], 'info')}")


def format_concise(results: Sequence[FileText]) -> str:
    """One line per problem."""
    return "".join(f"{p.location()}: {p.code} [{p.severity}] {p.message}\n"
                   for p in _problems(results))


def format_full(results: Sequence[FileText]) -> str:
    """Each problem with its source line, a caret and its hint."""
    out: list[str] = []
    for result in results:
        lines = result.text.splitlines()
        for p in result.problems:
            out.append(f"{p.location()}: {p.code} [{p.severity}] {p.name}: {p.message}")
            if 1 <= p.line <= len(lines):
                number = str(p.line)
                pad = " " * len(number)
                source = lines[p.line - 1].expandtabs(1)
                caret_at = min(max(p.col - 1, 0), len(source))
                out.append(f"{pad} |")
                out.append(f"{number} | {source}")
                out.append(f"{pad} | {' ' * caret_at}^")
            if p.hint:
                out.append(f"  = hint: {p.hint}")
            out.append("")
    return "\n".join(out) + ("\n" if out else "")


def format_json(results: Sequence[FileText]) -> str:
    """A JSON document with stable keys (new keys are only ever added)."""
    data = {"version": JSON_VERSION, "summary": summary(results),
            "problems": [p.to_dict() for p in _problems(results)]}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


_GITHUB_LEVEL = {"error": "error", "warning": "warning", "info": "notice"}


def format_github(results: Sequence[FileText]) -> str:
    """GitHub Actions annotations, one workflow command per problem."""
    out = []
    for p in _problems(results):
        message = p.message + (f" (hint: {p.hint})" if p.hint else "")
        out.append(f"::{_GITHUB_LEVEL[p.severity]} file={_escape_property(p.file)},"
                   f"line={p.line},col={p.col},"
                   f"title={_escape_property(f'{p.code} {p.name}')}::{_escape_data(message)}\n")
    return "".join(out)


_SARIF_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _sarif_rules() -> list[dict[str, object]]:
    rules: list[dict[str, object]] = []
    for code, (name, text) in VALIDATOR_CODES.items():
        rules.append({"id": code, "name": name, "shortDescription": {"text": text},
                      "helpUri": rule_url(code),
                      "defaultConfiguration": {"level": "error"}})
    for rule in all_rules().values():
        rules.append({"id": rule.code, "name": rule.name,
                      "shortDescription": {"text": rule.summary},
                      "fullDescription": {"text": rule.doc},
                      "helpUri": rule_url(rule.code),
                      "defaultConfiguration": {"level": _SARIF_LEVEL[rule.severity]}})
    return rules


def format_sarif(results: Sequence[FileText]) -> str:
    """A SARIF 2.1.0 log with one run, the rule catalogue and every problem."""
    rules = _sarif_rules()
    index = {str(r["id"]): i for i, r in enumerate(rules)}
    sarif_results = []
    for p in _problems(results):
        entry: dict[str, object] = {
            "ruleId": p.code,
            "level": _SARIF_LEVEL[p.severity],
            "message": {"text": p.message + (f" (hint: {p.hint})" if p.hint else "")},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": p.file.replace("\\", "/")},
                "region": {"startLine": p.line, "startColumn": p.col}}}],
        }
        if p.code in index:
            entry["ruleIndex"] = index[p.code]
        sarif_results.append(entry)
    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "spacealert lint",
                                "informationUri": f"{docs_base()}{PAGE}",
                                "rules": rules}},
            "results": sarif_results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def worst(results: Sequence[FileText]) -> str | None:
    """Returns the most serious severity found, or ``None`` when clean."""
    found = [p.severity for p in _problems(results)]
    return max(found, key=lambda s: SEVERITY_RANK[s]) if found else None
