"""The shared Jinja environment: autoescape, StrictUndefined, user overrides first."""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest

from authoring.render.env import TEMPLATE_DIR, make_environment, template_path


def test_autoescapes_every_template(tmp_path: Path) -> None:
    (tmp_path / "x.svg.j2").write_text("<text>{{ v }}</text>", encoding="utf-8")
    env = make_environment([tmp_path])
    assert env.get_template("x.svg.j2").render(v="<b>&") == "<text>&lt;b&gt;&amp;</text>"


def test_undefined_variables_raise() -> None:
    env = make_environment()
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ missing }}").render()


def test_user_templates_override_the_packaged_ones(tmp_path: Path) -> None:
    (tmp_path / "base.html.j2").write_text("custom {{ mission }}", encoding="utf-8")
    env = make_environment([tmp_path])
    assert env.get_template("base.html.j2").render(mission="m") == "custom m"
    assert template_path([tmp_path]) == [tmp_path, TEMPLATE_DIR]


def test_data_uri_filter_percent_encodes_markup() -> None:
    env = make_environment()
    uri = env.from_string("{{ '<svg a=\"1\">&amp;</svg>' | data_uri }}").render()
    assert uri.startswith("data:image/svg+xml;charset=utf-8,%3Csvg")
    assert "<" not in uri and '"' not in uri
