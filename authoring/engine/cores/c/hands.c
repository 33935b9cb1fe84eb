/* Action-card hands in C: hands.project_codes, statement for statement (see hands.h).
 *
 * The names follow authoring/engine/rules/hands.py: _Network's build is deal_init, Matcher.place is
 * place, Matcher._path is find_path, _greedy_by_turn is lay_greedy, _exact is exact.
 * deal_project lays every plan from turn 1; deal_project_cached (the last section) resumes
 * from the last plan's laying with an undo log, as _greedy_by_turn resumes from a plan laid
 * before, and gives the same result (tests/engine/test_hands_c.py).
 *
 * C11, no dependency beyond the C library; built into libspacealert_core.so with core.c by
 * `python -m authoring._native build`.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime for sa_deal_project_timed */
#include "hands.h"
#include "codes.h" /* the action bits: generated from cores/codes.py */

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INF (1 << 20) /* hands._INF: a slot group's edges to its cards are never the limit */
#define SINK 0
#define BRANCH_LIMIT 64 /* hands._BRANCH_LIMIT */
#define NO_GIFT HANDS_MAX_HALVES /* forbid: the giver gives nothing ("" in hands._exact) */
#define ANY_GIFT (-1)        /* forbid: no restriction */
#define GIFT_KEYS (HANDS_MAX_GIVERS * HANDS_MAX_TRANSFERS)

/* The phase (1-3) of turns 1-12 (ship.TURN_PHASE + 1). */
static const int8_t PHASE_OF_TURN[HANDS_SLOTS + 1] = {0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3};

/* --- building the network (hands._Network.__init__) ---------------------------------- */

typedef struct {
    Deal *d;
    int16_t head[HANDS_MAX_EDGES / 2]; /* per forward edge: its head, for the adjacency */
    int ok;
} Builder;

static int new_node(Builder *b) {
    if (b->d->nodes >= HANDS_MAX_NODES) {
        b->ok = 0;
        return 0;
    }
    return b->d->nodes++;
}

static int new_edge(Builder *b, int head, int tail, int32_t capacity) {
    Deal *d = b->d;
    if (d->edges + 2 > HANDS_MAX_EDGES) {
        b->ok = 0;
        return 0;
    }
    int e = d->edges;
    d->to[e] = (int16_t)tail;
    d->to[e + 1] = (int16_t)head;
    d->cap[e] = capacity;
    d->cap[e + 1] = 0;
    d->gift_key[e] = d->gift_key[e + 1] = -1;
    d->gift_half[e] = d->gift_half[e + 1] = -1;
    b->head[e / 2] = (int16_t)head;
    d->edges += 2;
    return e;
}

/* The adjacency as hands.py appends it: each node's edges in the order they were made, an
   edge in its head's list and its reverse in its tail's. */
static void index_edges(Deal *d, const int16_t *head) {
    int count[HANDS_MAX_NODES + 1] = {0};
    for (int e = 0; e < d->edges; e += 2) {
        count[head[e / 2]]++;
        count[d->to[e]]++;
    }
    d->first[0] = 0;
    for (int n = 0; n < d->nodes; n++) d->first[n + 1] = (int16_t)(d->first[n] + count[n]);
    int fill[HANDS_MAX_NODES];
    for (int n = 0; n < d->nodes; n++) fill[n] = d->first[n];
    for (int e = 0; e < d->edges; e += 2) {
        d->out[fill[head[e / 2]]++] = (int16_t)e;
        d->out[fill[d->to[e]]++] = (int16_t)(e + 1);
    }
}

typedef struct {
    int holder, when, move, action, count, node;
} Group;

int deal_init(Deal *d, const int32_t *words, int nwords) {
    if (!d || !words || nwords < 7 || words[0] != HANDS_WORDS_VERSION) return -1;
    int crew = words[1], players = words[2], givers = words[3], moments = words[4],
        cards = words[5], halves = words[6];
    if (crew < 1 || crew > HANDS_MAX_CREW || players < 0 || players > crew || givers < 0 ||
        givers > HANDS_MAX_GIVERS || moments < 0 || moments > HANDS_MAX_MOMENTS ||
        cards < 0 || cards > HANDS_MAX_CARDS || halves < HANDS_SINGLES ||
        halves > HANDS_MAX_HALVES ||
        nwords != 7 + 2 * halves + 2 * crew + 2 * moments + 4 * cards)
        return -1;
    memset(d, 0, sizeof *d);
    d->digest = 14695981039346656037u; /* FNV-1a over the words */
    for (int i = 0; i < nwords; i++) d->digest = (d->digest ^ (uint32_t)words[i]) * 1099511628211u;
    d->crew = crew;
    d->players = players;
    d->givers = givers;
    d->halves = halves;
    const int32_t *w = words + 7;
    /* the halves: the singles r b l A B C R (codes 1-7) first, then two-action halves */
    int seen[HANDS_MAX_HALVES] = {0};
    for (int h = 0; h < halves; h++, w++) {
        int32_t code = w[0], first = code & KIND_MASK, second = code >> SECOND_SHIFT & KIND_MASK;
        int single = h < HANDS_SINGLES;
        if (single ? code != h + 1
                   : (code & ~(KIND_MASK | KIND_MASK << SECOND_SHIFT)) || first < K_RED ||
                         first > K_BOTS || second < K_RED || second > K_BOTS)
            return -1;
        d->half_code[h] = code;
    }
    for (int h = 0; h < halves; h++, w++) {
        if (w[0] < 0 || w[0] >= halves || seen[w[0]]) return -1;
        seen[w[0]] = 1;
        d->sorted[h] = (int8_t)w[0];
    }
    for (int m = 0; m < crew; m++, w += 2) {
        if (w[0] < -1 || w[0] >= players || w[1] < 0 || w[1] >= 1 << 9) return -1;
        d->row_key[m] = (int8_t)w[0];
        d->heroic[m] = (uint16_t)w[1];
    }
    int phase_of[HANDS_MAX_MOMENTS], transfer_at[HANDS_MAX_TRANSFERS];
    for (int t = 0; t < moments; t++, w += 2) {
        if (w[0] < 1 || w[0] > HANDS_PHASES || (w[1] != 0 && w[1] != 1)) return -1;
        phase_of[t] = w[0];
        if (w[1]) {
            if (d->transfers >= HANDS_MAX_TRANSFERS) return -1;
            transfer_at[d->transfers++] = t;
        }
    }
    /* the card groups (holder, card, moment) in the order their first card is held */
    Group groups[HANDS_MAX_CARDS];
    int ngroups = 0;
    for (int c = 0; c < cards; c++, w += 4) {
        if (w[0] < 0 || w[0] >= givers || w[1] < 0 || w[1] >= moments || w[2] < 0 ||
            w[2] >= halves || w[3] < 0 || w[3] >= halves)
            return -1;
        int g = 0;
        while (g < ngroups && !(groups[g].holder == w[0] && groups[g].move == w[2] &&
                                groups[g].action == w[3] && groups[g].when == w[1]))
            g++;
        if (g == ngroups) groups[ngroups++] = (Group){w[0], w[1], w[2], w[3], 0, 0};
        groups[g].count++;
    }
    Builder *b = malloc(sizeof *b);
    if (!b) return -1;
    b->d = d;
    b->ok = 1;
    d->nodes = 1; /* the sink */
    for (int n = 0; n < HANDS_MAX_NODES; n++) d->drain[n] = -1;
    /* per half: the card groups whose cards have it, each half of a card in turn */
    int by_half[HANDS_MAX_HALVES][2 * HANDS_MAX_CARDS], nby[HANDS_MAX_HALVES] = {0};
    for (int g = 0; g < ngroups; g++) {
        int node = new_node(b);
        groups[g].node = node;
        d->drain[node] = (int16_t)new_edge(b, node, SINK, groups[g].count);
        by_half[groups[g].move][nby[groups[g].move]++] = g;
        by_half[groups[g].action][nby[groups[g].action]++] = g;
    }
    /* the slot groups: row keys 0 .. players-1, then -1 when the crew has androids */
    for (int k = 0; k <= HANDS_MAX_CREW; k++)
        for (int p = 0; p < HANDS_PHASES; p++)
            for (int h = 0; h < HANDS_MAX_HALVES; h++) d->slot[k][p][h] = -1;
    int keys[HANDS_MAX_CREW + 1], nkeys = 0;
    for (int k = 0; k < players; k++) keys[nkeys++] = k;
    if (players < crew) keys[nkeys++] = -1;
    for (int i = 0; i < nkeys; i++)
        for (int phase = 1; phase <= HANDS_PHASES; phase++)
            for (int h = 0; h < halves; h++) {
                int node = new_node(b);
                d->slot[keys[i] + 1][phase - 1][h] = (int16_t)node;
                for (int j = 0; j < nby[h]; j++) {
                    const Group *g = &groups[by_half[h][j]];
                    if (phase_of[g->when] <= phase && (keys[i] == g->holder || keys[i] == -1))
                        new_edge(b, node, g->node, INF);
                }
            }
    /* the gifts (giver, transfer, half): inlet, outlet, the capacity-1 edge, the giver's
       cards held before the transfer */
    for (int giver = 0; giver < givers; giver++)
        for (int t = 0; t < d->transfers; t++)
            for (int h = 0; h < halves; h++) {
                int inlet = new_node(b), outlet = new_node(b);
                int e = new_edge(b, inlet, outlet, 1);
                d->gift[giver][t][h] = (int16_t)e;
                d->gift_key[e] = (int16_t)(giver * HANDS_MAX_TRANSFERS + t);
                d->gift_half[e] = (int8_t)h;
                for (int j = 0; j < nby[h]; j++) {
                    const Group *g = &groups[by_half[h][j]];
                    if (g->holder == giver && g->when < transfer_at[t])
                        new_edge(b, outlet, g->node, INF);
                }
            }
    /* the players' slot groups reach the other players' gifts of their half */
    for (int i = 0; i < nkeys && b->ok; i++) {
        if (keys[i] < 0) continue;
        for (int phase = 1; phase <= HANDS_PHASES; phase++)
            for (int h = 0; h < halves; h++)
                for (int t = 0; t < d->transfers; t++) {
                    if (phase_of[transfer_at[t]] > phase) continue;
                    for (int giver = 0; giver < givers; giver++)
                        if (giver != keys[i])
                            new_edge(b, d->slot[keys[i] + 1][phase - 1][h],
                                     d->to[d->gift[giver][t][h] ^ 1], INF);
                }
    }
    int ok = b->ok;
    if (ok) index_edges(d, b->head);
    /* a card group's drain is its first edge (cache_path relies on it) */
    for (int n = 0; ok && n < d->nodes; n++)
        if (d->drain[n] >= 0 && d->out[d->first[n]] != d->drain[n]) ok = 0;
    free(b);
    return ok ? 0 : -1;
}

/* --- laying a plan (hands.Matcher) ------------------------------------------------------- */

/* Whether a code (without its trip bit) is a double action of plan.DOUBLE_PAIRS, the pairs
   the deck has a card for (docs/rules.md §19.2; the table is generated in codes.h). */
static const uint8_t SECONDS_OF[K_HMOVE] = DOUBLE_SECONDS;
static int double_pair(int32_t card) {
    int first = card & KIND_MASK, second = card >> SECOND_SHIFT & KIND_MASK;
    if ((card & ~(KIND_MASK | KIND_MASK << SECOND_SHIFT)) || first < K_RED || first > K_BOTS)
        return 0;
    return SECONDS_OF[first] >> second & 1;
}

typedef struct {
    int8_t kind; /* 0 blank, 1 an ordinary half, 2 a heroic half, 3 a two-action half no
                    card of the deal has (it finds no card) */
    int8_t half; /* ordinary: the deal's half index; heroic: the bit of hands.h's heroic mask */
} Slot;

/* Decodes a plan.encode code as hands.decoded_actions knows it; 0 for any other code. */
static int decode(const Deal *d, int32_t code, Slot *slot) {
    slot->kind = slot->half = 0;
    if (code == 0) return 1;
    int32_t card = code & ~TRIP_BIT;
    if (card >= K_RED && card <= K_BOTS) {
        slot->kind = 1;
        slot->half = (int8_t)(card - K_RED);
        return 1;
    }
    if (card >> SECOND_SHIFT) { /* a double action: the deal's half, or none */
        if (!double_pair(card)) return 0;
        slot->kind = 3;
        for (int h = HANDS_SINGLES; h < d->halves; h++)
            if (d->half_code[h] == card) {
                slot->kind = 1;
                slot->half = (int8_t)h;
            }
        return 1;
    }
    slot->kind = 2;
    if (card == (HEROIC_BIT | K_A) || card == (HEROIC_BIT | K_B) || card == (HEROIC_BIT | K_BOTS)) {
        slot->half = (int8_t)(card == (HEROIC_BIT | K_A) ? 0 : card == (HEROIC_BIT | K_B) ? 1 : 2);
        return 1;
    }
    int station = (card >> 8) - 1;
    if ((card & 0xff) == (HEROIC_BIT | K_HMOVE) && station >= 0 && station < 6 &&
        card == (HEROIC_BIT | K_HMOVE | (station + 1) << 8)) {
        slot->half = (int8_t)(3 + station);
        return 1;
    }
    return 0;
}

typedef struct {
    const Deal *d;
    int refused;                      /* a search met a giver's second gift in a transfer */
    int8_t forbid[GIFT_KEYS];         /* the exact check: the one half given, or NO_GIFT */
    int16_t budget[GIFT_KEYS];        /* gifts in use per (giver, transfer) */
    uint8_t heroic_used[HANDS_MAX_CREW];
    int16_t came[HANDS_MAX_NODES];    /* per node: the edge it was reached by (-2: not yet) */
    int16_t queue[HANDS_MAX_NODES];
    int32_t cap[HANDS_MAX_EDGES];
} Work;

static void reset(Work *w, const int8_t *forbid) {
    const Deal *d = w->d;
    w->refused = 0;
    memcpy(w->forbid, forbid, sizeof w->forbid);
    memset(w->budget, 0, sizeof w->budget);
    memset(w->heroic_used, 0, sizeof w->heroic_used);
    memcpy(w->cap, d->cap, (size_t)d->edges * sizeof *w->cap);
}

/* Matcher._blocked: a path may not use this gift (another half is given, or none). */
static int blocked(Work *w, int edge, int budgeted) {
    int key = w->d->gift_key[edge];
    int allowed = w->forbid[key];
    if (allowed != ANY_GIFT && allowed != w->d->gift_half[edge]) return 1;
    if (budgeted && w->budget[key] >= 1) {
        w->refused = 1;
        return 1;
    }
    return 0;
}

/* Matcher._path and _push: a residual path from a slot group to the sink, breadth first,
   taken at once when found. */
static int find_path(Work *w, int start, int budgeted) {
    const Deal *d = w->d;
    int32_t *cap = w->cap;
    int16_t *came = w->came, *queue = w->queue;
    for (int n = 0; n < d->nodes; n++) came[n] = -2;
    came[start] = -1;
    queue[0] = (int16_t)start;
    int size = 1;
    for (int q = 0; q < size; q++) {
        int node = queue[q];
        for (int i = d->first[node]; i < d->first[node + 1]; i++) {
            int edge = d->out[i], tail = d->to[edge];
            if (cap[edge] <= 0 || came[tail] != -2) continue;
            if (d->gift_key[edge] >= 0 && blocked(w, edge, budgeted)) continue;
            came[tail] = (int16_t)edge;
            if (tail == SINK) {
                while (tail != start) {
                    edge = came[tail];
                    cap[edge] -= 1;
                    cap[edge ^ 1] += 1;
                    if (d->gift_key[edge] >= 0) w->budget[d->gift_key[edge]] += 1;
                    else if (d->gift_key[edge ^ 1] >= 0) w->budget[d->gift_key[edge ^ 1]] -= 1;
                    tail = d->to[edge ^ 1];
                }
                return 1;
            }
            queue[size++] = (int16_t)tail;
        }
    }
    return 0;
}

/* Matcher.place (commit): finds a card for the slot of `member` in `turn` and keeps it. */
static int place(Work *w, int member, int turn, Slot slot, int budgeted) {
    const Deal *d = w->d;
    if (slot.kind == 0) return 1;
    if (slot.kind == 3) return 0;
    if (slot.kind == 2) {
        if (!(d->heroic[member] >> slot.half & 1) || w->heroic_used[member]) return 0;
        w->heroic_used[member] = 1;
        return 1;
    }
    int node = d->slot[d->row_key[member] + 1][PHASE_OF_TURN[turn] - 1][(int)slot.half];
    int32_t *cap = w->cap;
    /* a free card of the slot's own: no search, and a table plays its own cards first */
    for (int i = d->first[node]; i < d->first[node + 1]; i++) {
        int edge = d->out[i], out = d->drain[d->to[edge]];
        if (out >= 0 && cap[edge] > 0 && cap[out] > 0) {
            cap[edge] -= 1;
            cap[edge ^ 1] += 1;
            cap[out] -= 1;
            cap[out ^ 1] += 1;
            return 1;
        }
    }
    return find_path(w, node, budgeted);
}

typedef struct {
    Slot slot[HANDS_MAX_CREW][HANDS_SLOTS];
    int crew;
    int8_t halves[HANDS_MAX_HALVES]; /* the plan's ordinary halves, sorted as _exact sorts
                                        them */
    int nhalves;
} Plan;

/* _greedy_by_turn: lays the slots turn by turn, seat order within a turn; returns the
   missed slots (member * HANDS_SLOTS + turn - 1) and whether a gift was refused before the
   first of them (on the whole way if none). */
static int lay_greedy(Work *w, const Plan *plan, int16_t *missed, int *refused) {
    int8_t forbid[GIFT_KEYS];
    memset(forbid, ANY_GIFT, sizeof forbid);
    reset(w, forbid);
    int count = 0, first_refused = 0;
    for (int turn = 1; turn <= HANDS_SLOTS; turn++)
        for (int m = 0; m < plan->crew; m++) {
            Slot slot = plan->slot[m][turn - 1];
            if (slot.kind != 0 && !place(w, m, turn, slot, 1)) {
                if (count == 0) first_refused = w->refused;
                missed[count++] = (int16_t)(m * HANDS_SLOTS + turn - 1);
            }
        }
    *refused = count ? first_refused : w->refused;
    return count;
}

/* _exact: decides exactly whether the whole plan fits, branching on each giver's one gift;
   `branches` counts down the branches left (past _BRANCH_LIMIT: unplayable). */
static int exact(Work *w, const Plan *plan, const int8_t *forbid, int *branches) {
    if (--*branches < 0) return 0;
    const Deal *d = w->d;
    reset(w, forbid);
    for (int turn = 1; turn <= HANDS_SLOTS; turn++)
        for (int m = 0; m < plan->crew; m++)
            if (!place(w, m, turn, plan->slot[m][turn - 1], 0)) return 0;
    /* the first (giver, transfer) giving more than one half (over_budget, sorted) */
    int key = -1;
    for (int giver = 0; giver < d->givers && key < 0; giver++)
        for (int t = 0; t < d->transfers && key < 0; t++) {
            int used = 0;
            for (int h = 0; h < d->halves; h++) used += w->cap[d->gift[giver][t][h]] == 0;
            if (used > 1) key = giver * HANDS_MAX_TRANSFERS + t;
        }
    if (key < 0) return 1;
    int8_t branch[GIFT_KEYS];
    memcpy(branch, forbid, sizeof branch);
    branch[key] = NO_GIFT;
    if (exact(w, plan, branch, branches)) return 1;
    for (int i = 0; i < plan->nhalves; i++) {
        branch[key] = plan->halves[i];
        if (exact(w, plan, branch, branches)) return 1;
    }
    return 0;
}

int deal_project(const Deal *d, int32_t (*rows)[HANDS_SLOTS], int nrows) {
    if (!d || !rows || nrows != d->crew) return -1;
    Plan plan;
    plan.crew = nrows;
    int present[HANDS_MAX_HALVES] = {0};
    for (int m = 0; m < nrows; m++)
        for (int t = 0; t < HANDS_SLOTS; t++) {
            if (!decode(d, rows[m][t], &plan.slot[m][t])) return -1;
            if (plan.slot[m][t].kind == 1) present[(int)plan.slot[m][t].half] = 1;
        }
    plan.nhalves = 0;
    for (int i = 0; i < d->halves; i++)
        if (present[d->sorted[i]]) plan.halves[plan.nhalves++] = d->sorted[i];
    Work work; /* about 150 KB of stack: no allocation in a search's inner loop */
    Work *w = &work;
    w->d = d;
    int16_t missed[HANDS_MAX_CREW * HANDS_SLOTS];
    int refused = 0;
    int count = lay_greedy(w, &plan, missed, &refused);
    if (count && refused) {
        int8_t forbid[GIFT_KEYS];
        memset(forbid, ANY_GIFT, sizeof forbid);
        int branches = BRANCH_LIMIT;
        if (exact(w, &plan, forbid, &branches)) count = 0;
    }
    for (int i = 0; i < count; i++) rows[missed[i] / HANDS_SLOTS][missed[i] % HANDS_SLOTS] = 0;
    return count;
}

/* --- the cached projection (deal_project_cached, see hands.h) ---------------------------
 *
 * The plan's slots are laid as calls, turn-major (call i: member i % crew, turn i / crew + 1),
 * a blank a call that changes nothing. The live state is the network's capacities after the
 * first `depth` calls of one laying; each call logs what it changed (the edges of its path,
 * or the member whose heroic card it played), so the state after any earlier call is reached
 * by undoing the later ones, exactly. A call also logs the gift edges its search reached:
 * a branch of the exact check that forbids gifts its parent's searches never reached searches
 * exactly as its parent did, so it starts from its parent's state where that first happens.
 */

#define CALLS (HANDS_MAX_CREW * HANDS_SLOTS)
#define PUSHES (CALLS * HANDS_MAX_NODES) /* a path meets a node at most once */
#define REACHED (CALLS * GIFT_KEYS * HANDS_MAX_HALVES) /* a search reaches a gift at most
                                                           once */
#define ARENA_MARKS (1 << 14)   /* saved logs: past these, a branch is laid by searching */
#define ARENA_PUSHES (1 << 17)
#define ARENA_REACHES (1 << 17)

typedef struct {
    uint64_t hash;
    int32_t count; /* slots blanked; -1: an empty entry */
    int32_t calls;
    uint8_t slots[CALLS];
    uint8_t blank[CALLS / 8];
} Memo;

struct DealCache {
    const Deal *deal;
    uint64_t digest;
    /* the live laying: its mode, its state after `depth` calls, and the log of the calls */
    int budgeted, refused, depth, floor; /* floor: the lowest depth undone to (see exact) */
    int blocks;                          /* gifts refused for the budget, so far */
    int8_t forbid[GIFT_KEYS];
    int16_t budget[GIFT_KEYS];
    uint8_t heroic_used[HANDS_MAX_CREW];
    int32_t pushes, reaches;
    int32_t push_mark[CALLS + 1];  /* log entries before call i */
    int32_t reach_mark[CALLS + 1]; /* reached gift edges before call i */
    int16_t push[PUSHES];          /* an edge pushed, or -1 - member: its heroic card */
    int16_t reached[REACHED];      /* the gift edges a call's search reached */
    /* the last plan laid greedily: its slots, which found a card, the refusals so far */
    int calls, agree;              /* agree: the live calls that are still the greedy's */
    uint8_t slots[CALLS], ok[CALLS], refused_after[CALLS];
    uint8_t blocked_in[CALLS];    /* a call of the greedy laying refused a gift */
    /* saved logs (Saved), a stack */
    int32_t mark_top, push_top, reach_top;
    int32_t saved_mark[ARENA_MARKS];
    int16_t saved_push[ARENA_PUSHES], saved_reach[ARENA_REACHES];
    /* scratch of the breadth-first search: came is -2 on every node between searches */
    int16_t came[HANDS_MAX_NODES], queue[HANDS_MAX_NODES];
    int memo_size;
    Memo *memo;
    int32_t cap[HANDS_MAX_EDGES];
};

/* A slot as one byte (0 blank, 1 + the half index of an ordinary half, HEROIC_BYTE + heroic
   bit, ABSENT_BYTE a half no card has): all the laying reads of it (a trip changes no card). */
#define HEROIC_BYTE (1 + HANDS_MAX_HALVES)
#define ABSENT_BYTE 255
static uint8_t slot_byte(Slot slot) {
    return (uint8_t)(slot.kind == 0 ? 0 : slot.kind == 1 ? 1 + slot.half
                     : slot.kind == 2 ? HEROIC_BYTE + slot.half : ABSENT_BYTE);
}

static Slot byte_slot(uint8_t b) {
    Slot slot;
    slot.kind = (int8_t)(b == 0 ? 0 : b < HEROIC_BYTE ? 1 : b == ABSENT_BYTE ? 3 : 2);
    slot.half = (int8_t)(b == 0 || b == ABSENT_BYTE ? 0 : b < HEROIC_BYTE ? b - 1
                         : b - HEROIC_BYTE);
    return slot;
}

DealCache *deal_cache_new(int memo) {
    DealCache *c = malloc(sizeof *c);
    if (!c) return NULL;
    c->deal = NULL;
    c->memo_size = 0;
    c->memo = NULL;
    if (memo > 0) {
        int size = 1;
        while (size < memo && size < 1 << 20) size <<= 1;
        c->memo = malloc(sizeof *c->memo * (size_t)size);
        if (!c->memo) {
            free(c);
            return NULL;
        }
        c->memo_size = size;
    }
    for (int n = 0; n < HANDS_MAX_NODES; n++) c->came[n] = -2;
    return c;
}

void deal_cache_free(DealCache *c) {
    if (!c) return;
    free(c->memo);
    free(c);
}

/* Starts the cache afresh on a deal: its capacities, nothing laid, nothing remembered. */
static void bind(DealCache *c, const Deal *d) {
    c->deal = d;
    c->digest = d->digest;
    memcpy(c->cap, d->cap, (size_t)d->edges * sizeof *c->cap);
    memset(c->budget, 0, sizeof c->budget);
    memset(c->heroic_used, 0, sizeof c->heroic_used);
    memset(c->forbid, ANY_GIFT, sizeof c->forbid);
    c->budgeted = 1;
    c->refused = c->depth = c->calls = c->agree = c->blocks = 0;
    c->pushes = c->reaches = 0;
    c->mark_top = c->push_top = c->reach_top = 0;
    c->push_mark[0] = c->reach_mark[0] = 0;
    for (int i = 0; i < c->memo_size; i++) c->memo[i].count = -1;
}

static void push_edge(DealCache *c, int edge) {
    const Deal *d = c->deal;
    c->cap[edge] -= 1;
    c->cap[edge ^ 1] += 1;
    if (d->gift_key[edge] >= 0) c->budget[d->gift_key[edge]] += 1;
    else if (d->gift_key[edge ^ 1] >= 0) c->budget[d->gift_key[edge ^ 1]] -= 1;
    c->push[c->pushes++] = (int16_t)edge;
}

/* Undoes the calls from `depth` down to call q: the state after the first q calls. */
static void undo_to(DealCache *c, int q) {
    if (q < c->floor) c->floor = q;
    if (c->depth <= q) return;
    const Deal *d = c->deal;
    for (int i = c->pushes - 1; i >= c->push_mark[q]; i--) {
        int edge = c->push[i];
        if (edge < 0) {
            c->heroic_used[-1 - edge] = 0;
            continue;
        }
        c->cap[edge] += 1;
        c->cap[edge ^ 1] -= 1;
        if (d->gift_key[edge] >= 0) c->budget[d->gift_key[edge]] -= 1;
        else if (d->gift_key[edge ^ 1] >= 0) c->budget[d->gift_key[edge ^ 1]] += 1;
    }
    c->pushes = c->push_mark[q];
    c->reaches = c->reach_mark[q];
    c->depth = q;
}

/* blocked() on the cache's mode. */
static int cache_blocked(DealCache *c, int edge) {
    int key = c->deal->gift_key[edge];
    int allowed = c->forbid[key];
    if (allowed != ANY_GIFT && allowed != c->deal->gift_half[edge]) return 1;
    if (c->budgeted && c->budget[key] >= 1) {
        c->refused = 1;
        c->blocks++;
        return 1;
    }
    return 0;
}

/* find_path on the cache's state, logging the path and the gifts reached.
   The sink is entered only through a card group's drain, the first edge of the group's
   adjacency (deal_init makes it first), so the first card group queued with a card left is
   the one the search will take the sink from: the path is known then, and the search stops
   there, unless the rest of the search could still refuse a gift (budgeted, before the
   laying's first refusal: the refusal is part of the result). */
static int cache_path(DealCache *c, int start) {
    const Deal *d = c->deal;
    int32_t *cap = c->cap;
    int16_t *came = c->came, *queue = c->queue;
    int early = !c->budgeted || c->refused;
    came[start] = -1;
    queue[0] = (int16_t)start;
    int size = 1, found = 0;
    for (int q = 0; q < size && !found; q++) {
        int node = queue[q];
        for (int i = d->first[node]; i < d->first[node + 1]; i++) {
            int edge = d->out[i], tail = d->to[edge];
            if (cap[edge] <= 0 || came[tail] != -2) continue;
            if (d->gift_key[edge] >= 0) {
                if (cache_blocked(c, edge)) continue;
                c->reached[c->reaches++] = (int16_t)edge;
            }
            came[tail] = (int16_t)edge;
            if (tail != SINK) {
                queue[size++] = (int16_t)tail;
                int out = d->drain[tail];
                if (!early || out < 0 || cap[out] <= 0) continue;
                came[SINK] = (int16_t)out;
                tail = SINK;
            }
            while (tail != start) {
                edge = came[tail];
                push_edge(c, edge);
                tail = d->to[edge ^ 1];
            }
            found = 1;
            break;
        }
    }
    for (int q = 0; q < size; q++) came[queue[q]] = -2;
    came[SINK] = -2;
    return found;
}

/* Lays call `depth` (place() on the cache's state and mode) and logs it; returns whether the
   slot found a card. */
static int lay_call(DealCache *c) {
    const Deal *d = c->deal;
    int i = c->depth, member = i % d->crew, turn = i / d->crew + 1;
    Slot slot = byte_slot(c->slots[i]);
    int ok = 1, blocks = c->blocks;
    if (slot.kind == 3) {
        ok = 0;
    } else if (slot.kind == 2) {
        ok = d->heroic[member] >> slot.half & 1 && !c->heroic_used[member];
        if (ok) {
            c->heroic_used[member] = 1;
            c->push[c->pushes++] = (int16_t)(-1 - member);
        }
    } else if (slot.kind == 1) {
        int node = d->slot[d->row_key[member] + 1][PHASE_OF_TURN[turn] - 1][(int)slot.half];
        int32_t *cap = c->cap;
        int fast = 0;
        for (int e = d->first[node]; e < d->first[node + 1]; e++) {
            int edge = d->out[e], out = d->drain[d->to[edge]];
            if (out >= 0 && cap[edge] > 0 && cap[out] > 0) {
                push_edge(c, edge);
                push_edge(c, out);
                fast = 1;
                break;
            }
        }
        ok = fast || cache_path(c, node);
    }
    if (c->budgeted) c->blocked_in[i] = c->blocks != blocks;
    c->depth = i + 1;
    c->push_mark[i + 1] = c->pushes;
    c->reach_mark[i + 1] = c->reaches;
    return ok;
}

/* A copy of a laying's log from call `from` on (a parent branch's, or the greedy one's), to
   bring the live state back to it, or on along it, without searching. */
typedef struct {
    int from, ok; /* ok 0: no room left, nothing saved */
    int32_t marks, pushes, reaches;
} Saved;

/* Saves the live laying's calls from `from` (all its calls laid). */
static void save(DealCache *c, int from, Saved *s) {
    int n = c->calls - from;
    int32_t pushes = c->pushes - c->push_mark[from], reaches = c->reaches - c->reach_mark[from];
    s->from = from;
    s->ok = c->mark_top + 2 * (n + 1) <= ARENA_MARKS && c->push_top + pushes <= ARENA_PUSHES &&
            c->reach_top + reaches <= ARENA_REACHES;
    if (!s->ok) return;
    s->marks = c->mark_top;
    s->pushes = c->push_top;
    s->reaches = c->reach_top;
    for (int k = 0; k <= n; k++) {
        c->saved_mark[s->marks + 2 * k] = c->push_mark[from + k] - c->push_mark[from];
        c->saved_mark[s->marks + 2 * k + 1] = c->reach_mark[from + k] - c->reach_mark[from];
    }
    memcpy(c->saved_push + s->pushes, c->push + c->push_mark[from], (size_t)pushes * 2);
    memcpy(c->saved_reach + s->reaches, c->reached + c->reach_mark[from], (size_t)reaches * 2);
    c->mark_top += 2 * (n + 1);
    c->push_top += pushes;
    c->reach_top += reaches;
}

static void release(DealCache *c, const Saved *s) {
    if (!s->ok) return;
    c->mark_top = s->marks;
    c->push_top = s->pushes;
    c->reach_top = s->reaches;
}

/* Lays call `depth` as the saved laying laid it (the live state is that laying's). */
static void replay_call(DealCache *c, const Saved *s) {
    int i = c->depth;
    const int32_t *m = c->saved_mark + s->marks + 2 * (i - s->from);
    for (int32_t p = m[0]; p < m[2]; p++) {
        int entry = c->saved_push[s->pushes + p];
        if (entry >= 0) {
            push_edge(c, entry);
        } else {
            c->heroic_used[-1 - entry] = 1;
            c->push[c->pushes++] = (int16_t)entry;
        }
    }
    for (int32_t r = m[1]; r < m[3]; r++) c->reached[c->reaches++] = c->saved_reach[s->reaches + r];
    c->depth = i + 1;
    c->push_mark[i + 1] = c->pushes;
    c->reach_mark[i + 1] = c->reaches;
}

/* Whether the live call i changed what the saved laying's call i changed. */
static int same_call(const DealCache *c, const Saved *s, int i) {
    const int32_t *m = c->saved_mark + s->marks + 2 * (i - s->from);
    int32_t n = m[2] - m[0];
    return c->push_mark[i + 1] - c->push_mark[i] == n &&
           !memcmp(c->push + c->push_mark[i], c->saved_push + s->pushes + m[0], (size_t)n * 2);
}

/* Whether the saved call i's search reached a gift of `key` that `allowed` forbids. */
static int reached_forbidden(const DealCache *c, const Saved *s, int i, int key, int allowed) {
    const Deal *d = c->deal;
    const int32_t *m = c->saved_mark + s->marks + 2 * (i - s->from);
    for (int32_t r = m[1]; r < m[3]; r++) {
        int edge = c->saved_reach[s->reaches + r];
        if (d->gift_key[edge] == key && d->gift_half[edge] != allowed) return 1;
    }
    return 0;
}

/* The first (giver, transfer) of the live state giving more than one half, -1 if none. */
static int over_budget(const DealCache *c) {
    const Deal *d = c->deal;
    for (int giver = 0; giver < d->givers; giver++)
        for (int t = 0; t < d->transfers; t++) {
            int used = 0;
            for (int h = 0; h < d->halves; h++) used += c->cap[d->gift[giver][t][h]] == 0;
            if (used > 1) return giver * HANDS_MAX_TRANSFERS + t;
        }
    return -1;
}

/* The first call whose search reached a gift of `key` that `allowed` (a half, or NO_GIFT)
   forbids; the calls if none. */
static int diverges(const DealCache *c, int key, int allowed) {
    const Deal *d = c->deal;
    for (int i = 0; i < c->calls; i++)
        for (int r = c->reach_mark[i]; r < c->reach_mark[i + 1]; r++) {
            int edge = c->reached[r];
            if (d->gift_key[edge] == key && d->gift_half[edge] != allowed) return i;
        }
    return c->calls;
}

/* Lays the live laying's calls from `depth` on (its mode: a branch of the exact check) after
   a parent laying saved in `s` (NULL: none). While the state is the parent's, a call whose
   search cannot differ from the parent's is taken from it without searching: the parent's
   searches met no gift of `key` that `allowed` forbids (a branch), or refused no gift for the
   budget (the root branch after the greedy laying, `greedy`); the others are searched and
   compared. Returns 0 at a call that finds no card. */
static int resume(DealCache *c, const Saved *s, int key, int allowed, int greedy) {
    int same = s && s->ok && c->depth >= s->from;
    while (c->depth < c->calls) {
        int i = c->depth;
        if (same && !(greedy ? c->blocked_in[i] : reached_forbidden(c, s, i, key, allowed))) {
            if (greedy && !c->ok[i]) return 0; /* the same search: still no card */
            replay_call(c, s);
            continue;
        }
        if (!lay_call(c)) return 0;
        if (same && ((greedy && !c->ok[i]) || !same_call(c, s, i))) same = 0;
    }
    return 1;
}

/* exact(): lays the rest of this branch (resume, after its parent `s`), then branches as
   exact() does, each branch resumed where it first searches otherwise than this one.
   Keeps c->floor the lowest depth undone to, so the caller knows what is still its own. */
static int cache_exact(DealCache *c, const Saved *s, int key, int allowed, int greedy,
                       const int8_t *halves, int nhalves, int *branches) {
    if (--*branches < 0) return 0;
    if (!resume(c, s, key, allowed, greedy)) return 0;
    int over = over_budget(c);
    if (over < 0) return 1;
    int8_t options[1 + HANDS_MAX_HALVES];
    int at[1 + HANDS_MAX_HALVES], n = 0, from = c->calls;
    options[n++] = NO_GIFT;
    for (int i = 0; i < nhalves; i++) options[n++] = halves[i];
    for (int j = 0; j < n; j++) {
        at[j] = diverges(c, over, options[j]);
        if (at[j] < from) from = at[j];
    }
    Saved own;
    save(c, from, &own);
    int8_t mine = c->forbid[over];
    int agree = c->calls; /* the live calls that are this branch's */
    for (int j = 0; j < n; j++) {
        undo_to(c, agree < at[j] ? agree : at[j]);
        c->forbid[over] = mine;
        while (c->depth < at[j]) { /* this branch's calls again */
            if (own.ok && c->depth >= own.from) replay_call(c, &own);
            else lay_call(c);
        }
        c->forbid[over] = options[j];
        int outer = c->floor;
        c->floor = c->calls;
        int fits = cache_exact(c, &own, over, options[j], 0, halves, nhalves, branches);
        agree = c->floor < at[j] ? c->floor : at[j];
        if (outer < c->floor) c->floor = outer;
        if (fits) {
            release(c, &own);
            return 1;
        }
    }
    c->forbid[over] = mine;
    release(c, &own);
    return 0;
}

static uint64_t slots_hash(const uint8_t *slots, int calls) {
    uint64_t h = 14695981039346656037u;
    for (int i = 0; i < calls; i++) h = (h ^ slots[i]) * 1099511628211u;
    return h;
}

int deal_project_cached(const Deal *d, DealCache *c, int32_t (*rows)[HANDS_SLOTS], int nrows) {
    if (!d || !c || !rows || nrows != d->crew) return -1;
    int calls = nrows * HANDS_SLOTS;
    uint8_t slots[CALLS];
    int present[HANDS_MAX_HALVES] = {0};
    for (int t = 0; t < HANDS_SLOTS; t++)
        for (int m = 0; m < nrows; m++) {
            Slot slot;
            if (!decode(d, rows[m][t], &slot)) return -1;
            if (slot.kind == 1) present[(int)slot.half] = 1;
            slots[t * nrows + m] = slot_byte(slot);
        }
    if (c->deal != d || c->digest != d->digest) bind(c, d);
    Memo *memo = NULL;
    uint64_t hash = 0;
    if (c->memo_size) {
        hash = slots_hash(slots, calls);
        memo = &c->memo[hash & (uint64_t)(c->memo_size - 1)];
        if (memo->count >= 0 && memo->hash == hash && memo->calls == calls &&
            !memcmp(memo->slots, slots, (size_t)calls)) {
            for (int i = 0; i < calls; i++)
                if (memo->blank[i / 8] >> (i % 8) & 1) rows[i % nrows][i / nrows] = 0;
            return memo->count;
        }
    }
    /* the greedy laying, resumed after the calls this plan shares with the last one */
    int same = 0;
    int limit = c->calls < c->agree ? c->calls : c->agree;
    while (same < limit && slots[same] == c->slots[same]) same++;
    undo_to(c, same);
    memcpy(c->slots + same, slots + same, (size_t)(calls - same));
    c->calls = calls;
    c->refused = same ? c->refused_after[same - 1] : 0;
    while (c->depth < calls) {
        int i = c->depth;
        c->ok[i] = (uint8_t)lay_call(c);
        c->refused_after[i] = (uint8_t)c->refused;
    }
    c->agree = calls;
    int count = 0, first_miss = -1;
    for (int i = 0; i < calls; i++)
        if (!c->ok[i]) {
            if (first_miss < 0) first_miss = i;
            count++;
        }
    if (count && c->refused_after[first_miss]) {
        int refusal = 0;
        while (!c->refused_after[refusal]) refusal++;
        int8_t halves[HANDS_MAX_HALVES];
        int nhalves = 0;
        for (int i = 0; i < d->halves; i++)
            if (present[d->sorted[i]]) halves[nhalves++] = d->sorted[i];
        /* before the first refusal the greedy searched as the unbudgeted root branch does */
        Saved greedy;
        save(c, 0, &greedy);
        undo_to(c, refusal);
        c->budgeted = 0;
        c->floor = calls;
        int branches = BRANCH_LIMIT;
        if (cache_exact(c, &greedy, -1, ANY_GIFT, 1, halves, nhalves, &branches)) count = 0;
        undo_to(c, c->floor < refusal ? c->floor : refusal);
        c->budgeted = 1;
        memset(c->forbid, ANY_GIFT, sizeof c->forbid);
        if (greedy.ok)
            while (c->depth < calls) replay_call(c, &greedy); /* the greedy laying again */
        c->agree = c->depth;
        release(c, &greedy);
    }
    if (memo) {
        memo->hash = hash;
        memo->count = count;
        memo->calls = calls;
        memcpy(memo->slots, slots, (size_t)calls);
        memset(memo->blank, 0, sizeof memo->blank);
    }
    for (int i = 0; i < calls; i++)
        if (count && !c->ok[i]) {
            rows[i % nrows][i / nrows] = 0;
            if (memo) memo->blank[i / 8] |= (uint8_t)(1 << (i % 8));
        }
    return count;
}

/* --- ctypes entry points ------------------------------------------------------------------ */

int sa_hands_abi(void) { return HANDS_ABI; }

int sa_deal_size(void) { return (int)sizeof(Deal); }

int sa_deal_init(void *deal, const int32_t *words, int nwords) {
    return deal_init((Deal *)deal, words, nwords);
}

int sa_deal_project(const void *deal, int32_t *rows, int nrows) {
    return deal_project((const Deal *)deal, (int32_t(*)[HANDS_SLOTS])rows, nrows);
}

int sa_deal_project_many(const void *deal, int32_t *rows, int nrows, int count,
                         int32_t *blanked) {
    int status = 0;
    for (int i = 0; i < count; i++) {
        blanked[i] = sa_deal_project(deal, rows + (size_t)i * nrows * HANDS_SLOTS, nrows);
        if (blanked[i] < 0) status = -1;
    }
    return status;
}

int sa_deal_project_timed(const void *deal, int32_t *rows, int nrows, int count,
                          int32_t *blanked, int64_t *nanos) {
    int status = 0;
    for (int i = 0; i < count; i++) {
        struct timespec began, ended;
        clock_gettime(CLOCK_MONOTONIC, &began);
        blanked[i] = sa_deal_project(deal, rows + (size_t)i * nrows * HANDS_SLOTS, nrows);
        clock_gettime(CLOCK_MONOTONIC, &ended);
        nanos[i] = (int64_t)(ended.tv_sec - began.tv_sec) * 1000000000 +
                   (ended.tv_nsec - began.tv_nsec);
        if (blanked[i] < 0) status = -1;
    }
    return status;
}

void *sa_deal_cache_new(int memo) { return deal_cache_new(memo); }

void sa_deal_cache_free(void *cache) { deal_cache_free((DealCache *)cache); }

int sa_deal_project_cached_many(const void *deal, void *cache, int32_t *rows, int nrows,
                                int count, int32_t *blanked) {
    int status = 0;
    for (int i = 0; i < count; i++) {
        blanked[i] = deal_project_cached((const Deal *)deal, (DealCache *)cache,
                                         (int32_t(*)[HANDS_SLOTS])(rows + (size_t)i * nrows *
                                                                   HANDS_SLOTS), nrows);
        if (blanked[i] < 0) status = -1;
    }
    return status;
}

int sa_deal_project_cached_timed(const void *deal, int memo, int32_t *rows, int nrows,
                                 int count, int32_t *blanked, int64_t *nanos) {
    DealCache *cache = deal_cache_new(memo);
    if (!cache) return -1;
    int status = 0;
    for (int i = 0; i < count; i++) {
        struct timespec began, ended;
        clock_gettime(CLOCK_MONOTONIC, &began);
        blanked[i] = deal_project_cached((const Deal *)deal, cache,
                                         (int32_t(*)[HANDS_SLOTS])(rows + (size_t)i * nrows *
                                                                   HANDS_SLOTS), nrows);
        clock_gettime(CLOCK_MONOTONIC, &ended);
        nanos[i] = (int64_t)(ended.tv_sec - began.tv_sec) * 1000000000 +
                   (ended.tv_nsec - began.tv_nsec);
        if (blanked[i] < 0) status = -1;
    }
    deal_cache_free(cache);
    return status;
}

int sa_project(const int32_t *deal_words, int nwords, int32_t *rows, int nrows) {
    Deal *d = malloc(sizeof *d);
    if (!d) return -1;
    int result = deal_init(d, deal_words, nwords) == 0 ? sa_deal_project(d, rows, nrows) : -1;
    free(d);
    return result;
}
