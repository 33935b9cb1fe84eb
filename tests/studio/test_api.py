"""The studio's JSON API over real HTTP: every route, and bad input answered with a 4xx JSON."""

from __future__ import annotations

import io
import os
import wave
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from authoring.mission import load_mission
from authoring.mission.load import parse_document
from authoring.studio.analysis import event_of
from tests.studio.conftest import MISSION, Studio

TEXT = MISSION.read_text(encoding="utf-8")


def codes(answer: dict[str, Any]) -> set[str]:
    return {p["code"] for p in answer["problems"]}


def test_session_and_files(studio: Studio) -> None:
    (studio.folder / "sub").mkdir()
    (studio.folder / "sub" / "b.yml").write_text(TEXT, encoding="utf-8")
    (studio.folder / "notes.txt").write_text("x", encoding="utf-8")
    (studio.folder / ".hidden").mkdir()
    (studio.folder / ".hidden" / "c.yaml").write_text(TEXT, encoding="utf-8")
    status, session, _ = studio.call("GET", "/api/session")
    assert status == 200
    assert session["first"] == "m1.yaml" and session["voice"]["id"] == "en"
    assert session["files"] == ["m1.yaml", "sub/b.yml"]
    assert studio.call("GET", "/api/files")[1] == {"files": ["m1.yaml", "sub/b.yml"]}


def test_a_symlink_out_of_the_folder_is_neither_listed_nor_read(studio: Studio) -> None:
    outside = studio.folder.parent / "secret.yaml"
    outside.write_text(TEXT, encoding="utf-8")
    os.symlink(outside, studio.folder / "link.yaml")
    assert "link.yaml" not in studio.call("GET", "/api/files")[1]["files"]
    status, body, _ = studio.call("GET", "/api/mission?file=link.yaml")
    assert status == 400 and "outside" in body["error"]


def test_mission_has_text_token_checks_and_the_timeline_with_voice_lengths(
        studio: Studio) -> None:
    status, answer, _ = studio.call("GET", "/api/mission?file=m1.yaml")
    assert status == 200
    assert answer["text"] == TEXT and answer["valid"] is True
    assert answer["data"]["phases"] == ["3:45", "7:30", "10:00"]
    timeline = answer["timeline"]
    assert timeline["lengths"] == "voice" and timeline["phases_ms"] == [225_000, 450_000, 600_000]
    threat = next(c for c in timeline["cues"] if c["kind"] == "threat")
    nominal = next(c for c in studio.call("GET", "/api/mission?file=m1.yaml&lengths=nominal")[1]
                   ["timeline"]["cues"] if c["kind"] == "threat")
    # the voice's measured length, not the official recording's
    assert threat["end_ms"] - threat["start_ms"] != threat["nominal_ms"]
    assert nominal["end_ms"] - nominal["start_ms"] == nominal["nominal_ms"]
    assert answer["problems"] and all(p["doc"].startswith("/api/rule/")
                                      for p in answer["problems"])


@pytest.mark.parametrize(("query", "status"), [
    ("", 400), ("?file=", 400), ("?file=../m1.yaml", 400), ("?file=/etc/passwd", 400),
    ("?file=m1.txt", 400), ("?file=missing.yaml", 404), ("?file=a%00.yaml", 400),
    ("?file=sub/../m1.yaml", 400),
])
def test_mission_refuses_bad_names(studio: Studio, query: str, status: int) -> None:
    code, body, headers = studio.call("GET", "/api/mission" + query)
    assert code == status
    assert headers["Content-Type"].startswith("application/json") and body["error"]


def test_check_reports_problems_at_their_event(studio: Studio) -> None:
    moved = TEXT.replace('"0:55"', '"0:12"')
    status, answer, _ = studio.call("POST", "/api/check", {"text": moved, "lengths": "nominal"})
    assert status == 200 and answer["valid"]
    near = [p for p in answer["problems"] if p["code"] == "T106"]
    assert near and near[0]["event"] == 1 and near[0]["line"] == 15
    status, answer, _ = studio.call("POST", "/api/check", {"text": "phases: [", "lengths":
                                                           "nominal"})
    assert status == 200 and not answer["valid"] and codes(answer) == {"S001"}
    assert answer["timeline"] is None


def test_edit_move_keeps_comments_and_time_order(studio: Studio) -> None:
    status, answer, _ = studio.call("POST", "/api/edit", {
        "text": TEXT, "edit": {"op": "move", "index": 0, "at": "1:00"}, "lengths": "nominal"})
    assert status == 200
    assert answer["index"] == 1  # after the 0:55 event now
    lines = answer["text"].splitlines()
    assert lines[14] == ('  - {at: "1:00", threat: {turn: 2, zone: white, serious: true}}  '
                         "# one of the three transcriptions: normal (not serious)")
    assert answer["text"].count("#") == TEXT.count("#")
    assert answer["valid"] and "M004" not in codes(answer)


def test_edit_set_add_delete_meta(studio: Studio) -> None:
    def edit(text: str, op: dict[str, Any]) -> dict[str, Any]:
        status, answer, _ = studio.call("POST", "/api/edit", {"text": text, "edit": op,
                                                               "lengths": "nominal"})
        assert status == 200, answer
        return answer

    a = edit(TEXT, {"op": "set", "index": 2, "fields": {"threat": {"turn": 4, "zone": "red"}}})
    assert '{at: "1:50", threat: {turn: 4, zone: red}}' in a["text"]
    b = edit(a["text"], {"op": "add", "fields": {"at": 100, "announcement": {"text": "Hello"}}})
    assert b["index"] == 2 and '{at: "1:40", announcement: {text: Hello}}' in b["text"]
    c = edit(b["text"], {"op": "delete", "index": 2})
    assert c["text"] == a["text"]
    d = edit(c["text"], {"op": "meta", "fields": {"title": "Renamed", "players": 4,
                                                  "phases": ["3:40", "7:30", "10:00"]}})
    assert 'title: "Renamed"' in d["text"] and "players: 4" in d["text"]
    assert 'phases: ["3:40", "7:30", "10:00"]' in d["text"]
    mission = load_mission_text(d["text"])
    assert mission.players == 4 and mission.phases[0] == 220


def load_mission_text(text: str) -> Any:
    from authoring.mission import check_mission

    mission, problems = check_mission(parse_document(text, "x.yaml"))
    assert mission is not None, problems
    return mission


def test_delete_shifts_the_comments_of_later_events(studio: Studio) -> None:
    status, answer, _ = studio.call("POST", "/api/edit", {
        "text": TEXT, "edit": {"op": "delete", "index": 1}, "lengths": "nominal"})
    assert status == 200
    assert '{at: "3:50", incoming_data: {}}  # one of the three transcriptions: at 3:55' \
        in answer["text"]
    assert '{at: "8:20", data_transfer: {}}  # absent' in answer["text"]


@pytest.mark.parametrize("edit", [
    {"op": "fly"}, {"op": "move", "index": 99, "at": "1:00"}, {"op": "move", "index": "0"},
    {"op": "move", "index": 0, "at": "99:99"}, {"op": "move", "index": 0, "at": True},
    {"op": "add", "fields": {"at": "1:00"}}, {"op": "add", "fields": {"at": "1:00", "bogus": {}}},
    {"op": "add", "fields": {"at": "1:00", "threat": 3}},
    {"op": "add", "fields": {"at": "1:00", "threat": {}, "incoming_data": {}}},
    {"op": "set", "index": -1, "fields": {}}, {"op": "meta", "fields": {"events": []}},
    {"op": "meta", "fields": {}}, {"op": "meta", "fields": {"phases": "3:00"}},
])
def test_bad_edits_are_refused_with_a_message(studio: Studio, edit: dict[str, Any]) -> None:
    status, answer, _ = studio.call("POST", "/api/edit", {"text": TEXT, "edit": edit})
    assert status == 422 and answer["error"]


def test_an_edit_of_broken_yaml_is_refused(studio: Studio) -> None:
    status, answer, _ = studio.call("POST", "/api/edit", {
        "text": "events: [", "edit": {"op": "delete", "index": 0}})
    assert status == 422 and "line" in answer["error"]


def test_save_writes_atomically_and_refuses_a_changed_file(studio: Studio) -> None:
    token = studio.call("GET", "/api/mission?file=m1.yaml&lengths=nominal")[1]["token"]
    edited = TEXT.replace('title: "Mission 1"', 'title: "Mine"')
    status, answer, _ = studio.call("PUT", "/api/mission", {"file": "m1.yaml", "text": edited,
                                                            "token": token})
    assert status == 200 and answer["token"] != token
    assert (studio.folder / "m1.yaml").read_text(encoding="utf-8") == edited
    assert [p.name for p in studio.folder.iterdir()] == ["m1.yaml"]  # no temp file left
    assert studio.call("GET", "/api/status?file=m1.yaml")[1]["token"] == answer["token"]
    # another editor changes the file: the stale token is refused, the file kept
    (studio.folder / "m1.yaml").write_text(TEXT + "# theirs\n", encoding="utf-8")
    status, conflict, _ = studio.call("PUT", "/api/mission", {
        "file": "m1.yaml", "text": edited, "token": answer["token"]})
    assert status == 409 and conflict["token"] not in (None, answer["token"])
    assert (studio.folder / "m1.yaml").read_text(encoding="utf-8").endswith("# theirs\n")
    # saving again with the disk's token is the explicit "overwrite"
    status, _, _ = studio.call("PUT", "/api/mission", {"file": "m1.yaml", "text": edited,
                                                       "token": conflict["token"]})
    assert status == 200


@pytest.mark.parametrize("body", [
    {"file": "m1.yaml", "text": TEXT}, {"file": "m1.yaml", "token": "x"},
    {"file": "../out.yaml", "text": TEXT, "token": "x"}, {"text": TEXT, "token": "x"},
])
def test_save_refuses_bad_bodies(studio: Studio, body: dict[str, Any]) -> None:
    status, answer, _ = studio.call("PUT", "/api/mission", body)
    assert status in (400, 409) and answer["error"]
    assert (studio.folder / "m1.yaml").read_text(encoding="utf-8") == TEXT


def decode(wav: bytes) -> np.ndarray[Any, Any]:
    with wave.open(io.BytesIO(wav)) as reader:
        assert reader.getframerate() == 44_100 and reader.getsampwidth() == 2
        return np.frombuffer(reader.readframes(reader.getnframes()), dtype="<i2")


def test_render_one_event_and_from_a_moment(studio: Studio) -> None:
    status, wav, headers = studio.call("POST", "/api/render", {"text": TEXT, "event": 0})
    assert status == 200 and headers["Content-Type"] == "audio/wav"
    samples = decode(wav)
    assert 4 < len(samples) / 44_100 < 15  # one threat announcement (said twice)
    assert np.abs(samples[:2000]).max() > 100  # speech starts at once
    status, wav, _ = studio.call("POST", "/api/render", {"text": TEXT, "from_ms": 170_000,
                                                         "seconds": 20})
    assert status == 200 and len(decode(wav)) / 44_100 == pytest.approx(21, abs=0.1)


@pytest.mark.parametrize("body", [
    {"event": 0}, {"text": TEXT}, {"text": TEXT, "event": 0, "from_ms": 0},
    {"text": TEXT, "event": 500}, {"text": TEXT, "cue": -1}, {"text": TEXT, "from_ms": "0"},
    {"text": TEXT, "from_ms": 0, "seconds": 10_000}, {"text": "phases: [", "event": 0},
])
def test_render_refuses_bad_bodies(studio: Studio, body: dict[str, Any]) -> None:
    status, answer, _ = studio.call("POST", "/api/render", body)
    assert 400 <= status < 500 and answer["error"]


def test_new_from_the_template_and_from_the_generator(studio: Studio) -> None:
    status, answer, _ = studio.call("POST", "/api/new", {"file": "fresh.yaml",
                                                         "profile": "test-run"})
    assert status == 200 and "fresh.yaml" in answer["files"]
    mission = load_mission(studio.folder / "fresh.yaml")
    assert mission.profile == "test-run" and len(mission.phases) == 2
    status, answer, _ = studio.call("POST", "/api/new", {"file": "gen.yaml",
                                                         "generate": {"seed": 7}})
    assert status == 200
    text = (studio.folder / "gen.yaml").read_text(encoding="utf-8")
    assert "--seed 7" in text and load_mission(studio.folder / "gen.yaml").threats()
    status, answer, _ = studio.call("POST", "/api/new", {"file": "gen.yaml"})
    assert status == 409  # never overwrites


@pytest.mark.parametrize("body", [
    {"file": "../x.yaml"}, {"file": "x.txt"}, {"file": "nope/x.yaml"},
    {"file": "x.yaml", "profile": "hard"}, {"file": "x.yaml", "players": 9},
    {"file": "x.yaml", "generate": {"seed": "a"}}, {"file": "x.yaml", "generate": {"bad": 1}},
    {"file": "x.yaml", "generate": {"players": 5, "figures": 4}},
    {"file": "x.yaml", "generate": []},
])
def test_new_refuses_bad_bodies(studio: Studio, body: dict[str, Any]) -> None:
    status, answer, _ = studio.call("POST", "/api/new", body)
    assert 400 <= status < 500 and answer["error"]
    assert not (studio.folder / "x.yaml").exists()


def test_rule_explanations(studio: Studio) -> None:
    status, rule, _ = studio.call("GET", "/api/rule/t106")
    assert status == 200 and rule["code"] == "T106" and "overlap" in rule["doc"]
    assert studio.call("GET", "/api/rule/M004")[1]["name"] == "event-order"
    assert studio.call("GET", "/api/rule/Z999")[0] == 404


@pytest.mark.slow
def test_rate_runs_the_simulation_rules(studio: Studio,
                                       fewer_games: Callable[[int], None]) -> None:
    fewer_games(16)  # the shape of the answer, not the figure
    status, answer, _ = studio.call("POST", "/api/rate", {"text": TEXT})
    assert status == 200 and answer["valid"]
    rating = answer["rating"]
    assert rating["games"] > 0 and 0 <= rating["survival"] <= 1
    assert rating["official_low"] <= rating["official_high"]
    low, high = rating["survival_interval"]
    assert low <= rating["survival"] <= high and rating["margin"] > 0
    assert all(p["code"].startswith("G") for p in answer["problems"])
    status, answer, _ = studio.call("POST", "/api/rate", {"text": "format: 1"})
    assert status == 200 and not answer["valid"] and answer["rating"] is None


@pytest.mark.parametrize(("headers", "path"), [
    ({"Origin": "http://evil.example"}, "/api/session"),
    ({"Host": "evil.example"}, "/api/session"),
    ({"Host": "evil.example"}, "/index.html"),
    ({"Sec-Fetch-Site": "cross-site"}, "/api/files"),
])
def test_other_origins_are_refused(studio: Studio, headers: dict[str, str], path: str) -> None:
    status, answer, _ = studio.call("GET", path, headers=headers)
    assert status == 403 and "refused" in answer["error"]


def test_a_cross_site_write_is_refused_and_changes_nothing(studio: Studio) -> None:
    token = studio.call("GET", "/api/status?file=m1.yaml")[1]["token"]
    status, _, _ = studio.call("PUT", "/api/mission", {"file": "m1.yaml", "text": "x: 1",
                                                       "token": token},
                               headers={"Origin": "http://evil.example"})
    assert status == 403
    assert (studio.folder / "m1.yaml").read_text(encoding="utf-8") == TEXT


@pytest.mark.parametrize(("method", "path", "raw", "headers", "status"), [
    ("POST", "/api/check", b"{not json", {}, 400),
    ("POST", "/api/check", b"[1]", {}, 400),
    ("POST", "/api/check", b"\xff\xfe", {}, 400),
    ("POST", "/api/check", b'{"text": 3}', {}, 400),
    ("POST", "/api/check", b'{"text": "x"}', {"Content-Type": "text/plain"}, 415),
    ("POST", "/api/nowhere", b"{}", {}, 404),
    ("DELETE", "/api/mission", None, {}, 405),
    ("PUT", "/api/check", b"{}", {}, 405),
    ("GET", "/api/nowhere", None, {}, 404),
])
def test_malformed_requests_get_json_errors(studio: Studio, method: str, path: str,
                                            raw: bytes | None, headers: dict[str, str],
                                            status: int) -> None:
    code, answer, got = studio.call(method, path, raw=raw, headers=headers)
    assert code == status and got["Content-Type"].startswith("application/json")
    assert answer["error"]


def test_a_body_over_the_limit_is_refused_unread(studio: Studio) -> None:
    import socket

    host, port = studio.server.server_address[:2]
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(f"POST /api/check HTTP/1.1\r\nHost: {host}:{port}\r\n"
                     "Content-Type: application/json\r\nContent-Length: 99999999\r\n\r\n"
                     .encode())
        reply = sock.recv(4096).decode()
    assert reply.startswith("HTTP/1.0 413")


def test_static_files_and_no_escape_from_them(studio: Studio) -> None:
    status, page, headers = studio.call("GET", "/")
    assert status == 200 and b"spacealert studio" in page
    assert "default-src 'self'" in headers["Content-Security-Policy"]
    assert studio.call("GET", "/studio.js")[0] == 200
    for path in ("/../m1.yaml", "/%2e%2e/%2e%2e/etc/passwd", "/m1.yaml"):
        assert studio.call("GET", path)[0] == 404


def test_event_of_reads_the_json_path() -> None:
    from authoring.lint.problem import Problem

    def at(path: str) -> int | None:
        return event_of(Problem("f", 1, 1, "T1", "n", "m", path=path))

    assert at("$.events[12].threat.zone") == 12 and at("$.phases[0]") is None and at("$") is None


def test_every_bundled_mission_survives_an_edit_round_trip() -> None:
    from authoring.studio.document import roundtrip

    for path in sorted((MISSION.parents[1]).rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert roundtrip(text) == text, path


def test_test_run_serves_the_players_page_until_the_next_run(studio: Studio) -> None:
    status, run, _ = studio.call("POST", "/api/testrun", {"text": TEXT})
    assert status == 200 and run["url"].startswith("/run/1/") and run["url"].endswith("#play")
    page_path = run["url"].split("#")[0]
    status, page, headers = studio.call("GET", page_path)
    assert status == 200 and b"Mission 1" in page
    assert "Content-Security-Policy" not in headers  # the site's own page
    wav = f"/run/1/files/cd-mission-1/cd-mission-1.{studio.server.voice.id}.wav"
    status, part, headers = studio.call("GET", wav, headers={"Range": "bytes=0-99"})
    assert status == 206 and len(part) == 100 and part[:4] == b"RIFF"
    first = studio.server.run[1] if studio.server.run else None
    assert first is not None and first.is_dir()
    status, second, _ = studio.call("POST", "/api/testrun", {"text": TEXT})
    assert second["url"].startswith("/run/2/") and not first.exists()
    assert studio.call("GET", page_path)[0] == 404
    for path in ("/run/2/../../m1.yaml", "/run/2/%2e%2e/%2e%2e/etc/passwd", "/run/x/index.html"):
        assert studio.call("GET", path)[0] == 404
    status, answer, _ = studio.call("POST", "/api/testrun", {"text": "format: 1"})
    assert status == 422 and answer["error"]
    studio.server.server_close()
    assert studio.server.run is None


def test_another_bundled_voice_measures_and_speaks(studio: Studio) -> None:
    status, session, _ = studio.call("GET", "/api/session")
    assert "en-espeak" in session["voices"] and "en" in session["voices"]
    status, answer, _ = studio.call("POST", "/api/check", {"text": TEXT, "voice": "en-espeak"})
    assert status == 200 and answer["timeline"]["voice"] == "en-espeak"
    ours = studio.call("POST", "/api/check", {"text": TEXT})[1]["timeline"]
    theirs = answer["timeline"]
    threat = [c["end_ms"] - c["start_ms"] for c in ours["cues"] if c["kind"] == "threat"]
    other = [c["end_ms"] - c["start_ms"] for c in theirs["cues"] if c["kind"] == "threat"]
    assert threat != other  # another voice, other lengths
    status, wav, _ = studio.call("POST", "/api/render", {"text": TEXT, "event": 0,
                                                         "voice": "en-espeak"})
    assert status == 200 and len(decode(wav)) > 44_100
    for bad in ("nope", 3, "../en"):
        status, refused, _ = studio.call("POST", "/api/check", {"text": TEXT, "voice": bad})
        assert status == 400 and "voice" in refused["error"]


GARBAGE: list[Any] = [
    {}, {"text": None}, {"text": ""}, {"text": "\x00"}, {"text": "- a\n- b"}, {"text": "a: [1"},
    {"text": TEXT, "edit": {"op": "meta", "fields": {"phases": [1.5]}}},
    {"text": TEXT, "edit": {"op": "set", "index": 0, "fields": {"at": [1]}}},
    {"text": TEXT, "edit": {"op": "set", "index": 0, "fields": {"threat": {"turn": {"a": 1}}}}},
    {"text": TEXT, "edit": {"op": "meta", "fields": {"title": ["x"], "players": 1e300}}},
    {"text": "events: 3", "edit": {"op": "add", "fields": {"at": "1:00", "incoming_data": {}}}},
    {"text": "x: 1", "edit": {"op": "move", "index": 0, "at": "1:00"}},
    {"text": TEXT, "event": True}, {"text": TEXT, "cue": 10**9}, {"file": ["a"], "text": TEXT,
                                                                   "token": "t"},
    {"file": "a.yaml", "generate": {"profile": ["base"]}}, {"file": "a.yaml", "profile": None},
    {"text": TEXT, "voice": {"id": "en"}},
]


@pytest.mark.parametrize("route", [("POST", "/api/check"), ("POST", "/api/edit"),
                                   ("POST", "/api/render"), ("PUT", "/api/mission"),
                                   ("POST", "/api/new")])
def test_garbage_never_gets_a_server_error(studio: Studio, route: tuple[str, str]) -> None:
    method, path = route
    for body in GARBAGE:
        status, answer, headers = studio.call(method, path, body)
        assert status < 500, (body, answer)
        assert headers["Content-Type"].startswith(("application/json", "audio/wav")), body
    assert (studio.folder / "m1.yaml").read_text(encoding="utf-8") == TEXT
