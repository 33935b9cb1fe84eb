"""Creates a new pack folder: a manifest and one example mission that builds as it is."""

from __future__ import annotations

from pathlib import Path

from authoring.errors import UsageError

MANIFEST_TEMPLATE = """\
# A Space Alert mission pack. Build the website with `spacealert pack build {folder}`
# and preview it with `spacealert pack serve {folder}/_site`.
format: 1
title: "{title}"
description: "Missions for Space Alert, voiced and ready to play from any browser."
authors: ["Your Name"]
licence: CC-BY-4.0
languages: [en]
voices: [en]           # bundled voices (see `spacealert voices list`) or voice files in the pack
audio: [mp3]           # formats offered to the browser, best first (mp3, ogg, opus, wav)
audio_channels: mono   # mono (half the size of stereo for a speech track) or stereo
# audio_bitrate: {{mp3: 64, opus: 32}}   # kbit/s per format, for smaller or better files
sheets: [briefing, comms-officer]
missions:
  - missions/first-watch.yaml
"""

EXAMPLE_MISSION = """\
# An example mission: edit it, then run `spacealert lint` on it and rebuild the pack.
format: 1
id: first-watch
title: "First Watch"
author: "Your Name"
description: "A first shift by the book: six threats, three data transfers and two blackouts."
language: en
tags: [example]
profile: base
players: 5
decks: {common: white, serious: white}
phases: ["3:45", "7:30", "10:00"]
events:
  - {at: "0:15", threat: {turn: 1, zone: blue}}
  - {at: "1:00", incoming_data: {}}
  - {at: "1:40", threat: {turn: 2, zone: red, serious: true}}
  - {at: "2:20", data_transfer: {}}
  - {at: "2:50", threat: {turn: 3, zone: internal, unconfirmed: true}}
  - {at: "3:55", threat: {turn: 5, zone: internal}}
  - {at: "4:40", comms_down: {seconds: 20}}
  - {at: "5:20", threat: {turn: 6, zone: white}}
  - {at: "5:50", data_transfer: {}}
  - {at: "6:05", threat: {turn: 7, zone: blue, serious: true}}
  - {at: "6:50", incoming_data: {}}
  - {at: "7:50", comms_down: {seconds: 25}}
  - {at: "8:30", data_transfer: {}}
"""

# Builds the pack on every push to main and publishes the site with GitHub Pages (Settings →
# Pages → Source: GitHub Actions). The "run:" lines are the commands a user runs locally;
# tests/site/test_pages_workflow.py runs them.
PAGES_WORKFLOW = """\
name: Build and publish the mission pack

on:
  push:
    branches: [main]
  workflow_dispatch:

permissions:
  contents: read
  pages: write
  id-token: write

concurrency:
  group: pages
  cancel-in-progress: false

jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with:
          python-version: "3.11"
      - name: Install the voice, the encoder and the PDF libraries
        run: |
          sudo apt-get update -q
          sudo apt-get install -y -q --no-install-recommends espeak-ng ffmpeg \\
            libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core
      - name: Install the toolkit
        run: python -m pip install "spacealert-authoring[pdf]"
      - name: Check the missions
        run: spacealert lint missions
      - name: Build the site
        run: spacealert pack build . --output _site
      - uses: actions/upload-pages-artifact@v3
        with:
          path: _site

  deploy:
    needs: build
    runs-on: ubuntu-latest
    environment:
      name: github-pages
      url: ${{ steps.deployment.outputs.page_url }}
    steps:
      - id: deployment
        uses: actions/deploy-pages@v4
"""
WORKFLOW_PATH = Path(".github") / "workflows" / "pages.yml"


def new_pack(folder: Path, title: str | None = None) -> list[Path]:
    """Writes ``pack.yaml``, ``missions/first-watch.yaml`` and a GitHub Pages workflow.

    Refuses (``UsageError``) a folder that exists and is not empty, or a path that is a file,
    so nothing a user wrote is ever overwritten. Returns the files written.
    """
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder}: expected a folder for the new pack, got a file")
    if folder.is_dir() and any(folder.iterdir()):
        raise UsageError(f"{folder}: the folder is not empty; refusing to overwrite it",
                         hint="choose a new folder name")
    name = title or folder.resolve().name.replace("-", " ").replace("_", " ").strip().title()
    quoted = (name or "My Mission Pack").replace("\\", "\\\\").replace('"', '\\"')
    (folder / "missions").mkdir(parents=True, exist_ok=True)
    manifest = folder / "pack.yaml"
    mission = folder / "missions" / "first-watch.yaml"
    manifest.write_text(MANIFEST_TEMPLATE.format(folder=folder, title=quoted), encoding="utf-8")
    mission.write_text(EXAMPLE_MISSION, encoding="utf-8")
    workflow = folder / WORKFLOW_PATH
    workflow.parent.mkdir(parents=True, exist_ok=True)
    workflow.write_text(PAGES_WORKFLOW, encoding="utf-8")
    return [manifest, mission, workflow]
