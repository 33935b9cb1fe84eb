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
def tab(chromium: Any, server: PreviewServer) -> Iterator[Any]:
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


def open_player(tab: Any, server: PreviewServer, view: str = "") -> None:
    """Opens the test mission's player; ``view="author"`` first stores the author view."""
    if view:
        tab.goto(server.url + "index.html")
        tab.evaluate(f"localStorage.setItem('spacealert.player.view', '{view}')")
    tab.goto(server.url + MISSION)
    tab.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")


def shots_dir(tmp_path: Path) -> Path:
    return Path(os.environ.get("SPACEALERT_SCREENSHOTS") or tmp_path)


def seek(tab: Any, seconds: float) -> None:
    tab.evaluate(f"document.getElementById('track').currentTime = {seconds}")
    tab.wait_for_function(
        f"Math.abs(document.getElementById('player').dataset.ms - {seconds * 1000}) < 300")


def test_pages_load_without_console_errors(tab: Any, server: PreviewServer,
                                           tmp_path: Path) -> None:
    tab.goto(server.url + "index.html")
    tab.screenshot(path=str(shots_dir(tmp_path) / "index.png"), full_page=True)
    tab.click("table.missions a")
    tab.wait_for_url("**/" + MISSION)
    tab.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")
    assert tab.problems == []


def test_markup_in_titles_is_shown_as_text(tab: Any, server: PreviewServer) -> None:
    tab.goto(server.url + "index.html")
    assert tab.text_content("h1") == "Test <b>Pack</b>"
    assert tab.locator("h1 b").count() == 0
    assert tab.text_content("table.missions a") == "Tiny <script>alert(1)</script> Drill"
    open_player(tab, server)
    assert tab.text_content("h1.mission-title") == "Tiny <script>alert(1)</script> Drill"
    # player.js only: the cue data's own script element is removed once read (crew view)
    assert tab.evaluate("typeof window.alert === 'function' && document.scripts.length") == 1
    assert "Bo <Builder>" in tab.text_content("footer")
    assert tab.problems == []


def test_audio_loads_and_seeking_moves_clock_phase_and_cues(tab: Any, server: PreviewServer,
                                                            built: BuildResult,
                                                            tmp_path: Path) -> None:
    open_player(tab, server, "author")
    duration = tab.evaluate("document.getElementById('track').duration")
    cues = json.loads((built.out / "files/tiny-drill/tiny-drill.en.json").read_text("utf-8"))
    assert abs(duration * 1000 - max(c["end_ms"] for c in cues["cues"])) < 1500
    assert tab.get_attribute("#track", "controls") is None  # the custom controls took over
    assert tab.is_visible("#controls")

    seek(tab, 13.0)  # inside the T+1 threat announcement at 0:12
    assert tab.text_content("#clock") == "T+0:13"
    assert tab.text_content("#phase") == "Phase 1"
    assert tab.text_content("#countdown") == "1:27"  # phase 1 ends at 1:40
    current = tab.locator("#cues li.current")
    assert current.count() == 1
    assert current.get_attribute("data-start") == "12000"
    assert "Time T plus one" in current.text_content()
    assert tab.locator("#cues li.next").get_attribute("data-start") == "24000"
    assert "Time T plus one" in tab.text_content("#caption")

    seek(tab, 115.0)  # phase 2, after the serious threat at 1:50
    assert tab.text_content("#clock") == "T+1:55"
    assert tab.text_content("#phase") == "Phase 2"
    assert tab.text_content("#countdown") == "1:25"  # phase 2 ends at 3:20
    assert tab.locator("#cues li.current").get_attribute("data-start") == "110000"
    assert tab.get_attribute("#player", "data-current") == "110000"
    assert tab.evaluate("document.getElementById('seek').value") == "115000"
    tab.screenshot(path=str(shots_dir(tmp_path) / "mission.png"), full_page=True)

    assert duration > 201  # "Mission complete" is spoken after the last phase ends at 3:20
    seek(tab, 200.5)
    assert tab.text_content("#phase") == "Operation ended"
    # no phase is left to count down to: no "0:00 until the phase ends"
    assert not tab.is_visible("#countdown")
    assert not tab.is_visible("#phase-note")
    seek(tab, 199.0)
    assert tab.is_visible("#countdown") and tab.text_content("#countdown") == "0:01"
    assert tab.problems == []


def test_captions_follow_the_spoken_cues(tab: Any, server: PreviewServer,
                                         built: BuildResult) -> None:
    data = json.loads((built.out / "files/tiny-drill/tiny-drill.en.json").read_text("utf-8"))
    spoken = next(c for c in data["cues"] if c["text"] and c["kind"] == "incoming_data")
    open_player(tab, server)
    seek(tab, (spoken["start_ms"] + 300) / 1000)
    assert tab.text_content("#caption") == spoken["text"]
    seek(tab, (spoken["end_ms"] + 400) / 1000)  # silence after it
    assert tab.text_content("#caption") == ""
    tracks = tab.evaluate("document.getElementById('track').textTracks.length")
    assert tracks == 1


def test_keyboard_plays_seeks_and_jumps_between_announcements(tab: Any,
                                                              server: PreviewServer) -> None:
    open_player(tab, server)
    tab.evaluate("document.getElementById('track').muted = true")
    tab.keyboard.press("Space")
    tab.wait_for_function("!document.getElementById('track').paused")
    assert tab.get_attribute("#play", "aria-label") == "Pause"
    tab.keyboard.press("k")
    tab.wait_for_function("document.getElementById('track').paused")
    tab.keyboard.press("Home")
    tab.keyboard.press("n")  # first announcement: mission start at 0:02
    tab.wait_for_function("document.getElementById('player').dataset.current === '2000'")
    tab.keyboard.press("n")
    tab.wait_for_function("document.getElementById('player').dataset.current === '12000'")
    tab.keyboard.press("ArrowRight")
    tab.wait_for_function("document.getElementById('clock').textContent === 'T+0:17'")
    tab.keyboard.press("j")
    tab.wait_for_function("document.getElementById('clock').textContent === 'T+0:07'")
    tab.focus("#forward")
    tab.keyboard.press("Enter")  # a focused button is operated with the keyboard too
    tab.wait_for_function("document.getElementById('clock').textContent === 'T+0:17'")
    assert tab.problems == []


def test_threat_flashes_in_its_zone_colour(tab: Any, server: PreviewServer) -> None:
    open_player(tab, server)
    tab.evaluate("document.getElementById('track').muted = true")
    seek(tab, 109.4)  # the serious threat in zone blue starts at 1:50
    tab.click("#play")
    tab.wait_for_function("document.getElementById('player').dataset.flash === 'blue@110000'",
                           timeout=5000)
    assert "zone-blue" in tab.get_attribute("#flash", "class")
    colour = tab.evaluate("getComputedStyle(document.getElementById('flash')).backgroundColor")
    assert colour == "rgb(66, 165, 245)"
    tab.click("#play")


def test_voice_menu_switches_the_soundtrack_and_keeps_the_time(tab: Any,
                                                                server: PreviewServer) -> None:
    open_player(tab, server)
    assert tab.eval_on_selector_all("#voice option", "os => os.map(o => o.textContent)") == \
        ["English ship computer (flite slt)", "British ship computer"]
    tab.once("dialog", lambda d: d.accept())  # "this spoils the mission": yes
    tab.click("#view")  # the author view lists every announcement
    listed = tab.locator("#cues li").count()
    seek(tab, 30.0)
    tab.select_option("#voice", "1")
    tab.wait_for_function("document.getElementById('track').currentSrc.endsWith('.en-gb.mp3')")
    tab.wait_for_function("document.getElementById('player').dataset.ready === 'yes' && "
                          "Math.abs(document.getElementById('track').currentTime - 30) < 0.5")
    assert tab.text_content("#clock") == "T+0:30"
    assert tab.locator("#cues li").count() == listed > 10  # rebuilt from the new track
    assert tab.locator("#cues li.current").get_attribute("data-start") == "24000"
    assert tab.problems == []


def test_download_links_resolve(tab: Any, server: PreviewServer) -> None:
    open_player(tab, server)
    hrefs = tab.eval_on_selector_all(".downloads a", "as => as.map(a => a.href)")
    tab.goto(server.url + "index.html")
    hrefs += tab.eval_on_selector_all("a[download]", "as => as.map(a => a.href)")
    assert len(hrefs) == 11  # 2 voices × (MP3 + 3 captions), PDF, YAML; the pack zip
    for href in hrefs:
        assert href.startswith(server.url)
        response = tab.request.get(href)
        assert response.status == 200, href
        assert len(response.body()) > 100


def test_site_works_from_a_folder_without_a_server(chromium: Any, built: BuildResult) -> None:
    context = chromium.new_context()
    p = context.new_page()
    problems: list[str] = []
    p.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    p.goto((built.out / "index.html").as_uri())
    p.click("table.missions a")
    p.wait_for_function("document.getElementById('player').dataset.ready === 'yes'")
    p.evaluate("document.getElementById('track').currentTime = 115")
    p.wait_for_function("document.getElementById('clock').textContent === 'T+1:55'")
    assert p.text_content("#phase") == "Phase 2"
    assert problems == []
    context.close()


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


def test_the_index_on_a_phone_labels_every_value(chromium: Any, server: PreviewServer,
                                                 tmp_path: Path) -> None:
    # Issue 38 item 10: at 390 px the column headers are hidden and "5", "base" stood alone
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                   has_touch=True)
    p = context.new_page()
    try:
        p.goto(server.url + "index.html")
        assert not p.is_visible(".missions thead")
        labels = p.eval_on_selector_all(
            ".missions tbody tr:first-child td",
            "tds => tds.map(td => getComputedStyle(td, '::before').content)")
        assert labels == ['"Difficulty "', '"Length "', '"Threats "', '"Players "',
                          '"Profile "']
        p.screenshot(path=str(shots_dir(tmp_path) / "index-phone.png"), full_page=True)
    finally:
        context.close()
