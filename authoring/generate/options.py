"""Parses and checks the generator's options; every impossible request is a ``UsageError``.

The checks here are the ones that can be made before drawing anything: ranges well formed,
values inside what a Space Alert mission can hold, and a threat mix that exists at all (enough
turns for the points asked for). Whatever remains impossible only for a particular seed is
found by the generator, which retries deterministically and reports a failure if it must.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from authoring.crew import CrewSize, CrewSizeError, crew_size
from authoring.errors import UsageError
from authoring.generate.profiles import PROFILE_SPECS, ProfileSpec, profile_spec
from authoring.mission.model import DECK_COLOURS, DeckColour, Profile
from authoring.mission.timecode import format_clock, is_clock, parse_clock

_RANGE = re.compile(r"^\s*(\d+)\s*(?:\.\.\s*(\d+)\s*)?$")

#: Turns whose announcements can hold a serious external threat (T+2..7) and the others.
_SERIOUS_TURNS = 6
_TURNS = 8
#: No internal threats on adjacent turns inside T+2..7 leaves room for three at most.
MAX_INTERNAL = 3
#: Whole-mission lengths the generator accepts per profile (a window around the official ones).
LENGTH_LIMITS: dict[str, tuple[int, int]] = {
    "base": (540, 660), "training": (540, 660), "test-run": (360, 480),
    "double-action": (720, 870),
}


@dataclass(frozen=True)
class GenerateOptions:
    """What the user asked for; ``None`` means the profile's calibrated default."""

    profile: Profile = "base"
    players: int = 5
    figures: int | None = None  # None: the fewest the rules allow for the players
    seed: int = 0
    threat_level: int | None = None
    serious: tuple[int, int] | None = None
    internal: tuple[int, int] | None = None
    unconfirmed: int | None = None
    ambush: float | None = None
    length: int | None = None
    decks: DeckColour = "mixed"
    expansion: bool = False  # New Frontier's threat cards shuffled into the decks

    @property
    def spec(self) -> ProfileSpec:
        """Returns the profile's calibration."""
        return profile_spec(self.profile)

    def points(self) -> int:
        """Returns the threat points asked for (unconfirmed reports included)."""
        return self.spec.threat_level if self.threat_level is None else self.threat_level

    @property
    def crew(self) -> CrewSize:
        """The crew the mission is generated for (``check_options`` has checked the pair)."""
        return crew_size(self.players, self.figures)

    def unconfirmed_points(self) -> int:
        """Returns the unconfirmed-report points asked for."""
        return self.spec.unconfirmed if self.unconfirmed is None else self.unconfirmed

    def command_line(self) -> str:
        """Returns the options as a ``spacealert generate`` command that reproduces them."""
        parts = ["spacealert generate", f"--profile {self.profile}", f"--players {self.players}",
                 f"--seed {self.seed}"]
        if self.figures is not None:
            parts.insert(3, f"--figures {self.figures}")
        if self.threat_level is not None:
            parts.append(f"--threat-level {self.threat_level}")
        if self.serious is not None:
            parts.append(f"--serious {self.serious[0]}..{self.serious[1]}")
        if self.internal is not None:
            parts.append(f"--internal {self.internal[0]}..{self.internal[1]}")
        if self.unconfirmed is not None:
            parts.append(f"--unconfirmed {self.unconfirmed}")
        if self.ambush is not None:
            parts.append(f"--ambush {self.ambush:g}")
        if self.length is not None:
            parts.append(f"--length {format_clock(self.length)}")
        if self.decks != "mixed":
            parts.append(f"--decks {self.decks}")
        if self.expansion:
            parts.append("--expansion")
        return " ".join(parts)


def parse_range(text: str, option: str) -> tuple[int, int]:
    """Parses ``MIN..MAX`` (or a single number) into a pair; raises ``UsageError``."""
    match = _RANGE.match(text)
    if not match:
        raise UsageError(f"{option}: expected MIN..MAX such as 1..3, got {text!r}")
    low = int(match.group(1))
    high = int(match.group(2)) if match.group(2) is not None else low
    if low > high:
        raise UsageError(f"{option}: expected MIN..MAX with MIN <= MAX, got {text!r}",
                         hint=f"did you mean {high}..{low}?")
    return low, high


def parse_length(text: str) -> int:
    """Parses ``--length m:ss`` into seconds; raises ``UsageError``."""
    if not is_clock(text.strip()):
        raise UsageError(f"--length: expected a time m:ss such as 10:00 (seconds 00-59), "
                         f"got {text!r}")
    seconds = parse_clock(text.strip())
    if seconds % 5:
        raise UsageError(f"--length: expected a multiple of 5 seconds (the grid of the official "
                         f"tracks), got {text!r}")
    return seconds


def _need(condition: bool, message: str, hint: str | None = None) -> None:
    if not condition:
        raise UsageError(message, hint=hint)


def check_options(options: GenerateOptions) -> None:
    """Raises ``UsageError`` when the options cannot describe any mission of the profile."""
    _need(options.profile in PROFILE_SPECS,
          f"--profile: expected one of {', '.join(PROFILE_SPECS)}, got {options.profile!r}")
    try:
        crew_size(options.players, options.figures)
    except CrewSizeError as error:
        raise UsageError(f"--players/--figures: {error}") from None
    _need(options.decks in DECK_COLOURS,
          f"--decks: expected one of {', '.join(DECK_COLOURS)}, got {options.decks!r}")
    _need(options.decks != "red" or options.expansion,
          "--decks red: only the New Frontier expansion's cards are red: expected --expansion "
          "too, or white, yellow or mixed")
    _need(0 <= options.seed < 2**63, f"--seed: expected 0..2^63-1, got {options.seed}")
    spec = options.spec
    points, unconfirmed = options.points(), options.unconfirmed_points()
    slots = max_threats(spec)
    most = _TURNS + _SERIOUS_TURNS + (2 * MAX_INTERNAL if slots > _TURNS else 0)
    _need(1 <= points <= most,
          f"--threat-level: expected 1..{most} threat points for the {spec.name} profile, "
          f"got {points}",
          hint="every turn T+1..T+8 holds one threat (two on double-action tracks); "
               "serious ones (2 points) only on T+2..T+7")
    _need(0 <= unconfirmed < points,
          f"--unconfirmed: expected 0..{points - 1} points (fewer than the threat level "
          f"{points}), got {unconfirmed}")
    if options.serious is not None:
        low, high = options.serious
        _need(high <= min(points // 2, slots),
              f"--serious: {low}..{high} serious threats do not fit in {points} threat points",
              hint="a serious threat is worth 2 points")
    if options.internal is not None:
        low, high = options.internal
        _need(high <= MAX_INTERNAL,
              f"--internal: expected at most {MAX_INTERNAL} internal threats, got {low}..{high}",
              hint="internal threats come on T+2..T+7 and never on adjacent turns")
        _need(low <= points, f"--internal: {low} internal threats need at least {low} points")
    if options.ambush is not None:
        _need(0.0 <= options.ambush <= 1.0,
              f"--ambush: expected a probability 0..1, got {options.ambush:g}")
    if options.length is not None:
        low, high = LENGTH_LIMITS[spec.name]
        _need(low <= options.length <= high,
              f"--length: expected {format_clock(low)}..{format_clock(high)} for the "
              f"{spec.name} profile, got {format_clock(options.length)}")
    if not mixes(options):
        raise UsageError(
            f"no threat mix fits {points} threat points with the options given "
            f"(--serious {_show(options.serious)}, --internal {_show(options.internal)}, "
            f"--unconfirmed {unconfirmed})",
            hint=f"the {spec.name} profile places {spec.threat_count[0]}..{slots} threats; "
                 "relax --serious or --internal, or change --threat-level")


def max_threats(spec: ProfileSpec) -> int:
    """Returns how many threats a mission of the profile can hold (8 turns, plus shared ones)."""
    return _TURNS + max(spec.shared_turn_weights)


def _show(pair: tuple[int, int] | None) -> str:
    return "default" if pair is None else f"{pair[0]}..{pair[1]}"


def serious_choices(options: GenerateOptions) -> list[int]:
    """Returns the serious-threat counts the options allow, each giving a feasible count."""
    spec = options.spec
    points = options.points()
    slots = max_threats(spec)
    if options.serious is not None:
        candidates = list(range(options.serious[0], options.serious[1] + 1))
    elif options.threat_level is None:
        candidates = sorted(spec.serious_weights)
    else:
        # a changed threat level keeps the profile's threat count and moves the mix
        candidates = list(range(0, points // 2 + 1))
    found = []
    for serious in candidates:
        count = points - serious
        if serious < 0 or count < 1 or serious > count or count > slots:
            continue
        if serious > _SERIOUS_TURNS + MAX_INTERNAL:
            continue
        if options.serious is None and options.threat_level is None:
            low, high = spec.threat_count
            if not low <= count <= high:
                continue
        found.append(serious)
    return found


def internal_choices(options: GenerateOptions) -> list[int]:
    """Returns the internal-threat counts the options allow."""
    spec = options.spec
    if options.internal is not None:
        return list(range(options.internal[0], options.internal[1] + 1))
    return sorted(spec.internal_weights)


def mixes(options: GenerateOptions) -> bool:
    """Tells whether at least one (serious, internal) count pair fits the points asked for."""
    points = options.points()
    for serious in serious_choices(options):
        count = points - serious
        for internal in internal_choices(options):
            if internal <= count and internal <= MAX_INTERNAL:
                return True
    return False
