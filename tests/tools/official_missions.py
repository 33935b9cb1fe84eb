"""Converts ../shared/reference/official-missions.tsv into missions/official/*.yaml.

Run ``python -m tests.tools.official_missions`` from the repository root to regenerate the
bundled official tracks; ``tests/test_official_missions.py`` checks that the committed files
are what this produces.
"""

from __future__ import annotations

import csv
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TSV = ROOT.parent / "shared" / "reference" / "official-missions.tsv"
OUT = ROOT / "missions" / "official"

# mission_id prefix -> (file stem, profile)
KINDS = {"T": ("test-run", "test-run"), "S": ("simulation", "training"),
         "A": ("advanced-simulation", "training"), "M": ("mission", "base")}


def _clock(seconds: int) -> str:
    return f"{seconds // 60}:{seconds % 60:02d}"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def render(mission_id: str, rows: list[dict[str, str]]) -> tuple[str, str]:
    """Returns (file name, YAML text) for one official track."""
    kind, number = mission_id.removeprefix("CD-")[0], mission_id.removeprefix("CD-")[1:]
    stem, profile = KINDS[kind]
    title = rows[0]["title"].replace(" (base game CD)", "")
    phases = [int(r["time_s"]) for r in rows if r["event"] == "phase_end"]
    lines = [
        f"# {title}: official track of the Space Alert base game CD.",
        f"# Source: {rows[0]['source']}; docs/soundtrack.md §5.1 says how they were read.",
        "# Phase ends follow the transcriptions' convention: printed sheet time + 5 s.",
        "format: 1",
        f"id: cd-{stem}-{number}",
        f"title: {_quote(title)}",
        "author: Czech Games Edition (transcribed)",
        "language: en",
        f"tags: [official, {stem}]",
        f"profile: {profile}",
        "players: 5",
        "phases: [" + ", ".join(_quote(_clock(p)) for p in phases) + "]",
        "events:",
    ]
    for row in rows:
        event, at = row["event"], _quote(_clock(int(row["time_s"])))
        notes = row["notes"].strip()
        if event == "phase_end":
            continue
        if event == "threat":
            fields = [f"turn: {row['turn_T+']}", f"zone: {row['zone_or_duration']}"]
            if row["severity"] == "serious":
                fields.append("serious: true")
            if notes.startswith("unconfirmed"):
                fields.append("unconfirmed: true")
            body = "threat: {" + ", ".join(fields) + "}"
            notes = notes.removeprefix("unconfirmed").removeprefix("confirmed").lstrip("; ")
        elif event == "comms_down":
            body = f"comms_down: {{seconds: {row['zone_or_duration'].removesuffix('s')}}}"
        else:
            body = f"{event}: {{}}"
        comment = f"  # {notes}" if notes else ""
        lines.append(f"  - {{at: {at}, {body}}}{comment}")
    return f"{stem}-{number}.yaml", "\n".join(lines) + "\n"


def convert(tsv: Path = TSV) -> dict[str, str]:
    """Returns {file name: YAML text} for every track of the TSV."""
    grouped: dict[str, list[dict[str, str]]] = defaultdict(list)
    with tsv.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle, delimiter="\t"):
            grouped[row["mission_id"]].append(row)
    return dict(render(mid, rows) for mid, rows in grouped.items())


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, text in sorted(convert().items()):
        (OUT / name).write_text(text, encoding="utf-8")
        print(f"wrote {OUT / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
