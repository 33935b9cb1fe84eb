"""The built site in real Chromium: no console errors, the player follows the audio.

Uses Debian's chromium through Playwright (``executable_path``), served by the pack's own
Range-capable preview server. Screenshots go to ``$SPACEALERT_SCREENSHOTS`` when it is set
(for looking at the theme), else to the test's tmp folder.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from authoring.publish import BuildResult, PreviewServer

pytestmark = [pytest.mark.browser]
MISSION = "missions/tiny-drill.html"


@pytest.fixture
def page(chromium: Any, server: PreviewServer) -> Iterator[Any]:
    """A fresh page that records console messages and page errors."""
    context = chromium.new_context(viewport={"width": 1000, "height": 800})
    p = context.new_page()
    p.problems = []
    p.on("console", lambda m: p.problems.append(f"{m.type}: {m.text}")
         if m.type in ("error", "warning") else None)
    p.on("pageerror", lambda e: p.problems.append(f"pageerror: {e}"))
    p.on("requestfailed", lambda r: p.problems.append(f"failed: {r.url}")
         if not r.url.endswith((".mp3", ".ogg", ".wav")) else None)  # aborted media ranges
    yield p
    context.close()


def open_player(page: Any, server: PreviewServer) -> None:
    page.goto(server.url + MISSION)
    page.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")


def shots_dir(tmp_path: Path) -> Path:
    return Path(os.environ.get("SPACEALERT_SCREENSHOTS") or tmp_path)


def seek(page: Any, seconds: float) -> None:
    page.evaluate(f"document.getElementById('track').currentTime = {seconds}")
    page.wait_for_function(
        f"Math.abs(document.getElementById('player').dataset.ms - {seconds * 1000}) < 300")


def test_pages_load_without_console_errors(page: Any, server: PreviewServer,
                                           tmp_path: Path) -> None:
    page.goto(server.url + "index.html")
    page.screenshot(path=str(shots_dir(tmp_path) / "index.png"), full_page=True)
    page.click("table.missions a")
    page.wait_for_url("**/" + MISSION)
    page.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")
    assert page.problems == []


def test_markup_in_titles_is_shown_as_text(page: Any, server: PreviewServer) -> None:
    page.goto(server.url + "index.html")
    assert page.text_content("h1") == "Test <b>Pack</b>"
    assert page.locator("h1 b").count() == 0
    assert page.text_content("table.missions a") == "Tiny <script>alert(1)</script> Drill"
    open_player(page, server)
    assert page.text_content("h1.mission-title") == "Tiny <script>alert(1)</script> Drill"
    assert page.evaluate("typeof window.alert === 'function' && document.scripts.length") == 2
    assert "Bo <Builder>" in page.text_content("footer")
    assert page.problems == []


def test_audio_loads_and_seeking_moves_clock_phase_and_cues(page: Any, server: PreviewServer,
                                                            built: BuildResult,
                                                            tmp_path: Path) -> None:
    open_player(page, server)
    duration = page.evaluate("document.getElementById('track').duration")
    cues = json.loads((built.out / "files/tiny-drill/tiny-drill.en.json").read_text("utf-8"))
    assert abs(duration * 1000 - max(c["end_ms"] for c in cues["cues"])) < 1500
    assert page.get_attribute("#track", "controls") is None  # the custom controls took over
    assert page.is_visible("#controls")

    seek(page, 13.0)  # inside the T+1 threat announcement at 0:12
    assert page.text_content("#clock") == "T+0:13"
    assert page.text_content("#phase") == "Phase 1"
    assert page.text_content("#countdown") == "1:27"  # phase 1 ends at 1:40
    current = page.locator("#cues li.current")
    assert current.count() == 1
    assert current.get_attribute("data-start") == "12000"
    assert "Time T plus one" in current.text_content()
    assert page.locator("#cues li.next").get_attribute("data-start") == "24000"
    assert "Time T plus one" in page.text_content("#caption")

    seek(page, 115.0)  # phase 2, after the serious threat at 1:50
    assert page.text_content("#clock") == "T+1:55"
    assert page.text_content("#phase") == "Phase 2"
    assert page.text_content("#countdown") == "1:25"  # phase 2 ends at 3:20
    assert page.locator("#cues li.current").get_attribute("data-start") == "110000"
    assert page.get_attribute("#player", "data-current") == "110000"
    assert page.evaluate("document.getElementById('seek').value") == "115000"
    page.screenshot(path=str(shots_dir(tmp_path) / "mission.png"), full_page=True)
    assert page.problems == []


def test_captions_follow_the_spoken_cues(page: Any, server: PreviewServer,
                                         built: BuildResult) -> None:
    data = json.loads((built.out / "files/tiny-drill/tiny-drill.en.json").read_text("utf-8"))
    spoken = next(c for c in data["cues"] if c["text"] and c["kind"] == "incoming_data")
    open_player(page, server)
    seek(page, (spoken["start_ms"] + 300) / 1000)
    assert page.text_content("#caption") == spoken["text"]
    seek(page, (spoken["end_ms"] + 400) / 1000)  # silence after it
    assert page.text_content("#caption") == ""
    tracks = page.evaluate("document.getElementById('track').textTracks.length")
    assert tracks == 1


def test_keyboard_plays_seeks_and_jumps_between_announcements(page: Any,
                                                              server: PreviewServer) -> None:
    open_player(page, server)
    page.evaluate("document.getElementById('track').muted = true")
    page.keyboard.press("Space")
    page.wait_for_function("!document.getElementById('track').paused")
    assert page.get_attribute("#play", "aria-label") == "Pause"
    page.keyboard.press("k")
    page.wait_for_function("document.getElementById('track').paused")
    page.keyboard.press("Home")
    page.keyboard.press("n")  # first announcement: mission start at 0:02
    page.wait_for_function("document.getElementById('player').dataset.current === '2000'")
    page.keyboard.press("n")
    page.wait_for_function("document.getElementById('player').dataset.current === '12000'")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("document.getElementById('clock').textContent === 'T+0:17'")
    page.keyboard.press("j")
    page.wait_for_function("document.getElementById('clock').textContent === 'T+0:07'")
    page.focus("#forward")
    page.keyboard.press("Enter")  # a focused button is operated with the keyboard too
    page.wait_for_function("document.getElementById('clock').textContent === 'T+0:17'")
    assert page.problems == []


def test_threat_flashes_in_its_zone_colour(page: Any, server: PreviewServer) -> None:
    open_player(page, server)
    page.evaluate("document.getElementById('track').muted = true")
    seek(page, 109.4)  # the serious threat in zone blue starts at 1:50
    page.click("#play")
    page.wait_for_function("document.getElementById('player').dataset.flash === 'blue@110000'",
                           timeout=5000)
    assert "zone-blue" in page.get_attribute("#flash", "class")
    colour = page.evaluate("getComputedStyle(document.getElementById('flash')).backgroundColor")
    assert colour == "rgb(66, 165, 245)"
    page.click("#play")


def test_download_links_resolve(page: Any, server: PreviewServer) -> None:
    open_player(page, server)
    hrefs = page.eval_on_selector_all(".downloads a", "as => as.map(a => a.href)")
    page.goto(server.url + "index.html")
    hrefs += page.eval_on_selector_all("a[download]", "as => as.map(a => a.href)")
    assert len(hrefs) == 7
    for href in hrefs:
        assert href.startswith(server.url)
        response = page.request.get(href)
        assert response.status == 200, href
        assert len(response.body()) > 100


def test_phone_layout_fits_the_screen(chromium: Any, server: PreviewServer,
                                      tmp_path: Path) -> None:
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                  has_touch=True, device_scale_factor=2)
    p = context.new_page()
    p.goto(server.url + MISSION)
    p.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")
    width = p.evaluate("document.documentElement.scrollWidth")
    assert width <= 390
    assert p.locator("#play").bounding_box()["height"] >= 44  # a finger-sized target
    p.screenshot(path=str(shots_dir(tmp_path) / "mission-phone.png"))
    context.close()
