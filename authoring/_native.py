"""The native engine core: the engine's hot modules compiled to C by mypyc (optional).

``python -m authoring._native build`` copies the modules listed in ``COMPILED`` from
``authoring/engine/`` into the package ``authoring._engine_native`` (imports of compiled
modules redirected there), compiles them with mypyc and gcc, and keeps only the extension
modules and a stamp with the digest of the engine sources. The other engine modules (plan,
setup, log, errors, trajectories, ...) are not copied: both cores take and return the same
``Setup``, ``Plan`` and ``Result`` objects, so callers and the differential test can hand one
game to either core (the native core plays with its own compiled ``Card`` objects, looked up
by id). The pure-Python engine stays the readable reference and the fallback.

This module only looks at files (no engine import), so ``spacealert --version`` can tell which
core runs without loading either. ``.ci/setup`` runs the build.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import sys
import sysconfig
from pathlib import Path

# The build's modules (re, shutil, subprocess, tempfile, mypyc) are imported where they are
# used: ``spacealert --version`` imports this module and must stay quick.

PACKAGE_DIR = Path(__file__).resolve().parent
ENGINE_DIR = PACKAGE_DIR / "engine"
NATIVE_NAME = "_engine_native"
NATIVE_DIR = PACKAGE_DIR / NATIVE_NAME
STAMP = NATIVE_DIR / "build.json"
BUILD_COMMAND = "python -m authoring._native build"

# The modules of authoring/engine that run inside a game (relative paths without ``.py``).
COMPILED = ("ship", "state", "damage", "weapons", "actions", "threats/abilities",
            "threats/cards", "levels", "game", "scoring", "notation", "campaign")


def source_digest() -> str:
    """Returns the SHA-256 of every engine source file (any change makes a build stale)."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE_DIR.rglob("*.py")):
        digest.update(path.relative_to(ENGINE_DIR).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def status() -> str | None:
    """Returns None when the native core can be loaded, else why not (one short phrase)."""
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return "not built"
    if not isinstance(stamp, dict) or stamp.get("sources") != source_digest():
        return "out of date"  # the engine sources changed since the build
    if stamp.get("abi") != sysconfig.get_config_var("EXT_SUFFIX"):
        return "built for another Python"
    if importlib.util.find_spec(f"authoring.{NATIVE_NAME}.game") is None:
        return "incomplete build"
    return None


def describe() -> str:
    """Returns the running engine core for ``--version``: native, or python with the reason."""
    reason = status()
    if reason is None:
        return "engine core: native (mypyc)"
    return f"engine core: python (native core {reason}: run `{BUILD_COMMAND}`)"


# --- build ---------------------------------------------------------------------------------

_IMPORT = r"^\s*from authoring\.engine((?:\.\w+)*) import (.+)$"


def _native_module(dotted: str) -> bool:
    return dotted.replace(".", "/") in COMPILED


def redirect_imports(source: str, where: str) -> str:
    """Returns ``source`` with imports of compiled modules pointed at the native package.

    ``from authoring.engine.X import names`` moves when X is compiled; ``from authoring.engine
    import a, b`` moves when every name is a compiled module (a mix is refused: split it).
    """
    import re

    lines = []
    for number, line in enumerate(source.splitlines(keepends=True), 1):
        match = re.match(_IMPORT, line.rstrip("\n"))
        if match:
            module, names = match.group(1).lstrip("."), match.group(2)
            if module and _native_module(module):
                line = line.replace("authoring.engine.", f"authoring.{NATIVE_NAME}.", 1)
            elif names.startswith("(") and not module:
                raise ValueError(f"{where}:{number}: expected engine modules imported on one "
                                 f"line, got {line.strip()!r}")
            elif not names.startswith("("):
                listed = [n.strip().split(" as ")[0] for n in names.split("#")[0].split(",")]
                inside = [_native_module(".".join(p for p in (module, n) if p)) for n in listed]
                if all(inside):
                    line = line.replace("authoring.engine", f"authoring.{NATIVE_NAME}", 1)
                elif any(inside):
                    raise ValueError(f"{where}:{number}: expected the compiled modules in an "
                                     f"import of their own, got {line.strip()!r}")
        lines.append(line)
    return "".join(lines)


def _write_sources(target: Path) -> list[Path]:
    """Writes the redirected copies into ``target`` (the native package); returns them."""
    # The package __init__ files stay plain Python: a compiled one would import the shared
    # library inside its own package while that package is still being initialised.
    written = []
    for folder in {Path(m).parent for m in COMPILED}:
        (target / folder).mkdir(parents=True, exist_ok=True)
        (target / folder / "__init__.py").write_text(
            '"""Generated by authoring._native from authoring/engine (do not edit)."""\n',
            encoding="utf-8")
    for module in COMPILED:
        source = (ENGINE_DIR / f"{module}.py").read_text(encoding="utf-8")
        path = target / f"{module}.py"
        path.write_text(redirect_imports(source, f"authoring/engine/{module}.py"),
                        encoding="utf-8")
        written.append(path)
    return written


def _compiler() -> str | None:
    import shutil

    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler) or shutil.which("gcc") or shutil.which("cc")


def clean() -> None:
    """Removes the native package (the toolkit then runs on the pure-Python engine)."""
    import shutil

    shutil.rmtree(NATIVE_DIR, ignore_errors=True)


def build(*, quiet: bool = False) -> int:
    """Compiles the native core; returns an exit code (0 built, 3 no compiler or mypyc)."""
    import shutil
    import subprocess
    import tempfile

    if _compiler() is None:
        print("native core: no C compiler found (install gcc); the engine runs on its "
              "pure-Python core", file=sys.stderr)
        return 3
    if importlib.util.find_spec("mypyc") is None:
        print("native core: mypyc is not installed (pip install mypy); the engine runs on its "
              "pure-Python core", file=sys.stderr)
        return 3
    digest = source_digest()
    clean()
    with tempfile.TemporaryDirectory(prefix="spacealert-native-") as temp:
        try:
            sources = _write_sources(NATIVE_DIR)
            for folder in {Path(m).parent for m in COMPILED}:  # where build_ext puts them
                (Path(temp) / "authoring" / NATIVE_NAME / folder).mkdir(parents=True, exist_ok=True)
            # A child process: setuptools and mypyc stay out of this one, and their output
            # goes to a log shown only on failure.
            script = _BUILD_SCRIPT.format(paths=[str(p) for p in sources], temp=temp,
                                          group=f"authoring.{NATIVE_NAME}.core")
            # In the temporary folder: setuptools must not read the project's pyproject.toml.
            done = subprocess.run([sys.executable, "-c", script], cwd=temp,
                                  capture_output=True, text=True, check=False)
        finally:
            for path in sources:
                path.unlink()
        built = Path(temp) / "authoring" / NATIVE_NAME
        for library in built.rglob("*.so") if done.returncode == 0 else ():
            target = NATIVE_DIR / library.relative_to(built)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(library, target)
        if done.returncode != 0 or not any(NATIVE_DIR.glob("game.*")):
            clean()
            print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
            print("native core: the build failed (output above); the engine runs on its "
                  "pure-Python core", file=sys.stderr)
            return 70
    STAMP.write_text(json.dumps({"sources": digest,
                                 "abi": sysconfig.get_config_var("EXT_SUFFIX")}) + "\n",
                     encoding="utf-8")
    if not quiet:
        print(f"native core: built {len(COMPILED)} engine modules into authoring/{NATIVE_NAME}/")
    return 0


# Runs in a child process in the temporary folder: mypyc type-checks the copies against the
# reference package, writes C there and builds the extensions under it.
_BUILD_SCRIPT = """
import sys
from setuptools import setup
from mypyc.build import mypycify
sys.argv = ["setup", "-q", "build_ext", "--inplace", "--build-temp", {temp!r} + "/obj"]
setup(name="spacealert-native", script_args=sys.argv[1:],
      ext_modules=mypycify({paths!r}, target_dir={temp!r} + "/c", group_name={group!r}))
"""


def main(argv: list[str]) -> int:
    """``build`` (compile), ``status`` (which core runs) or ``clean`` (remove the build)."""
    command = argv[0] if len(argv) == 1 else ""
    if command == "build":
        return build()
    if command == "status":
        print(describe())
        return 0
    if command == "clean":
        clean()
        return 0
    print("usage: python -m authoring._native build|status|clean", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
