"""The bundled demo pack (``missions/pack.yaml``): it builds, and its site has the example
campaign's page, which steps through the three simulations in order with the repair step
between them (real Chromium).

The pack folder is ``missions/`` itself: a pack may only name files inside its folder, and
the example campaign plays the bundled official simulations.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from authoring.publish import BuildOptions, BuildResult, PreviewServer, build_pack
from authoring.publish.manifest import load_pack
from tests.site.conftest import EPOCH

MISSIONS = Path(__file__).resolve().parents[2] / "missions"
TITLES = ["Simulation 1", "Simulation 2", "Simulation 3"]


def test_the_demo_pack_lists_bundled_missions_and_the_example_campaign() -> None:
    pack = load_pack(MISSIONS)
    assert [pack.relative(p) for p in pack.campaigns] == ["examples/campaign.yaml"]
    assert "official/simulation-1.yaml" in [pack.relative(p) for p in pack.missions]
    # what keeps its build short: one audio format, briefings only
    assert pack.audio == ("mp3",) and pack.sheets == ("briefing",)


@pytest.fixture(scope="module")
def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[BuildResult,
                                                                          PreviewServer]]:
    tmp = tmp_path_factory.mktemp("demo-pack")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SOURCE_DATE_EPOCH", EPOCH)
        # no --rate: the simulation is what makes a build slow
        built = build_pack(MISSIONS, tmp / "site", BuildOptions(cache_dir=tmp / "cache"))
    srv = PreviewServer(built.out, 0, quiet=True)
    srv.start_in_background()
    yield built, srv
    srv.shutdown()
    srv.server_close()


@pytest.mark.browser
def test_the_demo_sites_campaign_page_plays_the_missions_in_order_with_repairs(
        chromium: Any, demo_site: tuple[BuildResult, PreviewServer]) -> None:
    built, server = demo_site
    assert built.missions == 4
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    tab = context.new_page()
    problems: list[str] = []
    tab.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning")
           else None)
    tab.on("pageerror", lambda e: problems.append(str(e)))
    visible = "() => [...document.querySelectorAll('.campaign-step')]" \
              ".filter(s => !s.hidden).map(s => s.id)"
    try:
        tab.goto(server.url + "index.html")
        tab.click("ul.campaigns a:has-text('Three Simulations in a Row')")
        tab.wait_for_url("**/campaigns/example-simulation-campaign.html")
        headings = tab.eval_on_selector_all(".campaign-step h2",
                                            "hs => hs.map(h => h.textContent)")
        assert headings == ["Mission 1: Simulation 1", "Between missions 1 and 2: repairs",
                            "Mission 2: Simulation 2", "Between missions 2 and 3: repairs",
                            "Mission 3: Simulation 3", "Campaign score"]
        for number, title in enumerate(TITLES, 1):
            step = f"#step-mission-{number}"
            assert tab.evaluate(visible) == [f"step-mission-{number}"]
            assert title in (tab.text_content(step) or "")  # inner_text is upper-cased
            src = tab.evaluate(f"document.querySelector('{step} source').src")
            assert f"cd-simulation-{number}" in src and src.endswith(".mp3")
            assert tab.request.get(src).status == 200
            if number == len(TITLES):
                break
            tab.click(f"{step} .next-step")
            repair = f"#step-repair-{number}"
            assert tab.evaluate(visible) == [f"step-repair-{number}"]
            assert "At most 2 damage tokens per zone" in tab.inner_text(repair)
            tab.click(f"{repair} .next-step")
        tab.evaluate("document.querySelector('#step-mission-3 audio')"
                     ".dispatchEvent(new Event('ended'))")
        assert tab.evaluate(visible) == ["step-score"]
        assert problems == []
    finally:
        context.close()


def test_a_folder_of_missions_is_checked_without_its_pack_manifest() -> None:
    from typer.testing import CliRunner

    from authoring.cli import app

    runner = CliRunner()
    assert runner.invoke(app, ["validate", "-q", str(MISSIONS)]).exit_code == 0
    # named on its own, the manifest is read as a mission (and is not one)
    alone = runner.invoke(app, ["validate", "-q", str(MISSIONS / "pack.yaml")])
    assert alone.exit_code == 1 and "S103" in alone.output
