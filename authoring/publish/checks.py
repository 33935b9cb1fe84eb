"""Validates and lints every mission of a pack before anything is rendered."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from authoring.audio.voice import primary_language
from authoring.errors import InvalidInputError
from authoring.lint import lint_mission
from authoring.lint.docs_link import docs_base, is_web_address, rule_doc_url
from authoring.mission import InvalidFileError, check_mission, read_document
from authoring.mission.model import Mission
from authoring.mission.problem import Problem
from authoring.publish.manifest import Pack


@dataclass(frozen=True)
class CheckedMission:
    """A mission that passed the build's checks, with the problems it still has."""

    path: Path
    display: str
    mission: Mission
    problems: tuple[Problem, ...]

    def count(self, severity: str) -> int:
        """Returns how many of its problems have ``severity``."""
        return sum(1 for p in self.problems if p.severity == severity)


def check_missions(pack: Pack, display: Callable[[Path], str], *,
                   strict: bool = False) -> list[CheckedMission]:
    """Validates and lints each mission; raises ``InvalidFileError`` listing every failure.

    Errors always fail the build; with ``strict`` warnings fail it too. Lint configuration is
    found upward from each mission file, as ``spacealert lint`` does.
    """
    failing: list[Problem] = []
    checked: list[CheckedMission] = []
    languages = {primary_language(tag) for tag in pack.languages}
    ids: dict[str, str] = {}
    for path in pack.missions:
        shown = display(path)
        mission, problems = check_mission(read_document(path, display=shown))
        if mission is None:
            failing.extend(problems)
            continue
        found = lint_mission(path)
        found = [_redisplay(p, str(path), shown) for p in found]
        bad = [p for p in found if p.severity == "error" or (strict and p.severity == "warning")]
        failing.extend(bad)
        if mission.id in ids:
            raise InvalidInputError(f"{shown}: mission id {mission.id!r} is already used by "
                                    f"{ids[mission.id]}", hint="each mission needs its own id")
        ids[mission.id] = shown
        if primary_language(mission.language) not in languages:
            raise InvalidInputError(
                f"{shown}: mission language {mission.language!r} is not among the pack's "
                f"languages ({', '.join(pack.languages)})",
                hint="add it to `languages` in pack.yaml")
        checked.append(CheckedMission(path, shown, mission, tuple(sorted(found))))
    if failing:
        raise InvalidFileError(sorted(failing))
    return checked


def _redisplay(problem: Problem, actual: str, shown: str) -> Problem:
    """Reports a problem under the name the user knows the file by."""
    if problem.file != actual:
        return problem
    return replace(problem, file=shown)


def rule_pages(problems: Sequence[Problem]) -> tuple[tuple[str, str], ...]:
    """Pairs each code found with its documentation page, when the docs are on the web.

    A path inside a checkout (the default setting) means nothing to a site's visitors, so
    pages are linked only when ``SPACEALERT_DOCS_URL`` is an ``http(s)`` address.
    """
    if not is_web_address(docs_base()):
        return ()
    return tuple((code, rule_doc_url(code)) for code in sorted({p.code for p in problems}))


def summary_lines(problems: Sequence[Problem], limit: int = 20) -> tuple[str, ...]:
    """Returns short ``line:col CODE message`` lines for the site, at most ``limit``."""
    lines = [f"{p.severity} {p.code} at line {p.line}: {p.message}" for p in problems[:limit]]
    if len(problems) > limit:
        lines.append(f"… and {len(problems) - limit} more (run `spacealert lint` to see all)")
    return tuple(lines)
