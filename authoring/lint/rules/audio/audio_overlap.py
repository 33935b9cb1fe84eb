"""Reports spoken cues that overlap once rendered with the chosen voice.

**What it does.** Repeats ``T106``'s pairwise overlap check with the real length of each
spoken cue as synthesized by the voice (``--voice``), measured by
``authoring.audio.measure_cues(timeline, voice)`` (lint checklist item 8: "using real
rendered lengths"; the clips are cached, so a second run is fast). Without ``--voice`` the
rule falls back to the nominal lengths of the official recording and says so in each
problem's hint; it then finds what ``T106`` finds.

**Why it matters.** Nominal lengths are shorter than real audio: with real clip lengths 63 %
of JSAMG missions contain two overlapping lines (docs/soundtrack.md §6.2). A synthetic voice may
speak more slowly than the CD.

**Options.**

* ``gap_ms`` — silence required between two spoken cues, in ms: ``0``.

This rule is opt-in (``--select A``): it synthesizes every line of the mission.

Passes::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", incoming_data: {}}
      - {at: "0:20", threat: {turn: 1, zone: red}}

Fails::

    phases: ["3:45", "7:30", "10:00"]
    events:
      - {at: "0:10", threat: {turn: 1, zone: red}}
      - {at: "0:15", incoming_data: {}}  # <- A101
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from authoring.lint.context import CueMeasurer, LintContext
from authoring.lint.rule import Finding, Options
from authoring.lint.rules.timing.overlapping import (
    MAX_CLUSTER,
    cluster_message,
    cluster_size,
    cue_label,
    cue_path,
    distinct_pairs,
    overlap_clusters,
    spoken,
)
from authoring.mission.timecode import format_ms
from authoring.mission.timeline import Timeline

CODE = "A101"
NAME = "overlapping-audio"
SEVERITY = "error"
NEEDS = "audio"
DEFAULTS: dict[str, object] = {"gap_ms": 0}


def measured_lengths(ctx: LintContext, timeline: Timeline) -> tuple[list[int], bool]:
    """Returns the length of each spoken cue of ``timeline`` and whether it was measured.

    Without a voice the nominal lengths are used. With one, the measurer (by default
    ``authoring.audio.measure_cues``, imported on use: it loads numpy and scipy) returns one
    length per cue of the timeline, in timeline order.
    """
    cues = spoken(timeline.cues)
    if ctx.voice is None:
        return [c.nominal_ms for c in cues], False
    if ctx.measure is not None:
        measure: CueMeasurer = ctx.measure
    else:
        from authoring.audio import measure_cues

        measure = measure_cues
    key = f"measured:{ctx.voice}"
    if key not in ctx.cache:
        ctx.cache[key] = list(measure(timeline, ctx.voice))
    measured: Sequence[int] = ctx.cache[key]
    by_id = {id(c): n for c, n in zip(timeline.cues, measured, strict=True)}
    return [by_id[id(c)] for c in cues], True


def check(ctx: LintContext, options: Options) -> Iterator[Finding]:
    """Yields a finding for each overlapping pair of spoken cues (measured lengths)."""
    timeline = ctx.full_timeline
    cues = spoken(timeline.cues)
    lengths, measured = measured_lengths(ctx, timeline)
    what = f"voice {ctx.voice}" if measured else "nominal lengths: no voice measured"
    hint = None if measured else "pass --voice to measure the real audio"
    for cluster in overlap_clusters(cues, lengths, int(options["gap_ms"])):
        pairs = distinct_pairs(cluster)
        if cluster_size(pairs) > MAX_CLUSTER:
            path, message = cluster_message(pairs, what)
            yield Finding(path, message, hint=hint)
            continue
        for first, second, overlap in pairs:
            anchor = second if second.event is not None else first
            yield Finding(cue_path(anchor),
                          f"{cue_label(second)} at {format_ms(second.start_ms)} overlaps "
                          f"{cue_label(first)} at {format_ms(first.start_ms)} by "
                          f"{overlap / 1000:.1f} s ({what})", hint=hint)
