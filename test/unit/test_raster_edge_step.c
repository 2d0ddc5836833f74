/*
 * test_raster_edge_step.c - the per-line accumulators of edge stepping (raster/edge.c
 * raster_slope_attrs / raster_slope_depth, edge.h raster_slope_step): the attribute values
 * (W, colour, texcoords) and the Z-buffer depth that the scanline loop reads on each line of an
 * edge must equal the direct formulas they replace, raster_interp_attr() and raster_interp_z()
 * at the edge interpolator's position (the arithmetic of melonDS GPU3D_Soft.h Interpolator).
 * Compared on many random edges (linear and perspective, X- and Y-major, both sides, with and
 * without the reciprocal table) over every line from the top vertex to the bottom one. Also the
 * attribute set-up's vector form against its scalar reference (raster_slope_attrs_ref), and the
 * span set-up's vector form of the values (raster_slope_attr_vec) against raster_slope_attr_values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "raster/edge.h"
#include "test_rand.h"

/* The span set-up's vector form of the edge values (raster_slope_attr_vec; with SSE2) against
 * raster_slope_attr_values' @p out: W, and r, g, b, s, t in both lane groups. */
static void check_attr_vec(const raster_slope *s, const int32_t out[])
{
#if RASTER_SLOPE_VEC
    __m128i v[2];
    int32_t lanes[2][4];
    assert_int_equal(raster_slope_attr_vec(s, v), out[RASTER_EA_W]);
    for (int h = 0; h < 2; h++) {
        _mm_storeu_si128((__m128i *)lanes[h], v[h]);
        for (int k = 0; k < 4; k++) assert_int_equal(lanes[h][k], out[RASTER_EA_R + h + k]);
    }
#else
    (void)s, (void)out;
#endif
}

/* One random edge checked on all its lines; returns the number of values compared. */
static unsigned check_edge(uint32_t *st, const raster_recip *tab)
{
    int side = (int)(rnd(st) & 1u);
    int32_t y0 = rnd_in(st, -4, 190), y1 = y0 + rnd_in(st, 0, 200 - y0);
    int32_t x0 = rnd_in(st, -20, 280), x1 = rnd_in(st, -20, 280);
    /* W: normalized 16-bit values; half of the edges linear (equal W, low bits clear) */
    int32_t w0 = rnd_in(st, 1, 0xFFFF), w1 = rnd_in(st, 1, 0xFFFF);
    if (rnd(st) & 1u) w1 = w0 = w0 & ~0x7F;
    if (w0 == 0) w0 = w1 = 0x80;
    int32_t a0[RASTER_EDGE_ATTRS], a1[RASTER_EDGE_ATTRS];
    a0[RASTER_EA_W] = w0;
    a1[RASTER_EA_W] = w1;
    for (int k = RASTER_EA_R; k <= RASTER_EA_B; k++) { /* 9-bit colour */
        a0[k] = rnd_in(st, 0, 511);
        a1[k] = rnd_in(st, 0, 511);
    }
    for (int k = RASTER_EA_S; k <= RASTER_EA_T; k++) { /* 1.11.4 texcoords */
        a0[k] = rnd_in(st, -32768, 32767);
        a1[k] = rnd_in(st, -32768, 32767);
    }
    int32_t z0 = rnd_in(st, 0, 0xFFFFFF), z1 = rnd(st) & 3u ? rnd_in(st, 0, 0xFFFFFF) : z0;

    raster_slope s;
    raster_slope_setup_tab(&s, side, true, x0, x1, y0, y1, w0, w1, y0, tab);
    raster_slope_attrs(&s, a0, a1);
    raster_slope_depth(&s, z0, z1, false);
    unsigned n = 0;
    for (int32_t y = y0; y < y1 || y == y0; y++) {
        int32_t out[RASTER_EDGE_ATTRS];
        raster_slope_attr_values(&s, out);
        for (int k = 0; k < RASTER_EDGE_ATTRS; k++) {
            assert_int_equal(out[k], raster_interp_attr(&s.interp, a0[k], a1[k]));
            n++;
        }
        assert_int_equal(raster_slope_zdepth(&s), raster_interp_z(&s.interp, z0, z1, false));
        n++;
        check_attr_vec(&s, out);
        (void)raster_slope_step(&s);
    }
    return n;
}

static void test_edge_step_matches_formulas(void **state)
{
    (void)state;
    raster_recip *tab = malloc(sizeof *tab);
    assert_non_null(tab);
    raster_recip_init(tab);
    uint32_t st = 0x12345678u;
    unsigned n = 0;
    for (int i = 0; i < 20000; i++) n += check_edge(&st, (i & 1) ? tab : NULL);
    assert_true(n > 1000000u); /* the edges were long enough to step many lines */
    free(tab);
}

/* raster_slope_attrs (four lanes at a time with SSE2) against raster_slope_attrs_ref (one
 * attribute at a time): every field they write, on random edges (linear and perspective, with
 * and without the reciprocal table, zero-length, extreme attribute values and differences that
 * fail the linear product's bound), positioned at a random line of the edge or off it. */
static int32_t rnd_attr(uint32_t *st)
{
    switch (rnd(st) & 7u) {
    case 0: return 0;
    case 1: return INT32_MIN + (int32_t)(rnd(st) & 0xFFu);
    case 2: return INT32_MAX - (int32_t)(rnd(st) & 0xFFu);
    case 3: return rnd_in(st, 0, 511);
    case 4: return rnd_in(st, -32768, 32767);
    case 5: return (int32_t)rnd(st);
    default: return rnd_in(st, -4, 4);
    }
}

static void check_attrs_same(uint32_t *st, const raster_recip *tab)
{
    int side = (int)(rnd(st) & 1u);
    int32_t y0 = rnd_in(st, -4, 190), y1 = y0 + (rnd(st) & 3u ? rnd_in(st, 0, 200 - y0) : 0);
    int32_t x0 = rnd_in(st, -20, 280), x1 = rnd_in(st, -20, 280);
    int32_t w0 = rnd_in(st, 1, 0xFFFF), w1 = rnd_in(st, 1, 0xFFFF);
    if (rnd(st) & 1u) w1 = w0 = w0 & ~0x7F;
    if (w0 == 0) w0 = w1 = 0x80;
    int32_t y = rnd(st) & 1u ? y0 : rnd_in(st, y0 - 2, y1 + 2);
    int32_t a0[RASTER_EDGE_ATTRS], a1[RASTER_EDGE_ATTRS];
    a0[RASTER_EA_W] = w0;
    a1[RASTER_EA_W] = rnd(st) & 7u ? w1 : rnd_attr(st); /* (W ends other than the edge's) */
    for (int k = 1; k < RASTER_EDGE_ATTRS; k++) {
        a0[k] = rnd_attr(st);
        a1[k] = rnd(st) & 3u ? rnd_attr(st) : a0[k];
    }
    raster_slope ref, fast;
    raster_slope_setup_tab(&ref, side, true, x0, x1, y0, y1, w0, w1, y, tab);
    /* the set-up's perspective factor (not divided out at the interpolator's start) is the
     * interpolator's at that position */
    raster_interp ip = ref.interp;
    raster_interp_set(&ip, y);
    assert_int_equal(ref.interp.factor, ip.factor);
    fast = ref;
    raster_slope_attrs_ref(&ref, a0, a1);
    raster_slope_attrs(&fast, a0, a1);
    for (int k = 0; k < RASTER_EDGE_ATTRS; k++) {
        assert_int_equal(fast.attr_base[k], ref.attr_base[k]);
        assert_int_equal(fast.attr_d[k], ref.attr_d[k]);
        assert_int_equal(fast.attr_sel[k], ref.attr_sel[k]);
        assert_true(fast.attr_dr[k] == ref.attr_dr[k]);
        /* the fields as an attr_lin_fast edge's reader derives them (edge.h
         * raster_slope_attr_prep: from attr_step and lin_recip; sel read only where d != 0) */
        raster_attr_prep ap;
        const uint64_t dr = raster_slope_attr_prep(&fast, k, &ap);
        assert_int_equal(ap.base, ref.attr_base[k]);
        assert_int_equal(ap.d, ref.attr_d[k]);
        if (ref.attr_d[k] != 0) assert_int_equal(ap.sel, ref.attr_sel[k]);
        assert_true(dr == ref.attr_dr[k]);
    }
    assert_int_equal(fast.attr_lin_fast, ref.attr_lin_fast);
    if (ref.interp.linear) {
        for (int k = 0; k < RASTER_EDGE_ATTRS - 1; k++) {
            assert_true(fast.attr_acc[k] == ref.attr_acc[k]);
            assert_true(fast.attr_step[k] == ref.attr_step[k]);
        }
    }
}

static void test_attrs_vector_matches_ref(void **state)
{
    (void)state;
    raster_recip *tab = malloc(sizeof *tab);
    assert_non_null(tab);
    raster_recip_init(tab);
    uint32_t st = 0x9E3779B9u;
    for (int i = 0; i < 200000; i++) check_attrs_same(&st, (i & 3) ? tab : NULL);
    free(tab);
}

/* The table's slope reciprocal is the division it replaces (edge.c raster_slope_setup). */
static void test_recip_table(void **state)
{
    (void)state;
    raster_recip *tab = malloc(sizeof *tab);
    assert_non_null(tab);
    raster_recip_init(tab);
    assert_int_equal(tab->y18[1], 262144);
    assert_int_equal(tab->y18[49], 5349); /* the 69x49 hardware slope's reciprocal */
    assert_int_equal(tab->y18[192], 1365);
    assert_int_equal(tab->y18[RASTER_RECIP_MAX], 256);
    free(tab);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edge_step_matches_formulas),
        cmocka_unit_test(test_attrs_vector_matches_ref),
        cmocka_unit_test(test_recip_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
