"""Every reference to a documentation page or section resolves inside this repository.

Code, tests and pages cite the specification as ``docs/rules.md §12.3``,
``docs/soundtrack.md §4`` or ``docs/style.md §3``. This test finds each ``NAME.md`` reference
(with its ``§`` sections, ranges and lists such as ``§5-§7`` or ``§3, §4``) in ``authoring/``,
``tests/``, ``bench/``, ``docs/``, the bundled ``missions/`` and ``voices/`` and ``README.md``
and fails when the file does not exist (from the repository root or the citing file's
folder) or has no heading for the section. A ``§`` with no page before it, and any citation
of the old out-of-tree reference texts (``../shared/…/*.md``; outside ``tests/`` any path
into them), fail too. The scenario ids that ``docs/rules.md`` names as pinning a rule must
exist in ``tests/engine/scenarios``.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCANNED = ("authoring", "tests", "bench", "docs", "missions", "voices")
SUFFIXES = {".py", ".md", ".txt", ".yaml", ".yml", ".json", ".j2", ".toml", ".cfg"}

#: This test's own samples, and the generator, which builds page paths relative to docs/.
SKIPPED = {Path(__file__).resolve(), ROOT / "docs" / "gen" / "generate.py"}
_SECTION = r"§\d+(?:\.\d+)?"
_MORE = rf"(?:\s*(?:-|–|,|/|and)\s*(?:{_SECTION}|\d+(?:\.\d+)?\b))"
REFERENCE = re.compile(
    rf"(?P<file>[\w./-]*[\w-]\.md)\b(?:\s*(?:(?P<sec>{_SECTION}{_MORE}*)|section (?P<word>\d+)))?")
NUMBERS = re.compile(r"\d+(?:\.\d+)?")
EXTERNAL = re.compile(r"\bRFC \d+|\bSARIF \d")
HEADING_SECTION = re.compile(r"^#+\s*§(\d+(?:\.\d+)?)\b")
#: Folders a checked path may start with (a bare name is checked too; other paths, such as
#: a user's ``/srv/docs/lint/T105.md`` in an example, are not references).
ROOTED = ("docs/", "authoring/", "tests/", "bench/", "voices/", "missions/", "schemas/",
          "site/", "../")
OUTSIDE = re.compile(r"shared/(?:reference|seeds)/[\w./-]*\.md|\.\./shared/[\w./-]*\.md")
#: Outside tests/ (whose tools convert them), any path into those folders: the official tracks
#: once named shared/reference/official-missions.tsv, a file a user does not have.
ANY_OUTSIDE = re.compile(OUTSIDE.pattern + r"|\bshared/(?:reference|seeds)/[\w./-]+")


def _files() -> list[Path]:
    found = [ROOT / "README.md"]
    for folder in SCANNED:
        found += [p for p in sorted((ROOT / folder).rglob("*"))
                  if p.is_file() and p.suffix in SUFFIXES and "__pycache__" not in p.parts
                  and p not in SKIPPED]
    return found


@cache
def _sections(page: Path) -> frozenset[str]:
    """The § numbers that a page has headings for."""
    lines = page.read_text(encoding="utf-8").splitlines()
    return frozenset(m.group(1) for line in lines if (m := HEADING_SECTION.match(line)))


def _resolve(name: str, citing: Path) -> Path | None:
    for base in (ROOT, citing.parent):
        candidate = (base / name).resolve()
        if candidate.is_file() and candidate.is_relative_to(ROOT):
            return candidate
    return None


def _problems(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8", errors="replace")
    rel = path.relative_to(ROOT).as_posix()
    is_page = rel.startswith("docs/") and path.suffix == ".md"
    problems: list[str] = []

    def where(offset: int) -> str:
        return f"{rel}:{text.count(chr(10), 0, offset) + 1}"

    for match in (OUTSIDE if rel.startswith("tests/") else ANY_OUTSIDE).finditer(text):
        problems.append(f"{where(match.start())}: {match.group(0)} is outside the repository; "
                        "cite the page in docs/")
    covered: list[tuple[int, int]] = []
    for match in REFERENCE.finditer(text):
        name = match.group("file")
        if "shared/" in name or ("/" in name and not name.startswith(ROOTED)):
            continue  # outside references are reported above; other paths are examples
        covered.append(match.span())
        page = _resolve(name, path)
        if page is None:
            problems.append(f"{where(match.start())}: {name} does not exist in the repository")
            continue
        wanted = match.group("sec") or match.group("word")
        if not wanted:
            continue
        have = _sections(page)
        for number in NUMBERS.findall(wanted):
            if number not in have:
                problems.append(f"{where(match.start())}: {name} has no section §{number}")
    if not is_page:  # pages use § in their own headings and in-page links
        for match in re.finditer("§", text):
            if any(start <= match.start() < end for start, end in covered):
                continue
            # sections of outside standards (RFC 9110 §14, the SARIF 2.1.0 specification)
            # are cited by the standard's name, not by a page of this repository
            if EXTERNAL.search(text[max(0, match.start() - 200):match.start()]):
                continue
            problems.append(f"{where(match.start())}: a § section without its page "
                            "(write e.g. docs/rules.md §12)")
    return problems


def test_every_reference_resolves_inside_the_repository() -> None:
    problems = [problem for path in _files() for problem in _problems(path)]
    assert problems == []


#: A path to one of the repository's own files: code, tests, benchmarks, schemas (the
#: ``authoring/_data/`` copies exist only inside a built wheel).
CODE_PATH = re.compile(r"(?<![\w./-])((?:authoring|tests|bench|schemas)/(?!_data/)[\w./-]*[\w-]"
                       r"\.(?:py|json|c|h|j2|toml|yaml))\b")


def test_every_repository_file_named_exists() -> None:
    # docs/soundtrack.md §5.3 once named tests/generate/test_official_double_action.py for a
    # test that lives in tests/: only .md references were checked
    missing = []
    for path in _files():
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CODE_PATH.finditer(text):
            if _resolve(match.group(1), path) is None:
                line = text.count("\n", 0, match.start()) + 1
                missing.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {match.group(1)}")
    assert not missing, "\n".join(missing)


def test_the_checker_catches_missing_pages_sections_and_outside_references(
        tmp_path: Path) -> None:
    probe = ROOT / "tests" / "_probe_references.txt"
    probe.write_text("docs/rules.md §12.3 and §7\ndocs/rules.md §99\nrules §5\n"
                     "docs/nowhere.md\n../shared/reference/rules.md\n"
                     "docs/soundtrack.md §5-§6.2\n", encoding="utf-8")
    try:
        found = _problems(probe)
    finally:
        probe.unlink()
    assert found == [
        "tests/_probe_references.txt:5: ../shared/reference/rules.md is outside the repository; "
        "cite the page in docs/",
        "tests/_probe_references.txt:2: docs/rules.md has no section §99",
        "tests/_probe_references.txt:4: docs/nowhere.md does not exist in the repository",
        "tests/_probe_references.txt:3: a § section without its page "
        "(write e.g. docs/rules.md §12)",
    ]


def test_scenarios_named_in_the_rules_page_exist() -> None:
    from tests.engine.golden import load_scenarios

    ids = {s.id for s in load_scenarios()}
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+){2,})`", page))
    assert named, "docs/rules.md names no scenario"
    assert sorted(named - ids) == []
