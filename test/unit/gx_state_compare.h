/*
 * gx_state_compare.h - test helpers: an engine pair's saved state (dsgx_state_save: the cycle
 * model, matrices, lights, polygon buffer, polygon/vertex RAM, VRAM, FIFO and executor...) as
 * bytes, and two geometry engines compared through it, byte for byte. The differential tests
 * of the geometry engine's fast paths use it (a fast path against the word-by-word reference).
 * Include it after cmocka.h.
 */
#ifndef DSGX_TEST_GX_STATE_COMPARE_H
#define DSGX_TEST_GX_STATE_COMPARE_H

#include <stdint.h>
#include <stdlib.h>

#include "gx/gx.h"
#include "raster/raster.h"
#include "tools/core/savestate.h"

/* The saved state of @p gx with @p r (malloc'd; its size in *n). */
static inline uint8_t *state_of(gx_engine *gx, raster_engine *r, size_t *n)
{
    *n = dsgx_state_size(gx, r);
    uint8_t *b = malloc(*n);
    assert_non_null(b);
    assert_int_equal(dsgx_state_save(gx, r, b, *n, 0), *n);
    return b;
}

/* @p a and @p b in the same state (each saved with the same rendering engine @p r). */
static inline void same_state(gx_engine *a, gx_engine *b, raster_engine *r)
{
    size_t na, nb;
    uint8_t *sa = state_of(a, r, &na), *sb = state_of(b, r, &nb);
    assert_int_equal(na, nb);
    assert_memory_equal(sa, sb, na);
    free(sa);
    free(sb);
}

/* Two geometry engines and the rendering engine their states are saved with. */
static inline void engines_create(gx_engine **a, gx_engine **b, raster_engine **r)
{
    *a = gx_create();
    *b = gx_create();
    *r = raster_create();
    assert_non_null(*a);
    assert_non_null(*b);
    assert_non_null(*r);
}

static inline void engines_destroy(gx_engine *a, gx_engine *b, raster_engine *r)
{
    gx_destroy(a);
    gx_destroy(b);
    raster_destroy(r);
}

#endif
