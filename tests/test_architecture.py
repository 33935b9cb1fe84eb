"""Enforces the import layers of docs/architecture.md (docs/style.md §3).

mission <- engine <- simulation <- lint / audio / generate / solve <- render <- publish <- cli;
nothing imports the CLI, and the engine uses the standard library only.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "authoring"

# For each sub-package: the authoring sub-packages it may import.
ALLOWED: dict[str, set[str]] = {
    "": set(),  # authoring/__init__.py, __main__.py handled below
    "errors": set(),
    # who plays unconfirmed reports and which crews are legal (docs/rules.md §16): one rule
    # under every layer, the engine and the CLI's option declarations included
    "crew": set(),
    "_resources": {"errors"},
    "_files": {"errors"},
    "_workers": set(),
    "_lazy": set(),  # PEP 562 package attributes (standard library only)
    "_native": set(),  # builds and finds the native engine core (files only)
    "_engine_native": set(),  # the native core's generated package (compiled engine copies)
    "_generate_native": set(),  # the native generator's (compiled generator copies)
    "mission": {"crew", "errors", "_resources", "mission", "_workers"},
    "engine": {"crew", "engine", "mission", "_native"},
    # crews, Monte Carlo play, ratings and their calibration, and the plan moves that both the
    # searching crews and the solver use: over the engine, under their users
    "simulation": {"crew", "simulation", "engine", "mission", "errors", "_resources", "_files",
                   "_workers", "_lazy"},
    "audio": {"crew", "audio", "mission", "errors", "_resources", "_files", "_lazy"},
    "lint": {"crew", "lint", "mission", "engine", "simulation", "audio", "errors", "_resources",
             "_files", "_workers", "_lazy"},
    "generate": {"crew", "generate", "mission", "engine", "lint", "errors", "_resources",
                 "_files", "_workers", "_native"},
    "report": {"report", "lint", "errors"},
    "render": {"crew", "render", "mission", "engine", "simulation", "lint", "errors",
               "_resources", "_files"},
    "solve": {"crew", "solve", "mission", "engine", "simulation", "errors", "_resources", "_files",
              "_workers"},
    # publish orchestrates a pack build: audio, sheets and the site, so it sits above both
    "publish": {
        "publish", "crew", "render", "audio", "lint", "mission", "engine", "simulation",
        "errors", "_resources", "_files",
    },
    # the studio is a local editor over everything below it (generate for new missions)
    "studio": {
        "crew", "studio", "publish", "render", "audio", "lint", "generate", "simulation", "mission",
        "engine", "errors", "_resources", "_files", "",
    },
    "cli": {
        "crew", "cli", "mission", "engine", "simulation", "audio", "lint", "generate", "report",
        "render", "solve", "publish", "studio", "errors", "_resources", "_files", "", "_native",
    },
    "__main__": {"cli"},
}
STDLIB = set(sys.stdlib_module_names)


def _layer(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    first = rel.parts[0]
    return first[:-3] if first.endswith(".py") else first


def _imports(path: Path) -> list[tuple[int, str]]:
    return _imports_in(path.read_text(encoding="utf-8"), path.relative_to(PACKAGE.parent))


def _imports_in(source: str, rel: Path) -> list[tuple[int, str]]:
    """(line, absolute module) of every import in ``source``, the file at ``rel``.

    A relative import counts from the file's package: for ``a/b/__init__.py`` that package is
    ``a.b`` itself, exactly as for its sibling ``a/b/c.py``.
    """
    tree = ast.parse(source, str(rel))
    found: list[tuple[int, str]] = []
    package_parts = rel.with_suffix("").parts
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = list(package_parts[: len(package_parts) - node.level])
                module = ".".join([*base, *([node.module] if node.module else [])])
                if not node.module:
                    found.extend((node.lineno, f"{module}.{a.name}") for a in node.names)
                    continue
            else:
                module = node.module or ""
            found.append((node.lineno, module))
    return found


def test_layers_point_downwards() -> None:
    violations: list[str] = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = _layer(path)
        if layer == "__init__":
            layer = ""
        allowed = ALLOWED.get(layer)
        assert allowed is not None, f"{path}: unknown layer {layer!r}; add it to ALLOWED"
        for lineno, module in _imports(path):
            top, _, rest = module.partition(".")
            where = f"{path.relative_to(PACKAGE.parent)}:{lineno}"
            if top == "authoring":
                target = rest.split(".")[0] if rest else ""
                if target not in allowed and target != layer:
                    violations.append(f"{where}: {layer or 'authoring'} imports authoring.{target}")
            elif layer == "engine" and top not in STDLIB and top != "__future__":
                violations.append(f"{where}: the engine imports third-party {top!r}")
    assert violations == []


def test_engine_knows_only_the_mission_model() -> None:
    bad = []
    for path in (PACKAGE / "engine").rglob("*.py") if (PACKAGE / "engine").exists() else []:
        for lineno, module in _imports(path):
            if module.startswith("authoring.mission") and module != "authoring.mission.model":
                bad.append(f"{path}:{lineno}: {module}")
    assert bad == []


def test_relative_imports_resolve_from_the_package_in_init_files() -> None:
    source = "from ..engine import resolve\nfrom . import voice\nfrom .mixer import mix\n"
    for rel in (Path("authoring/audio/__init__.py"), Path("authoring/audio/render.py")):
        assert _imports_in(source, rel) == [
            (1, "authoring.engine"), (2, "authoring.audio.voice"), (3, "authoring.audio.mixer")]


#: The engine's rooms (docs/architecture.md, "The engine's rooms"): for each, the rooms of
#: ``authoring.engine`` it may import. The rules know nothing of odds or cores; the odds and
#: the cores are built on the rules; ``errors`` and ``data`` are shared by all.
ROOMS: dict[str, set[str]] = {
    "rules": {"rules", "errors"},
    "odds": {"odds", "rules", "errors"},
    "cores": {"cores", "odds", "rules", "errors"},
    "errors": set(),
}


def test_the_engine_rooms_point_downwards() -> None:
    engine = PACKAGE / "engine"
    violations: list[str] = []
    for path in sorted(engine.rglob("*.py")):
        rel = path.relative_to(engine)
        if rel == Path("__init__.py"):
            continue  # the engine's public names, gathered from every room
        room = rel.parts[0].removesuffix(".py")
        allowed = ROOMS.get(room)
        assert allowed is not None, f"{path}: a module outside the rooms; add it to ROOMS"
        for lineno, module in _imports(path):
            if not module.startswith("authoring.engine"):
                continue
            target = module.split(".")[2] if module.count(".") >= 2 else ""
            if target not in allowed:
                violations.append(f"{rel}:{lineno}: {room} imports authoring.engine"
                                  f"{'.' + target if target else ''}")
    assert violations == []
