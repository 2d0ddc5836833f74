/*
 * test_rand.h - test helper: xorshift32 (Marsaglia), so that a randomized test's frames and
 * streams are random but the same on every run and machine, and two draws built on it.
 */
#ifndef DSGX_TEST_RAND_H
#define DSGX_TEST_RAND_H

#include <stdbool.h>
#include <stdint.h>

/* The next value of the xorshift32 state @p s (never 0 from a non-zero seed). */
static inline uint32_t rnd(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* A value in [lo, hi]. */
static inline int32_t rnd_in(uint32_t *s, int32_t lo, int32_t hi)
{
    return lo + (int32_t)(rnd(s) % (uint32_t)(hi - lo + 1));
}

/* True one time in @p n. */
static inline bool one_in(uint32_t *s, uint32_t n)
{
    return rnd(s) % n == 0;
}

#endif
