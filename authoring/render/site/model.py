"""The site model: everything a pack's website shows, built before any HTML is written.

Rendering (``authoring.render.site.pages``) is a pure function of this model. The model holds
the missions, their compiled timelines and *paths relative to the site root* of the files the
publish step already wrote (audio, captions, PDFs, mission YAML, the pack zip), so the renderer
never touches audio code or the file system beyond its own theme.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from authoring.mission.campaign import Campaign
from authoring.mission.model import Mission
from authoring.mission.timeline import Timeline
from authoring.simulation.breakdown import Breakdown
from authoring.simulation.rating import Rating

#: Browser MIME type of each audio format the pack can render.
AUDIO_TYPES = {"mp3": "audio/mpeg", "ogg": "audio/ogg", "opus": 'audio/ogg; codecs="opus"',
               "wav": "audio/wav"}


@dataclass(frozen=True)
class Download:
    """A file offered for download: link text, href relative to the site root, size."""

    label: str
    href: str
    kind: str  # audio, captions, sheet, mission, pack
    size: int


@dataclass(frozen=True)
class PlayerCue:
    """One heard cue as the player needs it (times in ms of the soundtrack)."""

    start_ms: int
    end_ms: int
    kind: str
    text: str
    phase: int
    zone: str = ""  # threats only: red, white, blue or internal
    #: the cue as the player's list shows it, when it differs from ``text`` (the caption):
    #: an announcement a countdown follows reads with its numbers (``_with_counts``)
    listed: str = ""


@dataclass(frozen=True)
class AudioSource:
    """One encoding of a soundtrack."""

    href: str
    mime: str


@dataclass(frozen=True)
class Track:
    """One voiced soundtrack of a mission, with its captions and cue list."""

    voice: str
    voice_name: str
    language: str
    sources: tuple[AudioSource, ...]
    captions_vtt: str
    cues: tuple[PlayerCue, ...]
    duration_ms: int


@dataclass(frozen=True)
class LintSummary:
    """How a mission fared in the linter: counts, the (short) messages and the rule pages.

    ``rule_pages`` pairs each code found with the address of its documentation page; it is
    empty unless the docs are published on the web (see ``authoring.lint.docs_link``).
    """

    errors: int = 0
    warnings: int = 0
    infos: int = 0
    messages: tuple[str, ...] = ()
    rule_pages: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class MissionEntry:
    """One mission of the pack: the model, its soundtracks, downloads and lint summary."""

    slug: str
    mission: Mission
    timeline: Timeline
    tracks: tuple[Track, ...]
    downloads: tuple[Download, ...]
    lint: LintSummary = field(default_factory=LintSummary)
    rating: Rating | None = None
    rating_note: str = ""  # why there is no rating, when one was asked for
    #: the rating's games played in free play and by the informed crew (what the cards and
    #: the information cost: authoring/simulation/breakdown.py)
    breakdown: Breakdown | None = None

    @property
    def threat_count(self) -> int:
        """Returns the number of threat announcements."""
        return len(self.mission.threats())

    @property
    def serious_count(self) -> int:
        """Returns the number of serious threats."""
        return sum(1 for t in self.mission.threats() if t.serious)

    @property
    def difficulty(self) -> str:
        """Returns the simulated rating's label, else one from threat points and decks (the
        badge's colour class; the words shown are ``badge``'s)."""
        return self.rating.label if self.rating else difficulty_label(self.mission)

    @property
    def badge(self) -> str:
        """The badge's words: the survival of the simulated crew when rated, else the threat
        load. Two names for two scales: a page that shows both never says "hard" twice for
        different things."""
        if self.rating:
            return f"survived {self.rating.survived} of {self.rating.games}"
        return f"{THREAT_LOAD[difficulty_label(self.mission)]} threat load"


@dataclass(frozen=True)
class CampaignEntry:
    """A campaign of the pack (docs/rules.md §18): its missions' entries in playing order."""

    slug: str
    campaign: Campaign
    missions: tuple[MissionEntry, ...]
    downloads: tuple[Download, ...] = ()
    difficulty: float | None = None  # 0-100 from simulated campaigns
    survival: float | None = None
    games: int = 0


@dataclass(frozen=True)
class SiteModel:
    """The whole website of a pack."""

    title: str
    description: str
    authors: tuple[str, ...]
    licence: str
    languages: tuple[str, ...]
    built: datetime.datetime
    missions: tuple[MissionEntry, ...]
    pack_download: Download | None = None
    generator: str = "spacealert-authoring"
    campaigns: tuple[CampaignEntry, ...] = ()
    #: Whether the site's folder is kept (a pack build): only then may the footer tell the
    #: reader to save it; ``play`` and the studio's test run serve a scratch folder removed
    #: when they end.
    kept: bool = True


_DECK_WEIGHT = {"white": 0, "mixed": 1, "yellow": 2, "red": 3}
#: The words of the threat-point scale: how much comes at the crew, not how often it loses
#: (that is the simulated rating's, told in games survived).
THREAT_LOAD = {"easy": "light", "moderate": "medium", "hard": "heavy", "extreme": "very heavy"}


def threat_points(mission: Mission) -> int:
    """Returns the threat points of the confirmed threats (normal 1, serious 2)."""
    return sum(t.points for t in mission.threats() if not t.unconfirmed)


def difficulty_label(mission: Mission) -> str:
    """Returns easy, moderate, hard or extreme from threat points and deck colours.

    A rough public label for the index (the linter's simulation gives the real rating): the
    official missions score 8–9 points with mixed decks, which reads as ``hard``.
    """
    score = threat_points(mission) + _DECK_WEIGHT[mission.decks.common] + \
        _DECK_WEIGHT[mission.decks.serious]
    if score <= 5:
        return "easy"
    if score <= 8:
        return "moderate"
    if score <= 12:
        return "hard"
    return "extreme"


def player_cues(timeline: Timeline,
                heard: Iterable[tuple[int, int, str, str]] | None = None) -> tuple[PlayerCue, ...]:
    """Returns the player's cues for ``timeline``.

    ``heard`` gives the rendered cues as (start_ms, end_ms, kind, text) — their real lengths and
    the voice's wording; without it the timeline's nominal lengths and English text are used.
    The zone of each threat comes from the timeline (matched by start and kind).
    """
    by_start: dict[tuple[int, str], tuple[int, str]] = {}
    for cue in timeline.cues:
        zone = str(cue.params.get("zone", "")) if cue.kind == "threat" else ""
        by_start.setdefault((cue.start_ms, cue.kind), (cue.phase, zone))
    if heard is None:
        heard = [(c.start_ms, c.nominal_end_ms, c.kind, c.text)
                 for c in timeline.cues]
    cues: list[PlayerCue] = []
    for start, end, kind, text in heard:
        phase, zone = by_start.get((start, kind), (_phase_at(timeline.phases_ms, start), ""))
        cues.append(PlayerCue(start, max(end, start), kind, text, phase, zone))
    return _with_counts(sorted(cues, key=lambda c: (c.start_ms, c.end_ms, c.kind)))


#: The cue kind of each spoken number of a countdown ("Five.", "Four." …), heard apart.
COUNT_KIND = "count"


def _with_counts(cues: Sequence[PlayerCue]) -> tuple[PlayerCue, ...]:
    """Completes the listed text of a cue that a countdown follows with its numbers.

    "Data transfer. Repeat: data transfer in" and "First phase ends in" are followed by the
    numbers, each a cue of its own (captions show them one by one, as they are heard); the
    player's list shows only the announcement, which must read whole: "… data transfer in
    five, four, three, two, one."
    """
    done = list(cues)
    for index, cue in enumerate(done):
        if cue.kind == COUNT_KIND:
            continue
        counts = []
        for later in done[index + 1:]:
            if later.kind != COUNT_KIND:
                break
            counts.append(later.text.strip().rstrip(".").lower())
        if counts:
            done[index] = replace(cue, listed=f"{cue.text.rstrip()} {', '.join(counts)}.")
    return tuple(done)


def _phase_at(phases_ms: Sequence[int], ms: int) -> int:
    for index, end in enumerate(phases_ms, start=1):
        if ms < end:
            return index
    return len(phases_ms)
