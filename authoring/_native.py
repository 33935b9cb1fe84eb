"""The native cores: the engine's and the generator's hot modules compiled to C by mypyc.

``python -m authoring._native build`` copies the modules listed in ``COMPILED`` from
``authoring/engine/`` into the package ``authoring._engine_native`` (imports of compiled
modules redirected there), compiles them with mypyc and gcc, and keeps only the extension
modules and a stamp with a checksum of the engine sources. The other engine modules (plan,
setup, log, errors, trajectories, ...) are not copied: both cores take and return the same
``Setup``, ``Plan`` and ``Result`` objects, so callers and the differential test can hand one
game to either core (the native core plays with its own compiled ``Card`` objects, looked up
by id). The pure-Python engine stays the readable reference and the fallback.

The mission generator gets the same treatment (``generator_target``): its placement, threat draw and
self-check modules and the two mission modules they run (timeline, heard) are copied into
``authoring._generate_native`` and compiled; ``generate --count`` uses them when they are built
and up to date (1.4x fewer CPU seconds a mission, the same bytes: tests/generate/
test_native_generator.py compares both on every profile).

The C engine core (``c_target``): every C source of ``authoring/engine/cores/c/`` (``core.c``, a
port of the game loop in C11; ``hands.c``, the action-card projection) is compiled by the same
command with gcc into one shared library in ``authoring/_engine_c/``, loaded with ctypes by
``authoring/engine/cores/ccore.py`` and ``authoring/engine/cores/chands.py``; it needs no
Python headers and no mypyc.

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

# The C core: the C11 sources of one folder, one shared library (ctypes loads it; no Python
# headers needed).
C_NAME = "_engine_c"
C_DIR = os.path.join(PACKAGE_DIR, C_NAME)
C_SOURCE_DIR = os.path.join(ENGINE_DIR, "cores", "c")
C_LIBRARY_NAME = "libspacealert_core.so"
# -O2 as the issue asks; no -march=native, so that a build is the same on every x86-64 machine.
C_FLAGS = ("-std=c11", "-O2", "-fPIC", "-shared", "-Wall", "-Wextra")

# The modules of authoring/engine that run inside a game (relative paths without ``.py``).
COMPILED = ("rules/ship", "rules/state", "rules/draws", "rules/damage", "rules/weapons",
            "rules/actions", "rules/threats/abilities", "rules/threats/cards", "rules/levels",
            "rules/game", "rules/scoring", "rules/notation", "rules/campaign", "rules/hands",
            "odds/value", "odds/evaluator")
# The generator's: relative to authoring/, so that the mission modules it runs come along.
GENERATOR_NAME = "_generate_native"
GENERATOR_COMPILED = ("generate/generator", "generate/placement", "generate/threats",
                      "generate/selfcheck", "mission/timeline", "mission/heard")


class Target:
    """Modules compiled into one native package: where they come from and where they go."""

    def __init__(self, label: str, sources: str, prefix: str, native: str,
                 compiled: tuple[str, ...], marker: str, digested: tuple[str, ...]) -> None:
        self.label = label          # "engine" or "generator"
        self.sources = sources      # the folder the module paths are relative to
        self.prefix = prefix        # the dotted name of that folder
        self.native = native        # the native package's name inside authoring
        self.native_dir = os.path.join(PACKAGE_DIR, native)
        self.compiled = compiled
        self.marker = marker        # a module whose library must exist in a whole build
        self.digested = digested    # folders whose every source makes a build stale
        self.stamp = os.path.join(self.native_dir, "build.txt")


def engine_target() -> Target:
    """The engine's build (read at call time: tests point the folders elsewhere)."""
    target = Target("engine", ENGINE_DIR, "authoring.engine", NATIVE_NAME, COMPILED, "rules/game",
                    (ENGINE_DIR,))
    target.native_dir, target.stamp = NATIVE_DIR, STAMP
    return target


def generator_target() -> Target:
    """The generator's build."""
    return Target("generator", PACKAGE_DIR, "authoring", GENERATOR_NAME, GENERATOR_COMPILED,
                  "generate/generator", tuple(os.path.join(PACKAGE_DIR, folder)
                                              for folder in ("generate", "mission")))


def source_digest(target: Target | None = None) -> str:
    """Returns a checksum of every source file of the target's folders, names and contents
    (any change makes a build stale; CRC-32 is plenty to notice an edit and quick to import)."""
    target = target or engine_target()
    checksum = 0
    for top in target.digested:
        for folder, dirs, files in sorted(os.walk(top)):
            dirs.sort()
            for name in sorted(f for f in files if f.endswith(".py")):
                path = os.path.join(folder, name)
                with open(path, "rb") as source:
                    content = source.read()
                relative = os.path.relpath(path, target.sources).replace(os.sep, "/")
                checksum = zlib.crc32(relative.encode() + b"\0" + content + b"\0", checksum)
    return f"{checksum:08x}"


def status(target: Target | None = None) -> str | None:
    """Returns None when the native build can be loaded, else why not (one short phrase)."""
    target = target or engine_target()
    try:
        with open(target.stamp, encoding="utf-8") as stamp:
            sources, _, abi = stamp.read().strip().partition(" ")
    except OSError:
        return "not built"
    if sources != source_digest(target):
        return "out of date"  # the sources changed since the build
    if abi != ABI:
        return "built for another Python"
    if not os.path.exists(os.path.join(target.native_dir, f"{target.marker}{ABI}")):
        return "incomplete build"
    return None


def c_sources() -> list[str]:
    """Returns the names of the C core's sources (every ``.c`` of ``C_SOURCE_DIR``), sorted."""
    try:
        return sorted(name for name in os.listdir(C_SOURCE_DIR) if name.endswith(".c"))
    except OSError:
        return []


def c_digest() -> str:
    """Returns a checksum of the compiler flags and of every C source and header of the C
    core, names and contents (a change to any makes the library stale)."""
    try:
        names = sorted(name for name in os.listdir(C_SOURCE_DIR) if name.endswith((".c", ".h")))
    except OSError:
        names = []
    if not c_sources():
        return "no source"
    checksum = zlib.crc32(" ".join(C_FLAGS).encode() + b"\0")
    for name in names:
        with open(os.path.join(C_SOURCE_DIR, name), "rb") as code:
            checksum = zlib.crc32(name.encode() + b"\0" + code.read() + b"\0", checksum)
    return f"{checksum:08x}"


def c_library() -> str:
    """Returns the path of the C core's shared library (built or not)."""
    return os.path.join(C_DIR, C_LIBRARY_NAME)


def c_status() -> str | None:
    """Returns None when the C core can be loaded, else why not (one short phrase)."""
    try:
        with open(os.path.join(C_DIR, "build.txt"), encoding="utf-8") as stamp:
            digest = stamp.read().strip()
    except OSError:
        return "not built"
    if digest != c_digest():
        return "out of date"
    if not os.path.exists(c_library()):
        return "incomplete build"
    return None


def describe() -> str:
    """Returns the running engine core for ``--version``: c, native, or python with the
    reason; and on a second line the generator's."""
    reason = status()
    c_reason = c_status()
    if c_reason is None:
        engine = "engine core: c (C library, gcc)" + (
            "" if reason is None else f"; mypyc core {reason}")
    elif reason is None:
        engine = f"engine core: native (mypyc; C core {c_reason}: run `{BUILD_COMMAND}`)"
    else:
        engine = f"engine core: python (native core {reason}: run `{BUILD_COMMAND}`)"
    reason = status(generator_target())
    generator = ("generator core: native (mypyc)" if reason is None
                 else f"generator core: python (native generator {reason})")
    return f"{engine}\n{generator}"


# --- build ---------------------------------------------------------------------------------

def _native_module(dotted: str, target: Target) -> bool:
    return dotted.replace(".", "/") in target.compiled


def redirect_imports(source: str, where: str, target: Target | None = None) -> str:
    """Returns ``source`` with imports of compiled modules pointed at the native package.

    ``from authoring.engine.X import names`` moves when X is compiled; ``from authoring.engine
    import a, b`` moves when every name is a compiled module (a mix is refused: split it).
    The generator's target does the same from ``authoring``.
    """
    import re

    target = target or engine_target()
    native = f"authoring.{target.native}"
    pattern = rf"^\s*from {re.escape(target.prefix)}((?:\.\w+)*) import (.+)$"
    lines = []
    for number, line in enumerate(source.splitlines(keepends=True), 1):
        match = re.match(pattern, line.rstrip("\n"))
        if match:
            module, names = match.group(1).lstrip("."), match.group(2)
            if module and _native_module(module, target):
                line = line.replace(f"{target.prefix}.", f"{native}.", 1)
            elif names.startswith("(") and not module:
                raise ValueError(f"{where}:{number}: expected {target.label} modules imported "
                                 f"on one line, got {line.strip()!r}")
            elif not names.startswith("("):
                listed = [n.strip().split(" as ")[0] for n in names.split("#")[0].split(",")]
                inside = [_native_module(".".join(p for p in (module, n) if p), target)
                          for n in listed]
                if all(inside):
                    line = line.replace(target.prefix, native, 1)
                elif any(inside):
                    raise ValueError(f"{where}:{number}: expected the compiled modules in an "
                                     f"import of their own, got {line.strip()!r}")
        lines.append(line)
    return "".join(lines)


def _write_sources(target_dir: str, target: Target) -> list[str]:
    """Writes the redirected copies into ``target_dir`` (the native package); returns them."""
    # The package __init__ files stay plain Python: a compiled one would import the shared
    # library inside its own package while that package is still being initialised.
    written = []
    for folder in {""} | {os.path.dirname(m) for m in target.compiled}:
        os.makedirs(os.path.join(target_dir, folder), exist_ok=True)
        with open(os.path.join(target_dir, folder, "__init__.py"), "w",
                  encoding="utf-8") as init:
            init.write(f'"""Generated by authoring._native from {target.prefix} (do not '
                       'edit)."""\n')
    for module in target.compiled:
        with open(os.path.join(target.sources, f"{module}.py"), encoding="utf-8") as original:
            source = redirect_imports(original.read(), f"{target.prefix}/{module}.py", target)
        path = os.path.join(target_dir, f"{module}.py")
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
    """Removes the native packages (the toolkit then runs on the pure-Python modules)."""
    import shutil

    for target in (engine_target(), generator_target()):
        shutil.rmtree(target.native_dir, ignore_errors=True)
    shutil.rmtree(C_DIR, ignore_errors=True)


def build(*, quiet: bool = False) -> int:
    """Compiles the C engine core, the native (mypyc) engine core, then the native generator;
    returns an exit code (0 built, 3 no compiler or mypyc, 70 a build failed)."""
    import importlib.util

    compiler = _compiler()
    if compiler is None:
        print("native core: no C compiler found (install gcc); the engine runs on its "
              "pure-Python core", file=sys.stderr)
        return 3
    built_c = build_c(compiler, quiet=quiet)
    if importlib.util.find_spec("mypyc") is None:
        fallback = "C core" if built_c == 0 else "pure-Python core"
        print("native core: mypyc is not installed (pip install mypy); the engine runs on its "
              f"{fallback}", file=sys.stderr)
        return 3
    return max(built_c, _build(engine_target(), quiet), _build(generator_target(), quiet))


def build_c(compiler: str, *, quiet: bool = False) -> int:
    """Compiles every ``authoring/engine/cores/c/*.c`` into the C core's library; returns 0
    or 70."""
    import subprocess

    if c_status() is None:
        if not quiet:
            print(f"c core: up to date in authoring/{C_NAME}/")
        return 0
    os.makedirs(C_DIR, exist_ok=True)
    stamp = os.path.join(C_DIR, "build.txt")
    if os.path.exists(stamp):
        os.unlink(stamp)
    partial = c_library() + ".part"
    # Run in the sources' folder with relative names: no absolute path ends up in the
    # library, so the same sources give the same bytes wherever the checkout lives.
    done = subprocess.run([compiler, *C_FLAGS, "-o", partial, *c_sources()],
                          cwd=C_SOURCE_DIR, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        if os.path.exists(partial):
            os.unlink(partial)
        print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
        print("c core: the build failed (output above); the engine runs on its other cores",
              file=sys.stderr)
        return 70
    os.replace(partial, c_library())
    with open(stamp, "w", encoding="utf-8") as out:
        out.write(c_digest() + "\n")
    if not quiet:
        print(f"c core: built {C_LIBRARY_NAME} into authoring/{C_NAME}/")
    return 0


def _build(target: Target, quiet: bool) -> int:
    import shutil

    if status(target) is None:
        if not quiet:
            print(f"native {target.label}: up to date in authoring/{target.native}/")
        return 0
    import subprocess
    import tempfile
    from pathlib import Path

    digest = source_digest(target)
    shutil.rmtree(target.native_dir, ignore_errors=True)
    native = Path(target.native_dir)
    # named as authoring._files names scratch folders (this module imports nothing of the
    # package): the folder of a killed build is removed by a later command
    with tempfile.TemporaryDirectory(prefix=f"spacealert-native-{os.getpid()}-") as temp:
        built = Path(temp) / "authoring" / target.native
        sources: list[str] = []
        try:
            sources = _write_sources(target.native_dir, target)
            for folder in {os.path.dirname(m) for m in target.compiled}:  # build_ext's folders
                (built / folder).mkdir(parents=True, exist_ok=True)
            # A child process: setuptools and mypyc stay out of this one, and their output
            # goes to a log shown only on failure.
            script = _BUILD_SCRIPT.format(paths=sources, temp=temp,
                                          group=f"authoring.{target.native}.core")
            # In the temporary folder: setuptools must not read the project's pyproject.toml.
            done = subprocess.run([sys.executable, "-c", script], cwd=temp,
                                  capture_output=True, text=True, check=False)
        finally:
            for path in sources:
                os.unlink(path)
        for library in built.rglob("*.so") if done.returncode == 0 else ():
            target_file = native / library.relative_to(built)
            target_file.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(library, target_file)
        if done.returncode != 0 or not (native / f"{target.marker}{ABI}").exists():
            shutil.rmtree(target.native_dir, ignore_errors=True)
            print(done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr)
            print(f"native {target.label}: the build failed (output above); the {target.label} "
                  "runs on its pure-Python modules", file=sys.stderr)
            return 70
    Path(target.stamp).write_text(f"{digest} {ABI}\n", encoding="utf-8")
    if not quiet:
        print(f"native {target.label}: built {len(target.compiled)} modules into "
              f"authoring/{target.native}/")
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


def complete() -> bool:
    """Tells whether the C core, the native engine and the native generator are all built
    and up to date (``.ci/setup`` builds when not)."""
    return c_status() is None and status() is None and status(generator_target()) is None


def main(argv: list[str]) -> int:
    """``build`` (compile), ``status`` (which core runs), ``check`` (exit 0 when every
    native piece is built and up to date, else 1) or ``clean`` (remove the build)."""
    command = argv[0] if len(argv) == 1 else ""
    if command == "build":
        return build()
    if command == "status":
        print(describe())
        return 0
    if command == "check":
        return 0 if complete() else 1
    if command == "clean":
        clean()
        return 0
    print("usage: python -m authoring._native build|status|check|clean", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
