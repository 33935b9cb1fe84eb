"""The official missions' ratings under each crew model: the scale every rating is read on.

A rating compares a mission with official missions 1-8 *under the same crew model*, which
makes the comparison meaningful even though no crew model is a real table. This module
holds each crew's calibrated settings and the default crew (the one ``lint --select G``,
``simulate``, ``sheets --rate`` and pack pages use), and reads ``calibration.json``: for each
crew, the ratings of missions 1-8 (the scale) and of the tutorial simulations, each with its
95 % intervals.

``python -m authoring.simulation.calibration`` recomputes the file (all three crews, the
tutorial simulations and missions 1-8, with dealt hands, in free play and on a second seed;
about half an hour on two cores) and prints the README's table. The file stores a fingerprint
of what its figures depend on, read from behaviour (``fingerprint``: the settings, the tracks and
the outcomes of the first games of every run); tests/lint/test_calibration.py fails when it no
longer matches, so a change to the rules or a crew asks for a recalibration and a refactor
does not.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

from authoring._files import write_atomic

CALIBRATION = Path(__file__).with_name("calibration.json")
#: Each crew's calibrated settings: 500 games rate a mission to about ± 2 difficulty points;
#: every crew plays from the action cards the rules deal (docs/rules.md §16.1).
CREW_SETTINGS: dict[str, dict[str, Any]] = {
    "heuristic": {"crew": "heuristic", "games": 500, "seed": 0, "hands": True},
    # styles: the starts each search descends from (its budget, bench/convergence.py);
    # iterations: the guard on plans rated per descent (not reached: a descent ends first)
    "planner": {"crew": "planner", "games": 500, "seed": 0, "iterations": 16384, "seeds": 2,
                "styles": 4, "hands": True},
    "informed": {"crew": "informed", "games": 500, "seed": 0, "iterations": 16384,
                 "styles": 4, "hands": True},
}
#: The crew of every rating a user sees by default (G rules, simulate, sheets, pack pages):
#: the planning crew plays phase by phase like a table and 500 of its games take a few
#: seconds on two cores (bench/rating.py); docs/simulation.md says why.
DEFAULT_CREW = "planner"
#: The settings the G rules use by default.
DEFAULT_SETTINGS: dict[str, Any] = CREW_SETTINGS[DEFAULT_CREW]
#: The G rules' simulation options: the default crew's settings, every core, and the search
#: options of all crews (-1: the chosen crew's calibrated value).
SIMULATION_OPTIONS: dict[str, Any] = {
    "crew": DEFAULT_CREW, "games": DEFAULT_SETTINGS["games"], "seed": DEFAULT_SETTINGS["seed"],
    "iterations": -1, "styles": -1, "seeds": -1, "jobs": 0, "hands": True}
OFFICIAL = tuple(f"mission-{n}" for n in range(1, 9))
#: The tutorial simulations of the CD, calibrated beside the missions (the sanity ladder of
#: tests/lint/test_ladder.py: they must rate easier than every mission 1-8).
TUTORIALS = tuple(f"simulation-{n}" for n in range(1, 4))
#: Double-action tracks (docs/rules.md §19): the bundled example (``missions/examples``) and
#: two generated ones (``missions/generated``, ``spacealert generate --profile double-action
#: --seed 1`` and ``2``). Their hands are dealt from the double-action deck
#: (docs/rules.md §19.5).
DOUBLE_ACTION = ("double-action", "generated-double-action-1", "generated-double-action-2")
#: Every track the calibration rates; the scale is missions 1-8 only (``OFFICIAL``).
TRACKS = TUTORIALS + OFFICIAL + DOUBLE_ACTION
#: The variants each track is rated in: as the ratings play it (dealt hands, seed 0), in free
#: play (any action in any turn: what the cards cost) and with hands on another seed (how
#: stable a rating is across seeds).
VARIANTS: dict[str, dict[str, Any]] = {"hands": {}, "free": {"hands": False},
                                       "seed 1": {"seed": 1}}

#: Games per track and variant of the calibration: fewer than a rating's 500, because the
#: crews' searches now run to local optima (about 0.16 s of CPU per planner game with hands,
#: 0.26 s for the informed crew, which plays the planner's game first): 500 games of every
#: track, crew and variant would take about an hour on two cores, 200 take about 25 minutes.
#: The official range read from them carries a margin of about ± 3 points instead of ± 2.
CALIBRATION_GAMES = 200

_PACKAGE = Path(__file__).resolve().parents[1]
#: Games replayed per track, variant and crew for the behaviour fingerprint: the first games
#: of the calibration's own runs (a game depends on its seed and index only), enough that a
#: change to the rules or a crew that moves the figures almost surely moves one of them.
FINGERPRINT_GAMES = 2


@cache
def load() -> dict[str, Any]:
    """Returns the stored calibration (settings, ratings, intervals per crew, fingerprint)."""
    data: dict[str, Any] = json.loads(CALIBRATION.read_text("utf-8"))
    return data


def official_range(crew: str = DEFAULT_CREW) -> tuple[float, float]:
    """Returns the lowest and highest difficulty of official missions 1-8 for a crew."""
    ratings = list(load()["crews"][crew]["ratings"].values())
    return min(ratings), max(ratings)


def track_path(name: str) -> Path:
    """Returns the mission file of a calibrated track."""
    from authoring._resources import data_dir

    folder = ("official" if name not in DOUBLE_ACTION
              else "generated" if name.startswith("generated-") else "examples")
    return data_dir("missions") / folder / f"{name}.yaml"


def input_files() -> list[Path]:
    """Returns the data files the calibration's figures depend on: the calibrated tracks."""
    return [track_path(name) for name in TRACKS]


def track_data(name: str) -> bytes:
    """Returns a calibrated track's data as canonical JSON: a comment or a change of layout in
    the file does not move the figures, so it does not move the fingerprint either."""
    from authoring.mission.load import plain_data, read_document

    document = read_document(track_path(name))
    return json.dumps(plain_data(document.data), sort_keys=True, default=str).encode()


def fingerprint(crews: tuple[str, ...] = tuple(CREW_SETTINGS),
                tracks: tuple[str, ...] = TRACKS, jobs: int = 0) -> str:
    """Returns the SHA-256 of what the stored figures depend on, read from behaviour.

    The settings and the tracks' data (``track_data``: what the files say, not their
    comments), then the outcomes (survival, turn, score, threats
    destroyed, damage, blamed threats) of the first ``FINGERPRINT_GAMES`` games of every run
    the calibration makes (``compute``): each crew, track and variant. A change to the rules
    or to a crew that changes what is played changes those games; a refactor, a rename, a
    moved module or a comment changes nothing, so the calibration file stays as it is. The
    C core, the mypyc core and the reference play the same games (the differential tests),
    so the fingerprint is the same on every core. The runs go to up to ``jobs`` worker
    processes (0: every core), one run each; the digest is the same for any ``jobs``.
    """
    from authoring._workers import ordered_map

    digest = hashlib.sha256()
    digest.update(json.dumps([CREW_SETTINGS, VARIANTS, CALIBRATION_GAMES, FINGERPRINT_GAMES],
                             sort_keys=True).encode())
    for name in tracks:
        content = track_data(name)
        digest.update(f"{name}\0{len(content)}\0".encode() + content)
    runs = [(crew, name, variant) for crew in crews for name in tracks for variant in VARIANTS]
    for record in ordered_map(_fingerprint_run, runs, jobs=jobs or None, parallel_from=4):
        digest.update(json.dumps(record).encode())
    return digest.hexdigest()


def _fingerprint_run(run: tuple[str, str, str]) -> list[Any]:
    """The record of one run of the fingerprint: its first games' outcomes (a worker's task)."""
    from authoring.mission import load_mission
    from authoring.simulation.montecarlo import simulate_with

    crew, name, variant = run
    played = {**CREW_SETTINGS[crew], "games": FINGERPRINT_GAMES, **VARIANTS[variant]}
    outcomes = simulate_with(load_mission(track_path(name)), played, jobs=1).outcomes
    return [crew, name, variant, [dataclasses.astuple(o) for o in outcomes]]


def compute(jobs: int = 2, crews: tuple[str, ...] = tuple(CREW_SETTINGS),
            progress: Any = None) -> dict[str, Any]:
    """Simulates every track (``TRACKS``) with each crew's settings in each variant
    (``VARIANTS``) and returns the table.

    ``ratings`` (missions 1-8 with dealt hands, seed 0) is the scale the ratings read;
    ``tracks`` holds, per track and variant, the difficulty with its 95 % margin and the
    survival rate with its 95 % interval (``rating.py``), for the README and the ladder test.
    """
    table: dict[str, Any] = {}
    for crew in crews:
        settings = CREW_SETTINGS[crew]
        tracks = {name: rate_track(name, settings, jobs, progress) for name in TRACKS}
        table[crew] = {"settings": settings,
                       "ratings": {name: tracks[name]["hands"]["difficulty"]
                                   for name in OFFICIAL},
                       "tracks": tracks}
    return {"default": DEFAULT_CREW, "fingerprint": fingerprint(),
            "games": CALIBRATION_GAMES, "crews": table}


def rate_track(name: str, settings: dict[str, Any], jobs: int = 2,
               progress: Any = None) -> dict[str, Any]:
    """Rates one track with a crew's settings in each variant (``VARIANTS``)."""
    from authoring.mission import load_mission
    from authoring.simulation.montecarlo import simulate_with
    from authoring.simulation.rating import rate

    mission = load_mission(track_path(name))
    figures: dict[str, Any] = {}
    for variant, changes in VARIANTS.items():
        if progress is not None:
            progress(f"{settings['crew']}: {name}, {variant}")
        played = {**settings, "games": CALIBRATION_GAMES, **changes}
        rating = rate(simulate_with(mission, played, jobs=jobs), calibrated=False)
        figures[variant] = {
            "difficulty": rating.value, "margin": rating.margin,
            "survival": round(rating.survival, 3),
            "survival_interval": [round(x, 3) for x in rating.survival_interval]}
    return figures


def markdown(data: dict[str, Any]) -> str:
    """The table of official ratings the README and docs/simulation.md show."""
    crews = list(data["crews"])
    lines = ["| track | " + " | ".join(f"{crew}: difficulty, survival (free play)"
                                       for crew in crews) + " |",
             "|---|" + "---|" * len(crews)]
    for name in TRACKS:
        cells = []
        for crew in crews:
            hands = data["crews"][crew]["tracks"][name]["hands"]
            free = data["crews"][crew]["tracks"][name]["free"]
            low, high = hands["survival_interval"]
            cells.append(f"{hands['difficulty']:.1f} ± {hands['margin']:.1f}, "
                         f"{hands['survival']:.0%} ({low:.0%}-{high:.0%}) "
                         f"(free: {free['survival']:.0%})")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    games = {str(data.get("games", data["crews"][crew]["settings"]["games"])) for crew in crews}
    lines.append(f"\nDifficulty 0-100 (± its 95 % interval) and survival (its 95 % interval) "
                 f"from {'/'.join(sorted(games))} games per track and crew, seed 0, with the "
                 f"action cards the rules deal; in brackets the survival in free play (any "
                 f"action in any turn). The default crew of every rating is "
                 f"{data['default']}; the scale of every rating is missions 1-8. The "
                 f"double-action tracks ({', '.join(DOUBLE_ACTION)}) are dealt the "
                 f"double-action deck (docs/rules.md §19.5).")
    return "\n".join(lines)


#: The pages that show the table, between these markers (in a checkout of the repository).
PAGES = ("README.md", "docs/simulation.md")
START, END = "<!-- calibration:start -->", "<!-- calibration:end -->"


def update_pages(data: dict[str, Any], root: Path = _PACKAGE.parent) -> list[Path]:
    """Writes the table between the markers of the pages that have them; returns those."""
    written = []
    for name in PAGES:
        page = root / name
        if not page.is_file():
            continue  # an installed package: no pages to keep in step
        text = page.read_text("utf-8")
        if START not in text or END not in text:
            continue
        head, rest = text.split(START, 1)
        tail = rest.split(END, 1)[1]
        write_atomic(page, f"{head}{START}\n{markdown(data)}\n{END}{tail}")
        written.append(page)
    return written


def rerate(tracks: tuple[str, ...], jobs: int = 2, progress: Any = None) -> dict[str, Any]:
    """The stored table with only ``tracks`` rated again (every crew, every variant) and the
    fingerprint recomputed: for a change that moves those tracks' games alone (the
    fingerprint test still checks every track, so a change that moved others shows)."""
    data: dict[str, Any] = json.loads(json.dumps(load()))  # a copy: load() is cached
    for crew, entry in data["crews"].items():
        for name in tracks:
            entry["tracks"][name] = rate_track(name, CREW_SETTINGS[crew], jobs, progress)
        entry["ratings"] = {name: entry["tracks"][name]["hands"]["difficulty"]
                            for name in OFFICIAL}
    data["fingerprint"] = fingerprint()
    return data


def main() -> None:
    """Recomputes ``calibration.json`` (written atomically), the pages' tables, and prints
    the table. Arguments: the worker processes (default 2), then optionally ``--tracks``
    and the names of the only tracks to rate again (``rerate``)."""
    args = sys.argv[1:]
    only = tuple(args[args.index("--tracks") + 1:]) if "--tracks" in args else ()
    args = args[:args.index("--tracks")] if "--tracks" in args else args
    jobs = int(args[0]) if args else 2
    unknown = [name for name in only if name not in TRACKS]
    if unknown:
        sys.exit(f"expected tracks of the calibration ({' '.join(TRACKS)}), got "
                 f"{' '.join(unknown)}")

    def progress(line: str) -> None:
        print(line, file=sys.stderr)

    data = rerate(only, jobs, progress) if only else compute(jobs=jobs, progress=progress)
    write_atomic(CALIBRATION, json.dumps(data, indent=2) + "\n")
    load.cache_clear()
    for page in update_pages(data):
        print(f"updated the table of {page}", file=sys.stderr)
    print(markdown(data))


if __name__ == "__main__":
    main()
