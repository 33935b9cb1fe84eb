"""Measures how fast the studio answers an edit: the latency a user feels after a drag.

Run from the repository root: ``python bench/studio.py [--runs 15]``. A studio server runs in
this process over a copy of official mission 1; each request goes over real HTTP. Reported:
the median wall time of a check (validate + lint + timeline) with nominal lengths and with
the voice's measured lengths (warm clip cache, as after the first load), a ``move`` edit
(ruamel round trip + the same checks), "play cue" and "play from here" (60 s of audio). Goal:
an edit answered well under the page's 350 ms typing debounce on a laptop.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from authoring.audio import load_voice
from authoring.studio.server import StudioServer

ROOT = Path(__file__).resolve().parents[1]
MISSION = ROOT / "missions" / "official" / "mission-1.yaml"


def _post(url: str, body: dict[str, Any]) -> bytes:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as answer:
        data: bytes = answer.read()
        return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "missions"
        folder.mkdir()
        shutil.copy(MISSION, folder / "m1.yaml")
        server = StudioServer(folder, load_voice("en"), cache_dir=Path(tmp) / "clips", quiet=True)
        server.start_in_background()
        text = MISSION.read_text(encoding="utf-8")
        api = server.url + "api/"
        cases = {
            "check (nominal lengths)": ("check", {"text": text, "lengths": "nominal"}),
            "check (voice lengths)": ("check", {"text": text}),
            "edit: move a threat": ("edit", {"text": text, "edit": {
                "op": "move", "index": 2, "at": "1:55"}}),
            "play cue (one threat)": ("render", {"text": text, "event": 0}),
            "play from here (60 s)": ("render", {"text": text, "from_ms": 170_000,
                                                 "seconds": 60}),
        }
        try:
            start = time.perf_counter()
            _post(api + "check", {"text": text})
            print(f"{'first check (cold clip cache)':32s} {time.perf_counter() - start:7.2f} s")
            for name, (route, body) in cases.items():
                _post(api + route, body)  # warm
                times = []
                for _ in range(args.runs):
                    start = time.perf_counter()
                    _post(api + route, body)
                    times.append(time.perf_counter() - start)
                print(f"{name:32s} median {statistics.median(times) * 1000:7.1f} ms  "
                      f"(min {min(times) * 1000:.1f}, {args.runs} runs)")
        finally:
            server.shutdown()
            server.server_close()


if __name__ == "__main__":
    main()
