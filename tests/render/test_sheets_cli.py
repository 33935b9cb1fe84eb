"""``spacealert sheets`` from the command line: outputs, exit codes and messages."""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from authoring.cli import app

OFFICIAL = Path(__file__).resolve().parents[2] / "missions" / "official"


def _run(*args: str) -> Any:
    return CliRunner().invoke(app, ["sheets", *args])


def test_html_output(tmp_path: Path) -> None:
    out = tmp_path / "brief.html"
    result = _run(str(OFFICIAL / "mission-3.yaml"), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == f"wrote {out}\n"
    page = out.read_text(encoding="utf-8")
    assert "<h1>Mission 3</h1>" in page and "<svg" in page
    assert [p.name for p in tmp_path.iterdir()] == ["brief.html"]  # no temp file left


def test_pdf_output_with_kind_and_paper(tmp_path: Path) -> None:
    out = tmp_path / "key.pdf"
    result = _run(str(OFFICIAL / "simulation-1.yaml"), "--kind", "answer-key", "--seed", "4",
                  "--paper", "letter", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_bytes().startswith(b"%PDF-")


def test_default_output_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = _run(str(OFFICIAL / "test-run-1.yaml"), "-k", "comms-officer")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "test-run-1-comms-officer.pdf").stat().st_size > 1000


def test_unknown_suffix_is_a_usage_error(tmp_path: Path) -> None:
    result = _run(str(OFFICIAL / "mission-1.yaml"), "-o", str(tmp_path / "x.docx"))
    assert result.exit_code == 2
    assert "expected an output file ending in .pdf or .html" in result.stderr


def test_answer_key_without_seed_keeps_the_old_file(tmp_path: Path) -> None:
    out = tmp_path / "key.html"
    out.write_text("precious", encoding="utf-8")
    result = _run(str(OFFICIAL / "mission-1.yaml"), "-k", "answer-key", "-o", str(out))
    assert result.exit_code == 2
    assert "the answer key needs --seed N" in result.stderr
    assert out.read_text(encoding="utf-8") == "precious"
    assert [p.name for p in tmp_path.iterdir()] == ["key.html"]


def test_invalid_mission_is_reported_with_its_location(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text('format: 1\nid: x\ntitle: t\nprofile: base\n'
                   'phases: ["3:40", "7:30", "10:00"]\nevents: []\nplayers: 9\n',
                   encoding="utf-8")
    result = _run(str(bad), "-o", str(tmp_path / "out.html"))
    assert result.exit_code == 1
    assert result.stderr.startswith(f"error: {bad}:7:")
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "out.html").exists()


def test_missing_output_folder(tmp_path: Path) -> None:
    result = _run(str(OFFICIAL / "mission-1.yaml"), "-o", str(tmp_path / "nope" / "x.html"))
    assert result.exit_code == 2
    assert "does not exist" in result.stderr


def _hide_weasyprint(monkeypatch: pytest.MonkeyPatch) -> None:
    real_import: Callable[..., Any] = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "weasyprint" or name.startswith("weasyprint."):
            raise ImportError("No module named 'weasyprint'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)


def test_pdf_without_weasyprint_exits_3_with_a_hint(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _hide_weasyprint(monkeypatch)
    out = tmp_path / "brief.pdf"
    result = _run(str(OFFICIAL / "mission-1.yaml"), "-o", str(out))
    assert result.exit_code == 3
    assert "PDF output needs WeasyPrint" in result.stderr
    assert "pip install" in result.stderr and "libpango" in result.stderr
    assert not out.exists()


def test_html_needs_no_weasyprint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _hide_weasyprint(monkeypatch)
    out = tmp_path / "cards.html"
    result = _run(str(OFFICIAL / "mission-1.yaml"), "-k", "threats", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert "Pulse Ball" in out.read_text(encoding="utf-8")


def test_pango_missing_exits_3(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import: Callable[..., Any] = builtins.__import__

    def fake_import(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "weasyprint":
            raise OSError("cannot load library 'libpango-1.0-0'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", fake_import)
    result = _run(str(OFFICIAL / "mission-1.yaml"), "-o", str(tmp_path / "b.pdf"))
    assert result.exit_code == 3
    assert "pango" in result.stderr


def test_template_override_folder_must_exist(tmp_path: Path) -> None:
    result = _run(str(OFFICIAL / "mission-1.yaml"), "--templates", str(tmp_path / "nope"),
                  "-o", str(tmp_path / "x.html"))
    assert result.exit_code == 2
    assert "--templates: expected a folder" in result.stderr


def test_template_override_is_used(tmp_path: Path) -> None:
    theme = tmp_path / "theme"
    theme.mkdir()
    (theme / "comms-officer.html.j2").write_text(
        "{% for r in rows %}{{ r.start_ms | clock_ms }} {% endfor %}", encoding="utf-8")
    out = tmp_path / "c.html"
    result = _run(str(OFFICIAL / "test-run-1.yaml"), "-k", "comms-officer",
                  "--templates", str(theme), "-o", str(out))
    assert result.exit_code == 0, result.stderr
    assert out.read_text(encoding="utf-8").startswith("0:02 0:15 1:00 1:30 ")


def test_rate_adds_the_simulated_difficulty_to_the_briefing(
        tmp_path: Path, fewer_games: Callable[[int], None]) -> None:
    # the default crew and scale, fewer games than the default 500 (tests/lint/test_crews.py
    # checks that sheets, lint and simulate show one rating)
    fewer_games(40)
    out = tmp_path / "brief.html"
    result = _run(str(OFFICIAL / "simulation-1.yaml"), "--rate", "-o", str(out))
    assert result.exit_code == 0, result.stderr
    page = out.read_text(encoding="utf-8")
    assert 'class="difficulty"' in page
    # words for the table first (issue 38 item 6), the model's figures in the small print
    # and says how the crew played: dealt hands, not free play (issue 36 item 5)
    assert re.search(r'<p class="rating">A careful crew survived \d+ of 40 games with the '
                     r'action cards the rules deal\.</p>', page)
    assert "That is " in page and "of 100 by simulation" in page and "crew model" in page
    plain = _run(str(OFFICIAL / "simulation-1.yaml"), "-o", str(tmp_path / "plain.html"))
    assert plain.exit_code == 0
    assert 'class="difficulty"' not in (tmp_path / "plain.html").read_text(encoding="utf-8")


def test_rate_goes_with_the_briefing_only(tmp_path: Path) -> None:
    result = _run(str(OFFICIAL / "mission-1.yaml"), "--rate", "--kind", "threats",
                  "-o", str(tmp_path / "t.html"))
    assert result.exit_code == 2
    assert "--rate goes with --kind briefing" in result.stderr
