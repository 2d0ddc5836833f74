/*
 * test_raster_persp_ok.c - raster/span_vec8.h persp8_ok (draw_persp8_line's check of the
 * perspective span's ranges, in doubles) against span_pixel.h persp_ok (the same check in
 * 64-bit integers) on random span constants, most of them far outside the ranges the random
 * frames of test_raster_span_diff reach (full 32-bit W terms and factor denominators): a
 * wider check there would let draw_vec8 draw spans its arithmetic does not draw exactly,
 * which no frame of the differential test would show. persp8_ok leaves out persp_ok's bound
 * on the attributes' differences (draw_vec8's attributes are span_attr_persp's 32-bit
 * arithmetic for any d, see persp8_pre): compared with persp_ok of the same span with those
 * differences 0, and test_attr_persp8_any_d checks that arithmetic on differences beyond it.
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
        int flags = flag_set[rnd(&seed) % 4];
        bool want = persp_ok(&c, xs, xe, flags); /* (a_d 0: the factor's ranges only) */
        /* (differences of any size: persp8_ok does not read them) */
        for (int a = 0; a < 5; a++) c.a_d[a] = one_in(&seed, 4) ? rnd(&seed) : rnd(&seed) & 0xFFFF;
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

#if SPAN_VEC8
/* vec8_attr_persp of lanes {base, pd, ps, f0} (eight spans' constants, one lane each) into
 * @p out. */
static __attribute__((target("avx2"))) void attr8(const uint32_t v[4][8], uint32_t out[8])
{
    const __m256i *p = (const __m256i *)v;
    _mm256_storeu_si256((__m256i *)out,
                        vec8_attr_persp(_mm256_loadu_si256(p), _mm256_loadu_si256(p + 1),
                                        _mm256_loadu_si256(p + 2), _mm256_loadu_si256(p + 3)));
}
#endif

/* draw_vec8's perspective attribute (vec8_attr_persp) against span_pixel.h span_attr_persp, the
 * reference's, on differences of any size (persp8_ok no longer bounds them) and factors
 * 0-256. */
static void test_attr_persp8_any_d(void **state)
{
    (void)state;
#if SPAN_VEC8
    if (!__builtin_cpu_supports("avx2")) skip();
    uint32_t seed = 0xA77D8u;
    for (int i = 0; i < 20000; i++) {
        uint32_t v[4][8], got[8];
        span_line c;
        memset(&c, 0, sizeof c);
        for (int l = 0; l < 8; l++) {
            v[0][l] = rnd(&seed);
            uint32_t d = one_in(&seed, 2) ? rnd(&seed) : rnd(&seed) & 0x3FFFF;
            bool sel = one_in(&seed, 2);
            v[1][l] = sel ? d << 8 : 0u; /* a_pd */
            v[2][l] = sel ? 0u - d : d;  /* a_ps */
            v[3][l] = rnd(&seed) % 257u; /* f0 */
        }
        attr8((const uint32_t(*)[8])v, got);
        for (int l = 0; l < 8; l++) {
            c.a_base[0] = v[0][l], c.a_pd[0] = v[1][l], c.a_ps[0] = v[2][l];
            assert_int_equal(got[l], (uint32_t)span_attr_persp(&c, 0, v[3][l]));
        }
    }
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_persp8_ok_matches),
        cmocka_unit_test(test_attr_persp8_any_d),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
