"""Turns timeline cues into the phrase fragments a voice speaks.

A voice's ``sequences`` say, for each cue kind, which fragments are spoken in order. An item is
a phrase-key template (``time.{turn}``), optionally guarded by a condition (``external ?
zone.{zone}``, ``!internal ? …``); ``$text`` speaks the cue's own text (free announcements). The
fragments are what a clip pack records (``alert``, ``time.3``, ``threat.serious``, ``zone.red``,
``repeat``); a TTS backend speaks the whole cue at once, the fragment texts joined by the
voice's ``joiner``. Languages choose their own fragments and order, so German can say "serious
threat in zone red" as one combined fragment after the time.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from authoring.audio.voice import Voice
from authoring.errors import InvalidInputError
from authoring.mission.timeline import SPEECH_KINDS, Cue, Timeline

TEXT_ITEM = "$text"


@dataclass(frozen=True)
class Fragment:
    """One piece of a spoken cue: a phrase key and its text in the voice's language."""

    key: str
    text: str


def cue_params(cue: Cue) -> dict[str, Any]:
    """Returns the template parameters and conditions of a cue (turn, zone, stage, n …)."""
    p = dict(cue.params)
    params: dict[str, Any] = {}
    if cue.kind == "threat":
        zone = str(p["zone"])
        serious = bool(p.get("serious", False))
        internal = zone == "internal"
        params.update(
            turn=int(p["turn"]), zone=zone, serious=serious, internal=internal,
            external=not internal, unconfirmed=bool(p.get("unconfirmed", False)),
            severity="serious" if serious else "normal",
            threat=("serious_internal" if serious and internal else "serious" if serious
                    else "internal" if internal else "normal"),
        )
    elif cue.kind in ("warning", "countdown", "phase_ended", "operation_ended"):
        phase = int(p.get("phase", cue.phase))
        last = bool(p.get("last", False))
        params.update(phase=phase, last=last, stage="operation" if last else f"phase{phase}",
                      next=phase + 1, left=p.get("left", ""))
    elif cue.kind == "count":
        params["n"] = int(p["n"])
    elif cue.kind == "announcement":
        params["text"] = str(p.get("text", cue.text))
    elif cue.kind in ("comms_down",):
        params["seconds"] = int(p.get("seconds", 0))
    return params


def _split(item: str) -> tuple[str | None, bool, str]:
    if " ? " in item:
        condition, template = item.split(" ? ", 1)
        negate = condition.startswith("!")
        return condition.lstrip("!"), negate, template
    return None, False, item


def cue_fragments(cue: Cue, voice: Voice) -> list[Fragment]:
    """Returns the fragments ``voice`` speaks for ``cue`` (empty for sound effects)."""
    if cue.kind not in SPEECH_KINDS:
        return []
    sequence = voice.sequences.get(cue.kind)
    if sequence is None:
        raise InvalidInputError(f"voice {voice.id!r} has no sequence for cue kind {cue.kind!r}",
                                hint=f"add sequences.{cue.kind} to {voice.source}")
    params = cue_params(cue)
    fragments: list[Fragment] = []
    for item in sequence:
        condition, negate, template = _split(item)
        if condition is not None:
            if condition not in params:
                raise InvalidInputError(
                    f"voice {voice.id!r}: condition {condition!r} in sequences.{cue.kind} is "
                    f"not a parameter of that cue (expected one of {', '.join(sorted(params))})")
            if bool(params[condition]) == negate:
                continue
        if template == TEXT_ITEM:
            fragments.append(Fragment("text", str(params.get("text", cue.text))))
            continue
        try:
            key = template.format(**params)
        except (KeyError, IndexError, ValueError) as error:
            raise InvalidInputError(
                f"voice {voice.id!r}: template {template!r} in sequences.{cue.kind} uses "
                f"an unknown parameter {error}") from None
        text = voice.phrases.get(key)
        if text is None:
            raise InvalidInputError(
                f"voice {voice.id!r} has no phrase {key!r} (needed by a {cue.kind} cue)",
                hint=f"add phrases.{key} to {voice.source}")
        fragments.append(Fragment(key, text))
    return fragments


def cue_text(cue: Cue, voice: Voice) -> str:
    """Returns what ``voice`` says for ``cue``: its fragment texts joined."""
    return voice.joiner.join(f.text for f in cue_fragments(cue, voice))


def sample_cues() -> Iterator[Cue]:
    """Yields one cue for every spoken variant a mission can contain (all turns, zones …)."""
    for turn in range(1, 9):
        for zone in ("red", "white", "blue", "internal"):
            for serious in (False, True):
                for unconfirmed in (False, True):
                    yield Cue(0, "threat", "", 0, 1, {"turn": turn, "zone": zone,
                                                        "serious": serious,
                                                        "unconfirmed": unconfirmed})
    for phases in (2, 3):
        for phase in range(1, phases + 1):
            base = {"phase": phase, "last": phase == phases}
            for left in ("1min", "20s"):
                yield Cue(0, "warning", "", 0, phase, {**base, "left": left})
            yield Cue(0, "countdown", "", 0, phase, base)
            kind = "operation_ended" if phase == phases else "phase_ended"
            yield Cue(0, kind, "", 0, phase, base)
    for n in range(1, 6):
        yield Cue(0, "count", "", 0, 1, {"n": n})
    for kind in ("mission_start", "incoming_data", "data_transfer", "data_transfer_complete",
                 "comms_down", "comms_restored"):
        yield Cue(0, kind, "", 0, 1, {"seconds": 10} if kind == "comms_down" else {})


def coverage_problems(voice: Voice) -> list[str]:
    """Returns what ``voice`` cannot say: missing sequences, phrases or bad templates."""
    problems: list[str] = []
    for kind in sorted(SPEECH_KINDS - set(voice.sequences)):
        problems.append(f"no sequence for cue kind {kind!r}")
    seen: set[str] = set()
    for cue in sample_cues():
        if cue.kind not in voice.sequences:
            continue
        try:
            cue_fragments(cue, voice)
        except InvalidInputError as error:
            if error.message not in seen:
                seen.add(error.message)
                problems.append(error.message)
    return problems


def phrases(timelines: Iterable[Timeline] | None, voice: Voice) -> list[Fragment]:
    """Returns the distinct fragments ``voice`` needs for the timelines (all missions if None).

    Sorted by key; free announcements appear with the key ``text``. This is the list a person
    records for a clip pack.
    """
    cues: Iterable[Cue]
    if timelines is None:
        cues = sample_cues()
    else:
        cues = (cue for timeline in timelines for cue in timeline.cues)
    found: dict[tuple[str, str], Fragment] = {}
    for cue in cues:
        for fragment in cue_fragments(cue, voice):
            found.setdefault((fragment.key, fragment.text), fragment)
    return [found[k] for k in sorted(found)]


def utterances(timeline: Timeline, voice: Voice) -> Mapping[int, tuple[Fragment, ...]]:
    """Returns, for each speech cue's index in the timeline, the fragments spoken."""
    return {i: tuple(cue_fragments(c, voice)) for i, c in enumerate(timeline.cues) if c.speech}
