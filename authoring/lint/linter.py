"""Runs the selected rules over missions and turns their findings into problems.

Layering: read the file (a parse failure is a problem, never an exception), validate it
(the validator's S/M0 problems are always reported), build the mission, run each enabled
rule under the active profile, apply inline suppressions, report unused ones.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from authoring.errors import UsageError
from authoring.lint.campaign import lint_campaign
from authoring.lint.campaign_context import CampaignContext, campaign_check
from authoring.lint.config import LintConfig, ResolvedConfig, find_config, read_config, resolve
from authoring.lint.context import CueMeasurer, LintContext, json_path
from authoring.lint.problem import Problem
from authoring.lint.registry import all_rules
from authoring.lint.rule import Finding, Rule
from authoring.lint.suppress import apply, parse_directives
from authoring.mission.build import build_mission
from authoring.mission.campaign import Campaign, is_campaign
from authoring.mission.load import Document, read_document
from authoring.mission.model import PROFILES, Mission
from authoring.mission.schema import schema_problems

UNUSED_SUPPRESSION = "S201"
INVALID_SUPPRESSION = "S202"


@dataclass(frozen=True)
class FileResult:
    """The problems of one file, with its text (formatters show source excerpts)."""

    file: str
    problems: list[Problem]
    text: str = ""


def _problem(ctx: LintContext, rule: Rule, finding: Finding, severity: str) -> Problem:
    if finding.line is not None:
        line, col = finding.line, finding.col or 1
    else:
        line, col = ctx.locate(finding.path, key=finding.key)
    return Problem(ctx.file, line, col, rule.code, rule.name, finding.message,
                   severity=severity,  # type: ignore[arg-type]
                   hint=finding.hint, path=json_path(finding.path))


def check_profile(profile: str | None) -> None:
    """Refuses an unknown profile name (``UsageError``)."""
    if profile is not None and profile not in PROFILES:
        raise UsageError(f"unknown profile {profile!r}: expected one of {', '.join(PROFILES)}")


class Linter:
    """Lints missions with one resolved configuration."""

    def __init__(self, config: LintConfig | ResolvedConfig | None = None, *,
                 profile: str | None = None, voice: str | None = None,
                 measure: CueMeasurer | None = None) -> None:
        check_profile(profile)
        rules = all_rules()
        if isinstance(config, ResolvedConfig):
            self.config = config
        else:
            self.config = resolve(config or LintConfig(), rules)
        self.profile = profile
        self.voice = voice
        self.measure = measure

    @property
    def enabled(self) -> list[Rule]:
        """The rules that run, in code order (the unused-suppression rule last)."""
        rules = all_rules()
        order = sorted(self.config.enabled, key=lambda c: (c == UNUSED_SUPPRESSION, c))
        return [rules[code] for code in order]

    def lint_document(self, doc: Document) -> list[Problem]:
        """Returns every problem of a parsed document (validator problems included)."""
        if not doc.ok:
            return sorted(doc.problems)
        problems = schema_problems(doc, "mission")
        if problems:
            return problems
        mission, semantic = build_mission(doc)
        if mission is None:
            return sorted(semantic)
        from authoring.lint.playability import card_problems  # it imports this module

        return sorted([*semantic, *card_problems(doc, mission), *self._run(mission, doc)])

    def lint_campaign_rules(self, campaign: Campaign, doc: Document) -> list[Problem]:
        """Returns the findings of the enabled campaign rules (family C) on a valid campaign.

        Options are those of the linter's profile, else of the base profile (a campaign's
        missions may have several); ``# spacealert: disable=C101`` comments are honoured.
        """
        profile = self.profile or "base"
        ctx = CampaignContext(campaign, doc, profile)
        found: list[Problem] = []
        ran: list[str] = []
        for rule in self.enabled:
            if rule.needs != "campaign":
                continue
            ran.append(rule.code)
            options = self.config.options_for(rule.code, profile)
            severity = self.config.severities[rule.code]
            for finding in campaign_check(rule)(ctx, options):
                line, col = ctx.locate(finding.path, key=finding.key)
                found.append(Problem(doc.file, line, col, rule.code, rule.name,
                                     finding.message, severity=severity,
                                     hint=finding.hint, path=json_path(finding.path)))
        # suppression comments work in campaign files as in missions (S201/S202 do not run)
        directives, _ = parse_directives(doc.text)
        return apply(found, directives, ran).kept

    def lint_mission(self, mission: Mission) -> list[Problem]:
        """Returns the problems of a mission object (positions are 1:1 without a file)."""
        return sorted(self._run(mission, None))

    def _run(self, mission: Mission, doc: Document | None) -> list[Problem]:
        profile = self.profile or mission.profile
        ctx = LintContext(mission, profile, doc, voice=self.voice, measure=self.measure)
        found: list[Problem] = []
        rules = self.enabled
        for rule in rules:
            if rule.code == UNUSED_SUPPRESSION or rule.needs == "campaign":
                continue
            options = self.config.options_for(rule.code, profile)
            severity = self.config.severities[rule.code]
            found.extend(_problem(ctx, rule, f, severity) for f in rule.check(ctx, options))
        if doc is None or not doc.text:
            return found
        directives, _ = ctx.directives
        result = apply(found, directives, [r.code for r in rules])
        kept = result.kept
        if UNUSED_SUPPRESSION in self.config.enabled:
            rule = all_rules()[UNUSED_SUPPRESSION]
            ctx.cache["unused"] = result.unused
            options = self.config.options_for(rule.code, profile)
            severity = self.config.severities[rule.code]
            kept.extend(_problem(ctx, rule, f, severity) for f in rule.check(ctx, options))
        return kept


def _linter_for(path: Path, config: LintConfig | ResolvedConfig | str | Path | None,
                cache: dict[Any, Linter], **kwargs: Any) -> Linter:
    if isinstance(config, (LintConfig, ResolvedConfig)):
        key: Any = id(config)
        if key not in cache:
            cache[key] = Linter(config, **kwargs)
        return cache[key]
    found = Path(config) if config is not None else find_config(path)
    key = str(found.resolve()) if found else None
    if key not in cache:
        cache[key] = Linter(read_config(found) if found else None, **kwargs)
    return cache[key]


def lint_paths(paths: Iterable[tuple[str, Path]], *,
               config: LintConfig | ResolvedConfig | str | Path | None = None,
               select: Iterable[str] | None = None, ignore: Iterable[str] = (),
               profile: str | None = None, voice: str | None = None,
               measure: CueMeasurer | None = None) -> list[FileResult]:
    """Lints each (display name, path); a configuration is found per folder unless given."""
    cache: dict[Any, Linter] = {}
    results: list[FileResult] = []
    paths = list(paths)
    inputs = [path for _, path in paths]
    select_list = list(select) if select else None
    ignore_list = list(ignore)
    for display, path in paths:
        base_config: LintConfig | ResolvedConfig | str | Path | None = config
        if select_list or ignore_list:
            loaded = _load(config, path)
            base_config = loaded.with_command_line(select_list, ignore_list)
            key = (loaded.source, tuple(select_list or ()), tuple(ignore_list))
            if key not in cache:
                cache[key] = Linter(base_config, profile=profile, voice=voice, measure=measure)
            linter = cache[key]
        else:
            linter = _linter_for(path, base_config, cache, profile=profile, voice=voice,
                                 measure=measure)
        doc = read_document(path, display=display)
        if is_campaign(doc):
            # a campaign is linted with the missions it names (each in its own file)
            results.extend(FileResult(file, problems, text) for file, problems, text
                           in lint_campaign(doc, path, linter.lint_document,
                                         linter.lint_campaign_rules, inputs))
            continue
        results.append(FileResult(display, linter.lint_document(doc), doc.text))
    return results


def _load(config: LintConfig | ResolvedConfig | str | Path | None, path: Path) -> LintConfig:
    if isinstance(config, LintConfig):
        return config
    if isinstance(config, ResolvedConfig):
        raise TypeError("command-line selectors need an unresolved LintConfig")
    found = Path(config) if config is not None else find_config(path)
    return read_config(found) if found else LintConfig()


def lint_mission(mission_or_path: Mission | str | Path, *, profile: str | None = None,
                 config: LintConfig | ResolvedConfig | str | Path | Mapping[str, Any] | None
                 = None) -> list[Problem]:
    """Lints one mission (an object or a file) and returns its problems, sorted.

    ``config`` may be a ``LintConfig``, a path to a configuration file, or a mapping with the
    keys of one (``select``, ``ignore``, ``severity``, ``rules``, ``profiles``). A file's
    configuration is otherwise found upward from its folder; a mission object is linted with
    the defaults. The generator asserts ``not any(p.severity == "error" for p in ...)``.
    """
    if isinstance(config, Mapping):
        config = LintConfig(
            select=tuple(config["select"]) if "select" in config else None,
            ignore=tuple(config.get("ignore", ())),
            severity=dict(config.get("severity", {})),
            rules=dict(config.get("rules", {})),
            profiles=dict(config.get("profiles", {})))
    if isinstance(mission_or_path, Mission):
        if isinstance(config, (str, Path)):
            config = read_config(config)
        return Linter(config, profile=profile).lint_mission(mission_or_path)
    path = Path(mission_or_path)
    return lint_paths([(str(mission_or_path), path)], config=config,
                      profile=profile)[0].problems
