"""The preview server answers byte ranges (206, Content-Range) and refuses bad ones (416)."""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from pathlib import Path

import pytest

from authoring.publish import PreviewServer, parse_range

BODY = bytes(range(256)) * 40  # 10 240 bytes


@pytest.fixture
def served(tmp_path: Path) -> Iterator[PreviewServer]:
    (tmp_path / "track.ogg").write_bytes(BODY)
    (tmp_path / "index.html").write_text("<!DOCTYPE html><title>x</title>", encoding="utf-8")
    server = PreviewServer(tmp_path, 0, quiet=True)
    server.start_in_background()
    yield server
    server.shutdown()
    server.server_close()


def get(server: PreviewServer, path: str, headers: dict[str, str] | None = None,
        method: str = "GET") -> tuple[int, http.client.HTTPMessage, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=5)
    try:
        conn.request(method, path, headers=headers or {})
        response = conn.getresponse()
        return response.status, response.headers, response.read()
    finally:
        conn.close()


def test_binds_to_loopback_only(served: PreviewServer) -> None:
    assert served.server_address[0] == "127.0.0.1"
    assert served.url.startswith("http://127.0.0.1:")


def test_whole_file_without_range_advertises_ranges(served: PreviewServer) -> None:
    status, headers, body = get(served, "/track.ogg")
    assert (status, body) == (200, BODY)
    assert headers["Accept-Ranges"] == "bytes"
    assert headers["Content-Type"] == "audio/ogg"


def test_range_gives_206_with_content_range(served: PreviewServer) -> None:
    status, headers, body = get(served, "/track.ogg", {"Range": "bytes=100-199"})
    assert status == 206
    assert headers["Content-Range"] == "bytes 100-199/10240"
    assert headers["Content-Length"] == "100"
    assert body == BODY[100:200]


def test_open_and_suffix_ranges(served: PreviewServer) -> None:
    status, headers, body = get(served, "/track.ogg", {"Range": "bytes=10000-"})
    assert (status, headers["Content-Range"], body) == (206, "bytes 10000-10239/10240",
                                                        BODY[10000:])
    status, headers, body = get(served, "/track.ogg", {"Range": "bytes=-16"})
    assert (status, headers["Content-Range"], body) == (206, "bytes 10224-10239/10240",
                                                        BODY[-16:])


def test_end_past_the_file_is_clamped(served: PreviewServer) -> None:
    status, headers, body = get(served, "/track.ogg", {"Range": "bytes=10200-99999"})
    assert (status, headers["Content-Range"], body) == (206, "bytes 10200-10239/10240",
                                                        BODY[10200:])


@pytest.mark.parametrize("header", ["bytes=20000-", "bytes=10240-10300", "bytes=-0",
                                    "BYTES = 99999-"])
def test_unsatisfiable_ranges_give_416(served: PreviewServer, header: str) -> None:
    status, headers, body = get(served, "/track.ogg", {"Range": header})
    assert status == 416
    assert headers["Content-Range"] == "bytes */10240"
    assert body == b""


@pytest.mark.parametrize("header", ["bytes=50-10", "bytes=abc", "bytes=0-1,5-6", "items=0-1",
                                    "bytes=", "bytes=-", "bytes 0-5", "bytes=1-2-3",
                                    "bytes=0x10-", "bytes=-5,", ",", "=0-1"])
def test_malformed_or_many_part_ranges_are_ignored(served: PreviewServer,
                                                   header: str) -> None:
    """RFC 9110 §14.2: a server ignores a Range it cannot use and sends the whole file."""
    status, headers, body = get(served, "/track.ogg", {"Range": header})
    if header == "bytes=-5,":  # one range-spec and an empty list element: valid, 206
        assert (status, body) == (206, BODY[-5:])
        return
    assert (status, body) == (200, BODY)
    assert "Content-Range" not in headers


def test_head_with_range_sends_no_body(served: PreviewServer) -> None:
    status, headers, body = get(served, "/track.ogg", {"Range": "bytes=0-9"}, method="HEAD")
    assert (status, headers["Content-Range"], body) == (206, "bytes 0-9/10240", b"")


def test_missing_file_with_range_is_404(served: PreviewServer) -> None:
    status, _, _ = get(served, "/nope.ogg", {"Range": "bytes=0-9"})
    assert status == 404


def test_parse_range_edge_cases() -> None:
    assert parse_range("bytes=0-0", 1) == (0, 0)
    assert parse_range("bytes=0-", 0) == "unsatisfiable"
    assert parse_range("bytes=5-1", 10) == "whole"
    assert parse_range("bytes=-5", 3) == (0, 2)
    assert parse_range(" bytes=1-2 ", 10) == (1, 2)


def test_serve_command_serves_a_built_site_on_loopback(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "index.html").write_text("<!DOCTYPE html><title>ok</title>", encoding="utf-8")
    (tmp_path / "a.ogg").write_bytes(BODY)
    process = subprocess.Popen(
        [sys.executable, "-m", "authoring", "pack", "serve", str(tmp_path), "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=Path(__file__).resolve().parents[2])
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:")
        conn = http.client.HTTPConnection("127.0.0.1", int(url.rsplit(":", 1)[1].strip("/")),
                                          timeout=5)
        conn.request("GET", "/a.ogg", headers={"Range": "bytes=5-9"})
        response = conn.getresponse()
        assert (response.status, response.read()) == (206, BODY[5:10])
        conn.close()
    finally:
        process.terminate()
        process.communicate(timeout=10)
