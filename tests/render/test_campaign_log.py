"""The campaign log sheet (docs/rules.md §18), checked in the PDF with poppler's pdftotext."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.mission import load_campaign
from authoring.render.campaign_log import campaign_log_html

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "missions" / "examples" / "campaign.yaml"
runner = CliRunner()


def test_the_log_has_a_block_per_mission_and_carry_over_grids_after_the_first() -> None:
    campaign = load_campaign(CAMPAIGN)
    page = campaign_log_html(campaign)
    for number, entry in enumerate(campaign.missions, 1):
        assert f"Mission {number}: {entry.mission.title}" in page
    # one grid of 3 zones x 6 tokens for each mission that can start damaged
    assert page.count("Carried over from mission") == len(campaign.missions) - 1
    assert page.count('<span class="tick"></span>') == (
        (len(campaign.missions) - 1) * (18 + 5)  # token grid, knocked-out boxes per seat
        + len(campaign.missions))  # one "ship destroyed" box per mission


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_pdf_reads_back_with_missions_repairs_and_the_score(tmp_path: Path) -> None:
    target = tmp_path / "log.pdf"
    result = runner.invoke(app, ["sheets", str(CAMPAIGN), "--kind", "campaign-log",
                                 "-o", str(target)])
    assert result.exit_code == 0, result.output
    text = subprocess.run(["pdftotext", "-layout", str(target), "-"], capture_output=True,
                          text=True, check=True).stdout
    for title in ("Simulation 1", "Simulation 2", "Simulation 3"):
        assert title in text
    assert "Repairs after mission 2" in text and "Repairs after mission 3" not in text
    assert "structural shield reactor upper cannon lower cannon gravolift" in text
    assert "seat 1 (captain)" in text
    assert "Final score" in text and "average visual confirmation, rounded down" in text


def test_campaign_log_and_campaign_files_go_together(tmp_path: Path) -> None:
    mission = REPO / "missions" / "official" / "simulation-1.yaml"
    wrong = runner.invoke(app, ["sheets", str(mission), "--kind", "campaign-log",
                                "-o", str(tmp_path / "x.html")])
    assert wrong.exit_code == 2
    other = runner.invoke(app, ["sheets", str(CAMPAIGN), "--kind", "threats",
                                "-o", str(tmp_path / "y.html")])
    assert other.exit_code == 2
    assert "briefing or campaign-log" in other.output
    assert not list(tmp_path.iterdir())
