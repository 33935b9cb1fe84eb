/* Action-card hands in C: hands.project_codes, statement for statement (see hands.h).
 *
 * The names follow authoring/engine/hands.py: _Network's build is deal_init, Matcher.place is
 * place, Matcher._path is find_path, _greedy_by_turn is lay_greedy, _exact is exact. The
 * resume cache of _greedy_by_turn is left out: it gives the same result as laying every plan
 * from turn 1, which is what this file does.
 *
 * C11, no dependency beyond the C library; built into libspacealert_core.so with core.c by
 * `python -m authoring._native build`.
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime for sa_deal_project_timed */
#include "hands.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#define INF (1 << 20) /* hands._INF: a slot group's edges to its cards are never the limit */
#define SINK 0
#define BRANCH_LIMIT 64 /* hands._BRANCH_LIMIT */
#define TRIP_BIT 32
#define HEROIC_BIT 16
#define HMOVE 8
#define NO_GIFT HANDS_HALVES /* forbid: the giver gives nothing ("" in hands._exact) */
#define ANY_GIFT (-1)        /* forbid: no restriction */
#define GIFT_KEYS (HANDS_MAX_GIVERS * HANDS_MAX_TRANSFERS)

/* The phase (1-3) of turns 1-12 (ship.TURN_PHASE + 1). */
static const int8_t PHASE_OF_TURN[HANDS_SLOTS + 1] = {0, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3};
/* The halves in the order Python sorts their letters ("A" < "B" < "C" < "R" < "b" < "l" <
   "r"): the order _exact branches on them. */
static const int8_t SORTED_HALVES[HANDS_HALVES] = {3, 4, 5, 6, 1, 2, 0};

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
    if (!d || !words || nwords < 6 || words[0] != HANDS_WORDS_VERSION) return -1;
    int crew = words[1], players = words[2], givers = words[3], moments = words[4],
        cards = words[5];
    if (crew < 1 || crew > HANDS_MAX_CREW || players < 0 || players > crew || givers < 0 ||
        givers > HANDS_MAX_GIVERS || moments < 0 || moments > HANDS_MAX_MOMENTS ||
        cards < 0 || cards > HANDS_MAX_CARDS || nwords != 6 + 2 * crew + 2 * moments + 4 * cards)
        return -1;
    memset(d, 0, sizeof *d);
    d->crew = crew;
    d->players = players;
    d->givers = givers;
    const int32_t *w = words + 6;
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
            w[2] >= HANDS_HALVES || w[3] < 0 || w[3] >= HANDS_HALVES)
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
    int by_half[HANDS_HALVES][2 * HANDS_MAX_CARDS], nby[HANDS_HALVES] = {0};
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
            for (int h = 0; h < HANDS_HALVES; h++) d->slot[k][p][h] = -1;
    int keys[HANDS_MAX_CREW + 1], nkeys = 0;
    for (int k = 0; k < players; k++) keys[nkeys++] = k;
    if (players < crew) keys[nkeys++] = -1;
    for (int i = 0; i < nkeys; i++)
        for (int phase = 1; phase <= HANDS_PHASES; phase++)
            for (int h = 0; h < HANDS_HALVES; h++) {
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
            for (int h = 0; h < HANDS_HALVES; h++) {
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
            for (int h = 0; h < HANDS_HALVES; h++)
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
    free(b);
    return ok ? 0 : -1;
}

/* --- laying a plan (hands.Matcher) ------------------------------------------------------- */

typedef struct {
    int8_t kind; /* 0 blank, 1 an ordinary half, 2 a heroic half */
    int8_t half; /* ordinary: hands.HALVES index; heroic: the bit of hands.h's heroic mask */
} Slot;

/* Decodes a plan.encode code as hands.decoded_actions knows it; 0 for any other code. */
static int decode(int32_t code, Slot *slot) {
    slot->kind = slot->half = 0;
    if (code == 0) return 1;
    int32_t card = code & ~TRIP_BIT;
    if (card >= 1 && card <= 7) {
        slot->kind = 1;
        slot->half = (int8_t)(card - 1);
        return 1;
    }
    slot->kind = 2;
    if (card == (HEROIC_BIT | 4) || card == (HEROIC_BIT | 5) || card == (HEROIC_BIT | 7)) {
        slot->half = (int8_t)(card == (HEROIC_BIT | 4) ? 0 : card == (HEROIC_BIT | 5) ? 1 : 2);
        return 1;
    }
    int station = (card >> 8) - 1;
    if ((card & 0xff) == (HEROIC_BIT | HMOVE) && station >= 0 && station < 6 &&
        card == (HEROIC_BIT | HMOVE | (station + 1) << 8)) {
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
    int8_t halves[HANDS_HALVES]; /* the plan's ordinary halves, sorted as _exact sorts them */
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
            for (int h = 0; h < HANDS_HALVES; h++) used += w->cap[d->gift[giver][t][h]] == 0;
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
    int present[HANDS_HALVES] = {0};
    for (int m = 0; m < nrows; m++)
        for (int t = 0; t < HANDS_SLOTS; t++) {
            if (!decode(rows[m][t], &plan.slot[m][t])) return -1;
            if (plan.slot[m][t].kind == 1) present[(int)plan.slot[m][t].half] = 1;
        }
    plan.nhalves = 0;
    for (int i = 0; i < HANDS_HALVES; i++)
        if (present[SORTED_HALVES[i]]) plan.halves[plan.nhalves++] = SORTED_HALVES[i];
    Work work; /* about 70 KB of stack: no allocation in a search's inner loop */
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

int sa_project(const int32_t *deal_words, int nwords, int32_t *rows, int nrows) {
    Deal *d = malloc(sizeof *d);
    if (!d) return -1;
    int result = deal_init(d, deal_words, nwords) == 0 ? sa_deal_project(d, rows, nrows) : -1;
    free(d);
    return result;
}
