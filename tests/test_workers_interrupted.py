"""Ctrl-C while ``ordered_map``'s workers send large results never hangs (issue 38, item 14).

``generate --count`` hung once in about 45 interrupted runs: ``multiprocessing.Pool.terminate``
joined its result thread, which was waiting for the rest of a result that a terminated worker
had only half written into the pipe all workers share (a chunk of mission texts is larger than
a pipe's buffer). The race is reproduced here without the generator: results of 300 kB, a
Ctrl-C at a different moment each run; with the Pool, about one run in 20 hung.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tools.processes import left_running

ROOT = Path(__file__).resolve().parents[1]
RUNS = 40

CHILD = """
import signal, sys
from authoring._workers import ordered_map

def big(n):
    return "x" * 300_000

def interrupted(signum, frame):
    raise KeyboardInterrupt

if __name__ == "__main__":
    signal.signal(signal.SIGINT, interrupted)
    print("ready", flush=True)
    try:
        for _ in ordered_map(big, list(range(100_000)), jobs=2, parallel_from=8):
            pass
    except KeyboardInterrupt:
        print("interrupted", flush=True)
"""

pytestmark = pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")


def test_ctrl_c_while_workers_send_large_results_never_hangs(tmp_path: Path) -> None:
    script = tmp_path / "child.py"
    script.write_text(CHILD, encoding="utf-8")
    moments = random.Random(38)  # the same moments on every run of the test
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for run in range(RUNS):
        child = subprocess.Popen([sys.executable, str(script)], env=env, cwd=tmp_path,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 process_group=0)
        assert child.stdout is not None
        assert child.stdout.readline() == "ready\n"  # its handler is in place
        time.sleep(0.02 + moments.random() * 0.3)
        os.killpg(child.pid, signal.SIGINT)  # the terminal's Ctrl-C: the whole group
        try:
            out, err = child.communicate(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
            pytest.fail(f"run {run}: still running 20 s after Ctrl-C")
        assert (child.returncode, out, err) == (0, "interrupted\n", ""), run
        assert left_running(child.pid, 10) == [], run
