"""Every sheet kind renders to HTML for every official mission, with the expected content."""

from __future__ import annotations

import html as htmllib
import re
from pathlib import Path

import pytest

from authoring.crew import crew_size
from authoring.errors import UsageError
from authoring.mission import load_mission
from authoring.mission.model import Mission
from authoring.render import SHEET_KINDS, Difficulty, SheetOptions, render_html
from authoring.render.catalogue import load_faces

OFFICIAL = sorted((Path(__file__).resolve().parents[2] / "missions" / "official").glob("*.yaml"))
FACES = load_faces()


def _text(page: str) -> str:
    """Returns the visible text of a page, roughly (tags dropped, entities decoded)."""
    page = re.sub(r"<style>.*?</style>", " ", page, flags=re.S)
    return htmllib.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("path", OFFICIAL, ids=lambda p: p.stem)
@pytest.mark.parametrize("kind", SHEET_KINDS)
def test_every_kind_renders_for_every_official_mission(path: Path, kind: str) -> None:
    mission = load_mission(path)
    page = render_html(mission, SheetOptions(kind=kind, seed=7), FACES)  # type: ignore[arg-type]
    assert page.startswith("<!DOCTYPE html>")
    text = _text(page)
    assert mission.title in text
    if kind == "briefing":
        assert "<svg" in page and "Timeline" in text
        assert text.count("Phase ") >= len(mission.phases)
    elif kind == "comms-officer":
        spoken = [t for t in mission.threats()
                  if not t.unconfirmed or mission.crew.plays_unconfirmed]
        assert page.count('class="tick"') >= len(mission.events) + len(mission.phases)
        assert text.count("Repeat: Time T plus") == len(spoken)
    elif kind == "threats":
        assert page.count('<section class="card') >= 6
        assert "data:image/svg+xml" in page
    else:
        assert page.count('<section class="card') == len(mission.threats())


def test_briefing_facts_and_optional_difficulty(small_mission: Mission) -> None:
    plain = _text(render_html(small_mission, SheetOptions(kind="briefing")))
    assert "Trajectories red T3, white T5, blue T7, internal T4" in plain
    assert "common: white; serious: white" in plain
    assert "3 announced, 4 threat points (1 unconfirmed report, ignored below 5 figures)" in plain
    assert "Difficulty" not in plain
    assert "0:10 T+1 threat, card E1-07 red" in plain
    assert "1:30 communications down 10 s" in plain
    assert "T+3" not in plain  # the unconfirmed report, 4 players
    rated = render_html(small_mission, SheetOptions(
        kind="briefing", difficulty=Difficulty("hard", "survived 41% of 200 simulated crews",
                                               (("median score", "12"),))))
    assert "survived 41% of 200 simulated crews" in _text(rated)
    assert "median score" in rated


def test_threat_sheet_draws_pinned_boards_only_where_the_card_can_appear(
        small_mission: Mission) -> None:
    page = render_html(small_mission, SheetOptions(kind="threats"), FACES)
    fighter = page[page.index('id="card-E1-07"'):]
    fighter = fighter[:fighter.index("</section>")]
    assert 'alt="red T3: X' in fighter and "blue T7" not in fighter  # 4 players: pinned only
    assert "Fighter" in fighter
    five = render_html(small_mission, SheetOptions(kind="threats", players=5), FACES)
    pulse = five[five.index('id="card-E1-01"'):]
    assert 'alt="blue T7: X' in pulse[:pulse.index("</section>")]


def test_comms_officer_lists_each_announcement_once_in_time_order(
        small_mission: Mission) -> None:
    page = render_html(small_mission, SheetOptions(kind="comms-officer"), FACES)
    times = re.findall(r'<td class="time">([0-9:.]+)', page)
    assert times == sorted(times, key=lambda t: [float(x) for x in t.split(":")])
    text = _text(page)
    assert "1:30\u20131:40" in text and "10 s of silence" in text
    assert "Time T plus three" not in text  # unconfirmed, 4 players
    assert text.count("Mission complete") == 1


def test_answer_key_needs_a_seed_when_cards_are_left_to_chance(small_mission: Mission) -> None:
    with pytest.raises(UsageError, match="--seed"):
        render_html(small_mission, SheetOptions(kind="answer-key"), FACES)
    page = _text(render_html(small_mission, SheetOptions(kind="answer-key", seed=3), FACES))
    assert "Fighter E1-07 (pinned)" in page
    assert "Draw with seed 3" in page and "(pinned): red T3" in page


def test_mission_text_is_escaped(write_mission) -> None:  # type: ignore[no-untyped-def]
    mission = load_mission(write_mission("Mission 7: <script>alert(1)</script> & Co"))
    for kind in SHEET_KINDS:
        page = render_html(mission, SheetOptions(kind=kind, seed=1), FACES)  # type: ignore[arg-type]
        for raw in ("<script>", "<img src=x", "<b>Author", "<b>Hull"):
            assert raw not in page
        assert "Mission 7: &lt;script&gt;alert(1)&lt;/script&gt; &amp; Co" in page
    briefing = render_html(mission, SheetOptions(kind="briefing"), FACES)
    assert "&lt;img src=x onerror=alert(1)&gt; &amp; friends" in briefing
    assert "Ann &lt;b&gt;Author&lt;/b&gt;" in briefing


def test_same_input_same_html() -> None:
    mission = load_mission(OFFICIAL[0])
    options = SheetOptions(kind="answer-key", seed=5)
    assert render_html(mission, options, FACES) == render_html(mission, options, FACES)


def test_letter_paper_sets_the_page_size(small_mission: Mission) -> None:
    assert "size: letter;" in render_html(small_mission, SheetOptions(paper="letter"))
    assert "size: A4;" in render_html(small_mission, SheetOptions())


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_answer_key_for_every_crew_size(players: int) -> None:
    mission = load_mission(OFFICIAL[-1])  # test-run-2: rule level 1 in the engine
    page = _text(render_html(mission, SheetOptions(kind="answer-key", seed=2, players=players),
                             FACES))
    assert crew_size(players).describe() in page  # "1 player and 3 androids"
    assert page.count("T+") >= len(mission.threats())
