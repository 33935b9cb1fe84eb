"""A pack that lists a campaign: its page plays the missions in order (real Chromium)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from authoring.errors import InvalidInputError
from authoring.publish import BuildOptions, BuildResult, PreviewServer, build_pack
from authoring.publish.manifest import load_pack
from tests.site.conftest import EPOCH
from tests.site.helpers import PACK
from tests.tools import ratings

CAMPAIGN = """\
campaign: 1
id: two-drills
title: "Two <i>Drills</i>"
description: "Both drills with one ship."
missions:
  - mission: missions/tiny-drill.yaml
  - mission: drill-two
    decks: {common: yellow}
    announcement: "The second drill starts now."
"""


def _pack(tmp: Path, campaign: str = CAMPAIGN) -> Path:
    pack = tmp / "pack"
    shutil.copytree(PACK, pack)
    # no serious threat: the first-game rules (test runs) have none, and the campaign is rated
    drill = (pack / "missions" / "tiny-drill.yaml").read_text("utf-8").replace(
        ", serious: true", "")
    (pack / "missions" / "tiny-drill.yaml").write_text(drill, encoding="utf-8")
    (pack / "missions" / "drill-two.yaml").write_text(
        drill.replace("id: tiny-drill", "id: drill-two"), encoding="utf-8")
    manifest = (pack / "pack.yaml").read_text("utf-8")
    manifest = manifest.replace("voices: [en, voices/en-gb.yaml]", "voices: [en]")
    manifest += "  - missions/drill-two.yaml\ncampaigns:\n  - campaign.yaml\n"
    (pack / "pack.yaml").write_text(manifest, encoding="utf-8")
    (pack / "campaign.yaml").write_text(campaign, encoding="utf-8")
    return pack


@pytest.fixture(scope="module")
def built_campaign(tmp_path_factory: pytest.TempPathFactory) -> BuildResult:
    tmp = tmp_path_factory.mktemp("campaign-site")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
        # the default crew and scale from fewer games: 500 per mission take seconds each
        ratings.fewer_games(mp, 40)
        return build_pack(_pack(tmp), tmp / "site",
                          BuildOptions(cache_dir=tmp / "cache", rate=True))


@pytest.fixture(scope="module")
def campaign_server(built_campaign: BuildResult) -> Iterator[PreviewServer]:
    srv = PreviewServer(built_campaign.out, 0, quiet=True)
    srv.start_in_background()
    yield srv
    srv.shutdown()
    srv.server_close()


def test_a_rated_page_shows_what_the_cards_and_the_information_cost(
        built_campaign: BuildResult) -> None:
    rated = 0
    for path in sorted((built_campaign.out / "missions").glob("*.html")):
        page = path.read_text("utf-8")
        # the figures behind "How this was measured" (the words for the table come first)
        rating = re.search(r'<p>Difficulty .*? the simulated (\w+) crew survived '
                           r'(\d+) % of (\d+) games', page)
        if rating is None:
            continue
        rated += 1
        crew, survival, games = rating.groups()
        compared = re.search(r'<p class="rating-breakdown">What makes it hard, on the first '
                             r'(\d+) games: the (\w+) crew survived (\d+) % with the action '
                             r'cards the rules deal and (\d+) % in free play .*?; the informed '
                             r'crew, which knows the whole draw, (\d+) % \((\d+) % in free '
                             r'play\)\.</p>', page)
        assert compared is not None, path.name
        # the comparison plays the rating's own games: its first figure is the rating's
        assert compared.group(1) == games and compared.group(2) == crew
        assert compared.group(3) == survival
    assert rated, "the test pack rates at least one mission"


def test_a_campaign_must_play_the_packs_own_missions(tmp_path: Path) -> None:
    pack = _pack(tmp_path, CAMPAIGN.replace("mission: drill-two", "mission: other.yaml"))
    (pack / "other.yaml").write_text((pack / "missions" / "drill-two.yaml").read_text("utf-8"),
                                     encoding="utf-8")
    with pytest.raises(InvalidInputError, match="not one of the pack's missions"):
        load_pack(pack)


def test_the_build_writes_the_page_the_log_sheet_and_the_campaign_file(
        built_campaign: BuildResult) -> None:
    out = built_campaign.out
    page = (out / "campaigns" / "two-drills.html").read_text("utf-8")
    assert "Two &lt;i&gt;Drills&lt;/i&gt;" in page
    assert (out / "files" / "campaigns" / "two-drills" / "two-drills-campaign-log.pdf").is_file()
    assert (out / "files" / "campaigns" / "two-drills" / "two-drills.yaml").read_text(
        "utf-8") == CAMPAIGN
    assert 'href="campaigns/two-drills.html"' in (out / "index.html").read_text("utf-8")


@pytest.mark.browser
def test_the_campaign_page_steps_through_missions_and_repairs(
        chromium: Any, campaign_server: PreviewServer) -> None:
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
           else None)
    tab.on("pageerror", lambda e: problems.append(str(e)))
    try:
        tab.goto(campaign_server.url + "index.html")
        tab.click("ul.campaigns a")
        tab.wait_for_url("**/campaigns/two-drills.html")
        visible = "() => [...document.querySelectorAll('.campaign-step')]" \
                  ".filter(s => !s.hidden).map(s => s.id)"
        assert tab.evaluate(visible) == ["step-mission-1"]
        assert "/ 100" in tab.inner_text("#campaign-difficulty")
        tab.click("#step-mission-1 .next-step")
        assert tab.evaluate(visible) == ["step-repair-1"]
        assert "At most 2 damage tokens per zone" in tab.inner_text("#step-repair-1")
        tab.click("#step-repair-1 .next-step")
        assert tab.evaluate(visible) == ["step-mission-2"]
        assert "The second drill starts now." in tab.inner_text("#step-mission-2")
        src = tab.evaluate("document.querySelector('#step-mission-2 source').src")
        assert "drill-two" in src
        assert tab.request.get(src).status == 200
        # the end of the last soundtrack leads to the campaign score
        tab.evaluate("document.querySelector('#step-mission-2 audio')"
                     ".dispatchEvent(new Event('ended'))")
        assert tab.evaluate(visible) == ["step-score"]
        assert problems == []
    finally:
        context.close()
