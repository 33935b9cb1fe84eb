"""``pack new`` scaffolds a GitHub Actions workflow that builds the pack and publishes it to Pages.

The workflow is checked against the GitHub workflow schema (vendored by check-jsonschema, a dev
dependency), and the commands it runs are run here, in the new pack, as the runner would.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

from ruamel.yaml import YAML
from typer.testing import CliRunner

from authoring.cli import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_workflow_is_valid_and_its_commands_build_the_site(tmp_path: Path) -> None:
    folder = tmp_path / "pack"
    assert CliRunner().invoke(app, ["pack", "new", str(folder)]).exit_code == 0
    workflow_file = folder / ".github" / "workflows" / "pages.yml"
    checked = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                              "vendor.github-workflows", str(workflow_file)],
                             capture_output=True, text=True, check=False, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    workflow = YAML(typ="safe").load(workflow_file.read_text("utf-8"))
    steps = workflow["jobs"]["build"]["steps"]
    uses = [s["uses"].split("@")[0] for s in steps if "uses" in s]
    assert uses == ["actions/checkout", "actions/setup-python", "actions/upload-pages-artifact"]
    assert workflow["jobs"]["deploy"]["steps"][0]["uses"].startswith("actions/deploy-pages@")
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    artifact = next(s for s in steps if s.get("uses", "").startswith("actions/upload-pages"))

    commands = [shlex.split(s["run"]) for s in steps
                if "run" in s and s["run"].startswith("spacealert ")]
    assert [c[:3] for c in commands] == [["spacealert", "lint", "missions"],
                                        ["spacealert", "pack", "build"]]
    env = {"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin", "HOME": str(tmp_path),
           "SPACEALERT_CACHE_DIR": str(tmp_path / "cache")}

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "authoring", *args], cwd=folder,
                              capture_output=True, text=True, check=False, timeout=600, env=env)
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    for command in commands:  # from the repository root (the pack folder), as the runner
        run(*command[1:])
    site = folder / artifact["with"]["path"]
    assert (site / "index.html").is_file()
    assert any(site.rglob("*.mp3")) and any(site.rglob("*.pdf"))

    # the same build again (warm cache), as JSON for scripts
    report = json.loads(run("pack", "build", ".", "--output", "_site", "--json"))
    assert report["missions"] == 1 and report["soundtracks"] >= 1
    assert Path(report["index"]) == Path("_site") / "index.html"
    files = [p for p in site.rglob("*") if p.is_file()]
    assert report["files"] == len(files)
    assert report["bytes"] == sum(p.stat().st_size for p in files)
