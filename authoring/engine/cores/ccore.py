"""The C engine core: whole games in C (``authoring/engine/cores/c/core.c``), loaded with ctypes.

The third core next to the Python reference and the mypyc build (see ``cores.py``). This module
encodes what a game needs as small integers -- the card table once per process, each
``Setup`` and ``Plan`` once (cached on the object), the seed as the 32-bit words CPython's
``random.seed`` uses -- and plays a whole batch in one foreign call. The call fills a compact
record per game (``Batch``: outcome, turn, score breakdown, damage tokens, threat fates) and,
when asked, a snapshot of the state after every turn, which is turned into the real state
notation (``notation.py``) here, so the differential test compares the same text for both
cores.

What the C core does not play is played by the Python reference, game by game, inside the
same batch (``unsupported``): a card whose operation or ability the C port does not know
(none of the cards the engine plays, base game and expansion: ``unsupported_cards()`` is
empty today), more than
``MAX_THREATS`` threats, and anything that needs the log (``record=True``) or a state other
than a mission's start (campaigns, forks: ``campaign.py`` and ``exact.py`` run in Python).
"""

from __future__ import annotations

import ctypes
import weakref
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from authoring._native import c_library, c_status
from authoring.engine.cores import codes
from authoring.engine.rules import game
from authoring.engine.rules.levels import get_level
from authoring.engine.rules.log import Result, Score, ThreatOutcome
from authoring.engine.rules.notation import notation
from authoring.engine.rules.plan import TOKEN_KINDS, Plan
from authoring.engine.rules.setup import Setup
from authoring.engine.rules.ship import TOKEN_NAMES, ZONE_NAMES
from authoring.engine.rules.state import (
    ACTIVE_THREAT,
    DESTROYED,
    PENDING,
    SURVIVED,
    CrewMember,
    State,
    ThreatState,
)
from authoring.engine.rules.threats.cards import STATION_CODES, Card, load_cards

# Every code shared with core.c is defined once, in codes.py (the C side reads the header
# generated from it); the short names below are this module's view of them.
OPERATIONS = codes.OPERATIONS
_ACTIVATE = codes.ACTIVATE
FLAGS = codes.FLAGS
_SCOUT, _MARAUDER = codes.X_FLAGS["scout_bonus"], codes.X_FLAGS["marauder_bonus"]
ARGUMENT_ABILITIES = codes.ARGUMENT_ABILITIES
SYSTEMS = codes.SYSTEMS
CARD_INTS, OUT_INTS, SNAP_INTS = codes.CARD_INTS, codes.OUT_INTS, codes.SNAP_INTS
MAX_OPS, MAX_SNAPS, MAX_THREATS, MAX_FORCED = (codes.MAX_OPS, codes.MAX_SNAPS, codes.MAX_THREATS,
                                               codes.MAX_FORCED)
_LETTERS = codes.CARD["C_LETTERS"]
_CREW, _CREW_SNAP = codes.SNAP["S_CREW"], codes.CREW_SNAP
_THREATS, _THREAT_SNAP = codes.SNAP["S_THREATS"], codes.THREAT_SNAP
_O_SCORE, _O_NTOKENS, _O_TOKENS, _O_STATUS, _O_ENDED, _O_NSNAPS, _O_ZONE = (
    codes.OUT[name] for name in ("O_SCORE", "O_NTOKENS", "O_TOKENS", "O_STATUS", "O_ENDED",
                                 "O_NSNAPS", "O_ZONE"))


def _argument(card: Card, name: str) -> int:
    return card.ability_arg(name)


def _op_record(op: tuple[Any, ...]) -> list[int] | None:
    """Returns (code, arg1, arg2) for a square operation, None if core.c lacks it."""
    name, *args = op
    if name in _ACTIVATE:
        return [OPERATIONS.index("activate"), 0, 0]
    if name not in OPERATIONS or not name:
        return None
    words: list[int] = []
    for arg in args:
        if isinstance(arg, int):
            words.append(arg)
        elif name == "ko_stations":  # several station codes: one bit each
            words = [sum(1 << STATION_CODES.index(code) for code in args)]
            break
        elif arg in ("red", "blue") and name in ("move", "slime_spread",
                                                 "move_if_damaged_else_attack",
                                                 "move_if_present", "move_phasing", "jump"):
            words.append(-1 if arg == "red" else 1)
        elif arg in ("red", "all") and name == "fissure":
            words.append(2 if arg == "all" else 1)
        elif arg in ZONE_NAMES[:3] and name == "attack_zone":
            words.append(ZONE_NAMES.index(arg))
        elif arg in STATION_CODES:
            words.append(STATION_CODES.index(arg))
        else:
            return None
    if len(words) > 2:
        return None
    return [OPERATIONS.index(name), *words, *[0] * (2 - len(words))]


def _flag_words(flags: int) -> tuple[int, int]:
    """Splits the 64 flag bits into the record's two signed 32-bit words (low word first),
    which core.c joins back into one unsigned 64-bit value."""
    low, high = flags & 0xFFFFFFFF, flags >> 32
    return (low - (1 << 32) if low >> 31 else low, high - (1 << 32) if high >> 31 else high)


def card_record(card: Card) -> list[int] | None:
    """Returns the card's record for core.c, or None when the C core cannot play it."""
    if not card.playable or len(card.stations) > 4 or card.system not in SYSTEMS:
        return None
    flags = 0
    for ability in card.abilities:
        name = ability.partition(":")[0]
        if name in FLAGS:
            flags |= FLAGS[name]
        elif name not in ARGUMENT_ABILITIES:
            return None
    if ("scout_bonus",) in card.x:
        flags |= _SCOUT
    if ("marauder_bonus",) in card.x:
        flags |= _MARAUDER
    record = [int(card.external), int(card.malfunction), card.health or 0, card.shield,
              card.speed, card.points_survived, card.points_destroyed,
              SYSTEMS.index(card.system), *_flag_words(flags),
              *(_argument(card, a) for a in ARGUMENT_ABILITIES),
              len(card.stations), *card.stations, *[0] * (4 - len(card.stations))]
    for letter in (card.x, card.y, card.z):
        if len(letter) > MAX_OPS:
            return None
        ops = [_op_record(op) for op in letter]
        if any(op is None for op in ops):
            return None
        record.append(len(ops))
        for op in ops:
            record.extend(op or ())
        record.extend([0] * (3 * (MAX_OPS - len(ops))))
    return record + [0] * (CARD_INTS - len(record))


@cache
def _card_table() -> tuple[dict[str, int], frozenset[str], array[int]]:
    """Returns card index by id, the unsupported playable cards and the table for core.c."""
    index: dict[str, int] = {}
    unsupported = set()
    table = array("i")
    for card in load_cards().values():
        record = card_record(card)
        if record is None:
            if card.playable:
                unsupported.add(card.id)
            continue
        index[card.id] = len(index)
        table.extend(record)
    return index, frozenset(unsupported), table


def unsupported_cards() -> frozenset[str]:
    """Returns the ids of playable cards the C core leaves to the Python reference."""
    return _card_table()[1]


class _Library:
    """The loaded shared library with its argument types set."""

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)
        if lib.sa_abi() != codes.ABI:
            raise OSError(f"expected C core ABI {codes.ABI}, got {lib.sa_abi()}")
        lib.sa_codes.restype = ctypes.c_uint32
        if lib.sa_codes() != codes.DIGEST:  # built from another codes.h than codes.py's
            raise OSError(f"expected C core codes {codes.DIGEST:08x}, got {lib.sa_codes():08x}")
        pointer = ctypes.c_void_p
        lib.sa_set_cards.argtypes = [pointer, ctypes.c_int]
        lib.sa_play.argtypes = [ctypes.c_int, pointer, ctypes.c_int, pointer, pointer]
        index, _, table = _card_table()
        if lib.sa_set_cards(table.buffer_info()[0], len(index)) != 0:
            raise OSError("the C core refused the card table")
        self.play = lib.sa_play
        lib.sa_search.argtypes = [pointer, pointer, pointer, pointer, pointer, pointer, pointer]
        self.search = lib.sa_search


@cache
def _library() -> _Library | None:
    if c_status() is not None:
        return None
    try:
        return _Library(c_library())
    except (OSError, AttributeError):  # another platform's build, or a damaged one
        return None


def available() -> bool:
    """Tells whether the C core is built, up to date and loads."""
    return _library() is not None


# --- encoding ---------------------------------------------------------------------------------

def _nothing() -> None:
    return None


class _Words:
    """Ints for core.c with their address: the foreign call reads them where they are.

    Kept for a ``Setup`` or ``Plan`` in this module's caches (``_CODES``), or per seed: never
    on the reference's objects, which carry no core plumbing and pickle as they are (an
    address means nothing in another process, which encodes its own copy again)."""

    __slots__ = ("address", "words")

    def __init__(self, words: array[int]) -> None:
        self.words = words  # kept alive as long as the address is used
        self.address: int = words.buffer_info()[0]

    def __reduce__(self) -> tuple[Any, ...]:
        return (_nothing, ())


class _SetupCode(_Words):
    """A setup's ints (``address`` 0: the C core cannot play it), the (players, level)
    signature its plans are validated against, and what decoding its games needs."""

    __slots__ = ("decoding", "signature")

    def __init__(self, words: array[int], playable: bool, signature: int) -> None:
        super().__init__(words)
        if not playable:
            self.address = 0
        self.signature = signature
        self.decoding: _Decoding | None = None


class _PlanCode(_Words):
    """A plan's ints followed by its own seed's key (core.c finds it there when a game has no
    explicit seed), and the setup signatures it was validated for: the last one, and all."""

    __slots__ = ("signature", "validated")

    def __init__(self, words: array[int]) -> None:  # a plan search encodes every new plan
        self.words = words
        self.address = words.buffer_info()[0]
        self.signature = -1
        self.validated: set[int] = set()


_ZERO_INT, _ZERO_SHORT = array("i", (0,)), array("h", (0,))
_PLACEHOLDER = _Words(array("i", (4, 0, 1, 2, 3, 0)))  # no threats: where fallbacks point
_KEYS: dict[int, _Words] = {}  # seed -> its key (a plan search uses a few seeds again and again)
_KEY_WORDS: dict[int, tuple[int, ...]] = {}  # the same as ints, to append to a plan's


class _ByIdentity:
    """The codes of live reference objects, looked up by identity.

    A ``Setup`` or a ``Plan`` is encoded once, when the core first plays it, and the code
    lives exactly as long as its object: a weak reference per entry drops the entry when the
    object goes, so an id reused by a later object never finds an old code. Identity, not
    equality: hashing a plan would cost more than encoding it."""

    __slots__ = ("_entries",)

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref[Any], Any]] = {}

    def get(self, obj: object) -> Any:
        """Returns the object's code, None before it is encoded."""
        entry = self._entries.get(id(obj))
        return entry[1] if entry is not None and entry[0]() is obj else None

    def put(self, obj: object, code: Any) -> None:
        """Keeps the object's code while the object lives."""
        key, entries = id(obj), self._entries

        def drop(ref: weakref.ref[Any]) -> None:
            entry = entries.get(key)
            if entry is not None and entry[0] is ref:
                del entries[key]

        entries[key] = (weakref.ref(obj, drop), code)


_SETUP_CODES, _PLAN_CODES = _ByIdentity(), _ByIdentity()


def _setup_code(setup: Setup) -> _SetupCode:
    """Returns the setup's encoding for core.c, cached while the setup lives."""
    code: _SetupCode | None = _SETUP_CODES.get(setup)
    if code is None:
        index = _card_table()[0]
        order = setup.appearance_order
        words = [setup.level, *(int(name[1:]) - 1 for name in setup.track_names), len(order)]
        carriers = {b: n for n, b in enumerate(setup.bonus_links) if b >= 0}
        for n, (card, turn, zone) in enumerate(order):
            if card.id not in index:
                break
            # a bonus threat's turn: -(1 + the place of its carrier), which core.c reads
            # and sets to 0 (docs/rules.md §19.8)
            words += (index[card.id], -1 - carriers[n] if n in carriers else turn, zone)
        playable = len(words) == 6 + 3 * len(order) and len(order) <= MAX_THREATS
        code = _SetupCode(array("i", words), playable,
                          ((setup.players or 0) * 8 + setup.level) * 2 + setup.double_actions)
        _SETUP_CODES.put(setup, code)
    return code


def _plan_code(plan: Plan) -> _PlanCode:
    """Returns the plan's encoding for core.c (crew codes, forced tokens, key), cached while
    the plan lives."""
    code: _PlanCode | None = _PLAN_CODES.get(plan)
    if code is None:
        crew = plan.crew
        words = [len(crew)]
        for member in crew:
            words += member.codes
        tokens = plan.tokens
        if tokens:
            for zone in ZONE_NAMES[:3]:
                kinds = tokens.get(zone, ())
                words.append(len(kinds))
                words += (TOKEN_KINDS.index(k) for k in kinds)
        else:
            words += (0, 0, 0)
        seed = plan.seed
        key = _KEY_WORDS.get(seed)
        if key is None:
            if len(_KEY_WORDS) >= 1 << 16:
                _KEY_WORDS.clear()
            key = _KEY_WORDS[seed] = tuple(array("i", _key(seed)))
        words += key
        code = _PlanCode(array("i", words))
        _PLAN_CODES.put(plan, code)
    return code


def _key(seed: int) -> bytes:
    """Returns CPython's ``random.seed(seed)`` key for core.c: the word count, then abs(seed)
    in 32-bit words, least significant first (0 is one zero word)."""
    value = abs(seed)
    words = []
    while True:
        words.append(value & 0xFFFFFFFF)
        value >>= 32
        if not value:
            return array("I", [len(words), *words]).tobytes()


def _key_code(seed: int) -> _Words:
    """Returns the seed's key with its address (cached; whoever passes the address holds the
    object, so emptying the cache is safe)."""
    key = _KEYS.get(seed)
    if key is None:
        if len(_KEYS) >= 1 << 16:
            _KEYS.clear()
        key = _KEYS[seed] = _Words(array("i", _key(seed)))
    return key


def _validate(setup: Setup, plan: Plan, code: _PlanCode, signature: int) -> None:
    """Raises the reference's ``SetupError``/``PlanError`` for an illegal game (see
    ``game.initial_state``); remembers a legal pairing on the plan."""
    if signature not in code.validated:
        game.check_plan(setup, plan)
        code.validated.add(signature)
    code.signature = signature


@dataclass
class Batch:
    """The compact output of a batch: ``OUT_INTS`` ints per game (see the layout above).

    ``fallback`` holds the results of the games the Python reference played instead.
    """

    games: Sequence[tuple[Setup, Plan]]
    out: array[int]
    snaps: array[int] | None
    fallback: dict[int, Result]

    def survived(self, index: int) -> bool:
        """Tells whether game ``index`` survived."""
        return bool(self.out[index * OUT_INTS])

    def total(self, index: int) -> int:
        """Returns the score total of game ``index`` (0 when it was lost or not scored)."""
        return self.out[index * OUT_INTS + _O_SCORE + 6]


def play(games: Sequence[tuple[Setup, Plan]], seeds: Sequence[int] | None = None, *,
         trace: bool = False) -> Batch:
    """Plays the games in one foreign call and returns the compact output.

    Raises the same ``SetupError``/``PlanError`` as the reference for an illegal game.
    """
    lib = _library()
    if lib is None:
        raise RuntimeError(f"the C engine core is not available ({c_status() or 'failed'})")
    if seeds is not None and len(seeds) != len(games):
        raise ValueError(f"expected one seed per game ({len(games)}), got {len(seeds)}")
    # Per game: two cached encodings, one validity check and the addresses of its setup and
    # plan (and key), which core.c reads in place (the encodings stay referenced by the games).
    table: list[int] = []
    append = table.append
    fallback: list[int] = []
    # without seeds (the common case, and the bench's) each plan's own seed follows it
    stride = 2 if seeds is None else 3
    keys: dict[int, _Words] = {}  # holds every key passed
    for index, (setup, plan) in enumerate(games):
        s = _setup_code(setup)
        p = _plan_code(plan)
        if s.signature != p.signature:
            _validate(setup, plan, p, s.signature)
        if s.address:
            append(s.address)
        else:  # core.c plays the placeholder; the reference's result replaces it
            fallback.append(index)
            append(_PLACEHOLDER.address)
        append(p.address)
        if seeds is not None:
            key = keys.get(seeds[index])
            if key is None:
                key = keys[seeds[index]] = _key_code(seeds[index])
            append(key.address)
    count = len(games)
    # Zeroed by repetition: no temporary bytes object to copy (with it, half a megabyte per
    # 2,000 games went through fresh pages twice, a tenth of a random game's time)
    out = _ZERO_INT * (OUT_INTS * count)
    snaps = _ZERO_SHORT * (SNAP_INTS * MAX_SNAPS * count) if trace else None
    if count:
        addresses = array("Q", table)
        played = lib.play(count, addresses.buffer_info()[0], stride, out.buffer_info()[0],
                          snaps.buffer_info()[0] if snaps is not None else None)
        if played != count:
            raise MemoryError("the C engine core could not allocate its working memory")
    results: dict[int, Result] = {}
    for number in fallback:
        setup, plan = games[number]
        seed = plan.seed if seeds is None else seeds[number]
        results[number] = game.resolve(setup, plan, seed=seed, record=False, trace=trace)
        out[number * OUT_INTS:(number + 1) * OUT_INTS] = array("i", _record(results[number]))
    return Batch(games, out, snaps, results)


def _record(result: Result) -> list[int]:
    """Returns the compact record of a result the Python reference played."""
    record = [0] * OUT_INTS
    record[0], record[1] = int(result.survived), result.turn
    if result.score is not None:
        s = result.score
        record[_O_SCORE:_O_SCORE + 7] = [s.threats, s.visual_confirmation, s.damage,
                                         s.worst_zone, s.knocked_out, s.disabled_squads, s.total]
    for zone, name in enumerate(ZONE_NAMES[:3]):
        tokens = result.damage[name]
        record[_O_NTOKENS + zone] = len(tokens)
        for k, token in enumerate(tokens):
            record[_O_TOKENS + 6 * zone + k] = TOKEN_NAMES.index(token)
    return record


# --- decoding ---------------------------------------------------------------------------------

_FATES = {PENDING: "not-appeared", ACTIVE_THREAT: "on-track", DESTROYED: "destroyed",
          SURVIVED: "survived"}
_OUTCOMES: dict[tuple[str, int, int, int, int], ThreatOutcome] = {}
_TOKEN_NAMES: dict[tuple[int, ...], tuple[str, ...]] = {}


def _outcome(card: Card, token: int, zone: int, status: int, ended: int) -> ThreatOutcome:
    key = (card.id, token, zone, status, ended)
    outcome = _OUTCOMES.get(key)
    if outcome is None:
        points = (card.points_destroyed if status == DESTROYED
                  else card.points_survived if status == SURVIVED else 0)
        outcome = _OUTCOMES[key] = ThreatOutcome(token, card.id, card.name, ZONE_NAMES[zone],
                                                 _FATES[status], ended or None, points)
    return outcome


def _names(kinds: tuple[int, ...]) -> tuple[str, ...]:
    names = _TOKEN_NAMES.get(kinds)
    if names is None:
        names = _TOKEN_NAMES[kinds] = tuple(TOKEN_NAMES[k] for k in kinds)
    return names


class _Decoding:
    """What decoding a setup's games needs, built once per setup (cached on it): the
    reference's cards in order of appearance and the threat outcomes already seen (a plan
    search sees the same few again and again)."""

    def cause(self, code: int) -> str:
        """Returns why the ship was lost, from core.c's code."""
        if code >= 10:
            return f"{self.order[code - 10][0].name} reached Z"
        return f"a 7th damage in the {ZONE_NAMES[code - 1]} zone"

    def __init__(self, setup: Setup) -> None:
        cards = load_cards()  # the reference's own card objects (the Setup may hold others)
        self.order = [(cards[card.id], turn, zone) for card, turn, zone in setup.appearance_order]
        self.count = len(self.order)
        self.scored = get_level(setup.level).scored
        self.threats: dict[tuple[int, ...], tuple[ThreatOutcome, ...]] = {}


_SCORES: dict[tuple[int, ...], Score] = {}


def result(batch: Batch, index: int) -> Result:
    """Builds the ``Result`` of one game of a batch (with its notation trace if traced)."""
    done = batch.fallback.get(index)
    if done is not None:
        return done
    setup, plan = batch.games[index]
    code = _setup_code(setup)
    info = code.decoding
    if info is None:
        info = code.decoding = _Decoding(setup)
    rec = batch.out[index * OUT_INTS:(index + 1) * OUT_INTS].tolist()
    survived = bool(rec[0])
    count = info.count
    fates = tuple(rec[_O_STATUS:_O_STATUS + count] + rec[_O_ENDED:_O_ENDED + count]
                  + rec[_O_ZONE:_O_ZONE + count])  # the zone it ended in (a Jumper's changes)
    threats = info.threats.get(fates)
    if threats is None:
        threats = info.threats[fates] = tuple(
            _outcome(card, turn, fates[2 * count + t], fates[t], fates[count + t])
            for t, (card, turn, _) in enumerate(info.order))
    damage = {"red": _names(tuple(rec[_O_TOKENS:_O_TOKENS + rec[_O_NTOKENS]])),
              "white": _names(tuple(rec[_O_TOKENS + 6:_O_TOKENS + 6 + rec[_O_NTOKENS + 1]])),
              "blue": _names(tuple(rec[_O_TOKENS + 12:_O_TOKENS + 12 + rec[_O_NTOKENS + 2]]))}
    score = None
    if survived and info.scored:
        parts = tuple(rec[_O_SCORE:_O_SCORE + 7])
        score = _SCORES.get(parts)
        if score is None:
            score = _SCORES[parts] = Score(*parts)
    trace: tuple[str, ...] = ()
    if batch.snaps is not None:
        trace = tuple(_trace(batch.snaps, index, rec[_O_NSNAPS], setup, plan))
    return Result(survived=survived, turn=rec[1], cause="" if survived else info.cause(rec[2]),
                  threats=threats, damage=damage, score=score, trace=trace)


def _trace(snaps: array[int], index: int, count: int, setup: Setup, plan: Plan) -> list[str]:
    base = index * MAX_SNAPS * SNAP_INTS
    return [notation(state_from_snapshot(snaps[at:at + SNAP_INTS].tolist(), setup, plan))
            for at in range(base, base + count * SNAP_INTS, SNAP_INTS)]


def state_from_snapshot(snap: list[int], setup: Setup, plan: Plan) -> State:
    """Rebuilds the engine ``State`` a core.c snapshot describes (for its notation)."""
    cards = load_cards()
    crew = []
    for c, member in enumerate(plan.crew):
        at = _CREW + c * _CREW_SNAP
        figure = CrewMember(member.label, snap[at + 3:at + 15])
        figure.station, figure.squad, figure.out = snap[at], snap[at + 1], bool(snap[at + 2])
        crew.append(figure)
    threats = []
    for t, (card, turn, zone) in enumerate(setup.appearance_order):
        at = _THREATS + t * _THREAT_SNAP
        th = ThreatState(cards[card.id], turn, zone)
        (th.status, th.square, th.damage, th.health, th.speed, th.shield) = snap[at:at + 6]
        th.active, th.cryo = bool(snap[at + 6]), bool(snap[at + 7])
        th.passes, th.level, th.ended, th.zone = snap[at + 8:at + 12]
        th.stations = snap[at + 13:at + 13 + snap[at + 12]]
        th.spots = snap[at + 20:at + 20 + snap[at + 19]]
        threats.append(th)
    state = State(crew, threats, setup.track_names)
    state.turn = snap[0]
    state.shields, state.reactors = snap[1:4], snap[4:7]
    state.fuel, state.rockets, state.rocket_flying = snap[7], snap[8], bool(snap[9])
    state.stored = snap[10:12]
    state.maintained = [bool(m) for m in snap[12:15]]
    state.vc = snap[15:18]
    state.tokens = [snap[21 + 6 * z:21 + 6 * z + snap[18 + z]] for z in range(3)]
    state.broken = {(station, SYSTEMS[system] or "") for station in range(6)
                    for system in range(len(SYSTEMS)) if snap[39 + station] >> system & 1}
    state.contaminated = {s for s in range(6) if snap[45] >> s & 1}
    state.scout_bonus, state.lost = bool(snap[46]), snap[47]
    return state


# --- the Core protocol (see cores.py) ---------------------------------------------------------

def resolve_batch(games: Sequence[tuple[Setup, Plan]], seeds: Sequence[int] | None = None, *,
                  trace: bool = False) -> list[Result]:
    """Resolves many games in one foreign call (no log; see ``game.resolve_batch``)."""
    batch = play(games, seeds, trace=trace)
    return [result(batch, index) for index in range(len(games))]


def resolve(setup: Setup, plan: Plan, *, seed: int | None = None, record: bool = True,
            trace: bool = False) -> Result:
    """Resolves one game; with ``record`` (the log, which core.c does not write) the Python
    reference plays it."""
    if record:
        return game.resolve(setup, plan, seed=seed, record=True, trace=trace)
    return resolve_batch([(setup, plan)], None if seed is None else [seed], trace=trace)[0]


# --- the crews' plan search (search.c) ----------------------------------------------------------

#: sa_search's answer for a search it leaves to the Python reference.
SEARCH_UNSUPPORTED = -2


def plan_search(setup: Setup, params: Sequence[int], seeds: Sequence[int],
                starts: Sequence[Sequence[Sequence[int]]], deal: Any = None
                ) -> tuple[list[list[int]], int, int] | None:
    """Runs search.c's plan search (``authoring/simulation/localsearch.py`` says what it
    does; ``params`` are its parameter words); returns the best rows, their value (the sum of
    the objective over ``seeds``) and the number of plans rated, or None when the C core is
    not built, cannot play the setup's cards, or leaves this search to Python. ``deal``: the
    dealt hands' C deal (``chands.deal_of``), every plan projected onto them; None: free
    play."""
    lib = _library()
    if lib is None:
        return None
    code = _setup_code(setup)
    if not code.address:
        return None
    figures = len(starts[0]) if starts else 0
    keys = array("I")
    for one in seeds:
        keys.frombytes(_key(one))
    words = array("i", params)
    plans = array("i", (code for start in starts for row in start for code in row))
    best = _ZERO_INT * (12 * max(figures, 1))
    value = array("q", (0, 0))
    done = lib.search(words.buffer_info()[0], code.address, keys.buffer_info()[0],
                      plans.buffer_info()[0], deal, best.buffer_info()[0],
                      value.buffer_info()[0])
    if done == SEARCH_UNSUPPORTED:
        return None
    if done != 0:
        raise MemoryError("the C plan search could not allocate its working memory")
    rows = [best[12 * r:12 * (r + 1)].tolist() for r in range(figures)]
    return rows, value[0], value[1]
