/* The C engine core: plays whole games of authoring/engine exactly like the Python reference.
 *
 * A port of game.py, actions.py, weapons.py, damage.py, scoring.py and threats/abilities.py
 * (docs/rules.md §5-§15), statement for statement in the same order, so that every game gives
 * the same damage tokens, threat fates, score and state after every turn. The Python side
 * (authoring/engine/cores/ccore.py) encodes cards, setups and plans as small integers, calls
 * sa_play once for a batch of games and decodes the compact output; tests/engine/
 * test_differential.py compares the two cores on many random games.
 *
 * Damage-token draws reproduce CPython's random.Random(seed).randrange(n) bit for bit:
 * MT19937 seeded by init_by_array with abs(seed) split into 32-bit words, and
 * randbelow(n) = getrandbits(n.bit_length()) until below n.
 *
 * C11, no dependency beyond the C library; built by `python -m authoring._native build`.
 */
#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codes.h"
#include "core.h"

/* Every code shared with ccore.py (operations, card flags, action bits, record layouts) is
   in codes.h, generated from authoring/engine/cores/codes.py. */

static const int SHIELD_CAP[3] = {2, 3, 2};
static const int REACTOR_CAP[3] = {3, 5, 3};
static const int HEAVY_STRENGTH[3] = {4, 5, 4};
static const int VC_POINTS[6] = {0, 1, 2, 3, 5, 7};
static const int TURN_PHASE[14] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2};

/* The trajectory boards T1-T7 (authoring/engine/rules/trajectories.py): length, X and Y squares. */
static const int TRACK_LENGTH[7] = {10, 11, 12, 13, 14, 15, 16};
static const int TRACK_X[7] = {5, 8, 8, 9, 11, 10, 12};
static const int TRACK_Y[7][2] = {{0, 0}, {0, 0}, {3, 0}, {5, 0}, {7, 0}, {7, 3}, {8, 5}};
static int8_t track_letter[7][17]; /* 0 plain, 1 x, 2 y, 3 z */
static int8_t letter_below[7][17]; /* the highest square <= s with a letter (0: none) */
static int8_t nth_bit[64][6];      /* the r-th set bit of a 6-bit mask, lowest first */
static int8_t distance_band[17];

typedef struct {
    int turns, c_actions, computer_check, delays, effects, internal, vc, scored;
} Rules;

static const Rules LEVEL_RULES[5] = {
    {12, 1, 1, 1, 1, 1, 1, 1},
    {7, 0, 0, 0, 0, 0, 0, 0},
    {12, 1, 1, 1, 1, 0, 0, 1},
    {12, 1, 1, 1, 1, 1, 0, 1},
    {12, 1, 1, 1, 1, 1, 1, 1},
};

static int32_t cards[MAX_CARDS][CARD_INTS];
static int ncards;

typedef struct {
    const int32_t *card;
    int token, zone, status, square, damage, health, speed, shield, active, cryo, passes;
    int level, ended, nst, st[MAX_SPOTS], nspots, spots[MAX_SPOTS];
    int turn_hits, turn_stations; /* malfunction hits this turn (bitmask of stations) */
    int slowed; /* took damage this turn: 2 squares less (F_SLOWED_WHEN_HIT) */
    int armoured; /* its armour absorbed a hit this turn (F_ARMOUR) */
    int turn_crew; /* bitmask of the crew members who hit it this turn (F_LONE_REPAIRER) */
} Threat;

typedef struct {
    int station, squad, out;
    int slots[12];
} Crew;

typedef struct {
    uint32_t mt[624];
    int mti, stride;
    const uint32_t *source; /* the state being twisted: a column of the shared seeded block
                               (stride LANES), then mt (stride 1) */
} Rng;

typedef struct {
    /* Zeroed for every game up to the end of its threats (thr comes last). */
    /* the state (state.py) */
    int turn, shields[3], reactors[3], fuel, rockets, flying, stored[2], maintained[3], vc[3];
    int ntok[3], tok[3][6], tokmask[3], broken[6], contaminated, scout, lost; /* broken: systems per station */
    int ncrew;
    Crew crew[MAX_CREW];
    /* shortcuts for the common case: the flags of every card in play, the malfunctions in
       token order, and whether a Fissure has doubled anything yet; threats as bit masks (bit
       t: thr[t]) of the active ones (status ACTIVE_THREAT), the external ones, the battlebot
       targets, the malfunctions of each system and those appearing in each turn, walked in
       index order like the threat list */
    uint64_t all_flags;
    int nmalf, malf[MAX_THREATS], fissure;
    unsigned active, external, bots, appear_at[16], malfunctions[SYS_PILOT + 1];
    /* the game (game.py) */
    const Rules *rules;
    int effects, gturn;
    const int8_t *letters[4], *below[4];
    int length[4];
    int armed[6], lift_used[3], vc_now, launched, pilot_heroic;
    const void *halfway; /* the crew member between the halves of a double action */
    const void *split;   /* the one whose card split this turn (actions.delay) */
    int forced[3][MAX_FORCED], nforced[3], fpos[3];
    int cause; /* 1 + zone: a 7th damage; 10 + threat: it reached Z */
    /* bonus threats (docs/rules.md §19.8): 1 + the place of each carrier's bonus (0: none),
       and those that came into play in this threat step (they move from the next) */
    int bonus_of[MAX_THREATS];
    unsigned released;
    int nthr;
    Threat thr[MAX_THREATS];
    /* not zeroed */
    jmp_buf lost_jump;
    Rng rng;
    int16_t *snaps;
    int nsnaps;
} Game;

/* --- the generator: CPython's random.Random --------------------------------------------- */

static uint32_t genrand_base[624]; /* init_genrand(19650218): the same for every seed */

static void init_genrand(uint32_t *mt, uint32_t s) {
    mt[0] = s;
    for (int i = 1; i < 624; i++)
        mt[i] = 1812433253U * (mt[i - 1] ^ (mt[i - 1] >> 30)) + (uint32_t)i;
}

/* Seeds one generator as CPython's init_by_array does with the key abs(seed) in 32-bit words,
   least significant first (any length). */
static void seed_one(uint32_t *mt, const uint32_t *key, int len) {
    memcpy(mt, genrand_base, sizeof genrand_base);
    int i = 1, j = 0;
    for (int k = len > 624 ? len : 624; k; k--) { /* every word of a long key counts */
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (int k = 623; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            mt[0] = mt[623];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

/* seed_one for up to LANES one-word keys at once, into columns 0..lanes-1 of a block stored
   word by word (mt[i][lane]), lanes a multiple of 8. A seeding is a chain of 1,247 dependent
   multiplications; running many chains side by side in vector registers lets the processor
   overlap them, which makes the seeding -- most of a short game's time -- several times
   cheaper per game. The loops are seed_one's with its two wrap-arounds written out: the first
   loop runs i = 1..623 then i = 1 again, the second i = 2..623 then i = 1. */
#define LANES 32
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
/* gcc vectorizes the lanes at -O3 only (the rest of the file stays -O2), and with AVX2 where
   the processor has it (chosen when the library loads) */
__attribute__((optimize("O3"), target_clones("avx2", "default")))
#elif defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("O3")))
#endif
static void seed_lanes(uint32_t (*restrict mt)[LANES], const uint32_t *restrict word, int lanes) {
    for (int l = 0; l < lanes; l++) mt[0][l] = genrand_base[0];
    for (int i = 1; i < 624; i++) {
        uint32_t base = genrand_base[i];
        for (int l = 0; l < lanes; l++) {
            uint32_t p = mt[i - 1][l];
            mt[i][l] = (base ^ ((p ^ (p >> 30)) * 1664525U)) + word[l];
        }
    }
    for (int l = 0; l < lanes; l++) {
        uint32_t p = mt[0][l] = mt[623][l];
        mt[1][l] = (mt[1][l] ^ ((p ^ (p >> 30)) * 1664525U)) + word[l];
    }
    for (int i = 2; i < 624; i++) {
        for (int l = 0; l < lanes; l++) {
            uint32_t p = mt[i - 1][l];
            mt[i][l] = (mt[i][l] ^ ((p ^ (p >> 30)) * 1566083941U)) - (uint32_t)i;
        }
    }
    for (int l = 0; l < lanes; l++) {
        uint32_t p = mt[623][l];
        mt[1][l] = (mt[1][l] ^ ((p ^ (p >> 30)) * 1566083941U)) - 1U;
        mt[0][l] = 0x80000000U;
    }
}

/* One output word. A game's generator starts as a pointer to the seeded state of its seed
   (shared by the games with that seed) and twists it one word at a time, when the word is
   needed, into its own buffer: word i of the first twist reads words i+1 and i+397 of the
   seeded state, which the usual in-place whole-block twist has not rewritten yet either, or
   word i-227, which it has (so it comes from the game's buffer). From the second round on the
   twist works in place in that buffer, as usual. The same words as CPython, without copying
   the 2.5 kB state into every game. */
static uint32_t genrand(Rng *r) {
    uint32_t *tw = r->mt;
    const uint32_t *src = r->source;
    int i = r->mti, step = r->stride;
    uint32_t y = (src[i * step] & 0x80000000U)
                 | ((i == 623 ? tw[0] : src[(i + 1) * step]) & 0x7fffffffU);
    y = (i < 227 ? src[(i + 397) * step] : tw[i - 227]) ^ (y >> 1) ^ (-(y & 1U) & 0x9908b0dfU);
    tw[i] = y;
    if (i == 623) {
        r->source = tw;
        r->stride = 1;
        r->mti = 0;
    } else {
        r->mti = i + 1;
    }
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
}

static int randbelow(Rng *r, int n) {
    int k = 32 - __builtin_clz((unsigned)n); /* n.bit_length(), n >= 1 */
    uint32_t v = genrand(r) >> (32 - k);
    while (v >= (uint32_t)n) v = genrand(r) >> (32 - k);
    return (int)v;
}

/* --- small helpers ------------------------------------------------------------------------ */

static inline int zone_of(int station) { return station % 3; }

static inline int neighbour(int station, int direction) {
    int zone = station % 3 + direction;
    return zone < 0 || zone > 2 ? station : station - station % 3 + zone;
}

/* abilities.door_sealed / walk: a step along the deck, none through a door a Breached Airlock
   sealed (its X/Y counter: 1 white-red, 2 white-blue) while it is not destroyed */
static int walk(const Game *g, int station, int direction);

static inline int other_deck(int station) { return (station + 3) % 6; }

static inline int has_token(const Game *g, int zone, int kind) {
    return g->tokmask[zone] >> kind & 1;
}

/* a card's flags: two 32-bit words of the record (ccore._flag_words), low word first */
static inline uint64_t card_flags(const int32_t *card) {
    return (uint64_t)(uint32_t)card[C_FLAGS] | (uint64_t)(uint32_t)card[C_FLAGS + 1] << 32;
}
static inline uint64_t flags(const Threat *th) { return card_flags(th->card); }

static inline int in_stations(const Threat *th, int station) {
    for (int i = 0; i < th->nst; i++)
        if (th->st[i] == station) return 1;
    return 0;
}

static inline int on_ship(const Crew *c) { return c->station != SPACE && !c->out; }

static int shield_cap(const Game *g, int zone) {
    return SHIELD_CAP[zone] - (g->effects && has_token(g, zone, T_SHIELD));
}

static int reactor_cap(const Game *g, int zone) {
    return REACTOR_CAP[zone] - (g->effects && has_token(g, zone, T_REACTOR));
}

static void snapshot(Game *g);

static void ship_destroyed(Game *g, int cause) {
    g->cause = cause;
    longjmp(g->lost_jump, 1);
}

/* --- crew (actions.py) -------------------------------------------------------------------- */

static void insert(Crew *m, int i, int code) {
    int *s = m->slots;
    int j = i;
    while (j < 12 && s[j] != K_BLANK) j++;
    if (j == 12)
        memmove(&s[i + 1], &s[i], (size_t)(11 - i) * sizeof *s);
    else
        memmove(&s[i + 1], &s[i], (size_t)(j - i) * sizeof *s);
    s[i] = code;
}

/* A delay of the next turn from the first half of a double action splits the card: the
   second half becomes the next turn's card (actions.delay). */
static void delay(Game *g, Crew *m, int slot) {
    int *s = m->slots;
    if (g->split == m && slot == g->gturn + 1) return;
    if (g->halfway == m && slot == g->gturn + 1) {
        g->halfway = NULL;
        g->split = m;
        int second = (s[slot - 2] >> SECOND_SHIFT) & KIND_MASK;
        s[slot - 2] &= FIRST_MASK;
        if (slot <= 12) insert(m, slot - 1, second);
        return;
    }
    if (slot > 12) return;
    if (s[slot - 1] == K_BLANK) return;
    insert(m, slot - 1, K_BLANK);
}

static void knock_out(Crew *m) {
    if (m->out) return;
    m->out = 1;
    if (m->squad != NO_SQUAD) m->squad = SQ_DISABLED;
}

/* abilities.ride: a waiting Parasite (X/Y counter 0) attaches to the first figure entering a
   station of the ship; a Parasite rides along with its host (plan place + 1), in space in no
   station */
static void ride(Game *g, Crew *m) {
    int c = (int)(m - g->crew);
    for (unsigned left = g->active; left; left &= left - 1) {
        Threat *th = &g->thr[__builtin_ctz(left)];
        if (!(flags(th) & F_RIDES_CREW)) continue;
        if (!th->passes && m->station != SPACE) th->passes = c + 1;
        if (th->passes == c + 1) {
            th->nst = m->station == SPACE ? 0 : 1;
            th->st[0] = m->station == SPACE ? 0 : m->station;
        }
    }
}

static void enter(Game *g, Crew *m, int station) {
    m->station = station;
    if (g->all_flags & F_RIDES_CREW) ride(g, m);
    if (station < 6 && (g->contaminated >> station & 1)) knock_out(m);
    if (!(g->all_flags & F_SLIME)) return; /* no Slime in this game */
    for (int t = 0; t < g->nthr; t++) {
        Threat *th = &g->thr[t];
        if ((flags(th) & F_SLIME) && th->status == ACTIVE_THREAT && in_stations(th, station)) {
            delay(g, m, g->gturn + 1);
            break;
        }
    }
}

static void destroy(Game *g, Threat *th, Crew *by);
static void attack(Game *g, Threat *th, int zone, int strength, int shields);
static void hit_zone(Game *g, Threat *th, int zone, int strength);
static void infection(Game *g, Threat *th);
static void poison_strikes(Game *g, Threat *th);

static void hit_malfunction(Game *g, Crew *m, Threat *th, int amount) {
    const int32_t *card = th->card;
    if ((card_flags(card) & F_ARMOUR) && !th->active && !th->armoured) {
        th->armoured = 1; /* absorbs 1 of the first hit of each turn */
        if (--amount <= 0) return;
    }
    if (card_flags(card) & F_THREE_HITS) {
        th->turn_hits++;
        if (th->turn_hits >= 3) th->damage = th->health;
    } else {
        if ((card_flags(card) & F_FINISHING_ENERGY) && th->damage + amount >= th->health) {
            /* the finishing hit costs its zone 1 energy first; none: the hit does nothing */
            int zone = zone_of(th->st[0]);
            if (!g->reactors[zone]) return;
            g->reactors[zone]--;
        }
        th->damage += amount;
        if (card_flags(card) & F_LONE_REPAIRER) th->turn_crew |= 1 << (m - g->crew);
        int bonus = card[C_ALL_STATIONS_BONUS];
        if (bonus) {
            int before = __builtin_popcount((unsigned)th->turn_stations) == th->nst;
            th->turn_stations |= 1 << m->station;
            if (!before && __builtin_popcount((unsigned)th->turn_stations) == th->nst)
                th->damage += bonus;
        }
    }
    if (th->damage >= th->health) destroy(g, th, m);
}

/* abilities.clear_sabotage: an A, B or C clears a Cyber Gremlin's sabotage of its station's
   system (bit 3 * station + system - 1 of its X/Y counter, upper deck only), even after the
   Gremlin is gone */
static int clear_sabotage(Game *g, int station, int system) {
    if (station > UB) return 0;
    int bit = 1 << (3 * station + system - 1);
    for (int t = 0; t < g->nthr; t++) {
        Threat *th = &g->thr[t];
        if ((flags(th) & F_SABOTAGES) && (th->passes & bit)) {
            th->passes &= ~bit;
            return 1;
        }
    }
    return 0;
}

static int system_hit(Game *g, Crew *m, int system, int heroic) {
    int here = m->station;
    for (unsigned left = g->active & g->malfunctions[system]; left; left &= left - 1) {
        Threat *th = &g->thr[__builtin_ctz(left)];
        if (in_stations(th, here) && !((flags(th) & F_PHASING) && th->active)) {
            int amount = heroic && system != SYS_C ? 2 : 1;
            if ((flags(th) & F_SQUAD_REPAIRS_MORE) && m->squad == SQ_ACTIVE) amount++;
            hit_malfunction(g, m, th, amount);
            return 1;
        }
    }
    if ((g->all_flags & F_SABOTAGES) && clear_sabotage(g, here, system)) return 1;
    return (g->broken[here] >> system & 1) != 0;
}

static void action_a(Game *g, Crew *m, int heroic) {
    if (system_hit(g, m, SYS_A, heroic)) return;
    int here = m->station;
    if (g->armed[here]) return;
    if (here == LR || here == LB) {
        g->armed[here] = heroic ? 2 : 1;
        return;
    }
    int zone = zone_of(here);
    if (g->reactors[zone] == 0) return;
    g->reactors[zone]--;
    g->armed[here] = heroic ? 2 : 1;
    if (here == UW && (g->all_flags & F_SHORT_CIRCUIT)) /* abilities.heavy_laser_fired */
        for (unsigned left = g->active & g->malfunctions[SYS_A]; left; left &= left - 1) {
            Threat *th = &g->thr[__builtin_ctz(left)];
            if (flags(th) & F_SHORT_CIRCUIT)
                for (int z = 0; z < 3; z++) hit_zone(g, th, z, 1);
        }
}

static void action_b(Game *g, Crew *m, int heroic) {
    if (system_hit(g, m, SYS_B, heroic)) return;
    int here = m->station, zone = zone_of(here);
    if (here <= UB) {
        int room = shield_cap(g, zone) - g->shields[zone];
        if (room < 0) room = 0;
        int moved = room < g->reactors[zone] ? room : g->reactors[zone];
        g->reactors[zone] -= moved;
        g->shields[zone] += moved;
        if (heroic && moved) g->shields[zone]++;
    } else if (here != LW) {
        int room = reactor_cap(g, zone) - g->reactors[zone];
        if (room < 0) room = 0;
        int moved = room < g->reactors[WHITE] ? room : g->reactors[WHITE];
        g->reactors[WHITE] -= moved;
        g->reactors[zone] += moved;
        if (heroic && moved) g->reactors[zone]++;
    } else if (g->fuel) {
        g->fuel--;
        int added = reactor_cap(g, WHITE) - g->reactors[WHITE];
        if (added < 0) added = 0;
        g->reactors[WHITE] += added;
        if (heroic && added) g->reactors[WHITE]++;
    }
}

static void action_c(Game *g, Crew *m, int turn) {
    if (system_hit(g, m, SYS_C, 0)) return;
    int here = m->station;
    if ((here == UR || here == UB || here == LR) && !g->rules->internal) return;
    if (here == LW && !g->rules->vc) return;
    if (here == UR) {
        if (m->squad == SQ_ACTIVE) {
            for (int c = 0; c < g->ncrew; c++)
                if (g->crew[c].station == SPACE) return;
            m->station = SPACE;
            if (g->all_flags & F_RIDES_CREW) ride(g, m);
            g->pilot_heroic = 0;
        }
    } else if (here == UW) {
        int phase = TURN_PHASE[turn];
        if ((turn == 1 || turn == 2 || turn == 4 || turn == 5 || turn == 8 || turn == 9)
            && !g->maintained[phase])
            g->maintained[phase] = 1;
    } else if (here == UB || here == LR) {
        int index = here == UB ? 0 : 1;
        if (m->squad == SQ_DISABLED) {
            m->squad = SQ_ACTIVE;
        } else if (m->squad == NO_SQUAD && g->stored[index] != NO_SQUAD) {
            g->stored[index] = NO_SQUAD;
            m->squad = SQ_ACTIVE;
        }
    } else if (here == LW) {
        g->vc_now++;
    } else if (g->rockets && !g->launched) {
        g->rockets--;
        g->launched = 1;
    }
}

static void action_bots(Game *g, Crew *m, int heroic) {
    if (m->squad != SQ_ACTIVE) return;
    int here = m->station;
    Threat *th = 0;
    for (unsigned left = g->active & g->bots; left; left &= left - 1) {
        Threat *cand = &g->thr[__builtin_ctz(left)];
        if (in_stations(cand, here) && !((flags(cand) & F_PHASING) && cand->active)
            && !((flags(cand) & F_RIDES_CREW) && cand->passes == (int)(m - g->crew) + 1)) {
            th = cand; /* not a Parasite riding the attacker */
            break;
        }
    }
    if (!th) return;
    uint64_t f = flags(th);
    int gone;
    if (f & F_SLIME) {
        int index = 0;
        while (th->st[index] != here) index++;
        th->spots[index]--;
        th->damage++;
        if (th->spots[index] == 0) {
            for (int k = index; k + 1 < th->nst; k++) th->st[k] = th->st[k + 1];
            for (int k = index; k + 1 < th->nspots; k++) th->spots[k] = th->spots[k + 1];
            th->nst--;
            th->nspots--;
        }
        gone = th->nst == 0;
    } else if (f & F_CONTAMINATION) {
        int index = 0;
        while (th->st[index] != here) index++;
        for (int k = index; k + 1 < th->nst; k++) th->st[k] = th->st[k + 1];
        th->nst--;
        th->damage++;
        gone = th->damage >= th->health;
    } else if ((f & F_ARMOUR) && !th->active && !th->armoured) {
        th->armoured = 1; /* the first hit of each turn, until its armour is off */
        gone = 0;
    } else {
        th->damage++;
        gone = th->damage >= th->health;
    }
    int fights = (f & F_FIGHTS_BACK) || ((f & F_FIGHTS_GROWN) && th->active);
    if (fights && !heroic) m->squad = SQ_DISABLED;
    if (!gone && (f & F_TO_LB_WHEN_HIT)) th->st[0] = LB; /* after every hit (Siren) */
    if (gone) destroy(g, th, m);
}

static int walk(const Game *g, int station, int direction) {
    int to = neighbour(station, direction);
    if (to == station || !(g->all_flags & F_SEALS_DOORS)) return to;
    int za = zone_of(station), zb = zone_of(to);
    int doors = (za == RED || zb == RED) ? 1 : 2;
    for (int t = 0; t < g->nthr; t++) {
        const Threat *th = &g->thr[t];
        if ((flags(th) & F_SEALS_DOORS) && th->status != DESTROYED && (th->passes & doors))
            return station;
    }
    return to;
}

/* abilities.heroic_reach: along the deck toward the target's zone, then the other deck;
   before the first sealed door */
static int heroic_reach(const Game *g, int here, int to) {
    if (zone_of(here) == zone_of(to)) return to;
    int direction = zone_of(to) < zone_of(here) ? -1 : 1, station = here;
    while (zone_of(station) != zone_of(to)) {
        int step = walk(g, station, direction);
        if (step == station) return station;
        station = step;
    }
    return to;
}

/* One action on the ship: a single card or one half of a double action (actions.half). */
/* abilities.poison: a walk, lift or heroic move from `start` into or out of a station with
   a Ninja's drones (bits 0-5 of its X/Y counter) poisons the figure (bit POISONED + c) */
#define POISONED 8
static void poison(Game *g, Crew *m, int start) {
    int c = (int)(m - g->crew);
    for (unsigned left = g->active; left; left &= left - 1) {
        Threat *th = &g->thr[__builtin_ctz(left)];
        if ((flags(th) & F_POISONS)
            && ((th->passes >> start & 1) || (m->station <= LB && (th->passes >> m->station & 1))))
            th->passes |= 1 << (POISONED + c);
    }
}

static void half_action(Game *g, Crew *m, int turn, int code);

static void half(Game *g, Crew *m, int turn, int code) {
    int kind = code & KIND_MASK;
    if (kind == K_BLANK) return;
    if ((g->all_flags & F_POISONS)
        && (kind == K_RED || kind == K_BLUE || kind == K_LIFT || kind == K_HMOVE)) {
        int start = m->station;
        half_action(g, m, turn, code);
        if (m->station != start) poison(g, m, start);
        return;
    }
    half_action(g, m, turn, code);
}

/* the action itself (actions._half) */
static void half_action(Game *g, Crew *m, int turn, int code) {
    int kind = code & KIND_MASK, heroic = (code & HEROIC_BIT) != 0;
    int here = m->station;
    if (kind == K_RED || kind == K_BLUE) {
        int to = walk(g, here, kind == K_RED ? -1 : 1);
        if (to != here) enter(g, m, to);
    } else if (kind == K_LIFT) {
        int zone = zone_of(here);
        int damaged = g->effects && has_token(g, zone, T_GRAVOLIFT);
        int late = g->rules->delays && (g->lift_used[zone] || damaged);
        g->lift_used[zone] = 1;
        enter(g, m, other_deck(here));
        if (late) delay(g, m, turn + 1);
    } else if (kind == K_HMOVE) {
        int to = (code >> 8) - 1;
        if (g->all_flags & F_SEALS_DOORS) to = heroic_reach(g, here, to);
        if (to != here) enter(g, m, to);
    } else if (kind == K_A) {
        action_a(g, m, heroic);
    } else if (kind == K_B) {
        action_b(g, m, heroic);
    } else if (kind == K_C && g->rules->c_actions) {
        action_c(g, m, turn);
    } else if (kind == K_BOTS && g->rules->internal) {
        action_bots(g, m, heroic);
    }
}

static void act(Game *g, Crew *m, int turn) {
    if (m->out) return;
    int code = m->slots[turn - 1];
    int kind = code & KIND_MASK, second = (code >> SECOND_SHIFT) & KIND_MASK;
    if (m->station == SPACE) {
        if (kind == K_BOTS || second == K_BOTS) {
            g->pilot_heroic = (code & HEROIC_BIT) != 0;
            return;
        }
        enter(g, m, UR);
        if (kind != K_BLANK) delay(g, m, turn);
        return;
    }
    if (!second) {
        half(g, m, turn, code);
    } else {
        g->halfway = m;
        half(g, m, turn, code & FIRST_MASK & ~TRIP_BIT);
        if (g->halfway == m) {
            g->halfway = NULL;
            if (!m->out && m->station != SPACE) half(g, m, turn, second);
        }
    }
    if (code & TRIP_BIT) delay(g, m, turn + 1);
}

/* --- damage to the ship (damage.py) ------------------------------------------------------- */

static int multiplier(const Game *g, int zone) {
    int mult = 1; /* a single mission: no structural damage carried over (hull 1) */
    if (!g->fissure) return 1;
    for (int t = 0; t < g->nthr; t++) {
        const Threat *th = &g->thr[t];
        if (th->status == ACTIVE_THREAT && th->level && (th->level == 2 || zone == RED))
            mult *= 2;
    }
    return mult;
}

static void damage_ship(Game *g, int zone, int points) {
    if (points <= 0) return;
    for (int point = 0; point < points; point++) {
        int n = g->ntok[zone];
        if (n == 6) ship_destroyed(g, 1 + zone);
        int *forced = g->forced[zone];
        while (g->fpos[zone] < g->nforced[zone] && has_token(g, zone, forced[g->fpos[zone]]))
            g->fpos[zone]++;
        int token;
        if (g->fpos[zone] < g->nforced[zone]) {
            token = forced[g->fpos[zone]++];
        } else {
            /* the r-th of the tokens not drawn yet, in kind order (6 - n of them: the drawn
               ones are distinct) */
            token = nth_bit[~g->tokmask[zone] & 63][randbelow(&g->rng, 6 - n)];
        }
        g->tok[zone][g->ntok[zone]++] = token;
        g->tokmask[zone] |= 1 << token;
        if (token == T_SHIELD) {
            int cap = shield_cap(g, zone);
            if (g->shields[zone] > cap) g->shields[zone] = cap;
        } else if (token == T_REACTOR) {
            int cap = reactor_cap(g, zone);
            if (g->reactors[zone] > cap) g->reactors[zone] = cap;
        }
    }
}

static int scout_bonus(const Game *g, const Threat *th) {
    if (!(g->all_flags & F_SCOUT)) return 0; /* no Scout in this game */
    if (g->scout && !(flags(th) & F_SCOUT)) return 1;
    for (int t = 0; t < g->nthr; t++) {
        const Threat *other = &g->thr[t];
        if (other != th && other->status == ACTIVE_THREAT && other->active
            && (flags(other) & F_SCOUT))
            return 1;
    }
    return 0;
}

/* A figure in space, conscious or not: the interceptors are out (damage.pilot_out). */
static int pilot_out(const Game *g) {
    for (int c = 0; c < g->ncrew; c++)
        if (g->crew[c].station == SPACE) return 1;
    return 0;
}

/* returns what the shield absorbed (the Energy Snake repairs that much) */
/* 0 shields work, 1 ineffective, 2 reversed: a Reversed Shields card not destroyed keeps the
   mode in its X/Y counter (abilities.shield_mode) */
static int shield_mode(const Game *g) {
    for (int t = 0; t < g->nthr; t++) {
        const Threat *th = &g->thr[t];
        if ((flags(th) & F_REVERSES_SHIELDS) && th->passes && th->status != DESTROYED)
            return th->passes;
    }
    return 0;
}

static int attack_plasma(Game *g, Threat *th, int zone, int strength, int shields,
                         int plasmatic) {
    int knock = 0, absorbed = 0;
    if (th->card[C_EXTERNAL]) {
        if (strength > 0) strength += scout_bonus(g, th); /* an attack of 0 is none (§12.2) */
        if ((flags(th) & F_CARRIER) && pilot_out(g)) strength = strength > 2 ? strength - 2 : 0;
        int mode = shields && (g->all_flags & F_REVERSES_SHIELDS) ? shield_mode(g) : 0;
        if (mode == 2) { /* reversed: the shield's energy joins the attack */
            strength += g->shields[zone];
            g->shields[zone] = 0;
        } else if (shields && mode == 0) {
            absorbed = g->shields[zone] < strength ? g->shields[zone] : strength;
            g->shields[zone] -= absorbed;
            strength -= absorbed;
        }
        knock = plasmatic && strength > 0 && !absorbed;
        if ((flags(th) & F_DOUBLE_DAMAGE) && strength) strength *= 2;
    }
    if (knock) /* before the damage tokens; a pilot in space is not in the zone */
        for (int c = 0; c < g->ncrew; c++)
            if (g->crew[c].station != SPACE && zone_of(g->crew[c].station) == zone)
                knock_out(&g->crew[c]);
    damage_ship(g, zone, strength * multiplier(g, zone));
    return absorbed;
}

static void attack(Game *g, Threat *th, int zone, int strength, int shields) {
    attack_plasma(g, th, zone, strength, shields, 0);
}

/* --- threats (game.py and threats/abilities.py) ------------------------------------------ */

static void destroy(Game *g, Threat *th, Crew *by) {
    th->status = DESTROYED;
    th->ended = g->gturn;
    g->active &= ~(1U << (th - g->thr));
    uint64_t f = flags(th);
    if (th->card[C_DEBRIS]) {
        int strength = th->card[C_DEBRIS] * th->passes;
        if (strength) attack(g, th, th->zone, strength, 1);
    }
    if (f & F_KO_LOWER_SIDES) {
        for (int c = 0; c < g->ncrew; c++) {
            Crew *m = &g->crew[c];
            if (on_ship(m) && (m->station == LR || m->station == LB)) knock_out(m);
        }
    }
    if ((f & F_KO_DESTROYER) && by) knock_out(by);
    if ((f & F_RIDES_CREW) && th->passes) knock_out(&g->crew[th->passes - 1]); /* its host */
    if ((f & (F_BONUS_INTERNAL | F_BONUS_EXTERNAL)) && g->bonus_of[th - g->thr]) {
        /* abilities._bonus_goes_too: a bonus still to come is destroyed with its carrier */
        Threat *bonus = &g->thr[g->bonus_of[th - g->thr] - 1];
        if (bonus->status == PENDING) {
            bonus->status = DESTROYED;
            bonus->ended = g->gturn;
        }
    }
}

static void survive(Game *g, Threat *th) {
    th->status = SURVIVED;
    th->ended = g->gturn;
    g->active &= ~(1U << (th - g->thr));
    if (th->card[C_MALFUNCTION])
        for (int i = 0; i < th->nst; i++) g->broken[th->st[i]] |= 1 << th->card[C_SYSTEM];
    if ((flags(th) & F_SCOUT) && th->active) g->scout = 1;
}

static int own_zone(const Threat *th) {
    if (th->card[C_EXTERNAL]) return th->zone;
    return th->nst ? zone_of(th->st[0]) : WHITE;
}

static void hit_zone(Game *g, Threat *th, int zone, int strength) {
    if (th->card[C_EXTERNAL])
        attack(g, th, zone, strength, 1);
    else if (strength > 0)
        damage_ship(g, zone, strength * multiplier(g, zone));
}

static void warheads_lose_rocket(Game *g) {
    for (int t = 0; t < g->nthr; t++) {
        Threat *th = &g->thr[t];
        if (th->status == ACTIVE_THREAT && (flags(th) & F_HEALTH_ROCKETS)) {
            th->damage++;
            if (th->damage >= th->health) destroy(g, th, 0);
        }
    }
}

static int advance(Game *g, Threat *th);

static void delay_next(Game *g, Crew *m) { delay(g, m, g->gturn + 1); }

/* game._place: a threat goes on the first square of its track (appearing, or a bonus
   threat its carrier brings) */
static void place(Game *g, int t) {
    Threat *th = &g->thr[t];
    th->status = ACTIVE_THREAT;
    g->active |= 1U << t;
    th->square = g->length[th->zone];
    if (flags(th) & F_SLIME) {
        th->nspots = 1;
        th->spots[0] = th->card[C_HEALTH];
    }
    if (flags(th) & F_HEALTH_ROCKETS) {
        th->health = g->rockets;
        if (th->health == 0) destroy(g, th, 0);
    }
}

/* game.release: a carrier's bonus threat comes into play, faster than printed by `faster`,
   in its card's stations as of this turn, moving from the next threat step */
static void release(Game *g, Threat *carrier, int faster) {
    int b = g->bonus_of[carrier - g->thr];
    if (!b) return;
    Threat *th = &g->thr[b - 1];
    if (th->status != PENDING) return;
    th->speed += faster;
    if (flags(th) & F_STATION_BY_TURN) th->st[0] = th->card[C_STATIONS + (g->gturn + 1) % 2];
    g->released |= 1U << (b - 1);
    place(g, b - 1);
}

/* A conscious crew member on the ship shares the intruder's station (abilities._present). */
static int present(const Game *g, const Threat *th) {
    for (int c = 0; c < g->ncrew; c++)
        if (on_ship(&g->crew[c]) && g->crew[c].station == th->st[0]) return 1;
    return 0;
}

static void run_op(Game *g, Threat *th, const int32_t *op) {
    int a = op[1], b = op[2];
    switch (op[0]) {
    case OP_ATTACK:
        hit_zone(g, th, own_zone(th), a);
        break;
    case OP_ATTACK_ALL:
        for (int z = 0; z < 3; z++) hit_zone(g, th, z, a);
        break;
    case OP_ATTACK_OTHERS:
        for (int z = 0; z < 3; z++)
            if (z != th->zone) hit_zone(g, th, z, a);
        break;
    case OP_ATTACK_ZONE:
        hit_zone(g, th, a, b);
        break;
    case OP_ATTACK_UNSHIELDED:
        attack(g, th, th->zone, a, 0);
        break;
    case OP_ATTACK_HEALTH: {
        int left = th->health - th->damage;
        hit_zone(g, th, own_zone(th), a * (left > 0 ? left : 0));
        break;
    }
    case OP_ATTACK_UNLESS_DAMAGED:
        if (th->damage < b) hit_zone(g, th, own_zone(th), a);
        break;
    case OP_ATTACK_ALL_IF_DAMAGED:
        if (th->damage)
            for (int z = 0; z < 3; z++) hit_zone(g, th, z, a);
        break;
    case OP_ATTACK_ROCKETS:
        hit_zone(g, th, own_zone(th), a * g->rockets);
        break;
    case OP_ATTACK_CENTRAL_ENERGY:
        hit_zone(g, th, WHITE, g->reactors[WHITE]);
        break;
    case OP_ATTACK_PLAYERS_HERE: {
        int here = th->st[0], n = 0;
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && g->crew[c].station == here) n++;
        hit_zone(g, th, zone_of(here), n);
        break;
    }
    case OP_DESTROY_SHIP:
        ship_destroyed(g, 10 + (int)(th - g->thr));
        break;
    case OP_DRAIN_SHIELDS:
        g->shields[0] = g->shields[1] = g->shields[2] = 0;
        break;
    case OP_DRAIN_EACH_SHIELD:
        for (int z = 0; z < 3; z++) g->shields[z] = g->shields[z] > a ? g->shields[z] - a : 0;
        break;
    case OP_DRAIN_ZONE_SHIELD:
        g->shields[own_zone(th)] = 0;
        break;
    case OP_DRAIN_ZONE_REACTOR:
        g->reactors[own_zone(th)] = 0;
        break;
    case OP_DRAIN_REACTORS:
        for (int z = 0; z < 3; z++)
            g->reactors[z] = g->reactors[z] > a ? g->reactors[z] - a : 0;
        break;
    case OP_DRAIN_CENTRAL:
        g->reactors[WHITE] = g->reactors[WHITE] > a ? g->reactors[WHITE] - a : 0;
        break;
    case OP_SABOTEUR_DRAIN: {
        int zone = own_zone(th);
        if (g->reactors[zone])
            g->reactors[zone]--;
        else
            hit_zone(g, th, zone, 1);
        break;
    }
    case OP_DESTROY_CAPSULE:
        if (g->fuel) g->fuel--;
        break;
    case OP_INFECT: /* the conscious figures in its station (abilities.infect) */
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && g->crew[c].station == th->st[0]) th->passes |= 1 << c;
        break;
    case OP_INFECTION:
        infection(g, th);
        break;
    case OP_DRAIN_ZONE_REACTOR_SPEED: {
        int zone = own_zone(th);
        th->speed += g->reactors[zone];
        g->reactors[zone] = 0;
        break;
    }
    case OP_DRONES: { /* the stations next to its own: both ways along the deck, other deck */
        int here = th->st[0];
        int next[3] = {neighbour(here, -1), neighbour(here, 1), other_deck(here)};
        for (int k = 0; k < 3; k++)
            if (next[k] != here) th->passes |= 1 << next[k];
        break;
    }
    case OP_POISON_STRIKES:
        poison_strikes(g, th);
        break;
    case OP_ROCKETS_EXPLODE:
        while (g->rockets) {
            g->rockets--;
            warheads_lose_rocket(g);
            hit_zone(g, th, RED, a);
        }
        break;
    case OP_SABOTAGE:
        if (th->nst && th->st[0] <= UB) th->passes |= 7 << (3 * th->st[0]);
        break;
    case OP_DRAIN_HOST_STATION: { /* the shield upstairs, the reactor downstairs */
        const Crew *host = th->passes ? &g->crew[th->passes - 1] : NULL;
        if (host && host->station != SPACE) {
            int zone = zone_of(host->station);
            int *store = host->station <= UB ? &g->shields[zone] : &g->reactors[zone];
            if (*store) (*store)--;
        }
        break;
    }
    case OP_KO_HOST_STATION_OTHERS: {
        Crew *host = th->passes ? &g->crew[th->passes - 1] : NULL;
        if (host && host->station != SPACE)
            for (int c = 0; c < g->ncrew; c++)
                if (&g->crew[c] != host && on_ship(&g->crew[c])
                    && g->crew[c].station == host->station)
                    knock_out(&g->crew[c]);
        break;
    }
    case OP_ATTACK_HOST_ZONE: {
        const Crew *host = th->passes ? &g->crew[th->passes - 1] : NULL;
        hit_zone(g, th, host && host->station != SPACE ? zone_of(host->station) : WHITE, a);
        break;
    }
    case OP_SEAL_DOORS:
        th->passes |= a;
        break;
    case OP_DISRUPT_OPTICS:
        if (th->passes < 3) th->passes++;
        break;
    case OP_SHIELDS_INEFFECTIVE:
        th->passes = 1;
        break;
    case OP_SHIELDS_REVERSED:
        th->passes = 2;
        break;
    case OP_DRAIN_CENTRAL_ATTACK_ALL: /* attacks only when there was energy to drain */
        if (g->reactors[WHITE]) {
            g->reactors[WHITE]--;
            for (int z = 0; z < 3; z++) hit_zone(g, th, z, a);
        }
        break;
    case OP_DESTROY_CAPSULE_ATTACK_ALL:
        if (g->fuel) {
            g->fuel--;
            for (int z = 0; z < 3; z++) hit_zone(g, th, z, a);
        }
        break;
    case OP_PUSH_CENTRAL_TO_SHIELD: {
        int room = shield_cap(g, WHITE) - g->shields[WHITE];
        if (room < 0) room = 0;
        int moved = room < g->reactors[WHITE] ? room : g->reactors[WHITE];
        int leak = g->reactors[WHITE] - moved;
        g->shields[WHITE] += moved;
        g->reactors[WHITE] = 0;
        hit_zone(g, th, WHITE, leak);
        break;
    }
    case OP_LEAK_WHITE_SHIELD: {
        int leak = g->shields[WHITE];
        g->shields[WHITE] = 0;
        hit_zone(g, th, WHITE, leak);
        break;
    }
    case OP_LEAK_REACTORS:
        for (int z = 0; z < 3; z++) {
            int leak = g->reactors[z];
            g->reactors[z] = 0;
            hit_zone(g, th, z, leak);
        }
        break;
    case OP_REPAIR:
        th->damage = th->damage > a ? th->damage - a : 0;
        break;
    case OP_REPAIR_HALF:
        th->damage -= th->damage / 2;
        break;
    case OP_SPEED:
        th->speed += a;
        break;
    case OP_SHIELD_SET:
        th->shield = a;
        break;
    case OP_SHIELD_ADD:
        th->shield += a;
        break;
    case OP_ACTIVATE:
        th->active = 1;
        break;
    case OP_COUNT_PASS:
        th->passes++;
        break;
    case OP_SELF_DAMAGE:
        th->damage += a;
        if (th->damage >= th->health) destroy(g, th, 0);
        break;
    case OP_RELEASE_BONUS:
        release(g, th, th->damage < 2 ? a : 0);
        break;
    case OP_ADVANCE_INTERNAL:
        for (int t = 0; t < g->nthr; t++) {
            Threat *other = &g->thr[t];
            if (other != th && other->status == ACTIVE_THREAT && !other->card[C_EXTERNAL])
                advance(g, other);
        }
        break;
    case OP_ADVANCE_ZONE: {
        int zone = own_zone(th);
        for (int t = 0; t < g->nthr; t++) {
            Threat *other = &g->thr[t];
            if (other == th || other->status != ACTIVE_THREAT || !other->card[C_EXTERNAL] ||
                other->zone != zone)
                continue;
            for (int k = 0; k < a; k++)
                if (!advance(g, other)) break;
        }
        break;
    }
    case OP_REPAIR_EXTERNALS:
        for (int t = 0; t < g->nthr; t++) {
            Threat *other = &g->thr[t];
            if (other->status == ACTIVE_THREAT && other->card[C_EXTERNAL])
                other->damage = other->damage > a ? other->damage - a : 0;
        }
        break;
    case OP_KO_CAPTAIN:
        if (on_ship(&g->crew[0])) knock_out(&g->crew[0]);
        break;
    case OP_SCOUT_ADVANCE:
        for (int t = 0; t < g->nthr; t++) {
            Threat *other = &g->thr[t];
            if (other != th && other->status == ACTIVE_THREAT && other->card[C_EXTERNAL])
                advance(g, other);
        }
        break;
    case OP_FISSURE:
        g->fissure = 1;
        th->level = a == 2 ? 2 : (th->level > 1 ? th->level : 1);
        break;
    case OP_MOVE:
        for (int i = 0; i < th->nst; i++) th->st[i] = walk(g, th->st[i], a);
        break;
    case OP_CHANGE_DECK:
        for (int i = 0; i < th->nst; i++) th->st[i] = other_deck(th->st[i]);
        break;
    case OP_MOVE_IF_DAMAGED_ELSE_ATTACK:
        if (th->damage) {
            for (int i = 0; i < th->nst; i++) th->st[i] = walk(g, th->st[i], a);
        } else {
            hit_zone(g, th, own_zone(th), b);
        }
        break;
    case OP_SEEK: {
        int here = th->st[0];
        int options[3] = {walk(g, here, -1), walk(g, here, 1), other_deck(here)};
        int counts[6] = {0}, used = 0;
        for (int k = 0; k < 3; k++)
            if (options[k] != here) used |= 1 << options[k];
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c])) counts[g->crew[c].station]++;
        int best = -1, winners = 0, winner = -1;
        for (int s = 0; s < 6; s++)
            if ((used >> s & 1) && counts[s] > best) best = counts[s];
        for (int s = 0; s < 6; s++)
            if ((used >> s & 1) && counts[s] == best) {
                winners++;
                winner = s;
            }
        if (winners == 1) {
            th->nst = 1;
            th->st[0] = winner;
        }
        break;
    }
    case OP_SLIME_SPREAD: {
        int n = th->nst;
        int before[MAX_SPOTS];
        memcpy(before, th->st, sizeof before);
        for (int i = 0; i < n; i++) {
            int to = walk(g, before[i], a);
            if (to != before[i] && !in_stations(th, to) && th->nst < MAX_SPOTS) {
                th->st[th->nst++] = to;
                th->spots[th->nspots++] = 1;
            }
        }
        break;
    }
    case OP_SLIME_ATTACK: {
        int zones = 0;
        for (int i = 0; i < th->nst; i++) zones |= 1 << zone_of(th->st[i]);
        for (int z = 0; z < 3; z++)
            if (zones >> z & 1) hit_zone(g, th, z, a);
        break;
    }
    case OP_KO_STATION:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && in_stations(th, g->crew[c].station))
                knock_out(&g->crew[c]);
        break;
    case OP_KO_STATIONS:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && (a >> g->crew[c].station & 1)) knock_out(&g->crew[c]);
        break;
    case OP_KO_LEADERS:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && g->crew[c].squad != NO_SQUAD) knock_out(&g->crew[c]);
        break;
    case OP_KO_SHIP:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c])) knock_out(&g->crew[c]);
        break;
    case OP_KO_ALONE:
    case OP_KO_CROWDED: { /* counts of conscious figures on the ship, taken first */
        int count[6] = {0};
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c])) count[g->crew[c].station]++;
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c])
                && (op[0] == OP_KO_ALONE ? count[g->crew[c].station] == 1
                                         : count[g->crew[c].station] >= 2))
                knock_out(&g->crew[c]);
        break;
    }
    case OP_DROP_ARMOUR:
        th->active = 1;
        break;
    case OP_DRILL: { /* one station toward the zone with the most tokens; a tie: white */
        int most = 0, leaders = 0, target = WHITE;
        for (int z = 0; z < 3; z++) most = g->ntok[z] > most ? g->ntok[z] : most;
        for (int z = 0; z < 3; z++)
            if (g->ntok[z] == most) {
                leaders++;
                target = z;
            }
        if (leaders > 1) target = WHITE;
        int here = zone_of(th->st[0]);
        if (target != here)
            for (int i = 0; i < th->nst; i++) th->st[i] = walk(g, th->st[i], target < here ? -1 : 1);
        break;
    }
    case OP_KO_ALL: /* everyone, the pilot in space too */
        for (int c = 0; c < g->ncrew; c++) knock_out(&g->crew[c]);
        break;
    case OP_KO_SHIP_EXCEPT:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && g->crew[c].station != a) knock_out(&g->crew[c]);
        break;
    case OP_KO_WITHOUT_SQUAD:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && in_stations(th, g->crew[c].station)
                && g->crew[c].squad == NO_SQUAD)
                knock_out(&g->crew[c]);
        break;
    case OP_DELAY_ZONE:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && zone_of(g->crew[c].station) == th->zone)
                delay_next(g, &g->crew[c]);
        break;
    case OP_DELAY_SHIP:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c])) delay_next(g, &g->crew[c]);
        break;
    case OP_DESTROY_ROCKET:
        if (g->rockets) {
            g->rockets--;
            warheads_lose_rocket(g);
        }
        break;
    case OP_DISABLE_STORED_SQUAD: {
        int index = a == UB ? 0 : 1;
        if (g->stored[index] != NO_SQUAD && g->stored[index] != SQ_DISABLED)
            g->stored[index] = SQ_DISABLED;
        break;
    }
    case OP_CONTAMINATION_DELAY:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && in_stations(th, g->crew[c].station))
                delay_next(g, &g->crew[c]);
        break;
    case OP_CONTAMINATION_ATTACK: {
        int sorted[MAX_SPOTS], n = th->nst;
        memcpy(sorted, th->st, sizeof sorted);
        for (int i = 1; i < n; i++)
            for (int k = i; k > 0 && sorted[k - 1] > sorted[k]; k--) {
                int x = sorted[k];
                sorted[k] = sorted[k - 1];
                sorted[k - 1] = x;
            }
        for (int i = 0; i < n; i++) hit_zone(g, th, zone_of(sorted[i]), a);
        break;
    }
    case OP_CONTAMINATION_KO:
        for (int c = 0; c < g->ncrew; c++)
            if (on_ship(&g->crew[c]) && in_stations(th, g->crew[c].station))
                knock_out(&g->crew[c]);
        for (int i = 0; i < th->nst; i++) g->contaminated |= 1 << th->st[i];
        break;
    case OP_ATTACK_PLASMATIC:
        attack_plasma(g, th, th->zone, a, 1, 1);
        break;
    case OP_ATTACK_REPAIR_ABSORBED: { /* attack, then repair what the shield absorbed */
        int absorbed = attack_plasma(g, th, own_zone(th), a, 1, 0);
        th->damage = th->damage > absorbed ? th->damage - absorbed : 0;
        break;
    }
    case OP_ATTACK_PLUS_REACTOR:
        hit_zone(g, th, own_zone(th), a + g->reactors[own_zone(th)]);
        break;
    case OP_DRAIN_OWN_REACTOR: {
        int zone = own_zone(th);
        g->reactors[zone] = g->reactors[zone] > a ? g->reactors[zone] - a : 0;
        break;
    }
    case OP_ATTACK_OTHER_SIDE: /* red <-> blue */
        hit_zone(g, th, 2 - own_zone(th), a);
        break;
    case OP_JUMP: { /* a: -1 toward red, +1 toward blue; red and blue wrap round */
        int zone = (th->zone + a + 3) % 3;
        if (g->length[zone] >= th->square) th->zone = zone;
        break;
    }
    case OP_ATTACK_EACH_PLUS_REACTOR:
        for (int z = 0; z < 3; z++) hit_zone(g, th, z, a + g->reactors[z]);
        break;
    case OP_ATTACK_UNLESS_OFF_COURSE:
        if (!th->active) hit_zone(g, th, own_zone(th), a);
        break;
    /* phasing: the phase changes after the move, so `active` tells how the move began */
    case OP_ATTACK_PHASING:
        hit_zone(g, th, own_zone(th), th->active ? b : a);
        break;
    case OP_ATTACK_ALL_PHASING:
        for (int z = 0; z < 3; z++) hit_zone(g, th, z, th->active ? b : a);
        break;
    case OP_CHANGE_DECK_UNLESS_PHASED:
        if (!th->active)
            for (int i = 0; i < th->nst; i++) th->st[i] = other_deck(th->st[i]);
        break;
    /* the Mine Layer's mines: one decimal digit each in `passes`, station + 1, laying order */
    case OP_LAY_MINE:
        if (th->passes < 1000) th->passes = th->passes * 10 + th->st[0] + 1;
        break;
    case OP_MOVE_PHASING:
        for (int i = 0; i < th->nst; i++) th->st[i] = walk(g, th->st[i], th->active ? b : a);
        break;
    case OP_MINES_EXPLODE: {
        int mines = th->passes, order[8], n = 0;
        th->passes = 0;
        for (; mines; mines /= 10) order[n++] = mines % 10 - 1;
        while (n--) hit_zone(g, th, zone_of(order[n]), a);
        break;
    }
    case OP_MOVE_IF_PRESENT:
        if (present(g, th))
            for (int i = 0; i < th->nst; i++) th->st[i] = walk(g, th->st[i], a);
        break;
    case OP_ATTACK_IF_PRESENT_ELSE_REPAIR:
        if (present(g, th))
            hit_zone(g, th, own_zone(th), a);
        else
            th->damage = th->damage > b ? th->damage - b : 0;
        break;
    default:
        break;
    }
}

static int advance(Game *g, Threat *th) {
    th->square--;
    int letter = g->letters[th->zone][th->square];
    if (letter) {
        const int32_t *ops = th->card + C_LETTERS + (letter - 1) * LETTER_INTS;
        for (int k = 0; k < ops[0]; k++) {
            run_op(g, th, ops + 1 + 3 * k);
            if (th->status != ACTIVE_THREAT) return 0;
        }
        if (letter == 3) {
            survive(g, th);
            return 0;
        }
    }
    return 1;
}

/* Each active threat, in order, moves speed squares, one at a time: a plain square is just
   left behind, so the move jumps to the next square with a letter, runs it (advance) and goes
   on with the steps left (the threat's square read again: an operation may move it). The
   threats are taken from the live mask: one destroyed on the way is skipped, as in game.py. */
/* abilities.infection: each infected figure (bits of the X/Y counter), conscious and on the
   ship, damages his own zone for 2, in plan order; then it is over */
static void infection(Game *g, Threat *th) {
    for (int c = 0; c < g->ncrew; c++) {
        Crew *m = &g->crew[c];
        if ((th->passes >> c & 1) && !m->out && m->station != SPACE)
            damage_ship(g, zone_of(m->station), 2 * multiplier(g, zone_of(m->station)));
    }
    th->passes = 0;
}

/* abilities.poison_strikes: every poisoned figure is knocked out; then it is over */
static void poison_strikes(Game *g, Threat *th) {
    for (int c = 0; c < g->ncrew; c++)
        if (th->passes >> (POISONED + c) & 1) knock_out(&g->crew[c]);
    th->passes &= (1 << POISONED) - 1;
}

static void threat_step(Game *g) {
    /* destroyed cards whose marker goes on (abilities.has_marker): a Rabid Beast's
       infection, a Ninja's poison once someone is poisoned */
    unsigned markers = 0;
    if (g->all_flags & (F_INFECTS | F_POISONS))
        for (int t = 0; t < g->nthr; t++) {
            const Threat *th = &g->thr[t];
            if (th->status != DESTROYED || !th->passes) continue;
            if ((flags(th) & F_INFECTS) || ((flags(th) & F_POISONS) && th->passes >> POISONED))
                markers |= 1U << t;
        }
    g->released = 0;
    for (unsigned left = g->active | markers; left;) {
        int t = __builtin_ctz(left);
        Threat *th = &g->thr[t];
        if (g->released >> t & 1) { /* a bonus threat moves from the next turn (game.py) */
            left = (g->active | markers) & ~((2U << t) - 1U);
            continue;
        }
        if (markers >> t & 1) { /* abilities.infection_moves */
            th->square = th->square - th->speed > 1 ? th->square - th->speed : 1;
            if (th->square == 1) {
                if (flags(th) & F_INFECTS)
                    infection(g, th);
                else
                    poison_strikes(g, th);
            }
            left = (g->active | markers) & ~((2U << t) - 1U);
            continue;
        }
        const int8_t *below = g->below[th->zone];
        int steps = th->speed;
        if (th->slowed) steps = steps > 2 ? steps - 2 : 0; /* hit this turn (game.py) */
        while (steps > 0) {
            int to = below[th->square - 1], distance = th->square - to;
            if (distance > steps) {
                th->square -= steps;
                break;
            }
            steps -= distance;
            th->square = to + 1;
            if (!advance(g, th)) break;
            below = g->below[th->zone]; /* a Jumper may be on another track now */
        }
        /* the phase changes after each of its own moves (game.py) */
        if ((flags(th) & F_PHASING) && th->status == ACTIVE_THREAT) th->active = !th->active;
        /* +1 at the end of every turn on its track, after its move (Planetoid, game.py) */
        if ((flags(th) & F_SPEEDS_UP) && th->status == ACTIVE_THREAT) th->speed++;
        left = (g->active | markers) & ~((2U << t) - 1U);
    }
}

static void appear(Game *g, int turn) {
    for (unsigned left = g->appear_at[turn]; left; left &= left - 1) {
        int t = __builtin_ctz(left);
        if (g->thr[t].status == PENDING) place(g, t);
    }
}

/* --- the damage step (weapons.py) --------------------------------------------------------- */

static int eligible(const Threat *th, int weapon) {
    uint64_t f = flags(th);
    if ((f & F_HIDDEN) && !th->active) return 0;
    if ((f & F_FAR) && !(distance_band[th->square] < 3)) return 0;
    if ((f & F_NO_HEAVY) && weapon == W_HEAVY) return 0;
    if ((f & F_ROCKET_IMMUNE) && weapon == W_ROCKET) return 0;
    if ((f & F_PHASING) && th->active) return 0; /* phased out: no weapon reaches it */
    return 1;
}

/* abilities.lasers_blind: the zone's optics disrupted by a Phasing Anomaly not destroyed
   (its X/Y counter: white, red, blue) and no targeting assistance this turn */
static int lasers_blind(const Game *g, int zone) {
    static const int order[3] = {WHITE, RED, BLUE};
    if (g->vc_now) return 0;
    for (int c = 0; c < g->ncrew; c++)
        if (g->crew[c].station == SPACE) return 0;
    for (int t = 0; t < g->nthr; t++) {
        const Threat *th = &g->thr[t];
        if (!(flags(th) & F_DISRUPTS_OPTICS) || th->status == DESTROYED) continue;
        for (int k = 0; k < th->passes && k < 3; k++)
            if (order[k] == zone) return 1;
    }
    return 0;
}

static void damage_step(Game *g, int rockets_only) {
    if (!g->flying) {
        int any = 0;
        for (int s = 0; s < 6; s++) any |= g->armed[s];
        if (!any) {
            int pilot = 0;
            for (int c = 0; c < g->ncrew; c++)
                if (g->crew[c].station == SPACE) pilot = 1;
            if (!pilot) return;
        }
    }
    int board[MAX_THREATS], nboard = 0;
    for (unsigned left = g->active & g->external; left; left &= left - 1)
        board[nboard++] = __builtin_ctz(left);
    int hits[MAX_THREATS] = {0}, was_hit[MAX_THREATS] = {0}, pulsed[MAX_THREATS] = {0};
    int lost[MAX_THREATS] = {0}, taken[MAX_THREATS] = {0}, rocketed = -1, any_hit = 0;
    int lasers[MAX_THREATS] = {0}; /* the heavy and light lasers' part of hits (polarized) */
#define HIT(t, strength) (hits[t] += (strength), was_hit[t] = 1, any_hit = 1)
    if (!rockets_only) {
        for (int station = 0; station < 6; station++) {
            int level = g->armed[station];
            if (!level) continue;
            int zone = zone_of(station), bonus = level - 1;
            if (station == LW) {
                int reach = g->effects && has_token(g, WHITE, T_LOWER) ? 1 : 2;
                for (int b = 0; b < nboard; b++) {
                    Threat *th = &g->thr[board[b]];
                    if (distance_band[th->square] <= reach && eligible(th, W_PULSE)) {
                        HIT(board[b], 1 + bonus);
                        pulsed[board[b]] = 1;
                    }
                }
                continue;
            }
            if ((g->all_flags & F_DISRUPTS_OPTICS) && lasers_blind(g, zone)) continue;
            int strength, weapon;
            if (station <= UB) {
                strength = HEAVY_STRENGTH[zone] - (g->effects && has_token(g, zone, T_UPPER));
                weapon = W_HEAVY;
            } else {
                strength = 2 - (g->effects && has_token(g, zone, T_LOWER));
                weapon = W_LIGHT;
            }
            int target = -1;
            for (int b = 0; b < nboard; b++) {
                Threat *th = &g->thr[board[b]];
                /* a laser targets its zone's threats, and the Super-Carrier from any zone */
                if ((th->zone == zone || (flags(th) & F_LASERS_ANY_ZONE)) && eligible(th, weapon)
                    && (target < 0 || th->square < g->thr[target].square))
                    target = board[b];
            }
            if (target >= 0) {
                HIT(target, strength + bonus);
                lasers[target] += strength + bonus;
            }
        }
    }
    if (g->flying) {
        g->flying = 0;
        int magnet = -1, nearest = -1;
        for (int b = 0; b < nboard; b++) {
            Threat *th = &g->thr[board[b]];
            if (distance_band[th->square] <= 2 && eligible(th, W_ROCKET)) {
                if (magnet < 0 && (flags(th) & F_MAGNET)) magnet = board[b];
                if (nearest < 0 || th->square < g->thr[nearest].square) nearest = board[b];
            }
        }
        int target = magnet >= 0 ? magnet : nearest;
        if (target >= 0) {
            HIT(target, (flags(&g->thr[target]) & F_ROCKET_WASTED) ? 0 : 3);
            rocketed = target;
        }
    }
    if (!rockets_only) {
        Crew *pilot = 0;
        for (int c = 0; c < g->ncrew; c++)
            if (g->crew[c].station == SPACE && !g->crew[c].out) {
                pilot = &g->crew[c];
                break;
            }
        if (pilot) {
            int bonus = g->pilot_heroic ? 1 : 0, done = 0;
            for (int t = 0; t < g->nthr && (g->all_flags & F_PILOT_TARGET); t++) {
                Threat *th = &g->thr[t];
                if (th->status == ACTIVE_THREAT && (flags(th) & F_PILOT_TARGET)) {
                    th->damage += 1 + bonus;
                    if (th->damage >= th->health) destroy(g, th, 0);
                    done = 1;
                    break;
                }
            }
            if (!done) {
                int targets[MAX_THREATS], ntargets = 0;
                for (int b = 0; b < nboard; b++) {
                    Threat *th = &g->thr[board[b]];
                    if (distance_band[th->square] == 1 && eligible(th, W_INTERCEPTORS))
                        targets[ntargets++] = board[b];
                }
                if (ntargets == 1) {
                    int strength = 3 + bonus;
                    if (flags(&g->thr[targets[0]]) & F_BEHEMOTH) {
                        strength += 6;
                        knock_out(pilot);
                    }
                    HIT(targets[0], strength);
                } else {
                    for (int k = 0; k < ntargets; k++) HIT(targets[k], 1 + bonus);
                }
            }
        }
    }
#undef HIT
    int marauders = 0;
    if (any_hit && (g->all_flags & F_MARAUDER))
        for (int t = 0; t < g->nthr; t++) {
            const Threat *th = &g->thr[t];
            if (th->status == ACTIVE_THREAT && th->active && (flags(th) & F_MARAUDER)) marauders++;
        }
    for (int b = 0; b < nboard; b++) {
        int t = board[b];
        if (!was_hit[t]) continue;
        Threat *th = &g->thr[t];
        if (th->cryo) {
            th->cryo = 0;
            continue;
        }
        int shield = pulsed[t] && (flags(th) & F_PULSE_ZEROES) ? 0 : th->shield;
        shield += marauders;
        int total = hits[t];
        if (lasers[t] && (flags(th) & F_POLARIZED)) /* lasers halved, rounded up, then shield */
            total += (lasers[t] + 1) / 2 - lasers[t];
        int damage = total - shield;
        if (damage < 0) damage = 0;
        int cap = th->card[C_MAX_DAMAGE];
        if (cap && damage > cap) damage = cap;
        if (damage) {
            th->damage += damage;
            lost[t] = 1;
            taken[t] = damage;
        }
    }
    for (int b = 0; b < nboard; b++) {
        Threat *th = &g->thr[board[b]];
        if (th->damage >= th->health && (flags(th) & F_SPLASH)) {
            for (int o = 0; o < nboard; o++) {
                Threat *other = &g->thr[board[o]];
                if (other == th || other->damage >= other->health) continue;
                if ((flags(other) & F_PHASING) && other->active) continue; /* phased out */
                /* the cap counts the splash too (weapons.py) */
                if (other->card[C_MAX_DAMAGE] && taken[board[o]] >= other->card[C_MAX_DAMAGE])
                    continue;
                other->damage++;
                taken[board[o]]++;
                lost[board[o]] = 1;
            }
        }
    }
    for (int b = 0; b < nboard; b++) {
        Threat *th = &g->thr[board[b]];
        if (th->status == ACTIVE_THREAT && th->damage >= th->health) destroy(g, th, 0);
        if (lost[board[b]] && (flags(th) & F_RETALIATES))
            for (int z = 0; z < 3; z++) attack(g, th, z, 1, 1);
        if (lost[board[b]] && (flags(th) & F_SLOWED_WHEN_HIT)) th->slowed = 1;
    }
    if (g->all_flags & F_MEGASHIELD) /* after every damage step that targeted it */
        for (int b = 0; b < nboard; b++) {
            Threat *th = &g->thr[board[b]];
            if (was_hit[board[b]] && (flags(th) & F_MEGASHIELD) && th->shield > 0) th->shield--;
        }
    if (rocketed >= 0 && (flags(&g->thr[rocketed]) & F_MAGNET)) g->thr[rocketed].shield++;
    /* any rocket that targets it knocks it off course, even one its shield stops */
    if (rocketed >= 0 && (flags(&g->thr[rocketed]) & F_OFF_COURSE)) g->thr[rocketed].active = 1;
}

/* --- the round (game.py) ------------------------------------------------------------------ */

static void new_turn(Game *g) {
    memset(g->armed, 0, sizeof g->armed);
    memset(g->lift_used, 0, sizeof g->lift_used);
    g->vc_now = 0;
    g->launched = 0;
    g->pilot_heroic = 0;
    g->halfway = NULL;
    g->split = NULL;
    if (g->all_flags & (F_SLOWED_WHEN_HIT | F_ARMOUR))
        for (int t = 0; t < g->nthr; t++) g->thr[t].slowed = g->thr[t].armoured = 0;
    for (int k = 0; k < g->nmalf; k++) { /* only malfunctions count hits (system_hit) */
        g->thr[g->malf[k]].turn_hits = 0;
        g->thr[g->malf[k]].turn_stations = 0;
        g->thr[g->malf[k]].turn_crew = 0;
    }
}

/* abilities.lone_repairer_bonus: a Reversed Shields hit by one crew member alone this turn */
static void lone_repairer_bonus(Game *g) {
    for (unsigned left = g->active & g->malfunctions[SYS_B]; left; left &= left - 1) {
        Threat *th = &g->thr[__builtin_ctz(left)];
        if ((flags(th) & F_LONE_REPAIRER) && __builtin_popcount((unsigned)th->turn_crew) == 1) {
            th->damage++;
            if (th->damage >= th->health) destroy(g, th, &g->crew[__builtin_ctz(th->turn_crew)]);
        }
    }
}

static void play_turn(Game *g, int turn) {
    g->gturn = turn;
    new_turn(g);
    appear(g, turn);
    int slot = turn - 1;
    for (int c = 0; c < g->ncrew; c++) {
        Crew *m = &g->crew[c];
        if (m->slots[slot] || m->station == SPACE) act(g, m, turn);
    }
    if (g->all_flags & F_LONE_REPAIRER) lone_repairer_bonus(g);
    int phase = TURN_PHASE[turn];
    if (g->vc_now > g->vc[phase]) g->vc[phase] = g->vc_now;
    damage_step(g, 0);
    threat_step(g);
    if (g->launched) g->flying = 1;
    if ((turn == 2 || turn == 5 || turn == 9) && !g->maintained[phase]
        && g->rules->computer_check)
        for (int c = 0; c < g->ncrew; c++) {
            Crew *m = &g->crew[c];
            if (m->station != SPACE && !m->out) delay(g, m, turn + 1);
        }
    g->turn = turn;
    snapshot(g);
}

static void closing_step(Game *g) {
    g->gturn = g->turn + 1;
    new_turn(g);
    if (g->flying) damage_step(g, 1);
    for (int c = 0; c < g->ncrew; c++)
        if (g->crew[c].station == SPACE) enter(g, &g->crew[c], UR);
    threat_step(g);
    /* the jump: a threat still on its track performs Z and survives (game.jump_z) */
    for (unsigned left = g->active; left && (g->all_flags & F_Z_AT_JUMP); left &= left - 1) {
        Threat *th = &g->thr[__builtin_ctz(left)];
        if (!(flags(th) & F_Z_AT_JUMP) || th->status != ACTIVE_THREAT) continue;
        const int32_t *ops = th->card + C_LETTERS + 2 * LETTER_INTS;
        int k = 0;
        for (; k < ops[0] && th->status == ACTIVE_THREAT; k++) run_op(g, th, ops + 1 + 3 * k);
        if (th->status == ACTIVE_THREAT) survive(g, th);
    }
    /* a Cyber Gremlin not destroyed: everyone is knocked out at the jump (game.py) */
    for (int t = 0; t < g->nthr && (g->all_flags & F_SABOTAGES); t++) {
        const Threat *th = &g->thr[t];
        if ((flags(th) & F_SABOTAGES)
            && (th->status == ACTIVE_THREAT || th->status == SURVIVED)) {
            for (int c = 0; c < g->ncrew; c++) knock_out(&g->crew[c]);
            break;
        }
    }
    g->turn = g->gturn;
    snapshot(g);
}

static void snapshot(Game *g) {
    if (!g->snaps || g->nsnaps >= MAX_SNAPS) return;
    int16_t *s = g->snaps + (size_t)g->nsnaps++ * SNAP_INTS;
    memset(s, 0, SNAP_INTS * sizeof *s);
    s[S_TURN] = (int16_t)g->turn;
    for (int z = 0; z < 3; z++) {
        s[S_SHIELDS + z] = (int16_t)g->shields[z];
        s[S_REACTORS + z] = (int16_t)g->reactors[z];
        s[S_MAINTAINED + z] = (int16_t)g->maintained[z];
        s[S_VC + z] = (int16_t)g->vc[z];
        s[S_NTOKENS + z] = (int16_t)g->ntok[z];
        for (int k = 0; k < g->ntok[z]; k++) s[S_TOKENS + 6 * z + k] = (int16_t)g->tok[z][k];
    }
    s[S_FUEL] = (int16_t)g->fuel;
    s[S_ROCKETS] = (int16_t)g->rockets;
    s[S_FLYING] = (int16_t)g->flying;
    s[S_STORED] = (int16_t)g->stored[0];
    s[S_STORED + 1] = (int16_t)g->stored[1];
    for (int k = 0; k < 6; k++) s[S_BROKEN + k] = (int16_t)g->broken[k];
    s[S_CONTAM] = (int16_t)g->contaminated;
    s[S_SCOUT] = (int16_t)g->scout;
    s[S_LOST] = (int16_t)g->lost;
    for (int c = 0; c < g->ncrew; c++) {
        int16_t *p = s + S_CREW + c * CREW_SNAP;
        p[0] = (int16_t)g->crew[c].station;
        p[1] = (int16_t)g->crew[c].squad;
        p[2] = (int16_t)g->crew[c].out;
        for (int k = 0; k < 12; k++) p[3 + k] = (int16_t)g->crew[c].slots[k];
    }
    for (int t = 0; t < g->nthr; t++) {
        const Threat *th = &g->thr[t];
        int16_t *p = s + S_THREATS + t * THREAT_SNAP;
        p[0] = (int16_t)th->status;
        p[1] = (int16_t)th->square;
        p[2] = (int16_t)th->damage;
        p[3] = (int16_t)th->health;
        p[4] = (int16_t)th->speed;
        p[5] = (int16_t)th->shield;
        p[6] = (int16_t)th->active;
        p[7] = (int16_t)th->cryo;
        p[8] = (int16_t)th->passes;
        p[9] = (int16_t)th->level;
        p[10] = (int16_t)th->ended;
        p[11] = (int16_t)th->zone; /* a Jumper changes it */
        p[12] = (int16_t)th->nst;
        for (int k = 0; k < th->nst; k++) p[13 + k] = (int16_t)th->st[k];
        p[13 + MAX_SPOTS] = (int16_t)th->nspots;
        for (int k = 0; k < th->nspots; k++) p[14 + MAX_SPOTS + k] = (int16_t)th->spots[k];
    }
}

/* Plays the game to its end: what game.py's play_next does until it returns False (the
   turns, then the closing step). A destroyed ship jumps back here: one setjmp per game. */
static void play_all(Game *g) {
    if (setjmp(g->lost_jump)) {
        g->lost = g->gturn;
        snapshot(g);
        return;
    }
    while (g->turn < g->rules->turns) play_turn(g, g->turn + 1);
    closing_step(g);
}

/* --- the batch interface ------------------------------------------------------------------ */

static void init_tables(void) {
    static int done = 0;
    if (done) return;
    init_genrand(genrand_base, 19650218U);
    for (int b = 0; b < 7; b++) {
        for (int s = 0; s <= 16; s++) track_letter[b][s] = 0;
        track_letter[b][1] = 3;
        track_letter[b][TRACK_X[b]] = 1;
        for (int k = 0; k < 2; k++)
            if (TRACK_Y[b][k]) track_letter[b][TRACK_Y[b][k]] = 2;
    }
    for (int b = 0; b < 7; b++)
        for (int s = 0; s <= 16; s++)
            letter_below[b][s] = (int8_t)(track_letter[b][s] ? s : s ? letter_below[b][s - 1] : 0);
    for (int mask = 0; mask < 64; mask++)
        for (int bit = 0, r = 0; bit < 6; bit++)
            if (mask >> bit & 1) nth_bit[mask][r++] = (int8_t)bit;
    for (int s = 0; s <= 16; s++) distance_band[s] = (int8_t)(s == 0 ? 0 : s <= 5 ? 1 : s <= 10 ? 2 : 3);
    done = 1;
}

int sa_abi(void) { return ABI_VERSION; }

/* The digest of the codes this library was built with (codes.h): ccore.py refuses another. */
uint32_t sa_codes(void) { return CODES_DIGEST; }

/* Draws count numbers with randrange(bounds[i]) from a generator seeded with key (its word
   count, then its words), as a game does: for the tests of the generator against CPython.
   One-word keys are seeded by seed_lanes (as in a batch), longer ones by seed_one. */
int sa_randbelow(const uint32_t *key, int count, const int32_t *bounds, int32_t *out) {
    init_tables();
    uint32_t (*block)[LANES] = malloc(624 * sizeof *block);
    Rng *r = malloc(sizeof *r);
    if (!block || !r) {
        free(block);
        free(r);
        return -1;
    }
    if (key[0] == 1) {
        uint32_t words[LANES] = {0};
        words[LANES - 1] = key[1]; /* the last lane: every lane must be right */
        seed_lanes(block, words, LANES);
        r->source = &block[0][LANES - 1];
    } else {
        seed_one(r->mt, key + 1, (int)key[0]);
        for (int i = 0; i < 624; i++) block[i][0] = r->mt[i];
        r->source = &block[0][0];
    }
    r->stride = LANES;
    r->mti = 0;
    for (int i = 0; i < count; i++) out[i] = randbelow(r, bounds[i]);
    free(block);
    free(r);
    return count;
}

/* Stores the card table: n records of CARD_INTS ints. */
int sa_set_cards(const int32_t *data, int n) {
    init_tables();
    if (n > MAX_CARDS) return -1;
    memcpy(cards, data, (size_t)n * CARD_INTS * sizeof *data);
    ncards = n;
    return 0;
}

static void score(const Game *g, int32_t *o) {
    int threats = 0;
    for (int t = 0; t < g->nthr; t++) {
        if (g->thr[t].status == DESTROYED) threats += g->thr[t].card[C_POINTS_DESTROYED];
        else if (g->thr[t].status == SURVIVED) threats += g->thr[t].card[C_POINTS_SURVIVED];
    }
    int vc = VC_POINTS[g->vc[0]] + VC_POINTS[g->vc[1]] + VC_POINTS[g->vc[2]];
    int damage = g->ntok[0] + g->ntok[1] + g->ntok[2], worst = 0;
    for (int z = 0; z < 3; z++)
        if (g->ntok[z] > worst) worst = g->ntok[z];
    int knocked = 0, disabled = 0;
    for (int c = 0; c < g->ncrew; c++) {
        knocked += 2 * g->crew[c].out;
        disabled += g->crew[c].squad == SQ_DISABLED;
    }
    disabled += (g->stored[0] == SQ_DISABLED) + (g->stored[1] == SQ_DISABLED);
    o[0] = threats;
    o[1] = vc;
    o[2] = damage;
    o[3] = worst;
    o[4] = knocked;
    o[5] = disabled;
    o[6] = threats + vc - damage - worst - knocked - disabled;
}

/* Plays one game. setup: level, 4 boards (0-6), n, n x (card, token, zone). plan: crew count,
   12 codes per member, then per red/white/blue the forced count and the forced kinds.
   seeded: the generator state seeded with the game's seed (a column of a block). */
static void play_game(Game *g, const int32_t *setup, const int32_t *plan, const uint32_t *seeded,
                      int stride, int32_t *out, int16_t *snaps) {
    int level = setup[0], nthr = setup[5];
    memset(g, 0, offsetof(Game, thr) + (size_t)nthr * sizeof(Threat));
    g->nthr = nthr;
    g->rules = &LEVEL_RULES[level];
    g->effects = g->rules->effects;
    for (int z = 0; z < 4; z++) {
        g->letters[z] = track_letter[setup[1 + z]];
        g->below[z] = letter_below[setup[1 + z]];
        g->length[z] = TRACK_LENGTH[setup[1 + z]];
    }
    for (int t = 0; t < g->nthr; t++) {
        Threat *th = &g->thr[t];
        const int32_t *card = cards[setup[6 + 3 * t]];
        th->card = card;
        th->token = setup[7 + 3 * t];
        th->zone = setup[8 + 3 * t];
        th->health = card[C_HEALTH];
        th->speed = card[C_SPEED];
        th->shield = card[C_SHIELD];
        th->cryo = (card_flags(card) & F_CRYO) != 0;
        th->nst = card[C_NSTATIONS];
        for (int k = 0; k < th->nst; k++) th->st[k] = card[C_STATIONS + k];
        if (card_flags(card) & F_STATION_BY_TURN) { /* odd turns the first, even the second */
            th->nst = 1;
            th->st[0] = card[C_STATIONS + (th->token + 1) % 2];
        }
        g->all_flags |= card_flags(card);
        if (card[C_MALFUNCTION]) {
            g->malf[g->nmalf++] = t;
            g->malfunctions[card[C_SYSTEM]] |= 1U << t;
        }
        if (card[C_EXTERNAL]) g->external |= 1U << t;
        if (card[C_SYSTEM] == SYS_BOTS) g->bots |= 1U << t;
        if (th->token >= 0 && th->token < 16) g->appear_at[th->token] |= 1U << t;
        if (th->token < 0) { /* a bonus threat: -(1 + its carrier's place) (ccore.py) */
            g->bonus_of[-th->token - 1] = t + 1;
            th->token = 0;
        }
    }
    g->shields[0] = g->shields[1] = g->shields[2] = 1;
    g->reactors[0] = 2;
    g->reactors[1] = 3;
    g->reactors[2] = 2;
    g->fuel = 3;
    g->rockets = 3;
    g->stored[0] = g->stored[1] = SQ_ACTIVE;
    g->ncrew = plan[0];
    for (int c = 0; c < g->ncrew; c++) {
        g->crew[c].station = UW;
        memcpy(g->crew[c].slots, plan + 1 + 12 * c, sizeof g->crew[c].slots);
    }
    const int32_t *forced = plan + 1 + 12 * g->ncrew;
    for (int z = 0; z < 3; z++) {
        g->nforced[z] = *forced++;
        for (int k = 0; k < g->nforced[z]; k++) g->forced[z][k] = *forced++;
    }
    g->rng.mti = 0;
    g->rng.source = seeded;
    g->rng.stride = stride;
    g->snaps = snaps;
    g->nsnaps = 0;
    snapshot(g);
    play_all(g);
    memset(out, 0, OUT_INTS * sizeof *out);
    int survived = g->lost == 0;
    out[O_SURVIVED] = survived;
    out[O_TURN] = survived ? g->turn : g->lost;
    out[O_CAUSE] = survived ? 0 : g->cause;
    if (survived && g->rules->scored) score(g, out + O_SCORE);
    for (int z = 0; z < 3; z++) {
        out[O_NTOKENS + z] = g->ntok[z];
        for (int k = 0; k < g->ntok[z]; k++) out[O_TOKENS + 6 * z + k] = g->tok[z][k];
    }
    for (int t = 0; t < g->nthr; t++) {
        out[O_STATUS + t] = g->thr[t].status;
        out[O_ENDED + t] = g->thr[t].ended;
        out[O_ZONE + t] = g->thr[t].zone;
    }
    out[O_NSNAPS] = g->nsnaps;
}

/* A key as one number to compare: a one-word key is its word; a longer one its address with
   the top bit set (two equal long keys at different addresses are seeded twice: rare and
   harmless). */
static inline uint64_t key_tag(const uint32_t *key) {
    return key[0] == 1 ? key[1] : (1ULL << 63) | (uint64_t)(uintptr_t)key;
}

/* The seeded generators a batch keeps: POOL blocks of LANES columns (the states of as many
   keys), found by key through a small hash table of columns. */
#define POOL 2
#define NO_KEY (~0ULL) /* a tag never made: keys are 32-bit words or have the top bit set */
#define SLOTS 256      /* open addressing over at most POOL * LANES columns */

typedef struct {
    uint32_t (*seeded)[LANES]; /* POOL blocks of 624 rows */
    uint64_t owner[POOL * LANES]; /* the key seeded in each column */
    int16_t slot[SLOTS];          /* column + 1, 0: empty */
    int used[POOL];               /* the first game of the last block of games that read it */
} Pool;

static inline unsigned slot_of(uint64_t tag) {
    return (unsigned)((tag * 0x9E3779B97F4A7C15ULL) >> 56); /* 8 bits: SLOTS */
}

static int pool_find(const Pool *p, uint64_t tag) {
    for (unsigned h = slot_of(tag);; h = (h + 1) & (SLOTS - 1)) {
        int c = p->slot[h];
        if (!c) return -1;
        if (p->owner[c - 1] == tag) return c - 1;
    }
}

static void pool_index(Pool *p) {
    memset(p->slot, 0, sizeof p->slot);
    for (int c = 0; c < POOL * LANES; c++) {
        if (p->owner[c] == NO_KEY) continue;
        unsigned h = slot_of(p->owner[c]);
        while (p->slot[h]) h = (h + 1) & (SLOTS - 1);
        p->slot[h] = (int16_t)(c + 1);
    }
}

/* Gives each of the count distinct keys of a block of games the pool column seeded with it
   (where[k]; -1 on entry for keys not found). The keys not found are seeded into one block,
   side by side: a block that no key of these games reads, the least recently used, else the
   block that fewer of them read, whose keys are seeded again. first: the block's first game. */
static void pool_seed(Pool *p, Game *scratch, const uint32_t *const *key, const uint64_t *tag,
                      int *where, int count, int first) {
    int reads[POOL] = {0}, missing = 0;
    for (int k = 0; k < count; k++) {
        if (where[k] >= 0)
            reads[where[k] / LANES]++;
        else
            missing++;
    }
    if (missing) {
        int target = -1;
        for (int b = 0; b < POOL; b++)
            if (!reads[b] && (target < 0 || p->used[b] < p->used[target])) target = b;
        if (target < 0) {
            target = 0;
            for (int b = 1; b < POOL; b++)
                if (reads[b] < reads[target]) target = b;
            for (int k = 0; k < count; k++)
                if (where[k] >= 0 && where[k] / LANES == target) {
                    p->owner[where[k]] = NO_KEY;
                    where[k] = -1;
                }
            reads[target] = 0;
        }
        uint32_t (*block)[LANES] = p->seeded + target * 624;
        uint64_t *owner = p->owner + target * LANES;
        /* one-word keys in the first columns, seeded together; longer keys after them */
        uint32_t words[LANES] = {0};
        int order[LANES], nwords = 0, nlong = 0;
        for (int k = 0; k < count; k++)
            if (where[k] < 0 && key[k][0] == 1) {
                words[nwords] = key[k][1];
                order[nwords++] = k;
            }
        for (int k = 0; k < count; k++)
            if (where[k] < 0 && key[k][0] != 1) order[nwords + nlong++] = k;
        int lanes = 0;
        if (nwords > 2) { /* side by side the seeding of 8 to 32 keys costs about one's */
            lanes = (nwords + 7) / 8 * 8;
            seed_lanes(block, words, lanes);
        }
        for (int j = lanes ? nwords : 0; j < nwords + nlong; j++) {
            const uint32_t *k = key[order[j]];
            seed_one(scratch->rng.mt, k + 1, (int)k[0]); /* the game's buffer as scratch */
            for (int i = 0; i < 624; i++) block[i][j] = scratch->rng.mt[i];
        }
        int written = lanes > nwords + nlong ? lanes : nwords + nlong;
        for (int c = 0; c < written; c++) owner[c] = NO_KEY;
        for (int j = 0; j < nwords + nlong; j++) {
            owner[j] = tag[order[j]];
            where[order[j]] = target * LANES + j;
        }
        reads[target] = 1;
        pool_index(p);
    }
    for (int b = 0; b < POOL; b++)
        if (reads[b]) p->used[b] = first;
}

/* Returns the key that follows a plan's ints. */
static const uint32_t *key_after(const int32_t *plan) {
    const int32_t *p = plan + 1 + 12 * plan[0];
    for (int z = 0; z < 3; z++) p += 1 + p[0];
    return (const uint32_t *)p;
}

/* Plays n games; game i is the setup, plan and key at the addresses games[3i], games[3i+1]
   and games[3i+2] (stride 3), or the setup and plan at games[2i] and games[2i+1] with the key
   after the plan's ints (stride 2). Setup: level, 4 boards, threat count, card/turn/zone per
   threat; plan: see play_game; key: its word count, then the words of abs(seed), least
   significant first.
   Games with the same key share one seeding: the batch keeps the generators of the latest
   keys seeded and seeds the others a block of LANES games at a time, side by side.
   out: n x OUT_INTS; snaps: NULL, or n x MAX_SNAPS x SNAP_INTS for the state after every
   turn. Returns the number of games played, -1 without memory. */
int sa_play(int n, const uint64_t *games, int stride, int32_t *out, int16_t *snaps) {
    init_tables();
    /* Heap, not static: ctypes releases the GIL, so two threads may play at once. */
    Game *game = malloc(sizeof *game);
    Pool *pool = malloc(sizeof *pool);
    uint32_t (*seeded)[LANES] = malloc(POOL * 624 * sizeof *seeded);
    if (!game || !pool || !seeded) {
        free(game);
        free(pool);
        free(seeded);
        return -1;
    }
    pool->seeded = seeded;
    for (int c = 0; c < POOL * LANES; c++) pool->owner[c] = NO_KEY;
    for (int b = 0; b < POOL; b++) pool->used[b] = -1;
    memset(pool->slot, 0, sizeof pool->slot);
    for (int start = 0; start < n; start += LANES) {
        int end = start + LANES < n ? start + LANES : n;
        const uint32_t *key[LANES];
        uint64_t tag[LANES];
        int where[LANES], game_key[LANES], count = 0;
        for (int i = start; i < end; i++) { /* the block's distinct keys */
            const uint64_t *gi = games + (size_t)stride * i;
            const uint32_t *k = stride == 3 ? (const uint32_t *)(uintptr_t)gi[2]
                                            : key_after((const int32_t *)(uintptr_t)gi[1]);
            uint64_t t = key_tag(k);
            int d = 0;
            while (d < count && tag[d] != t) d++;
            game_key[i - start] = d;
            if (d == count) {
                key[count] = k;
                tag[count] = t;
                where[count++] = pool_find(pool, t);
            }
        }
        pool_seed(pool, game, key, tag, where, count, start);
        for (int i = start; i < end; i++) {
            const uint64_t *gi = games + (size_t)stride * i;
            int column = where[game_key[i - start]];
            play_game(game, (const int32_t *)(uintptr_t)gi[0], (const int32_t *)(uintptr_t)gi[1],
                      &seeded[column / LANES * 624][column % LANES], LANES,
                      out + (size_t)i * OUT_INTS,
                      snaps ? snaps + (size_t)i * MAX_SNAPS * SNAP_INTS : 0);
        }
    }
    free(game);
    free(pool);
    free(seeded);
    return n;
}

/* --- what the plan search needs (core.h) -------------------------------------------------- */

struct SaGame {
    Game game;
};

SaGame *sa_game_new(void) {
    init_tables();
    return malloc(sizeof(SaGame));
}

void sa_game_free(SaGame *g) { free(g); }

void sa_seed(uint32_t *mt, const uint32_t *key) {
    init_tables();
    seed_one(mt, key + 1, (int)key[0]);
}

void sa_resolve(SaGame *g, const int32_t *setup, const int32_t *plan, const uint32_t *mt,
                int32_t *out) {
    play_game(&g->game, setup, plan, mt, 1, out, 0);
}

/* The one value function (authoring/engine/odds/value.py game_value): a survived, scored game
   VALUE_SURVIVED + its score; otherwise VALUE_PER_TURN per turn held (13 when it survived)
   plus the points of the threats destroyed, less the damage. */
int32_t sa_objective(const int32_t *setup, const int32_t *out) {
    if (out[O_SURVIVED] && LEVEL_RULES[setup[0]].scored) return VALUE_SURVIVED + out[O_SCORE + 6];
    int32_t destroyed = 0;
    for (int t = 0; t < setup[5]; t++)
        if (out[O_STATUS + t] == DESTROYED) destroyed += cards[setup[6 + 3 * t]][C_POINTS_DESTROYED];
    return VALUE_PER_TURN * out[O_TURN] + destroyed - out[O_NTOKENS] - out[O_NTOKENS + 1] -
           out[O_NTOKENS + 2];
}
