"""The preview server under attack, on loopback: escapes, malformed requests, bursts, stalls.

Shared by ``pack serve`` and ``play``. Every request gets an HTTP answer; nothing outside the
site root is served; a burst of 500 concurrent GETs is answered in full; a client that stops
halfway is dropped after the read timeout.
"""

from __future__ import annotations

import http.client
import resource
import socket
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from authoring.publish import PreviewServer, parse_range
from tests.site.test_range_server import BODY, get

SECRET = b"outside the site root"


@pytest.fixture
def site(tmp_path: Path) -> Path:
    root = tmp_path / "site"
    (root / "sub").mkdir(parents=True)
    (root / "track.ogg").write_bytes(BODY)
    (root / "index.html").write_text("<!DOCTYPE html><title>x</title>", encoding="utf-8")
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "secret.txt").write_bytes(SECRET)
    (outside / "folder" / "secret.txt").write_bytes(SECRET)
    (outside / "folder" / "index.html").write_bytes(SECRET)
    (root / "link.txt").symlink_to(outside / "secret.txt")
    (root / "linkdir").symlink_to(outside / "folder", target_is_directory=True)
    (root / "sub" / "index.html").symlink_to(outside / "folder" / "index.html")
    (root / "alias.ogg").symlink_to(root / "track.ogg")  # a link inside the root is fine
    return root


def serve(root: Path, read_timeout: float = 10.0) -> Iterator[PreviewServer]:
    server = PreviewServer(root, 0, quiet=True, read_timeout=read_timeout)
    server.start_in_background()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def served(site: Path) -> Iterator[PreviewServer]:
    yield from serve(site)


def raw(server: PreviewServer, data: bytes, timeout: float = 5.0) -> bytes:
    """Sends raw bytes and returns everything the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", server.server_address[1]), timeout) as conn:
        conn.sendall(data)
        chunks = []
        while chunk := conn.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


@pytest.mark.parametrize("path", ["/link.txt", "/linkdir/secret.txt", "/linkdir/",
                                  "/linkdir", "/sub/", "/sub/index.html"])
@pytest.mark.parametrize("ranged", [False, True])
def test_no_symlink_leads_out_of_the_root(served: PreviewServer, path: str,
                                          ranged: bool) -> None:
    status, _, body = get(served, path, {"Range": "bytes=0-5"} if ranged else None)
    assert status in (301, 404)  # 301: the base class adds the folder's slash first
    assert SECRET[:6] not in body


def test_a_symlink_inside_the_root_is_served(served: PreviewServer) -> None:
    assert get(served, "/alias.ogg")[::2] == (200, BODY)
    assert get(served, "/alias.ogg", {"Range": "bytes=1-2"})[::2] == (206, BODY[1:3])


@pytest.mark.parametrize("request_line", [b"GET /a\x00b HTTP/1.1", b"GET /\x00 HTTP/1.1",
                                          b"GET /track.ogg\x01 HTTP/1.1",
                                          b"GET /a%00b HTTP/1.1", b"GET /sub/%00 HTTP/1.1"])
def test_a_nul_or_control_character_in_the_path_gets_400(served: PreviewServer,
                                                         request_line: bytes) -> None:
    answer = raw(served, request_line + b"\r\nHost: x\r\n\r\n")
    assert answer.startswith(b"HTTP/1.0 400 "), answer[:80]
    assert get(served, "/track.ogg")[0] == 200  # still serving


@pytest.mark.parametrize("data", [b"\x00\x01\x02\r\n\r\n", b"GET\r\n\r\n",
                                     b"GET / HTTP/9.9\r\n\r\n", b"GET / HTTP/1.1 x\r\n\r\n",
                                     b"GET / HTTP/1.1\r\nX: " + b"y" * 70_000 + b"\r\n\r\n",
                                     b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n"])
def test_malformed_requests_get_an_http_answer(served: PreviewServer, data: bytes) -> None:
    answer = raw(served, data)
    assert answer[:13] in (b"HTTP/1.0 400 ", b"HTTP/1.0 414 ", b"HTTP/1.0 431 ",
                           b"HTTP/1.0 505 "), answer[:80]


def test_huge_numbers_in_a_range(served: PreviewServer) -> None:
    huge = "9" * 5000
    assert get(served, "/track.ogg", {"Range": f"bytes={huge}-"})[0] == 416
    assert get(served, "/track.ogg", {"Range": f"bytes=0-{huge}"})[::2] == (206, BODY)
    assert get(served, "/track.ogg", {"Range": f"bytes=-{huge}"})[::2] == (206, BODY)
    assert get(served, "/track.ogg", {"Range": f"bytes=00000{'0' * 5000}7-8"})[::2] == \
        (206, BODY[7:9])
    assert get(served, "/track.ogg", {"Range": f"bytes={huge}-1"})[::2] == (200, BODY)
    assert parse_range(f"bytes={huge}-", 10) == "unsatisfiable"


def test_a_burst_of_500_concurrent_gets_is_answered(served: PreviewServer) -> None:
    assert served.request_queue_size >= 512
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1400:  # 500 client and 500 server sockets in this one process
        if hard != resource.RLIM_INFINITY and hard < 1400:
            pytest.skip(f"needs 1400 open files, the limit is {hard}")
        resource.setrlimit(resource.RLIMIT_NOFILE, (1400, hard))
    start = threading.Barrier(500, timeout=60)

    def fetch(_: int) -> tuple[int, int]:
        conn = http.client.HTTPConnection("127.0.0.1", served.server_address[1], timeout=30)
        try:
            start.wait()  # all connect at once: the backlog must hold them
            conn.request("GET", "/track.ogg")
            response = conn.getresponse()
            return response.status, len(response.read())
        finally:
            conn.close()

    began = time.monotonic()
    with ThreadPoolExecutor(max_workers=500) as pool:
        answers = list(pool.map(fetch, range(500)))
    elapsed = time.monotonic() - began
    assert answers == [(200, len(BODY))] * 500
    assert elapsed < 30  # no connection waited for a SYN retry cycle to time out


@pytest.fixture
def impatient(site: Path) -> Iterator[PreviewServer]:
    yield from serve(site, read_timeout=0.5)


def test_a_half_sent_request_times_out(impatient: PreviewServer) -> None:
    began = time.monotonic()
    answer = raw(impatient, b"GET /track.ogg HTTP/1.1\r\nHost: x\r\n")  # headers never end
    assert answer.startswith(b"HTTP/1.0 408 ")
    answer = raw(impatient, b"GET /track.og")  # not even the request line
    assert answer == b""  # dropped: the thread is free again
    assert time.monotonic() - began < 4
    assert get(impatient, "/track.ogg")[::2] == (200, BODY)
