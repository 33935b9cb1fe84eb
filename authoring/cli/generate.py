"""``spacealert generate``: random missions as good as the official ones."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from authoring.cli._common import FiguresOption, PlayersOption, err, reports_errors
from authoring.errors import UsageError
from authoring.generate import (
    GenerateOptions,
    generate_mission,
    generated_text,
    parse_length,
    parse_range,
)
from authoring.generate.batch import generate_many
from authoring.generate.output import write_text_atomic, write_texts_atomic
from authoring.mission.model import DECK_COLOURS, PROFILES

app = typer.Typer()


def _choice(value: str, allowed: tuple[str, ...], option: str) -> str:
    if value not in allowed:
        raise UsageError(f"{option}: expected one of {', '.join(allowed)}, got {value!r}")
    return value


@app.command()
@reports_errors
def generate(
    profile: Annotated[str, typer.Option(
        "--profile", help="base, training, test-run or double-action.")] = "base",
    players: PlayersOption = None,
    figures: FiguresOption = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", help="Random seed (default: a fresh one, printed in the file header).",
        show_default=False)] = None,
    threat_level: Annotated[int | None, typer.Option(
        "--threat-level", help="Threat points including unconfirmed reports "
                               "(profile default: base 8, training 6, test-run 3, "
                               "double-action 12).", show_default=False)] = None,
    serious: Annotated[str | None, typer.Option(
        "--serious", metavar="MIN..MAX", help="Number of serious threats.",
        show_default=False)] = None,
    internal: Annotated[str | None, typer.Option(
        "--internal", metavar="MIN..MAX", help="Number of internal threats.",
        show_default=False)] = None,
    unconfirmed: Annotated[int | None, typer.Option(
        "--unconfirmed", help="Threat points of unconfirmed reports.",
        show_default=False)] = None,
    ambush: Annotated[float | None, typer.Option(
        "--ambush", metavar="P", help="Chance per phase of a threat after the one-minute "
                                      "warning (base default 0.19).", show_default=False)] = None,
    length: Annotated[str | None, typer.Option(
        "--length", metavar="M:SS", help="Mission length (default: drawn like the official "
                                         "tracks).", show_default=False)] = None,
    decks: Annotated[str, typer.Option(
        "--decks", help="Threat decks: white, yellow, mixed or red (red needs "
                        "--expansion).")] = "mixed",
    expansion: Annotated[bool, typer.Option(
        "--expansion", help="Shuffle the New Frontier expansion's threat cards (those the "
        "engine plays) into the decks: docs/rules.md §19.9.")] = False,
    output: Annotated[Path | None, typer.Option(
        "--output", "-o", help="File to write (a folder with --count); default stdout.",
        show_default=False)] = None,
    count: Annotated[int | None, typer.Option(
        "--count", help="Write this many missions (seeds SEED, SEED+1, ...) into -o DIR.",
        show_default=False)] = None,
    force: Annotated[bool, typer.Option(
        "--force", hidden=True, help="Accepted for old scripts: outputs are always replaced.")]
        = False,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print what was generated as JSON on stdout: each mission's id, seed "
        "and file (with -o), or its YAML text (without).")] = False,
    campaign: Annotated[bool, typer.Option(
        "--campaign", help="Write a campaign (docs/rules.md §18) into -o DIR: campaign.yaml "
        "and its missions, decks harder from mission to mission.")] = False,
    missions: Annotated[int, typer.Option(
        "--missions", min=1, max=3, help="With --campaign: how many missions.")] = 3,
) -> None:
    """Generate random missions calibrated to the official tracks.

    Every mission is checked while it is built: the requested threat points are all placed,
    no two announcements overlap (with the real lengths of the announcements), the warnings
    and countdowns of every phase stay clear, and nothing runs past the mission end. The same
    seed and options give the same file on every machine. An existing output file is
    replaced, atomically.
    """
    del force  # outputs are always replaced (authoring/generate/output.py)
    _choice(profile, PROFILES, "--profile")
    _choice(decks, DECK_COLOURS, "--decks")
    if count is not None and count < 1:
        raise UsageError(f"--count: expected at least 1, got {count}")
    if count is not None and output is None:
        raise UsageError("--count needs -o DIR: the folder to write the missions into")
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
    base = GenerateOptions(
        profile=profile,  # type: ignore[arg-type]
        players=5 if players is None else players, figures=figures, seed=seed,
        threat_level=threat_level,
        serious=parse_range(serious, "--serious") if serious is not None else None,
        internal=parse_range(internal, "--internal") if internal is not None else None,
        unconfirmed=unconfirmed, ambush=ambush,
        length=parse_length(length) if length is not None else None,
        decks=decks,  # type: ignore[arg-type]
        expansion=expansion,
    )
    if campaign:
        if count is not None or output is None:
            raise UsageError("--campaign needs -o DIR (and no --count): the folder to write the "
                             "campaign and its missions into")
        if output.exists() and not output.is_dir():
            raise UsageError(f"{output}: not a folder; --campaign writes into -o DIR")
        from authoring.generate.campaign import generate_campaign

        made = generate_campaign(base, missions)
        # all or none: never missions without their campaign.yaml
        write_texts_atomic((output / name, text) for name, text in
                           [*made.missions, (made.campaign_name, made.campaign_text)])
        err(f"wrote {output / made.campaign_name} and {missions} missions (seeds {seed}.."
            f"{seed + missions - 1})")
        return
    if count is None:
        mission = generate_mission(base)
        text = generated_text(mission)
        if output is not None:
            write_text_atomic(output, text)
            err(f"wrote {output} (seed {seed})")
        if as_json:
            entry = {"id": mission.mission.id, "seed": seed,
                     **({"file": str(output)} if output is not None else {"yaml": text})}
            typer.echo(json.dumps({"missions": [entry]}, indent=2))
        elif output is None:
            typer.echo(text, nl=False)
        return
    assert output is not None
    if output.exists() and not output.is_dir():
        raise UsageError(f"{output}: not a folder; --count writes one file per mission into -o DIR")
    seeds = range(seed, seed + count)
    targets = [output / f"{profile}-{s}.yaml" for s in seeds]
    ids: list[str] = []

    def files() -> Iterator[tuple[Path, str]]:
        for target, (mission_id, text) in zip(targets, generate_many(base, seeds), strict=True):
            ids.append(mission_id)
            yield target, text

    # all or none: a seed that fails leaves no half-written batch behind
    write_texts_atomic(files())
    err(f"wrote {count} missions to {output} (seeds {seed}..{seed + count - 1})")
    if as_json:
        typer.echo(json.dumps({"missions": [
            {"id": mission_id, "seed": s, "file": str(t)}
            for mission_id, s, t in zip(ids, seeds, targets, strict=True)]}, indent=2))
