"""``pack serve --watch``: the site is rebuilt when a pack file changes, for real.

The command runs as a child process started the way a terminal starts it (its own process
group, SIGINT at its default), builds the test pack, serves it, and is edited under its feet.
"""

from __future__ import annotations

import http.client
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from authoring.publish import BuildResult
from authoring.publish.watch import changes, snapshot
from tests.site.helpers import PACK

REPO = Path(__file__).resolve().parents[2]


def test_snapshot_sees_changes_but_not_hidden_files_or_the_site(tmp_path: Path) -> None:
    (tmp_path / "missions").mkdir()
    (tmp_path / "_site").mkdir()
    (tmp_path / "pack.yaml").write_text("a", encoding="utf-8")
    (tmp_path / "missions" / "m.yaml").write_text("b", encoding="utf-8")
    (tmp_path / "_site" / "index.html").write_text("c", encoding="utf-8")
    (tmp_path / ".pack.yaml.swp").write_text("d", encoding="utf-8")
    (tmp_path / "._site.x.tmp").mkdir()
    (tmp_path / "._site.x.tmp" / "index.html").write_text("e", encoding="utf-8")
    before = snapshot(tmp_path, [tmp_path / "_site"])
    assert sorted(before) == ["missions/m.yaml", "pack.yaml"]
    (tmp_path / "_site" / "index.html").write_text("changed", encoding="utf-8")
    assert snapshot(tmp_path, [tmp_path / "_site"]) == before
    (tmp_path / "missions" / "m.yaml").write_text("bb", encoding="utf-8")
    (tmp_path / "missions" / "new.yaml").write_text("n", encoding="utf-8")
    (tmp_path / "pack.yaml").unlink()
    after = snapshot(tmp_path, [tmp_path / "_site"])
    assert changes(before, after) == ["missions/m.yaml", "missions/new.yaml", "pack.yaml"]


def fetch(port: int, path: str) -> str:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        return conn.getresponse().read().decode("utf-8")
    finally:
        conn.close()


def wait_for(condition: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}")


def test_serve_watch_rebuilds_on_change_and_survives_a_broken_edit(
        tmp_path: Path, built: BuildResult) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(PACK, pack)
    cache = built.out.parent / "cache"  # the session build's clips: rebuilds stay quick
    child = subprocess.Popen(
        [sys.executable, "-m", "authoring", "pack", "serve", str(pack), "--port", "0",
         "--watch", "--interval", "0.2", "--cache-dir", str(cache)],
        cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(REPO), "SOURCE_DATE_EPOCH": "1700000000"},
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    errors: list[str] = []
    assert child.stdout is not None and child.stderr is not None
    reader = threading.Thread(target=lambda: errors.extend(child.stderr or []), daemon=True)
    reader.start()
    try:
        url = child.stdout.readline().strip()  # printed once the first build is served
        assert url.startswith("http://127.0.0.1:"), errors
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        assert "Test &lt;b&gt;Pack&lt;/b&gt;" in fetch(port, "/index.html")

        manifest = pack / "pack.yaml"
        manifest.write_text(manifest.read_text("utf-8").replace("Test <b>Pack</b>",
                                                                "Watched Pack"), "utf-8")
        wait_for(lambda: "Watched Pack" in fetch(port, "/index.html"), 180, "the rebuild")
        wait_for(lambda: any(line.startswith("rebuilt after pack.yaml") for line in errors),
                 10, "the rebuild's report")  # printed just after the new site is in place

        mission = pack / "missions" / "tiny-drill.yaml"
        mission.write_text("title: [unclosed\n", "utf-8")
        wait_for(lambda: any("failed" in line for line in errors), 60, "the failed rebuild")
        assert "Watched Pack" in fetch(port, "/index.html")  # the last good site stays
        assert "tiny-drill.yaml" in next(line for line in errors if "failed" in line)
    finally:
        os.killpg(child.pid, signal.SIGINT)
        child.wait(timeout=30)
        reader.join(timeout=5)
        child.stdout.close()
        child.stderr.close()
    assert child.returncode == 130, errors
    assert errors[-1].strip() == "interrupted"
    assert not any("Traceback" in line for line in errors), errors
    assert sorted(p.name for p in pack.iterdir()) == ["_site", "missions", "pack.yaml",
                                                      "voices"]
