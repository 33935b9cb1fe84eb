"""``spacealert rules``: lists the lint rules or explains one of them."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer

from authoring.cli._common import reports_errors
from authoring.lint import VALIDATOR_CODES, all_rules, get
from authoring.lint.docs_link import rule_doc_url
from authoring.lint.rule import Rule
from authoring.mission.model import PROFILES

app = typer.Typer()


def _options_table(rule: Rule) -> list[str]:
    if not rule.defaults and not any(rule.profiles.values()):
        return []
    lines = ["Options by profile:"]
    for profile in PROFILES:
        options = rule.options_for(profile)
        shown = ", ".join(f"{k}={json.dumps(v)}" for k, v in options.items())
        lines.append(f"  {profile:<14} {shown}")
    return lines


def _explain(rule: Rule) -> str:
    head = f"{rule.code} {rule.name} ({rule.severity}; needs {rule.needs})"
    parts = [head, "=" * len(head), "", rule.doc, "", *_options_table(rule), "",
             f"Documentation: {rule_doc_url(rule.code)}"]
    return "\n".join(parts).rstrip() + "\n"


def _as_data(rule: Rule) -> dict[str, Any]:
    return {"code": rule.code, "name": rule.name, "severity": rule.severity,
            "needs": rule.needs, "summary": rule.summary,
            "options": {p: rule.options_for(p) for p in PROFILES},
            "url": rule_doc_url(rule.code)}


@app.command()
@reports_errors
def rules(
    code: Annotated[str | None, typer.Argument(
        help="A rule code or name to explain (e.g. T104 or early-event).",
        show_default=False)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """List the lint rules, or explain one: what it checks, why, options and examples."""
    if code is not None:
        upper = code.strip().upper()
        if upper in VALIDATOR_CODES:
            name, text = VALIDATOR_CODES[upper]
            if as_json:
                typer.echo(json.dumps({"code": upper, "name": name, "severity": "error",
                                       "needs": "document", "summary": text,
                                       "url": rule_doc_url(upper)}, indent=2))
            else:
                typer.echo(f"{upper} {name} (error; reported by the validator)\n\n{text}\n"
                           "Validator problems are always reported; they cannot be "
                           "selected, ignored or suppressed.\n\nDocumentation: "
                           f"{rule_doc_url(upper)}")
            return
        rule = get(code)
        typer.echo(json.dumps(_as_data(rule), indent=2) if as_json else _explain(rule),
                   nl=as_json)
        return
    registered = all_rules()
    if as_json:
        data = [{"code": c, "name": n, "severity": "error", "needs": "document",
                 "summary": t} for c, (n, t) in VALIDATOR_CODES.items()]
        data += [_as_data(rule) for rule in registered.values()]
        typer.echo(json.dumps(data, indent=2))
        return
    for c, (n, t) in VALIDATOR_CODES.items():
        typer.echo(f"{c}  {n:<28} {'error':<8} {t}")
    from authoring.lint.config import LintConfig, resolve

    by_default = resolve(LintConfig(), registered).enabled
    for rule in registered.values():
        default = "" if rule.code in by_default else "  (opt-in)"
        typer.echo(f"{rule.code}  {rule.name:<28} {rule.severity:<8} {rule.summary}{default}")
