"""The native engine core: the engine's hot modules compiled to C by mypyc (optional).

``python -m authoring._native build`` copies the modules listed in ``COMPILED`` from
``authoring/engine/`` into the package ``authoring._engine_native`` (imports of compiled
modules redirected there), compiles them with mypyc and gcc, and keeps only the extension
modules and a stamp with a checksum of the engine sources. The other engine modules (plan,
setup, log, errors, trajectories, ...) are not copied: both cores take and return the same
``Setup``, ``Plan`` and ``Result`` objects, so callers and the differential test can hand one
game to either core (the native core plays with its own compiled ``Card`` objects, looked up
by id). The pure-Python engine stays the readable reference and the fallback.

This module only looks at files (no engine import), so ``spacealert --version`` can tell which
core runs without loading either. ``.ci/setup`` runs the build.
"""

from __future__ import annotations

import os
import sys
import zlib
from importlib.machinery import EXTENSION_SUFFIXES

# Only what ``status`` needs is imported here (``spacealert --version`` imports this module and
# must stay quick: no pathlib, hashlib or sysconfig); the build imports the rest where used.

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
ENGINE_DIR = os.path.join(PACKAGE_DIR, "engine")
NATIVE_NAME = "_engine_native"
NATIVE_DIR = os.path.join(PACKAGE_DIR, NATIVE_NAME)
STAMP = os.path.join(NATIVE_DIR, "build.txt")
BUILD_COMMAND = "python -m authoring._native build"
ABI = EXTENSION_SUFFIXES[0]  # e.g. .cpython-311-x86_64-linux-gnu.so

# The modules of authoring/engine that run inside a game (relative paths without ``.py``).
COMPILED = ("ship", "state", "draws", "damage", "weapons", "actions", "threats/abilities",
            "threats/cards", "levels", "game", "scoring", "notation", "campaign")


def source_digest() -> str:
    """Returns a checksum of every engine source file, names and contents (any change to the
    engine makes a build stale; CRC-32 is plenty to notice an edit and quick to import)."""
    checksum = 0
    for folder, dirs, files in sorted(os.walk(ENGINE_DIR)):
        dirs.sort()
        for name in sorted(f for f in files if f.endswith(".py")):
            path = os.path.join(folder, name)
            with open(path, "rb") as source:
                content = source.read()
            relative = os.path.relpath(path, ENGINE_DIR).replace(os.sep, "/")
            checksum = zlib.crc32(relative.encode() + b"\0" + content + b"\0", checksum)
    return f"{checksum:08x}"


def status() -> str | None:
    """Returns None when the native core can be loaded, else why not (one short phrase)."""
    try:
        with open(STAMP, encoding="utf-8") as stamp:
            sources, _, abi = stamp.read().strip().partition(" ")
    except OSError:
        return "not built"
    if sources != source_digest():
        return "out of date"  # the engine sources changed since the build
    if abi != ABI:
        return "built for another Python"
    if not os.path.exists(os.path.join(NATIVE_DIR, f"game{ABI}")):
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


def _write_sources(target: str) -> list[str]:
    """Writes the redirected copies into ``target`` (the native package); returns them."""
    # The package __init__ files stay plain Python: a compiled one would import the shared
    # library inside its own package while that package is still being initialised.
    written = []
    for folder in {os.path.dirname(m) for m in COMPILED}:
        os.makedirs(os.path.join(target, folder), exist_ok=True)
        with open(os.path.join(target, folder, "__init__.py"), "w", encoding="utf-8") as init:
            init.write('"""Generated by authoring._native from authoring/engine (do not '
                       'edit)."""\n')
    for module in COMPILED:
        with open(os.path.join(ENGINE_DIR, f"{module}.py"), encoding="utf-8") as original:
            source = redirect_imports(original.read(), f"authoring/engine/{module}.py")
        path = os.path.join(target, f"{module}.py")
        with open(path, "w", encoding="utf-8") as copy:
            copy.write(source)
        written.append(path)
    return written


def _compiler() -> str | None:
    import shutil
    import sysconfig

    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    return shutil.which(compiler) or shutil.which("gcc") or shutil.which("cc")


def clean() -> None:
    """Removes the native package (the toolkit then runs on the pure-Python engine)."""
    import shutil

    shutil.rmtree(NATIVE_DIR, ignore_errors=True)


def build(*, quiet: bool = False) -> int:
    """Compiles the native core; returns an exit code (0 built, 3 no compiler or mypyc, 70 the
    build failed)."""
    import importlib.util
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

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
    native = Path(NATIVE_DIR)
    with tempfile.TemporaryDirectory(prefix="spacealert-native-") as temp:
        built = Path(temp) / "authoring" / NATIVE_NAME
        sources: list[str] = []
        try:
            sources = _write_sources(NATIVE_DIR)
            for folder in {os.path.dirname(m) for m in COMPILED}:  # where build_ext puts them
                (built / folder).mkdir(parents=True, exist_ok=True)
            # A child process: setuptools and mypyc stay out of this one, and their output
            # goes to a log shown only on failure.
            script = _BUILD_SCRIPT.format(paths=sources, temp=temp,
                                          group=f"authoring.{NATIVE_NAME}.core")
            # In the temporary folder: setuptools must not read the project's pyproject.toml.
            done = subprocess.run([sys.executable, "-c", script], cwd=temp,
                                  capture_output=True, text=True, check=False)
        finally:
            for path in sources:
                os.unlink(path)
        for library in built.rglob("*.so") if done.returncode == 0 else ():
            target = native / library.relative_to(built)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(library, target)
        if done.returncode != 0 or not (native / f"game{ABI}").exists():
            clean()
            print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
            print("native core: the build failed (output above); the engine runs on its "
                  "pure-Python core", file=sys.stderr)
            return 70
    Path(STAMP).write_text(f"{digest} {ABI}\n", encoding="utf-8")
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
