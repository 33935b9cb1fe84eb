"""``.pre-commit-hooks.yaml``: each hook runs the way pre-commit runs it (entry + file names)."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
HOOKS = YAML(typ="safe").load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8"))
GOOD = ROOT / "missions" / "official" / "mission-1.yaml"


def _run(entry: str, *files: Path) -> subprocess.CompletedProcess[str]:
    program, *args = shlex.split(entry)
    assert program == "spacealert"  # the console script the package installs
    return subprocess.run([sys.executable, "-m", "authoring", *args, *map(str, files)],
                          cwd=ROOT, capture_output=True, text=True, check=False, timeout=120)


def test_the_hooks_are_validate_and_lint() -> None:
    assert [h["id"] for h in HOOKS] == ["spacealert-validate", "spacealert-lint"]
    for hook in HOOKS:
        assert hook["language"] == "python"
        assert {"id", "name", "entry", "language"} <= set(hook)
        assert re.search(hook["files"], "missions/official/mission-1.yaml")
        assert not re.search(hook["files"], "pack.yaml")


@pytest.mark.parametrize("hook", HOOKS, ids=lambda h: h["id"])
def test_a_good_file_passes_and_a_bad_one_fails_with_its_location(
        hook: dict[str, str], tmp_path: Path) -> None:
    assert _run(hook["entry"], GOOD).returncode == 0
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nid: x\n", encoding="utf-8")
    done = _run(hook["entry"], GOOD, bad)
    assert done.returncode == 1
    assert f"{bad}:1:1: S103" in done.stdout
