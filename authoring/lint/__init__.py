"""The mission linter: a registry of rules, profiles, configuration and suppressions.

Entry points for other layers::

    from authoring.lint import lint_mission
    problems = lint_mission("missions/official/mission-1.yaml")            # a file
    problems = lint_mission(mission, profile="base")                       # a Mission object
    assert not [p for p in problems if p.severity == "error"]

``spacealert lint`` and ``spacealert rules`` are the command-line faces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from authoring._lazy import lazy_attributes

if TYPE_CHECKING:
    from authoring.lint.config import LintConfig, LintConfigError, find_config, read_config
    from authoring.lint.linter import FileResult, Linter, lint_mission, lint_paths
    from authoring.lint.problem import Problem
    from authoring.lint.registry import VALIDATOR_CODES, all_rules, get

#: Where each public name lives. Loaded on first use: importing one module of this package
#: (``validate`` imports ``authoring.lint.playability``) must not load every rule, the
#: engine and the simulation behind them.
_LAZY = {
    "LintConfig": "config", "LintConfigError": "config", "find_config": "config",
    "read_config": "config", "FileResult": "linter", "Linter": "linter",
    "lint_mission": "linter", "lint_paths": "linter", "Problem": "problem",
    "VALIDATOR_CODES": "registry", "all_rules": "registry", "get": "registry",
}


__getattr__ = lazy_attributes(__name__, _LAZY, globals())


__all__ = [
    "VALIDATOR_CODES",
    "FileResult",
    "LintConfig",
    "LintConfigError",
    "Linter",
    "Problem",
    "all_rules",
    "errors_in",
    "find_config",
    "get",
    "lint_mission",
    "lint_paths",
    "read_config",
]


def errors_in(problems: list[Problem]) -> list[Problem]:
    """Returns the problems of severity ``error`` (what the pack builder fails on)."""
    return [p for p in problems if p.severity == "error"]
