/* The crews' plan search in C: authoring/simulation/localsearch.py's PlanSearch.run, statement
 * for statement, so that both choose the same plan (tests/simulation/test_native_search.py).
 *
 * One call searches one board for one crew picture of the damage tokens (docs/simulation.md
 * "The search"): every start plan the caller made (heuristic styles, the previous phase's
 * sketch) is improved by first-improvement descent over a fixed neighbourhood until no
 * neighbour rates higher (a local optimum), and the best of those optima is returned (ties:
 * the first start's). The neighbourhood of a plan is enumerated by index (`neighbour`): per
 * crew member and slot from first_turn on, every card of the alphabet, a swap and a shift
 * to each other slot, a delay, a pull, a join or split of a double action, and with each
 * other member an exchange of the slot, an exchange of everything from it on, and the other
 * following this one up to it. A descent stops at a local optimum or after `cap` plans
 * rated, whichever comes first: the cap only guards against a pathological board, and
 * bench/convergence.py shows that the calibrated one is not reached.
 *
 * A plan's value is the sum over the seeds of sa_objective (core.h) of its resolution:
 * integers, so both implementations compare exactly. The code tables (the double actions and
 * the alphabet) come from Python in the parameters: the plan encoding has one source,
 * authoring/engine/rules/plan.py.
 *
 * With dealt hands every plan is projected onto them before it is resolved (hands.h
 * deal_project_cached, as PlanSearch._playable does with hands.project_codes), and the search
 * goes on from the plan as projected: the current plan is always one the crew can play, so
 * its neighbours are mostly playable too (cheap to project) and a descent never walks
 * through cards the crew does not hold.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "core.h"
#include "hands.h"

#define SLOTS 12
#define MAX_ROWS 6
#define MAX_SEEDS 16
#define MAX_TABLE 64
#define EMPTY K_BLANK

#define SEARCH_UNSUPPORTED (-2)

/* The parameter words of sa_search, in order (localsearch.PlanSearch._native). */
enum {
    P_FIGURES, P_FIRST_TURN, P_TURNS, P_CAP, P_NSEEDS, P_NSTARTS, P_DOUBLES, P_NDOUBLE,
    P_NALPHABET, P_TABLES /* then the double actions and the alphabet */
};

typedef int32_t Rows[MAX_ROWS][SLOTS];

typedef struct {
    int figures, first_turn, turns, doubles, nseeds;
    const int32_t *dbl, *alphabet;
    int ndouble, nalphabet;
    const int32_t *setup;
    const Deal *deal; /* NULL: free play */
    DealCache *cache; /* deal_project_cached's memory of the plans laid before */
    int refused;      /* deal_project refused a plan: the caller searches in Python */
    uint32_t (*mt)[624];
    SaGame *game;
    int32_t plan[1 + MAX_ROWS * SLOTS + 3];
    int64_t evaluations;
} Search;

/* --- the moves (authoring/simulation/moves.py) --------------------------------------------- */

static int is_double(const Search *s, int32_t code) {
    for (int k = 0; k < s->ndouble; k++)
        if (s->dbl[k] == code) return 1;
    return 0;
}

static int32_t downgrade(int32_t code) {
    int kind = code & KIND_MASK;
    return kind == K_HMOVE ? EMPTY : kind;
}

/* fix_heroics: every heroic card of a row but one is downgraded, the one in slot keep if it
   is heroic, else the first. */
static void fix_heroics(int32_t *row, int keep) {
    int count = 0, first = -1;
    for (int j = 0; j < SLOTS; j++)
        if (row[j] & HEROIC_BIT) {
            if (first < 0) first = j;
            count++;
        }
    if (count <= 1) return;
    int keeper = (row[keep] & HEROIC_BIT) ? keep : first;
    for (int j = 0; j < SLOTS; j++)
        if ((row[j] & HEROIC_BIT) && j != keeper) row[j] = downgrade(row[j]);
}

/* A row as a Python list of 12: removing slot i, inserting at j. */
static void row_pop(int32_t *row, int n, int i) {
    memmove(row + i, row + i + 1, (size_t)(n - i - 1) * sizeof *row);
}

static void row_insert(int32_t *row, int n, int j, int32_t code) { /* row has room for n+1 */
    if (j > n) j = n;
    memmove(row + j + 1, row + j, (size_t)(n - j) * sizeof *row);
    row[j] = code;
}

static int32_t merged(const Search *s, int32_t first, int32_t second) {
    if (!second || ((first | second) & ~KIND_MASK)) return -1;
    int32_t code = first | (second << SECOND_SHIFT);
    return is_double(s, code) ? code : -1;
}

/* Mover._join_or_split */
static int join_or_split(const Search *s, int32_t *row, int i) {
    int32_t code = row[i], buf[SLOTS + 1];
    if (is_double(s, code)) {
        memcpy(buf, row, SLOTS * sizeof *row);
        buf[i] = code & FIRST_MASK;
        row_insert(buf, SLOTS, i + 1, (code >> SECOND_SHIFT) & KIND_MASK);
        for (int j = 0; j < SLOTS; j++) row[j] = j < s->turns ? buf[j] : EMPTY;
        return 1;
    }
    if (i + 1 < s->turns) {
        int32_t joined = merged(s, code, row[i + 1]);
        if (joined >= 0) {
            row[i] = joined;
            row_pop(row, SLOTS, i + 1);
            row[SLOTS - 1] = EMPTY;
            return 1;
        }
    }
    return 0;
}

/* PlanSearch._keep_fixed: the played slots restored from current. */
static void keep_fixed(const Search *s, Rows candidate, const Rows current) {
    int keep = s->first_turn - 1;
    if (keep <= 0) return;
    for (int r = 0; r < s->figures; r++) {
        memcpy(candidate[r], current[r], (size_t)keep * sizeof(int32_t));
        int first = -1, count = 0;
        for (int j = 0; j < SLOTS; j++)
            if (candidate[r][j] & HEROIC_BIT) {
                if (first < 0) first = j;
                count++;
            }
        if (count > 1) fix_heroics(candidate[r], first);
    }
}

/* --- rating ----------------------------------------------------------------------------------- */

/* Rates a plan: projected onto the hands first (in place: the search goes on from the plan
   as it can be played), then resolved once per seed. */
static int64_t evaluate(Search *s, Rows rows) {
    int32_t *plan = s->plan, out[OUT_INTS];
    if (s->deal && deal_project_cached(s->deal, s->cache, rows, s->figures) < 0) s->refused = 1;
    plan[0] = s->figures;
    for (int r = 0; r < s->figures; r++) memcpy(plan + 1 + SLOTS * r, rows[r], SLOTS * sizeof *plan);
    int32_t *forced = plan + 1 + SLOTS * s->figures;
    forced[0] = forced[1] = forced[2] = 0;
    int64_t total = 0;
    for (int k = 0; k < s->nseeds; k++) {
        sa_resolve(s->game, s->setup, plan, s->mt[k], out);
        total += sa_objective(s->setup, out);
    }
    s->evaluations++;
    return total;
}

static int same(const Search *s, const Rows a, const Rows b) {
    for (int r = 0; r < s->figures; r++)
        if (memcmp(a[r], b[r], SLOTS * sizeof(int32_t))) return 0;
    return 1;
}

/* Neighbour k of a plan into out (localsearch.neighbour): block k / block_size is a crew
   member and a slot from first_turn on, k % block_size one change there, in this order: each
   card of the alphabet; a swap with each later slot; a shift to each other slot (the cards
   between close up); a delay (the cards from the slot on one turn later); a pull (one turn
   earlier); a join or split of a double action; then per other member an exchange of the
   slot's cards, an exchange of everything from the slot on, and the other member following
   this one up to the slot. Returns 0 when k makes no other plan. */
enum { SWAPS = SLOTS, SHIFTS = SLOTS, EXTRA = 3, WITH = 3 * MAX_ROWS };

static int block_size(const Search *s) { return s->nalphabet + SWAPS + SHIFTS + EXTRA + WITH; }

static int neighbour(const Search *s, const Rows plan, long k, Rows out) {
    int block = block_size(s), first = s->first_turn - 1;
    int span = s->turns - first;
    int within = (int)(k % block);
    long cell = k / block;
    int member = (int)(cell / span), slot = first + (int)(cell % span);
    memcpy(out, plan, sizeof(Rows));
    int32_t *row = out[member], buf[SLOTS + 1];
    if (within < s->nalphabet) {
        int32_t card = s->alphabet[within];
        if (card == row[slot]) return 0;
        row[slot] = card;
        fix_heroics(row, slot);
        return 1;
    }
    within -= s->nalphabet;
    if (within < SWAPS) {
        int j = within;
        if (j <= slot || j >= s->turns || row[j] == row[slot]) return 0;
        int32_t t = row[j];
        row[j] = row[slot];
        row[slot] = t;
        return 1;
    }
    within -= SWAPS;
    if (within < SHIFTS) { /* the card moves to slot j, the others close up */
        int j = within;
        if (j == slot || j < first || j >= s->turns) return 0;
        int32_t card = row[slot];
        row_pop(row, SLOTS, slot);
        row_insert(row, SLOTS - 1, j, card);
        return memcmp(row, plan[member], SLOTS * sizeof *row) != 0;
    }
    within -= SHIFTS;
    if (within == 2) return s->doubles && join_or_split(s, row, slot);
    if (within == 0) { /* a delay */
        memcpy(buf, row, SLOTS * sizeof *row);
        row_insert(buf, SLOTS, slot, EMPTY);
        memcpy(row, buf, SLOTS * sizeof *row);
        if (s->turns < SLOTS) for (int j = s->turns; j < SLOTS; j++) row[j] = EMPTY;
        return memcmp(row, plan[member], SLOTS * sizeof *row) != 0;
    }
    if (within == 1) { /* a pull */
        row_pop(row, SLOTS, slot);
        row[SLOTS - 1] = EMPTY;
        return memcmp(row, plan[member], SLOTS * sizeof *row) != 0;
    }
    within -= EXTRA;
    int other = within / 3, how = within % 3;
    if (other >= s->figures || other == member) return 0;
    int32_t *row2 = out[other];
    if (how == 2) { /* the other follows this one up to the slot */
        memcpy(row2, row, (size_t)(slot + 1) * sizeof *row);
        if (!memcmp(row2, plan[other], SLOTS * sizeof *row)) return 0;
    } else if (!how) {
        if (row[slot] == row2[slot]) return 0;
        int32_t t = row[slot];
        row[slot] = row2[slot];
        row2[slot] = t;
    } else {
        if (other < member) return 0; /* the same exchange as the other's */
        for (int j = slot; j < SLOTS; j++) {
            int32_t t = row[j];
            row[j] = row2[j];
            row2[j] = t;
        }
        if (!memcmp(row, plan[member], SLOTS * sizeof *row)) return 0;
    }
    fix_heroics(row, slot);
    fix_heroics(row2, slot);
    return 1;
}

/* First-improvement descent: the neighbours in turn, from where the last improvement was
   found, each kept when it rates higher; stops at a plan no neighbour improves (a local
   optimum) or after `cap` plans rated. */
static int64_t descend(Search *s, Rows current, int64_t value, long cap) {
    if (s->first_turn > s->turns) return value;
    Rows candidate;
    long size = (long)s->figures * (s->turns - s->first_turn + 1) * block_size(s);
    long k = 0, since = 0, rated = 0;
    while (since < size && rated < cap) {
        if (neighbour(s, (const int32_t (*)[SLOTS])current, k, candidate)) {
            keep_fixed(s, candidate, (const int32_t (*)[SLOTS])current);
            if (!same(s, (const int32_t (*)[SLOTS])candidate, (const int32_t (*)[SLOTS])current)) {
                int64_t v = evaluate(s, candidate);
                rated++;
                if (v > value) {
                    memcpy(current, candidate, sizeof(Rows));
                    value = v;
                    since = 0;
                }
            }
        }
        since++;
        k = (k + 1) % size;
    }
    return value;
}

/* Searches one board. params: see P_*; setup: sa_play's setup words; keys: nseeds keys one
   after the other (each its word count, then its words); starts: nstarts plans of figures x 12
   codes; deal: NULL (free play) or the dealt hands (hands.h). best: figures x 12 codes out;
   value: [0] the best plan's sum over the seeds of the objective, [1] the plans rated.
   Returns 0, -1 without memory, SEARCH_UNSUPPORTED for what Python must search. */
int sa_search(const int32_t *params, const int32_t *setup, const uint32_t *keys,
              const int32_t *starts, const void *deal, int32_t *best, int64_t *value) {
    Search s;
    memset(&s, 0, sizeof s);
    s.figures = params[P_FIGURES];
    s.first_turn = params[P_FIRST_TURN];
    s.turns = params[P_TURNS];
    s.nseeds = params[P_NSEEDS];
    s.doubles = params[P_DOUBLES];
    s.ndouble = params[P_NDOUBLE];
    s.nalphabet = params[P_NALPHABET];
    int nstarts = params[P_NSTARTS];
    long cap = params[P_CAP];
    s.deal = deal;
    if ((s.deal && s.deal->crew != s.figures) || s.figures < 1 || s.figures > MAX_ROWS || s.nseeds < 1 || s.nseeds > MAX_SEEDS ||
        nstarts < 1 || s.turns < 1 || s.turns > SLOTS || s.first_turn < 1 ||
        s.ndouble > MAX_TABLE || s.nalphabet < 1 || s.nalphabet > MAX_TABLE ||
        (s.doubles && s.ndouble < 1))
        return SEARCH_UNSUPPORTED;
    s.dbl = params + P_TABLES;
    s.alphabet = s.dbl + s.ndouble;
    s.setup = setup;
    s.game = sa_game_new();
    s.mt = malloc(sizeof *s.mt * (size_t)s.nseeds);
    s.cache = s.deal ? deal_cache_new(HANDS_MEMO) : NULL;
    if (!s.game || !s.mt || (s.deal && !s.cache)) {
        sa_game_free(s.game);
        free(s.mt);
        deal_cache_free(s.cache);
        return -1;
    }
    for (int k = 0; k < s.nseeds; k++) {
        sa_seed(s.mt[k], keys);
        keys += 1 + keys[0];
    }
    Rows found, work;
    int64_t found_value = 0;
    for (int i = 0; i < nstarts; i++) {
        for (int r = 0; r < s.figures; r++)
            memcpy(work[r], starts + (size_t)(i * s.figures + r) * SLOTS, SLOTS * sizeof(int32_t));
        int64_t v = descend(&s, work, evaluate(&s, work), cap);
        if (i == 0 || v > found_value) {
            memcpy(found, work, sizeof(Rows));
            found_value = v;
        }
    }
    sa_game_free(s.game);
    free(s.mt);
    deal_cache_free(s.cache);
    if (s.refused) return SEARCH_UNSUPPORTED;
    for (int r = 0; r < s.figures; r++) memcpy(best + SLOTS * r, found[r], SLOTS * sizeof *best);
    value[0] = found_value;
    value[1] = s.evaluations;
    return 0;
}
