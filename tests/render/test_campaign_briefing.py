"""The briefing of a campaign (docs/rules.md §18): an overview page listing the missions, then
one briefing per mission under a strip naming them all; checked in the PDF with pdftotext."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from authoring.cli import app
from authoring.mission import load_campaign
from authoring.render.campaign_briefing import campaign_briefing_html

REPO = Path(__file__).resolve().parents[2]
CAMPAIGN = REPO / "missions" / "examples" / "campaign.yaml"
runner = CliRunner()


def _page(pdf: Path, number: int) -> str:
    return subprocess.run(["pdftotext", "-layout", "-f", str(number), "-l", str(number),
                           str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_each_mission_gets_a_briefing_with_the_campaigns_choices() -> None:
    campaign = load_campaign(CAMPAIGN)
    page = campaign_briefing_html(campaign)
    assert page.count('<section class="campaign-briefing') == len(campaign.missions)
    # mission 3 is played with the campaign's mixed common deck, not the mission file's own
    assert campaign.missions[2].mission.decks.common == "mixed"
    third = page.split('<section class="campaign-briefing')[3]
    assert "common: white and yellow mixed" in third
    # the player count overrides the campaign's soundtrack choice on every briefing
    five = campaign_briefing_html(campaign, players=5)
    assert five.count("<th>Players</th>\n<td>5 players</td>") + five.count(
        "<th>Players</th><td>5 players</td>") == len(campaign.missions)
    # and so do the figures: 4 players and an android hear the unconfirmed reports
    android = campaign_briefing_html(campaign, players=4, figures=5)
    assert android.count("4 players and 1 android") == len(campaign.missions)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils not installed")
def test_the_pdf_lists_the_missions_then_briefs_each_on_its_own_page(tmp_path: Path) -> None:
    target = tmp_path / "briefing.pdf"
    result = runner.invoke(app, ["sheets", str(CAMPAIGN), "--kind", "briefing",
                                 "-o", str(target)])
    assert result.exit_code == 0, result.output
    overview = _page(target, 1)
    assert "CAMPAIGN BRIEFING" in overview and "Three Simulations in a Row" in overview
    titles = ["Simulation 1", "Simulation 2", "Simulation 3"]
    positions = [overview.index(f"{n}. {t}") for n, t in enumerate(titles, 1)]
    assert positions == sorted(positions)
    assert "Repair crews, you have until the next jump." in overview
    for number, title in enumerate(titles, 1):
        text = _page(target, number + 1)
        strip = text.strip().splitlines()[0]
        assert strip.startswith(f"Three Simulations in a Row · mission {number} of 3:")
        assert all(t in strip for t in titles)  # the strip lists every mission
        assert title in text and "MISSION BRIEFING" in text and "Timeline" in text
        assert ("left unrepaired after mission" in text) == (number > 1)
    info = subprocess.run(["pdfinfo", str(target)], capture_output=True, text=True,
                          check=True).stdout
    assert "Pages:           4" in info


def test_a_campaign_prints_only_briefings_and_logs(tmp_path: Path) -> None:
    for kind in ("threats", "comms-officer", "answer-key"):
        result = runner.invoke(app, ["sheets", str(CAMPAIGN), "--kind", kind,
                                     "-o", str(tmp_path / "x.html")])
        assert result.exit_code == 2, kind
    assert not list(tmp_path.iterdir())
