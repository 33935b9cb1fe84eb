"""The rendered pages of a fixed site model match the checked-in golden folder.

After an intended theme change, regenerate with ``python -m tests.site.make_golden`` and
review the diff.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from authoring.render.site import render_pages
from tests.site.helpers import GOLDEN, golden_model


def test_pages_match_golden_folder() -> None:
    pages = {k: v for k, v in render_pages(golden_model()).items() if k.endswith(".html")}
    expected = {p.relative_to(GOLDEN).as_posix(): p.read_bytes()
                for p in GOLDEN.rglob("*.html")}
    assert sorted(pages) == sorted(expected)
    for name, data in pages.items():
        if data != expected[name]:
            diff = "\n".join(difflib.unified_diff(
                expected[name].decode().splitlines(), data.decode().splitlines(),
                f"golden/{name}", f"rendered/{name}", lineterm="", n=1))
            raise AssertionError(f"{name} differs from the golden page "
                                 f"(regenerate: python -m tests.site.make_golden)\n{diff}")


def test_rendering_is_a_pure_function_of_the_model() -> None:
    assert render_pages(golden_model()) == render_pages(golden_model())


def test_user_text_is_escaped_everywhere() -> None:
    pages = render_pages(golden_model())
    index = pages["index.html"].decode()
    mission = pages["missions/tiny-drill.html"].decode()
    assert "Golden &lt;Pack&gt; &amp; Co" in index
    assert "<script>alert(1)" not in mission
    assert "Tiny &lt;script&gt;alert(1)&lt;/script&gt; Drill" in mission
    assert "&lt;phase&gt; too short" in mission
    # the player's JSON sits in a script element: no raw "<" may end it early
    data = mission.split('id="player-data">', 1)[1].split("</script>", 1)[0]
    assert "<" not in data


def test_theme_assets_are_copied_and_pages_link_them() -> None:
    pages = render_pages(golden_model())
    assert {"assets/site.css", "assets/player.js"} <= set(pages)
    mission = pages["missions/first-watch.html"].decode()
    assert '<link rel="stylesheet" href="../assets/site.css">' in mission
    assert '<script src="../assets/player.js"></script>' in mission
    assert '<link rel="icon" href="data:,">' in mission


def test_index_lists_difficulty_length_and_threat_count() -> None:
    index = render_pages(golden_model())["index.html"].decode()
    row = index.split('href="missions/first-watch.html"', 1)[1].split("</tr>", 1)[0]
    # the simulated rating, told in games survived; the threat points' scale has words of its
    # own, so that one page never says "hard" for two things (issue 38 item 7)
    assert "difficulty-hard" in row and ">survived 2 of 20<" in row
    assert "A careful crew survived 2 of 20 games" in row
    tiny = index.split('href="missions/tiny-drill.html"', 1)[1].split("</tr>", 1)[0]
    assert ">light threat load<" in tiny and "from the threat points" in tiny
    for word in ("easy", "moderate", "hard", "extreme"):  # the badges' words, not their colours
        assert f">{word}" not in index
    assert ">10:00<" in row
    assert "6 <span" in row and "(2 serious)" in row


def test_a_template_folder_overrides_the_theme(tmp_path: Path) -> None:
    (tmp_path / "index.html.j2").write_text(
        '{% extends "site-base.html.j2" %}{% block main %}<p id="mine">{{ site.title }}</p>'
        "{% endblock %}", encoding="utf-8")
    pages = render_pages(golden_model(), [tmp_path])
    assert '<p id="mine">Golden &lt;Pack&gt; &amp; Co</p>' in pages["index.html"].decode()
    assert 'id="player"' in pages["missions/first-watch.html"].decode()  # not overridden
