"""``pack build`` checks for WeasyPrint before it renders anything (issue 18, Packaging)."""

from __future__ import annotations

import builtins
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import authoring.publish.build as build_module
from authoring.cli import app

runner = CliRunner()


def test_build_without_weasyprint_exits_3_before_rendering(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "pack"
    assert runner.invoke(app, ["pack", "new", str(folder)]).exit_code == 0
    real_import: Callable[..., Any] = builtins.__import__

    def no_weasyprint(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "weasyprint" or name.startswith("weasyprint."):
            raise ImportError("No module named 'weasyprint'")
        return real_import(name, *args, **kwargs)

    rendered: list[object] = []
    monkeypatch.setattr(builtins, "__import__", no_weasyprint)
    monkeypatch.setattr(build_module, "render_timeline",
                        lambda *a, **k: rendered.append(a) or pytest.fail("rendered audio"))
    result = runner.invoke(app, ["pack", "build", str(folder)])
    assert result.exit_code == 3, result.output
    assert "PDF output needs WeasyPrint" in result.stderr
    assert rendered == []
    assert not (folder / "_site").exists()
    assert [p.name for p in folder.iterdir() if p.name.endswith((".tmp", ".part"))] == []
