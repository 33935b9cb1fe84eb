/* Action-card hands in C: the projection of a plan onto the cards a crew was dealt.
 *
 * A port of authoring/engine/rules/hands.py (docs/rules.md §16.1): the same flow network, built node
 * for node and edge for edge in the order _Network documents, the same greedy laying in turn
 * order (seat order within a turn), the same exact check branching over the half each giver
 * gives (at most 64 branches), so deal_project gives what hands.project_codes gives on every
 * input it accepts (tests/engine/test_hands_c.py compares the two on many random plans).
 * The Python adapter is authoring/engine/cores/chands.py.
 *
 * Reentrant: no static mutable state; a Deal is read only by deal_project, which keeps its
 * working state on the stack, so several threads may project onto one deal at once.
 */
#ifndef SPACEALERT_HANDS_H
#define SPACEALERT_HANDS_H

#include <stdint.h>

#define HANDS_ABI 3          /* sa_hands_abi(): what chands.py checks when it loads */
#define HANDS_WORDS_VERSION 2
#define HANDS_SLOTS 12       /* slots per row (turns 1-12) */
#define HANDS_SINGLES 7      /* r b l A B C R, hands.HALVES order: the first halves of a deal */
#define HANDS_MAX_HALVES 48  /* hands.halves_of: the singles and the deck's two-action halves */
#define HANDS_PHASES 3
#define HANDS_MAX_CREW 8
#define HANDS_MAX_GIVERS 6
#define HANDS_MAX_MOMENTS 16
#define HANDS_MAX_TRANSFERS 8
#define HANDS_MAX_CARDS 128  /* the deck has 90 */
#define HANDS_MAX_NODES 4096  /* a double-action deal of five players: about 2000 */
#define HANDS_MAX_EDGES 32766 /* edges and their reverses (int16 ids); about 12500 then */

/* The deal words (int32, built by chands.encode from a hands.Hands):
 *
 *   [0] HANDS_WORDS_VERSION
 *   [1] crew members (rows of a plan), at most HANDS_MAX_CREW
 *   [2] players (the seats; a row key is a seat 0 .. players-1, or -1 for an android)
 *   [3] givers (len(hands.held): the players holding cards), at most HANDS_MAX_GIVERS
 *   [4] moments (hands.moments), at most HANDS_MAX_MOMENTS
 *   [5] cards (all the held cards), at most HANDS_MAX_CARDS
 *   [6] halves (hands.halves_of: the network's halves), HANDS_SINGLES to HANDS_MAX_HALVES
 *   then per half, halves_of order: its plan.encode code (the singles 1-7 first, in order;
 *       a two-action half as a double action's code);
 *   then the half indexes in the order Python sorts the halves' texts (hands._exact
 *       branches on them in that order);
 *   then per crew member, seat order: row key, heroic mask (bit 0 A+, 1 B+, 2 R+, 3 + s a
 *       heroic move to station s in plan.STATIONS order: the halves of its heroic card;
 *       0 when it has none);
 *   then per moment, time order: phase (1-3), 1 for a data transfer else 0;
 *   then per held card, holder by holder in hands.held order: holder, moment index, the
 *       half index (of the halves above) of its movement half, of its action half (of a
 *       double-action card: its one-action half, its two-action half).
 *
 * Rows are plan.encode codes: 0 blank; 1-7 r b l A B C R; 16 | 4, 5, 7 A+ B+ R+;
 * 16 | 8 | (s + 1) << 8 a heroic move to station s; a double action of plan.DOUBLE_PAIRS
 * (kind | second << SECOND_SHIFT; one no card of the deal has finds no card); TRIP_BIT (32)
 * on any card. Any other code (a tripped blank, a pair the deck does not have) makes
 * deal_project return -1, as hands.decode_rows refuses it.
 */

typedef struct Deal {
    int crew, players, givers, transfers, nodes, edges, halves;
    uint64_t digest;                      /* of the words: a DealCache knows its deal by it */
    int8_t row_key[HANDS_MAX_CREW];
    uint16_t heroic[HANDS_MAX_CREW];
    int32_t half_code[HANDS_MAX_HALVES];  /* per half: its plan.encode code */
    int8_t sorted[HANDS_MAX_HALVES];      /* the half indexes, their texts sorted */
    int16_t slot[HANDS_MAX_CREW + 1][HANDS_PHASES][HANDS_MAX_HALVES]; /* by row key + 1 */
    int16_t gift[HANDS_MAX_GIVERS][HANDS_MAX_TRANSFERS][HANDS_MAX_HALVES]; /* capacity-1 */
    int16_t drain[HANDS_MAX_NODES];       /* a card group's edge into the sink, else -1 */
    int16_t first[HANDS_MAX_NODES + 1];   /* a node's edges: out[first[n] .. first[n+1]) */
    int16_t out[HANDS_MAX_EDGES];         /* edge ids in the order they were made */
    int16_t to[HANDS_MAX_EDGES];          /* edge e's tail; e ^ 1 is its reverse */
    int32_t cap[HANDS_MAX_EDGES];         /* capacities before any slot is laid */
    int16_t gift_key[HANDS_MAX_EDGES];    /* a gift edge's giver * HANDS_MAX_TRANSFERS +
                                             transfer, else -1 */
    int8_t gift_half[HANDS_MAX_EDGES];    /* a gift edge's half */
} Deal;

/* Builds a deal from the words above. Returns 0, or -1 for malformed or too large words. */
int deal_init(Deal *d, const int32_t *words, int nwords);

/* Projects rows (nrows rows of 12 codes) in place: slots that find no card become 0 (blank).
   Returns the number of slots blanked (0: the plan is playable, unchanged), or -1 for an
   unsupported input (a code above, nrows other than the crew): the rows are then untouched.
   The same result as hands.project_codes(hands, rows). */
int deal_project(const Deal *d, int32_t (*rows)[HANDS_SLOTS], int nrows);

/* A caller's cache for projecting many plans onto one deal, as a search does (each plan a
   neighbour of plans before): deal_project_cached gives exactly what deal_project gives, on
   any input, whatever was projected through the cache before (tests/engine/test_hands_c.py).
   It keeps
   - the state of the last plan's greedy laying after each slot (an undo log), so a plan is
     laid again only from its first slot (turn order, seat order within a turn) that differs
     from the last plan's: the same searches on the same state find the same paths;
   - in the exact check, each branch resumed from the first slot at which the gift it
     forbids was reached by a search of its parent branch (before that the branch searches
     exactly as its parent did), the same branches in the same order, the same 64 at most;
   - with memo > 0 (rounded up to a power of two), the results of the last plans projected,
     by their slots (a search proposes many plans more than once).
   A cache serves one deal at a time and starts afresh when given another (by its address
   and digest); it is not shared between threads. NULL without memory. */
typedef struct DealCache DealCache;
DealCache *deal_cache_new(int memo);
void deal_cache_free(DealCache *cache);
int deal_project_cached(const Deal *d, DealCache *cache, int32_t (*rows)[HANDS_SLOTS], int nrows);

/* ctypes entry points (chands.py): the ABI, the size of a Deal (the adapter keeps one per
   hands in a buffer of its own), deal_init and deal_project on such a buffer, and a
   one-shot projection that builds the deal on the heap first. */
int sa_hands_abi(void);
int sa_deal_size(void);
int sa_deal_init(void *deal, const int32_t *words, int nwords);
int sa_deal_project(const void *deal, int32_t *rows, int nrows);
/* Projects count plans of nrows rows each (rows back to back); blanked[i] gets plan i's
   result. Returns 0, or -1 when a plan was refused (its result is -1). */
int sa_deal_project_many(const void *deal, int32_t *rows, int nrows, int count,
                         int32_t *blanked);
/* sa_deal_project_many with each plan's wall-clock nanoseconds in nanos[i] (bench/
   projection.py: a projection's cost on its own, without a foreign call around it). */
int sa_deal_project_timed(const void *deal, int32_t *rows, int nrows, int count,
                          int32_t *blanked, int64_t *nanos);
/* The cache from ctypes: sa_deal_project_cached_many is sa_deal_project_many through it;
   sa_deal_project_cached_timed is sa_deal_project_timed through a cache of its own for the
   whole batch (a memo of `memo` projections; HANDS_MEMO is chands.py's default). */
#define HANDS_MEMO 4096
void *sa_deal_cache_new(int memo);
void sa_deal_cache_free(void *cache);
int sa_deal_project_cached_many(const void *deal, void *cache, int32_t *rows, int nrows,
                                int count, int32_t *blanked);
int sa_deal_project_cached_timed(const void *deal, int memo, int32_t *rows, int nrows,
                                 int count, int32_t *blanked, int64_t *nanos);
int sa_project(const int32_t *deal_words, int nwords, int32_t *rows, int nrows);

#endif
