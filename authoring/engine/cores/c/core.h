/* What the C engine core (core.c) offers the rest of the library: the crews' plan search
 * (search.c) plays its candidate plans through these, without the batch machinery of sa_play.
 *
 * A setup and a plan are the int words of sa_play (authoring/engine/cores/ccore.py encodes them);
 * a key is a seed's word count then its 32-bit words, least significant first.
 */
#ifndef SPACEALERT_CORE_H
#define SPACEALERT_CORE_H

#include <stdint.h>

typedef struct SaGame SaGame;

/* A game's working memory (NULL without memory); free it with sa_game_free. */
SaGame *sa_game_new(void);
void sa_game_free(SaGame *g);
/* Seeds a generator state (624 words) as CPython's random.seed(seed) does. */
void sa_seed(uint32_t *mt, const uint32_t *key);
/* Plays one game with the damage-token generator seeded in mt (left unchanged); out gets
   the OUT_INTS ints of sa_play's output. */
void sa_resolve(SaGame *g, const int32_t *setup, const int32_t *plan, const uint32_t *mt,
                int32_t *out);
/* The value of a played game (the one value function, authoring/engine/odds/value.py). */
int32_t sa_objective(const int32_t *setup, const int32_t *out);

#endif
