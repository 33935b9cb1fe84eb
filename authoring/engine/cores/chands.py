"""The action-card projection in C (``authoring/engine/cores/c/hands.c``), loaded with ctypes.

``hands.c`` ports ``hands.project_codes`` (docs/rules.md §16.1): the same network in the same
order, the same greedy laying and the same exact check, so both give the same plan on every
input (tests/engine/test_hands_c.py compares them on many random plans). This module encodes
a ``Hands`` as the deal words ``hands.h`` documents, keeps one C deal per ``Hands`` object
(by identity, as ``hands._network`` keeps its network) and projects through the library.

What the C side does not take is projected by the Python reference instead, with the same
result: no library built (``available``), hands it is not sized for (more than 8 crew members
or 8 data transfers, a network past hands.h's bounds: a double-action deal with many
transfers), rows that are not 12 slots, a code ``hands.decode_rows`` does not know, and the
solver's ``first``/``prefer`` orders.
"""

from __future__ import annotations

import ctypes
from array import array
from collections.abc import Callable, Collection, Sequence
from functools import cache
from typing import Final

from authoring._native import c_library, c_status
from authoring.engine.rules import hands as reference
from authoring.engine.rules.hands import DATA_TRANSFER, Card, Hands, halves_of
from authoring.engine.rules.plan import SLOTS, STATIONS, parse_action
from authoring.engine.rules.plan import encode as encode_action

ABI: Final = 3  # sa_hands_abi() of a library this module can drive
WORDS_VERSION: Final = 2  # hands.h's HANDS_WORDS_VERSION
MEMO: Final = 4096  # hands.h's HANDS_MEMO: the projections a cache remembers by default
#: The heroic halves in the bit order of hands.h's heroic mask.
HEROIC_HALVES: Final = ("A+", "B+", "R+", *(">" + station for station in STATIONS))

#: ``project_codes`` of a hands module (``hands_module().project_codes``)
ProjectCodes = Callable[..., list[list[int]]]


class _Library:
    """The loaded shared library with the projection's argument types set."""

    def __init__(self, path: str) -> None:
        lib = ctypes.CDLL(path)  # a CDLL call releases the GIL: hands.c is reentrant
        if lib.sa_hands_abi() != ABI:
            raise OSError(f"expected hands ABI {ABI}, got {lib.sa_hands_abi()}")
        pointer = ctypes.c_void_p
        lib.sa_deal_init.argtypes = [pointer, pointer, ctypes.c_int]
        lib.sa_deal_project.argtypes = [pointer, pointer, ctypes.c_int]
        lib.sa_deal_project_many.argtypes = [pointer, pointer, ctypes.c_int, ctypes.c_int,
                                             pointer]
        lib.sa_deal_cache_new.argtypes = [ctypes.c_int]
        lib.sa_deal_cache_new.restype = pointer
        lib.sa_deal_cache_free.argtypes = [pointer]
        lib.sa_deal_cache_free.restype = None
        lib.sa_deal_project_cached_many.argtypes = [pointer, pointer, pointer, ctypes.c_int,
                                                    ctypes.c_int, pointer]
        self.deal_size: int = lib.sa_deal_size()
        self.cache_new = lib.sa_deal_cache_new
        self.cache_free = lib.sa_deal_cache_free
        self.deal_project_cached_many = lib.sa_deal_project_cached_many
        self.deal_init = lib.sa_deal_init
        self.deal_project = lib.sa_deal_project
        self.deal_project_many = lib.sa_deal_project_many


@cache
def _library() -> _Library | None:
    if c_status() is not None:
        return None
    try:
        return _Library(c_library())
    except (OSError, AttributeError):  # another platform's build, or one without hands.c
        return None


def available() -> bool:
    """Tells whether the C projection is built, up to date and loads."""
    return _library() is not None


def _heroic_mask(card: Card | None) -> int:
    if card is None:
        return 0
    return sum(1 << HEROIC_HALVES.index(half) for half in set(card.halves)
               if half in HEROIC_HALVES)


def encode(hands: Hands) -> list[int] | None:
    """Returns the deal words of the hands (hands.h), None when a card is not an ordinary
    card (its halves must be among ``hands.halves_of``)."""
    seat = {label: index for index, label in enumerate(hands.players)}
    cards = [(holder, card, when) for holder, held in enumerate(hands.held)
             for card, when in held]
    halves = halves_of(hands)
    index = {half: i for i, half in enumerate(halves)}
    words = [WORDS_VERSION, len(hands.labels), len(seat), len(hands.held), len(hands.moments),
             len(cards), len(halves)]
    words += [encode_action(parse_action(half)) for half in halves]
    words += sorted(range(len(halves)), key=lambda i: halves[i])  # as hands._exact sorts
    for member, label in enumerate(hands.labels):
        words += [seat.get(label, -1), _heroic_mask(hands.heroic[member])]
    for moment in hands.moments:
        words += [moment.phase, int(moment.kind == DATA_TRANSFER)]
    for holder, card, when in cards:
        move, action = index.get(card.move), index.get(card.action)
        if move is None or action is None:
            return None
        words += [holder, when, move, action]
    return words


_DEALS: dict[int, tuple[Hands, ctypes.Array[ctypes.c_char] | None]] = {}


def _deal(library: _Library, hands: Hands) -> ctypes.Array[ctypes.c_char] | None:
    """The C deal of the hands, built once per ``Hands`` object (None: the C side refuses
    them); a few kept, as ``hands._network`` keeps networks."""
    kept = _DEALS.get(id(hands))
    if kept is not None and kept[0] is hands:
        return kept[1]
    if len(_DEALS) >= 8:
        _DEALS.clear()
    words = encode(hands)
    deal: ctypes.Array[ctypes.c_char] | None = None
    if words is not None:
        deal = ctypes.create_string_buffer(library.deal_size)
        packed = array("i", words)
        if library.deal_init(deal, packed.buffer_info()[0], len(packed)) != 0:
            deal = None
    _DEALS[id(hands)] = (hands, deal)
    return deal


def project_c(hands: Hands, rows: Sequence[Sequence[int]]) -> list[list[int]] | None:
    """Projects encoded rows in C; None when the library is missing or refuses the input
    (then the Python reference must answer)."""
    library = _library()
    if library is None or any(len(row) != SLOTS for row in rows):
        return None
    deal = _deal(library, hands)
    if deal is None:
        return None
    flat = array("i", [code for row in rows for code in row])
    if library.deal_project(deal, flat.buffer_info()[0], len(rows)) < 0:
        return None
    return [flat[start:start + SLOTS].tolist() for start in range(0, len(flat), SLOTS)]


def project_codes(hands: Hands, rows: Sequence[Sequence[int]], first: Collection[int] = (),
                  prefer: Collection[tuple[int, int]] = (), *,
                  fallback: ProjectCodes | None = None) -> list[list[int]]:
    """``hands.project_codes`` through the C library when it takes the input, else through
    ``fallback`` (default: the Python reference): the same result either way."""
    projected = None if first or prefer else project_c(hands, rows)
    if projected is not None:
        return projected
    return (fallback or reference.project_codes)(hands, rows, first, prefer)


class ProjectionCache:
    """A ``DealCache`` (hands.h) of the library: projects plan after plan as a search does,
    each with exactly the result ``project_c`` gives it alone. One deal at a time (another
    hands start it afresh); not for several threads at once. ``memo``: the projections it
    remembers (0: none)."""

    def __init__(self, memo: int = MEMO) -> None:
        library = _library()
        if library is None:
            raise OSError("the C library is not built")
        self._library = library
        self._cache: int | None = library.cache_new(memo)
        if not self._cache:
            raise MemoryError("no memory for a projection cache")

    def close(self) -> None:
        """Frees the C cache (also when the object is collected)."""
        if self._cache:
            self._library.cache_free(self._cache)
            self._cache = None

    def __del__(self) -> None:
        self.close()

    def project(self, hands: Hands, plans: Sequence[Sequence[Sequence[int]]]
                ) -> list[list[list[int]] | None] | None:
        """Projects the plans one after the other (None for a plan the C side refuses);
        None when the C side refuses the hands."""
        return _project_many(hands, plans, self)


def project_many(hands: Hands, plans: Sequence[Sequence[Sequence[int]]]
                 ) -> list[list[list[int]] | None] | None:
    """``project_c`` of many plans in one foreign call (``sa_deal_project_many``)."""
    return _project_many(hands, plans, None)


def _project_many(hands: Hands, plans: Sequence[Sequence[Sequence[int]]],
                  cache: ProjectionCache | None) -> list[list[list[int]] | None] | None:
    library = _library()
    if library is None:
        return None
    deal = _deal(library, hands)
    if deal is None:
        return None
    crew = len(hands.labels)
    out: list[list[list[int]] | None] = [None] * len(plans)
    taken = [i for i, rows in enumerate(plans)
             if len(rows) == crew and all(len(row) == SLOTS for row in rows)]
    flat = array("i", [code for i in taken for row in plans[i] for code in row])
    blanked = array("i", [0] * len(taken))
    if taken and cache is None:
        library.deal_project_many(deal, flat.buffer_info()[0], crew, len(taken),
                                  blanked.buffer_info()[0])
    elif taken and cache is not None:
        if cache._cache is None:
            raise ValueError("the projection cache is closed")
        library.deal_project_cached_many(deal, cache._cache, flat.buffer_info()[0], crew,
                                         len(taken), blanked.buffer_info()[0])
    for n, i in enumerate(taken):
        if blanked[n] >= 0:
            start = n * crew * SLOTS
            out[i] = [flat[start + r * SLOTS:start + (r + 1) * SLOTS].tolist()
                      for r in range(crew)]
    return out


def deal_of(hands: Hands) -> ctypes.Array[ctypes.c_char] | None:
    """Returns the hands' C deal (hands.h ``Deal``) for another C routine of the library (the
    crews' plan search), None when the library is missing or refuses the hands."""
    library = _library()
    return None if library is None else _deal(library, hands)
