/*
 * test_raster_persp_ok.c - raster/span_vec8.h persp8_ok (draw_persp8_line's check of the
 * perspective span's ranges, in doubles) against span_pixel.h persp_ok (the same check in
 * 64-bit integers) on random span constants, most of them far outside the ranges the random
 * frames of test_raster_span_diff reach (full 32-bit W terms and factor denominators): a
 * wider check there would let draw_vec8 draw spans its arithmetic does not draw exactly,
 * which no frame of the differential test would show.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "raster/span_fns.h"
#include "test_rand.h"

#if SPAN_VEC8
static __attribute__((target("avx2"))) bool ok8(const span_line *c, int32_t xs, int32_t xe,
                                                int flags)
{
    return persp8_ok(c, xs, xe, flags);
}

/* A 32-bit term: small (the usual W), any, or near a bound of persp_ok's ranges. */
static int32_t rnd_term(uint32_t *s)
{
    switch (rnd(s) % 4) {
    case 0: return rnd_in(s, -4096, 1 << 20);
    case 1: return (int32_t)rnd(s);
    case 2: return (int32_t)(0x7FFFFFFFu - (rnd(s) & 0xFFFFF));
    default: return rnd_in(s, 0, 1 << 24);
    }
}
#endif

static void test_persp8_ok_matches(void **state)
{
    (void)state;
#if SPAN_VEC8
    if (!__builtin_cpu_supports("avx2")) skip();
    static const int flag_set[4] = {SPAN_SHADE_MODDEC, SPAN_SHADE_MODDEC | 1,
                                    SPAN_SHADE_MODDEC | SPAN_FLAT, SPAN_SHADE_VERTEX};
    uint32_t seed = 0x5eed11u;
    int n = 200000, ok = 0;
    for (int i = 0; i < n; i++) {
        span_line c;
        memset(&c, 0, sizeof c);
        int32_t xs = rnd_in(&seed, 0, 255), xe = rnd_in(&seed, xs, 256);
        c.ix.linear = one_in(&seed, 50);
        c.ix.x0 = rnd_in(&seed, xs - 300, xs); /* (the span starts at or after x0) */
        if (one_in(&seed, 2)) {
            /* as raster_interp_setup: W at the span's ends (up to 24 bits), numerator w0 - 1,
             * denominator x * (w0 + 1 - w1) + xdiff * w1 (wrapped to 32 bits) */
            int32_t w0 = rnd_in(&seed, 1, 1 << rnd_in(&seed, 8, 24));
            int32_t w1 = rnd_in(&seed, 1, 1 << rnd_in(&seed, 8, 24));
            c.ix.w0n = w0 - 1;
            c.den_step = w0 + 1 - w1;
            c.den_base = (int32_t)(uint32_t)((uint64_t)(uint32_t)(xe - c.ix.x0) * (uint32_t)w1);
        } else {
            c.ix.w0n = rnd_term(&seed);
            c.den_step = rnd_term(&seed);
            c.den_base = rnd_term(&seed);
        }
        /* (no difference of exactly 2^16 beside others: persp8_ok bounds their OR) */
        for (int a = 0; a < 5; a++)
            c.a_d[a] = one_in(&seed, 40) ? 65537u + (rnd(&seed) & 0xFFFF) : rnd(&seed) & 0xFFFF;
        int flags = flag_set[rnd(&seed) % 4];
        bool want = persp_ok(&c, xs, xe, flags);
        if (ok8(&c, xs, xe, flags) != want)
            fail_msg("x %d-%d x0 %d w0n %d den %d/%d flags %d: persp_ok %d", xs, xe, c.ix.x0,
                     c.ix.w0n, c.den_step, c.den_base, flags, want);
        ok += want;
    }
    /* both answers are common: the comparison means something */
    assert_true(ok > n / 20 && ok < n - n / 20);
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_persp8_ok_matches),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
