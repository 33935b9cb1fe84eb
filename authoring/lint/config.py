"""Per-project lint configuration: which rules run, how severe they are, their options.

A configuration is a YAML file validated by ``schemas/lint-config.schema.json``, usually
``.spacealert-lint.yaml`` found in the mission's folder or any folder above it (or given with
``--config``)::

    select: [M, T]            # default: S, M, T, C101, C102 (G, A and C103 are opt-in)
    ignore: [T103]            # more specific selectors win; ignore beats select on a tie
    severity: {M112: warning, T1: error}
    rules:                    # options for every profile
      T108: {min_gap: 5}
    profiles:                 # options for one profile only (over the ones above)
      training:
        T101: {length: [570, 630]}

Command-line ``--select`` replaces ``select``; ``--ignore`` adds to ``ignore``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from authoring.errors import UsageError
from authoring.lint.problem import Severity
from authoring.lint.rule import Rule
from authoring.lint.selection import (
    Selector,
    is_enabled,
    most_specific,
    parse_selectors,
)
from authoring.mission import InvalidFileError, load_document
from authoring.mission.load import plain_data

_SEVERITY: dict[str, Severity] = {"error": "error", "warning": "warning", "info": "info"}
CONFIG_NAMES = (".spacealert-lint.yaml", ".spacealert-lint.yml")
#: The rules that run unless a configuration says otherwise; simulation (G, and the campaign
#: simulation C103) and audio (A) rules are expensive and need the engine or a voice, so they
#: are opt-in. The cheap campaign rules are listed one by one so that C103 stays out.
DEFAULT_SELECT: tuple[str, ...] = ("S", "M", "T", "C101", "C102")


class LintConfigError(UsageError):
    """A lint configuration file or option is wrong (exit 2)."""


@dataclass(frozen=True)
class LintConfig:
    """Settings as written by the user (configuration file and command line)."""

    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    rules: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    profiles: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict)
    source: str | None = None

    def with_command_line(self, select: Sequence[str] | None = None,
                          ignore: Sequence[str] = ()) -> LintConfig:
        """Returns the configuration with ``--select`` (replacing) and ``--ignore`` (adding)."""
        return LintConfig(
            select=tuple(select) if select else self.select,
            ignore=(*self.ignore, *ignore),
            severity=self.severity, rules=self.rules, profiles=self.profiles,
            source=self.source)



def read_config(path: str | Path) -> LintConfig:
    """Reads and validates a configuration file; raises ``LintConfigError`` when wrong."""
    try:
        doc = load_document(path, "lint-config")
    except InvalidFileError as error:
        first = error.problems[0]
        raise LintConfigError(f"{first.location()}: {first.message}",
                              hint=first.hint or "see schemas/lint-config.schema.json") from None
    data = plain_data(doc.data) or {}
    return LintConfig(
        select=tuple(data["select"]) if "select" in data else None,
        ignore=tuple(data.get("ignore", ())),
        severity=dict(data.get("severity", {})),
        rules=dict(data.get("rules", {})),
        profiles=dict(data.get("profiles", {})),
        source=str(path),
    )


def find_config(start: str | Path) -> Path | None:
    """Returns the nearest ``.spacealert-lint.yaml`` in ``start``'s folder or above it."""
    here = Path(start).resolve()
    folder = here if here.is_dir() else here.parent
    for candidate_dir in (folder, *folder.parents):
        for name in CONFIG_NAMES:
            candidate = candidate_dir / name
            if candidate.is_file():
                return candidate
    return None


@dataclass(frozen=True)
class ResolvedConfig:
    """A configuration checked against the registry: what runs, how severe, with what options."""

    enabled: frozenset[str]
    severities: Mapping[str, Severity]
    options: Mapping[str, Mapping[str, Any]]          # rule code → options for all profiles
    profile_options: Mapping[str, Mapping[str, Mapping[str, Any]]]
    rules: Mapping[str, Rule]

    def options_for(self, code: str, profile: str) -> dict[str, Any]:
        """Returns the options rule ``code`` runs with under ``profile``."""
        overrides = dict(self.options.get(code, {}))
        overrides.update(self.profile_options.get(profile, {}).get(code, {}))
        return self.rules[code].options_for(profile, overrides)


def resolve(config: LintConfig, rules: Mapping[str, Rule]) -> ResolvedConfig:
    """Checks ``config`` against the registered ``rules`` and decides what runs."""
    names = {code: rule.name for code, rule in rules.items()}
    where = f" in {config.source}" if config.source else ""
    select = parse_selectors(config.select if config.select is not None else DEFAULT_SELECT,
                             names, origin=f"selector{where}")
    ignore = parse_selectors(config.ignore, names, origin=f"selector{where}")
    enabled = frozenset(code for code, rule in rules.items()
                        if is_enabled(code, rule.name, select, ignore))
    severity_map: dict[Selector, str] = {}
    for text, level in config.severity.items():
        for selector in parse_selectors([text], names, origin=f"severity selector{where}"):
            severity_map[selector] = level
    severities: dict[str, Severity] = {}
    for code, rule in rules.items():
        chosen = most_specific(code, rule.name, severity_map)
        severities[code] = _SEVERITY.get(chosen or "", rule.severity)
    by_name = {rule.name: code for code, rule in rules.items()}
    options = {_rule_code(key, rules, by_name, where): _checked_options(
        rules[_rule_code(key, rules, by_name, where)], value, where)
        for key, value in config.rules.items()}
    profile_options = {
        profile: {_rule_code(key, rules, by_name, where): _checked_options(
            rules[_rule_code(key, rules, by_name, where)], value, where)
            for key, value in table.items()}
        for profile, table in config.profiles.items()}
    return ResolvedConfig(enabled, severities, options, profile_options, rules)


def _rule_code(key: str, rules: Mapping[str, Rule], by_name: Mapping[str, str],
               where: str) -> str:
    if key in rules:
        return key
    if key in by_name:
        return by_name[key]
    raise LintConfigError(f"unknown rule {key!r} under 'rules'{where}: expected a rule code "
                          "such as T108 or a rule name",
                          hint="run 'spacealert rules' to list every rule")


def _same_kind(default: Any, value: Any) -> bool:
    if default is None or value is None:
        return True
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(default, bool) and isinstance(value, bool)
    if isinstance(default, (int, float)):
        return isinstance(value, (int, float))
    if isinstance(default, (list, tuple)):
        return isinstance(value, (list, tuple))
    return isinstance(value, type(default))


def _checked_options(rule: Rule, value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise LintConfigError(f"options of {rule.code}{where} must be a mapping, got {value!r}")
    known = dict(rule.defaults)
    for table in rule.profiles.values():
        for name, default in table.items():
            known.setdefault(name, default)
    for name, option in value.items():
        if name not in known:
            valid = ", ".join(sorted(known)) or "none"
            raise LintConfigError(f"unknown option {name!r} for {rule.code} {rule.name}{where}: "
                                  f"expected one of {valid}")
        if not _same_kind(known[name], option):
            raise LintConfigError(
                f"wrong type for option {name!r} of {rule.code}{where}: expected "
                f"{type(known[name]).__name__} like {known[name]!r}, got {option!r}")
    return dict(value)
