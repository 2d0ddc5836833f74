/*
 * test_raster_edge.c - edge slopes (raster/edge.c): reciprocal-first slopes, X-major bias and
 * run ends (hardware gap rule vs melonDS), Y-major and negative edges, flat edges.
 * Expected values worked by hand from the rule in /work/shared/hardware/nds-interp/dataset/
 * README.md (18-bit fractions, slope = (2^18 / dy) * dx, X-major start = x0 + d + 0.5, hardware
 * end = (start & ~0x1FF) + slope - 1.0) and the captured 69x49 record (row 37: 52..52,
 * row 38: 54..54).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "raster/edge.h"

/* 69x49 from (0,0): slope = 69 * (262144 / 49 = 5349) = 369081 (X-major). */
static void test_slope_69x49_increment(void **state)
{
    (void)state;
    raster_slope s;
    raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 0, 69, 0, 49, 0x1000, 0x1000, 0);
    assert_int_equal(s.inc, 369081);
    assert_true(s.xmajor);
    assert_false(s.negative);
}

/* Row 37: start = 0x20000 + 37 * 369081 = 13787069 -> pixel 52 (52.59). Hardware end:
 * (13787069 & ~0x1FF) + 369081 - 0x40000 = 13893561 -> 52 (53 * 2^18 = 13893632): run 52..52.
 * melonDS end: 13787069 + 106937 = 13894006 -> 53: run 52..53. Row 38 starts at 54. */
static void test_slope_69x49_gap_left(void **state)
{
    (void)state;
    raster_slope s;
    int32_t len, cov;
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 0, 69, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 52);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 1); /* hardware: 52..52, column 53 is the gap */
    x = raster_slope_step(&s);
    assert_int_equal(x, 54); /* row 38 starts at 54 */

    x = raster_slope_setup(&s, RASTER_SIDE_LEFT, false, 0, 69, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 52);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 2); /* melonDS: 52..53, no gap */
}

/* The same edge as a right edge is kept at its far end: hardware 52 on row 37, melonDS 53. */
static void test_slope_69x49_gap_right(void **state)
{
    (void)state;
    raster_slope s;
    int32_t len, cov;
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_RIGHT, true, 0, 69, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 52);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 1);
    x = raster_slope_setup(&s, RASTER_SIDE_RIGHT, false, 0, 69, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 53);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 2);
    /* row 38 (no gap): start 54; end = ((14156150 & ~0x1FF) + 106937) >> 18 = 54 */
    x = raster_slope_setup(&s, RASTER_SIDE_RIGHT, true, 0, 69, 0, 49, 0x1000, 0x1000, 38);
    assert_int_equal(x, 54);
}

/* Negative mirror (TR origin, 256 - 69): rightmost pixel = 255 - 52 = 203 on row 37; the
 * hardware rounds the low bits up, leaving the gap on the left: 203..203; melonDS 202..203. */
static void test_slope_69x49_negative(void **state)
{
    (void)state;
    raster_slope s;
    int32_t len, cov;
    /* left edge of a negative slope sits at the far (left) end */
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 256, 187, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 203);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 1);
    x = raster_slope_setup(&s, RASTER_SIDE_LEFT, false, 256, 187, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 202);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 2);
    /* the right edge sits at the near end: 256 - 1 - 52 = 203 in both modes */
    x = raster_slope_setup(&s, RASTER_SIDE_RIGHT, true, 256, 187, 0, 49, 0x1000, 0x1000, 37);
    assert_int_equal(x, 203);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 1);
}

/* Y-major (3x8): slope = 3 * 32768 = 98304, no bias. Row 5: 5 * 98304 = 491520 -> +1.
 * Negative: x0 - 1 - floor(d): 13 - 1 - 1 = 11 on row 5, 12 on row 0. */
static void test_slope_ymajor(void **state)
{
    (void)state;
    raster_slope s;
    int32_t len, cov;
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 10, 13, 0, 8, 0x1000, 0x1000, 5);
    assert_int_equal(s.inc, 98304);
    assert_false(s.xmajor);
    assert_int_equal(x, 11);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 1);
    x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 13, 10, 0, 8, 0x1000, 0x1000, 0);
    assert_int_equal(x, 12);
    x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 13, 10, 0, 8, 0x1000, 0x1000, 5);
    assert_int_equal(x, 11);
}

/* 45 degrees: dx == dy gives exactly 1.0 (melonDS), x0 + y on row y. */
static void test_slope_diagonal(void **state)
{
    (void)state;
    raster_slope s;
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 0, 3, 0, 3, 0x1000, 0x1000, 2);
    assert_int_equal(s.inc, 0x40000);
    assert_false(s.xmajor);
    assert_int_equal(x, 2);
}

/* Vertical edge: slope 0; flat edge: position only. */
static void test_slope_vertical_flat(void **state)
{
    (void)state;
    raster_slope s;
    int32_t len, cov;
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_RIGHT, true, 20, 20, 0, 10, 0x1000, 0x1000, 4);
    assert_int_equal(s.inc, 0);
    assert_int_equal(x, 20);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(cov, 31); /* vertical: full coverage */
    raster_slope_edge_params(&s, true, &len, &cov);
    assert_int_equal(cov, 0); /* inverted when swapped (melonDS) */
    x = raster_slope_setup_flat(&s, RASTER_SIDE_LEFT, 7);
    assert_int_equal(x, 7);
    assert_int_equal(raster_slope_step(&s), 7);
}

/* Wide X-major run: 100x2 from (0,0): slope = 100 * 131072 = 13107200. Row 1: start =
 * 0x20000 + 13107200 = 13238272 -> 50 (50.5); end = ((13238272 & ~0x1FF) + 13107200 -
 * 262144) >> 18 = 26083328 >> 18 = 99 (99.5). Both rules agree here (low bits are 0). */
static void test_slope_wide_run(void **state)
{
    (void)state;
    raster_slope s;
    int32_t len, cov;
    int32_t x = raster_slope_setup(&s, RASTER_SIDE_LEFT, true, 0, 100, 0, 2, 0x1000, 0x1000, 1);
    assert_int_equal(x, 50);
    raster_slope_edge_params(&s, false, &len, &cov);
    assert_int_equal(len, 50);
    x = raster_slope_setup(&s, RASTER_SIDE_RIGHT, true, 0, 100, 0, 2, 0x1000, 0x1000, 1);
    assert_int_equal(x, 99);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slope_69x49_increment), cmocka_unit_test(test_slope_69x49_gap_left),
        cmocka_unit_test(test_slope_69x49_gap_right), cmocka_unit_test(test_slope_69x49_negative),
        cmocka_unit_test(test_slope_ymajor),          cmocka_unit_test(test_slope_diagonal),
        cmocka_unit_test(test_slope_vertical_flat),   cmocka_unit_test(test_slope_wide_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
