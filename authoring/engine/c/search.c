/* The crews' plan search in C: authoring/simulation/localsearch.py's PlanSearch, statement for
 * statement, so that both choose the same plan (tests/simulation/test_native_search.py).
 *
 * One call searches one board for one crew picture of the damage tokens:
 *
 *   1. the start plans the caller made (heuristic styles, the previous phase's sketch) are
 *      rated and the best one kept (ties: the first);
 *   2. `sweeps` passes of coordinate descent over the phase's own turns (every other card of
 *      the alphabet in each slot, the best kept when it rates higher);
 *   3. `rounds` rounds of `batch` neighbours from the moves of authoring/simulation/moves.py
 *      (Mover.propose), the best kept when it rates at least as well (a plateau move walks).
 *
 * A plan's value is the sum over the seeds of sa_objective (core.h) of its resolution. The
 * moves draw from SplitMix64 (authoring/simulation/prng.py), whose every call is defined by
 * integer arithmetic, so Python and C draw the same numbers. Every code table the moves use
 * (heroic cards, double actions, the weighted plain cards, the alphabet) comes from Python in
 * the parameters: the plan encoding has one source, authoring/engine/plan.py.
 *
 * The projection onto dealt hands is not here yet: a call with hands returns SEARCH_UNSUPPORTED
 * and the caller searches in Python.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

#define SLOTS 12
#define MAX_ROWS 6
#define MAX_SEEDS 16
#define MAX_BATCH 256
#define MAX_TABLE 64
#define OUT_WORDS 64 /* OUT_INTS of core.c */
#define KIND_MASK 15
#define HEROIC_BIT 16
#define SECOND_SHIFT 12
#define FIRST_MASK ((1 << SECOND_SHIFT) - 1)
#define K_HMOVE 8
#define EMPTY 0

#define SEARCH_UNSUPPORTED (-2)

/* The parameter words of sa_search, in order (authoring/simulation/nativesearch.py). */
enum {
    P_FIGURES, P_FIRST_TURN, P_TURNS, P_LAST_TURN, P_SWEEPS, P_ROUNDS, P_BATCH, P_NSEEDS,
    P_NSTARTS, P_HEROICS, P_DOUBLES, P_NHEROIC, P_NDOUBLE, P_NWEIGHTED, P_NALPHABET,
    P_TABLES /* then the four tables, in that order */
};

typedef int32_t Rows[MAX_ROWS][SLOTS];

typedef struct {
    uint64_t state;
} Mix;

static uint64_t mix_next(Mix *m) {
    uint64_t z = (m->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static double mix_random(Mix *m) { return (double)(mix_next(m) >> 11) * (1.0 / 9007199254740992.0); }

static int mix_below(Mix *m, int n) { return (int)(((mix_next(m) >> 32) * (uint64_t)n) >> 32); }

typedef struct {
    int figures, first_turn, turns, last_turn, heroics, doubles, nseeds;
    const int32_t *heroic, *dbl, *weighted, *alphabet;
    int nheroic, ndouble, nweighted, nalphabet;
    const int32_t *setup;
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

static int32_t random_action(const Search *s, Mix *m) {
    if (s->heroics && mix_random(m) < 0.12) return s->heroic[mix_below(m, s->nheroic)];
    if (s->doubles && mix_random(m) < 0.4) return s->dbl[mix_below(m, s->ndouble)];
    return s->weighted[mix_below(m, s->nweighted)];
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

/* Mover.propose with free = every figure and no errands: a changed copy of plan in out. */
static void propose(const Search *s, Mix *m, const Rows plan, Rows out) {
    memcpy(out, plan, sizeof(Rows));
    int who = mix_below(m, s->figures);
    int32_t *row = out[who], buf[SLOTS + 1];
    int i = mix_below(m, s->turns);
    (void)mix_random(m); /* the errand roll: the crews' searches make no errands */
    if (s->doubles && mix_random(m) < 0.15 && join_or_split(s, row, i)) return;
    double roll = mix_random(m);
    int two = s->figures > 1;
    if (roll < 0.40 || (roll >= 0.85 && !two)) {
        row[i] = random_action(s, m);
        fix_heroics(row, i);
    } else if (roll < 0.50) { /* swap two cards */
        int j = mix_below(m, s->turns);
        int32_t t = row[i];
        row[i] = row[j];
        row[j] = t;
    } else if (roll < 0.63) { /* shift a card to another slot */
        int j = mix_below(m, s->turns);
        int32_t card = row[i];
        row_pop(row, SLOTS, i);
        row_insert(row, SLOTS - 1, j, card);
    } else if (roll < 0.74) { /* a delay: the cards from slot i on one turn later */
        memcpy(buf, row, SLOTS * sizeof *row);
        row_insert(buf, SLOTS, i, EMPTY);
        memcpy(row, buf, SLOTS * sizeof *row);
    } else if (roll < 0.85) { /* the cards after slot i one turn earlier */
        row_pop(row, SLOTS, i);
        row[SLOTS - 1] = EMPTY;
    } else {
        int other = mix_below(m, s->figures - 1);
        if (other >= who) other++;
        int32_t *row2 = out[other];
        if (roll < 0.94) { /* exchange one turn's cards */
            int32_t t = row[i];
            row[i] = row2[i];
            row2[i] = t;
        } else if (roll < 0.97) { /* exchange everything from slot i on */
            for (int j = i; j < SLOTS; j++) {
                int32_t t = row[j];
                row[j] = row2[j];
                row2[j] = t;
            }
        } else { /* the other follows this one up to slot i */
            memcpy(row2, row, (size_t)(i + 1) * sizeof *row);
        }
        fix_heroics(row, i);
        fix_heroics(row2, i);
    }
    if (s->turns < SLOTS)
        for (int r = 0; r < s->figures; r++)
            for (int j = s->turns; j < SLOTS; j++) out[r][j] = EMPTY;
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

static int64_t evaluate(Search *s, const Rows rows) {
    int32_t *plan = s->plan, out[OUT_WORDS];
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

/* PlanSearch.sweep */
static int64_t sweep(Search *s, Rows current, int64_t value) {
    int end = s->last_turn < s->turns ? s->last_turn : s->turns;
    Rows candidate, best_rows;
    for (int slot = s->first_turn - 1; slot < end; slot++)
        for (int member = 0; member < s->figures; member++) {
            int32_t keep = current[member][slot];
            int found = 0;
            int64_t best = 0;
            for (int c = 0; c < s->nalphabet; c++) {
                int32_t card = s->alphabet[c];
                if (card == keep) continue;
                memcpy(candidate, current, sizeof(Rows));
                candidate[member][slot] = card;
                fix_heroics(candidate[member], slot);
                keep_fixed(s, candidate, current);
                int64_t v = evaluate(s, candidate);
                if (!found || v > best) {
                    found = 1;
                    best = v;
                    memcpy(best_rows, candidate, sizeof(Rows));
                }
            }
            if (found && best > value) {
                memcpy(current, best_rows, sizeof(Rows));
                value = best;
            }
        }
    return value;
}

/* PlanSearch.climb */
static int64_t climb(Search *s, Rows current, int64_t value, int rounds, int batch, Mix *m,
                     Rows *kept) {
    if (s->first_turn > s->turns || rounds <= 0) return value;
    const size_t size = sizeof(Rows);
    for (int round = 0; round < rounds; round++) {
        int n = 0;
        for (int b = 0; b < batch; b++) {
            propose(s, m, (const int32_t (*)[SLOTS])current, kept[n]);
            keep_fixed(s, kept[n], (const int32_t (*)[SLOTS])current);
            int seen = same(s, kept[n], (const int32_t (*)[SLOTS])current);
            for (int k = 0; k < n && !seen; k++) seen = same(s, kept[n], (const int32_t (*)[SLOTS])kept[k]);
            if (!seen) n++;
        }
        int best = -1;
        int64_t best_value = 0;
        for (int k = 0; k < n; k++) {
            int64_t v = evaluate(s, (const int32_t (*)[SLOTS])kept[k]);
            if (best < 0 || v > best_value) {
                best = k;
                best_value = v;
            }
        }
        if (best >= 0 && best_value >= value) {
            memcpy(current, kept[best], size);
            value = best_value;
        }
    }
    return value;
}

/* Searches one board. params: see P_*; setup: sa_play's setup words; keys: nseeds keys one
   after the other (each its word count, then its words); starts: nstarts plans of figures x 12
   codes; deal: NULL (free play; hands are not supported yet). best: figures x 12 codes out;
   value: [0] the best plan's sum over the seeds of the objective, [1] the plans rated.
   Returns 0, -1 without memory, SEARCH_UNSUPPORTED for what Python must search. */
int sa_search(const int32_t *params, const int32_t *setup, const uint32_t *keys,
              const int32_t *starts, const int32_t *deal, uint64_t seed, int32_t *best,
              int64_t *value) {
    Search s;
    memset(&s, 0, sizeof s);
    s.figures = params[P_FIGURES];
    s.first_turn = params[P_FIRST_TURN];
    s.turns = params[P_TURNS];
    s.last_turn = params[P_LAST_TURN];
    s.nseeds = params[P_NSEEDS];
    s.heroics = params[P_HEROICS];
    s.doubles = params[P_DOUBLES];
    s.nheroic = params[P_NHEROIC];
    s.ndouble = params[P_NDOUBLE];
    s.nweighted = params[P_NWEIGHTED];
    s.nalphabet = params[P_NALPHABET];
    int nstarts = params[P_NSTARTS], batch = params[P_BATCH];
    if (deal || s.figures < 1 || s.figures > MAX_ROWS || s.nseeds < 1 || s.nseeds > MAX_SEEDS ||
        nstarts < 1 || batch < 1 || batch > MAX_BATCH || s.turns < 1 || s.turns > SLOTS ||
        s.nheroic > MAX_TABLE || s.ndouble > MAX_TABLE || s.nweighted < 1 ||
        s.nweighted > MAX_TABLE || s.nalphabet > MAX_TABLE || (s.heroics && s.nheroic < 1) ||
        (s.doubles && s.ndouble < 1))
        return SEARCH_UNSUPPORTED;
    const int32_t *table = params + P_TABLES;
    s.heroic = table;
    s.dbl = s.heroic + s.nheroic;
    s.weighted = s.dbl + s.ndouble;
    s.alphabet = s.weighted + s.nweighted;
    s.setup = setup;
    s.game = sa_game_new();
    s.mt = malloc(sizeof *s.mt * (size_t)s.nseeds);
    Rows *kept = malloc(sizeof(Rows) * (size_t)batch);
    if (!s.game || !s.mt || !kept) {
        sa_game_free(s.game);
        free(s.mt);
        free(kept);
        return -1;
    }
    for (int k = 0; k < s.nseeds; k++) {
        sa_seed(s.mt[k], keys);
        keys += 1 + keys[0];
    }
    Rows current;
    int64_t current_value = 0;
    for (int i = 0; i < nstarts; i++) { /* best_start */
        Rows start;
        for (int r = 0; r < s.figures; r++)
            memcpy(start[r], starts + (size_t)(i * s.figures + r) * SLOTS, SLOTS * sizeof(int32_t));
        int64_t v = evaluate(&s, (const int32_t (*)[SLOTS])start);
        if (i == 0 || v > current_value) {
            memcpy(current, start, sizeof(Rows));
            current_value = v;
        }
    }
    for (int k = 0; k < params[P_SWEEPS]; k++) current_value = sweep(&s, current, current_value);
    Mix m = {seed};
    int64_t climbed = climb(&s, current, current_value, params[P_ROUNDS], batch, &m, kept);
    sa_game_free(s.game);
    free(s.mt);
    free(kept);
    for (int r = 0; r < s.figures; r++) memcpy(best + SLOTS * r, current[r], SLOTS * sizeof *best);
    value[0] = climbed;
    value[1] = s.evaluations;
    return 0;
}
