"""The documentation site builds with ``mkdocs build --strict`` and its generated pages are fresh.

``--strict`` turns every warning into a failure: a broken link or anchor, a page missing from
the docs folder, a generated page that names a rule that does not exist. The generated
reference pages are checked in; when a schema, a rule docstring, a command's help, the threat
data or the layer table changes, ``python docs/gen/generate.py`` refreshes them.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generate", ROOT / "docs/gen/generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_pages_are_up_to_date() -> None:
    generator = _generator()
    stale = generator.stale(generator.generated())
    assert stale == [], "run `python docs/gen/generate.py` to refresh: " + ", ".join(stale)


def test_generation_is_reproducible() -> None:
    generator = _generator()
    assert generator.generated() == generator.generated()


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The site built once by ``mkdocs build --strict``: its folder and mkdocs' log."""
    out = tmp_path_factory.mktemp("docs") / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
         str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
        capture_output=True, text=True, env=env, cwd=out.parent, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    return out, result.stderr


@pytest.mark.slow
def test_site_builds_strictly(built: tuple[Path, str]) -> None:
    out, log = built
    assert "WARNING" not in log
    rules = (out / "rules" / "index.html").read_text(encoding="utf-8")
    for anchor in ("s0", "s12-3", "s20", "s21"):  # anchors of sections that code cites
        assert f'id="{anchor}"' in rules
    page = (out / "lint" / "T105" / "index.html").read_text(encoding="utf-8")
    assert "late-event" in page and 'href="../../soundtrack/#s6-2"' in page
    assert (out / "images" / "timeline-mission-1.svg").is_file()


def _guide_mission() -> str:
    text = (ROOT / "docs/guides/first-mission.md").read_text(encoding="utf-8")
    return text.split("```yaml\n", 1)[1].split("```", 1)[0]


def test_the_first_mission_guide_is_valid_and_lints_as_the_check_guide_says(
        tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from authoring.cli import app

    mission = tmp_path / "my-first.yaml"
    mission.write_text(_guide_mission(), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(app, ["validate", str(mission)]).exit_code == 0
    result = runner.invoke(app, ["lint", str(mission), "--output-format", "concise", "-q"])
    shown = (ROOT / "docs/guides/check.md").read_text(encoding="utf-8")
    block = shown.split("```text\n", 1)[1].split("```", 1)[0]
    assert result.stdout.replace(str(mission), "my-first.yaml") == block
    assert re.findall(r" ([A-Z]\d{3}) ", block) == ["M106", "M113", "T106"]


def test_the_site_is_never_built_into_the_theme_folder() -> None:
    # mkdocs empties its output folder first; its default, site/, holds the pack theme
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_dir: build/", config, re.MULTILINE)


@pytest.mark.slow
@pytest.mark.browser
def test_pages_render_in_chromium(built: tuple[Path, str], tmp_path: Path,
                                  chromium: Any) -> None:
    import threading

    from authoring.publish import PreviewServer

    shots = Path(os.environ.get("SPACEALERT_SCREENSHOTS") or tmp_path)
    server = PreviewServer(built[0], port=0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    problems: list[str] = []
    try:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            page.on("console", lambda m: problems.append(f"{m.type}: {m.text}")
                    if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(f"pageerror: {e}"))
            page.goto(server.url + "soundtrack/")
            image = page.locator("img[src$='timeline-mission-1.svg']")
            assert image.evaluate("i => i.complete && i.naturalWidth") > 0
            page.screenshot(path=str(shots / "docs-soundtrack.png"))
            page.goto(server.url + "rules/#s12-3")
            assert "12.3 Damage tokens" in page.locator("#s12-3").inner_text()
            page.goto(server.url + "lint/")
            page.click("text=T105")
            page.wait_for_url("**/lint/T105/")
            assert "late-event" in page.title()
            page.screenshot(path=str(shots / "docs-t105.png"))
        finally:
            context.close()
    finally:
        server.shutdown()
        server.server_close()
    assert problems == []
