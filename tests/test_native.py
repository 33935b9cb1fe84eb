"""The native engine cores' build helper: import redirection, staleness, missing compiler,
the C core's build.

The build itself runs in ``.ci/setup``; both cores' behaviour is compared by
tests/engine/test_differential.py.
"""

from __future__ import annotations

import ctypes
import shutil
from pathlib import Path

import pytest

from authoring import _native


def test_imports_of_compiled_modules_point_at_the_native_package() -> None:
    source = ("from authoring.engine.rules import actions, damage\n"
              "from authoring.engine.rules.state import ThreatState\n"
              "from authoring.engine.rules.plan import Plan\n"
              "from authoring.engine.rules.threats import abilities\n"
              "    from authoring.engine.rules.notation import notation\n"
              "from authoring.engine.odds.evaluator import fold\n"
              "from authoring.engine.rules.setup import (\n    Setup,\n)\n")
    assert _native.redirect_imports(source, "x.py") == (
        "from authoring._engine_native.rules import actions, damage\n"
        "from authoring._engine_native.rules.state import ThreatState\n"
        "from authoring.engine.rules.plan import Plan\n"
        "from authoring._engine_native.rules.threats import abilities\n"
        "    from authoring._engine_native.rules.notation import notation\n"
        "from authoring._engine_native.odds.evaluator import fold\n"
        "from authoring.engine.rules.setup import (\n    Setup,\n)\n")


@pytest.mark.parametrize("line", ["from authoring.engine.rules import actions, plan",
                                  "from authoring.engine import (actions,"])
def test_an_import_the_build_cannot_redirect_is_refused(line: str) -> None:
    with pytest.raises(ValueError, match=r"x\.py:2: expected"):
        _native.redirect_imports(f"import re\n{line}\n", "x.py")


def test_every_compiled_module_exists_and_redirects() -> None:
    for module in _native.COMPILED:
        path = Path(_native.ENGINE_DIR) / f"{module}.py"
        _native.redirect_imports(path.read_text(encoding="utf-8"), str(path))


def _fake_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    engine = tmp_path / "engine"
    engine.mkdir()
    (engine / "game.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(_native, "ENGINE_DIR", str(engine))
    monkeypatch.setattr(_native, "NATIVE_DIR", str(tmp_path / "native"))
    monkeypatch.setattr(_native, "STAMP", str(tmp_path / "native" / "build.txt"))
    monkeypatch.setattr(_native, "C_DIR", str(tmp_path / "c-core"))
    monkeypatch.setattr(_native, "C_SOURCE_DIR", str(engine / "cores" / "c"))
    return engine


def test_status_says_not_built_then_out_of_date_then_incomplete(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = _fake_package(tmp_path, monkeypatch)
    assert _native.status() == "not built"
    assert _native.describe().startswith("engine core: python (native core not built: run ")
    (tmp_path / "native").mkdir()
    stamp = tmp_path / "native" / "build.txt"
    stamp.write_text(f"{_native.source_digest()} {_native.ABI}\n", encoding="utf-8")
    assert _native.status() == "incomplete build"  # the stamp without the modules
    (tmp_path / "native" / "rules").mkdir()
    (tmp_path / "native" / "rules" / f"game{_native.ABI}").write_bytes(b"")
    assert _native.status() is None
    stamp.write_text(f"{_native.source_digest()} .cpython-39-x.so\n", encoding="utf-8")
    assert _native.status() == "built for another Python"
    (engine / "game.py").write_text("x = 2\n", encoding="utf-8")  # an engine edit
    assert _native.status() == "out of date"


def test_the_checksum_sees_names_and_contents(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    engine = _fake_package(tmp_path, monkeypatch)
    first = _native.source_digest()
    (engine / "game.py").rename(engine / "other.py")
    assert _native.source_digest() != first
    (engine / "sub").mkdir()
    (engine / "sub" / "x.py").write_text("", encoding="utf-8")
    second = _native.source_digest()
    (engine / "sub" / "x.txt").write_text("data", encoding="utf-8")  # not a source
    assert _native.source_digest() == second


def test_without_a_compiler_the_build_says_so_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _fake_package(tmp_path, monkeypatch)
    monkeypatch.setattr(_native, "_compiler", lambda: None)
    assert _native.main(["build"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no C compiler" in err and "pure-Python" in err
    assert not (tmp_path / "native").exists()


def test_usage() -> None:
    assert _native.main([]) == 2


def test_the_c_core_builds_the_same_bytes_and_goes_stale_with_its_source(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    compiler = _native._compiler()
    if compiler is None:
        pytest.skip("no C compiler")
    engine = _fake_package(tmp_path, monkeypatch)
    (engine / "cores" / "c").mkdir(parents=True)
    sources = Path(_native.PACKAGE_DIR) / "engine" / "cores" / "c"
    for name in ("codes.h", "core.c", "core.h", "hands.c", "hands.h", "search.c"):
        shutil.copyfile(sources / name, engine / "cores" / "c" / name)
    assert _native.c_status() == "not built"
    assert _native.build_c(compiler) == 0
    assert _native.c_status() is None
    library = ctypes.CDLL(_native.c_library())  # every source is in the one library
    assert library.sa_abi() > 0 and library.sa_hands_abi() > 0
    assert hasattr(library, "sa_search")  # the crews' plan search, search.c
    assert _native.describe().startswith("engine core: c (C library, gcc); mypyc core not built")
    first = Path(_native.c_library()).read_bytes()
    assert _native.build_c(compiler) == 0  # up to date: nothing to do
    assert "up to date" in capsys.readouterr().out
    Path(_native.c_library()).unlink()
    assert _native.c_status() == "incomplete build"
    assert _native.build_c(compiler) == 0
    assert Path(_native.c_library()).read_bytes() == first  # deterministic
    for name in ("hands.h", "hands.c", "search.c", "core.h", "codes.h"):  # any source or header
        original = (engine / "cores" / "c" / name).read_bytes()
        (engine / "cores" / "c" / name).write_bytes(original + b"\n")
        assert _native.c_status() == "out of date"
        (engine / "cores" / "c" / name).write_bytes(original)
        assert _native.c_status() is None
    core_c = engine / "cores" / "c" / "core.c"
    core_c.write_text("int broken(void) { return }\n", encoding="utf-8")
    assert _native.c_status() == "out of date"
    assert _native.build_c(compiler) == 70
    assert "c core: the build failed" in capsys.readouterr().err
    assert _native.c_status() == "not built"  # the stamp went with the failed build
    assert not _native.complete()
    assert _native.main(["check"]) == 1
