/*
 * test_raster_interp.c - the perspective-correct interpolator (raster/interp.c). Expected values
 * are worked by hand from the model in melonDS GPU3D_Soft.h ("Notes on the interpolator"):
 * factor = (x * w0) << shift / (x * w0 + (len - x) * w1), shift 8 along X, 9 along Y, and the
 * true perspective-correct value (A/W, 1/W interpolation) is given for comparison.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "raster/interp.h"

/* Equal W with the low 7 bits clear: exact linear interpolation. 100 * 3 / 10 = 30;
 * decreasing: 0 + 100 * (10 - 3) / 10 = 70. */
static void test_linear_equal_w(void **state)
{
    (void)state;
    raster_interp ip;
    raster_interp_setup(&ip, RASTER_INTERP_X, 0, 10, 0x1000, 0x1000);
    assert_true(ip.linear);
    raster_interp_set(&ip, 3);
    assert_int_equal(raster_interp_attr(&ip, 0, 100), 30);
    assert_int_equal(raster_interp_attr(&ip, 100, 0), 70);
    /* low bit set along X: not linear */
    raster_interp_setup(&ip, RASTER_INTERP_X, 0, 10, 0x1001, 0x1001);
    assert_false(ip.linear);
    /* along Y bit 0 is ignored: still linear */
    raster_interp_setup(&ip, RASTER_INTERP_Y, 0, 10, 0x1001, 0x1001);
    assert_true(ip.linear);
}

/* Perspective along X: w0 = 1, w1 = 3, length 4, x = 2. True value of an attribute 0 -> 256:
 * (0/1 * .5 + 256/3 * .5) / (1/1 * .5 + 1/3 * .5) = 64. Hardware: factor = (2*1 << 8) /
 * (2*1 + 2*3) = 512 / 8 = 64 -> 0 + (256 * 64) >> 8 = 64; decreasing 256 -> 0: 0 + (256 *
 * (256 - 64)) >> 8 = 192. */
static void test_perspective_x(void **state)
{
    (void)state;
    raster_interp ip;
    raster_interp_setup(&ip, RASTER_INTERP_X, 0, 4, 1, 3);
    assert_false(ip.linear);
    raster_interp_set(&ip, 2);
    assert_int_equal(ip.factor, 64);
    assert_int_equal(raster_interp_attr(&ip, 0, 256), 64);
    assert_int_equal(raster_interp_attr(&ip, 256, 0), 192);
    /* reduced precision: 0 -> 10 gives (10 * 64) >> 8 = 2 (true value 2.5) */
    assert_int_equal(raster_interp_attr(&ip, 0, 10), 2);
}

/* Along Y, odd w0 with even w1: numerator w0-1, denominator w0+1. w0 = 3, w1 = 4, length 2,
 * x = 1: factor = (1*2 << 9) / (1*4 + 1*4) = 1024 / 8 = 128; 0 -> 512 gives 128. With both
 * even (w0 = 4, w1 = 4, low bits set: 4 & 0x7E != 0 so not linear): factor = (4 << 9) / 8 =
 * 256 = one half. */
static void test_perspective_y_odd(void **state)
{
    (void)state;
    raster_interp ip;
    raster_interp_setup(&ip, RASTER_INTERP_Y, 0, 2, 3, 4);
    raster_interp_set(&ip, 1);
    assert_int_equal(ip.factor, 128);
    assert_int_equal(raster_interp_attr(&ip, 0, 512), 128);
    raster_interp_setup(&ip, RASTER_INTERP_Y, 0, 2, 4, 4);
    assert_false(ip.linear);
    raster_interp_set(&ip, 1);
    assert_int_equal(ip.factor, 256);
}

/* Z-buffer depth along X: length 256, reciprocal 2^22 / 256 = 16384; 0 -> 0x200000 at x = 64:
 * (0x200000 >> 9) * 64 * 16384 >> 13 = 0x80000 (a quarter). */
static void test_zbuffer_x(void **state)
{
    (void)state;
    raster_interp ip;
    raster_interp_setup(&ip, RASTER_INTERP_X, 0, 256, 0x1000, 0x2000);
    raster_interp_set_pos(&ip, 64);
    assert_int_equal(raster_interp_z(&ip, 0, 0x200000, false), 0x80000);
    /* reversed: base 0 + (0x1000 * (256 - 64) * 16384) >> 13 = 0x180000 */
    assert_int_equal(raster_interp_z(&ip, 0x200000, 0, false), 0x180000);
    /* a difference below 0x200 vanishes along X (>> 9) */
    assert_int_equal(raster_interp_z(&ip, 0x1000, 0x11FF, false), 0x1000);
}

/* Z-buffer depth along Y: length 8, reciprocal 2^22 / 8 = 524288; difference 0x1000 is
 * reduced to 10 bits (0x200, shift 3): (0x200 * 2 * 524288) >> 22 = 128, << 3 = 0x400. */
static void test_zbuffer_y(void **state)
{
    (void)state;
    raster_interp ip;
    raster_interp_setup(&ip, RASTER_INTERP_Y, 0, 8, 0x1000, 0x1000);
    raster_interp_set_pos(&ip, 2);
    assert_int_equal(raster_interp_z(&ip, 0, 0x1000, false), 0x400);
    /* 0x1FFF reduces to 0x3FF (shift 3, low bits lost): (0x3FF*2*524288 >> 22) = 255, << 3 */
    assert_int_equal(raster_interp_z(&ip, 0, 0x1FFF, false), 255 << 3);
}

/* W-buffer depth uses the perspective factor (64-bit product): factor 64 of 256 as above,
 * 0x1000 -> 0x5000: 0x1000 + (0x4000 * 64) >> 8 = 0x2000. */
static void test_wbuffer(void **state)
{
    (void)state;
    raster_interp ip;
    raster_interp_setup(&ip, RASTER_INTERP_X, 0, 4, 1, 3);
    raster_interp_set(&ip, 2);
    assert_int_equal(raster_interp_z(&ip, 0x1000, 0x5000, true), 0x2000);
    assert_int_equal(raster_interp_z(&ip, 0x5000, 0x1000, true), 0x1000 + ((0x4000 * 192) >> 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_linear_equal_w),    cmocka_unit_test(test_perspective_x),
        cmocka_unit_test(test_perspective_y_odd), cmocka_unit_test(test_zbuffer_x),
        cmocka_unit_test(test_zbuffer_y),         cmocka_unit_test(test_wbuffer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
