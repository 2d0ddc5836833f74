/*
 * test_raster_depth.c - depth test, translucent polygon-ID rule and shadow stencil of the
 * scanline loop (raster/span.c). Rules from melonDS GPU3D_Soft.cpp (DepthTest_*,
 * PlotTranslucentPixel, RenderShadowMaskScanline) and GBATEK "DS 3D Polygon Attributes";
 * every expected pixel is worked by hand in the test's comment. Scenes are 8x8 squares with a
 * constant depth, so interpolated depth equals the vertex depth exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "raster_scene.h"

static const int SQ[] = {0, 0, 0, 8, 8, 8, 8, 0};
#define RED   dsgx_pixel(63, 0, 0, 31)
#define GREEN dsgx_pixel(0, 63, 0, 31)

/* Two opaque squares, the second drawn later (same Y-sort key keeps submission order). */
static uint32_t two_squares(bool front_a, int32_t za, bool front_b, int32_t zb, uint32_t attr_b)
{
    scene s;
    scene_init(&s, 0);
    scene_poly(&s, 4, SQ, attr_make(31, 1, 0), za, front_a, 31, 0, 0);
    scene_poly(&s, 4, SQ, attr_b, zb, front_b, 0, 31, 0);
    scene_draw(&s, false, 0x7FFFFF);
    uint32_t c = scene_color(&s, 4, 4);
    scene_free(&s);
    return c;
}

/* Less-than: equal depth does not pass, smaller depth does. */
static void test_depth_less(void **state)
{
    (void)state;
    assert_int_equal(two_squares(true, 0x5000, true, 0x5000, attr_make(31, 2, 0)), RED);
    assert_int_equal(two_squares(true, 0x5000, true, 0x4FFF, attr_make(31, 2, 0)), GREEN);
    assert_int_equal(two_squares(false, 0x5000, false, 0x5000, attr_make(31, 2, 0)), RED);
}

/* Less-or-equal exception: a front-facing pixel over an opaque back-facing one passes at equal
 * depth; a back-facing one over a front-facing one does not. */
static void test_depth_lequal_front_over_back(void **state)
{
    (void)state;
    assert_int_equal(two_squares(false, 0x5000, true, 0x5000, attr_make(31, 2, 0)), GREEN);
    assert_int_equal(two_squares(true, 0x5000, false, 0x5000, attr_make(31, 2, 0)), RED);
    assert_int_equal(two_squares(false, 0x5000, true, 0x5001, attr_make(31, 2, 0)), RED);
}

/* POLYGON_ATTR bit 14 (depth equal), Z-buffer tolerance 0x200 either way. */
static void test_depth_equal_tolerance(void **state)
{
    (void)state;
    uint32_t eq = attr_make(31, 2, 0) | 1u << 14;
    assert_int_equal(two_squares(true, 0x5000, true, 0x5200, eq), GREEN);
    assert_int_equal(two_squares(true, 0x5000, true, 0x4E00, eq), GREEN);
    assert_int_equal(two_squares(true, 0x5000, true, 0x5201, eq), RED);
    assert_int_equal(two_squares(true, 0x5000, true, 0x4DFF, eq), RED);
    /* a nearer pixel outside the tolerance fails too (it is not a less test) */
    assert_int_equal(two_squares(true, 0x5000, true, 0x1000, eq), RED);
}

/* Translucent polygon-ID rule: a translucent pixel is not drawn over one of the same
 * translucent ID. Black opaque background (alpha 31), white translucent alpha 15 twice:
 * same ID -> one blend: (63 * 16) >> 5 = 31; different IDs -> second blend:
 * (63 * 16 + 31 * 16) >> 5 = 47. Depth is not written by translucent pixels (bit 11 off). */
static uint32_t two_translucent(unsigned id_a, unsigned id_b, uint32_t *depth)
{
    scene s;
    scene_init(&s, 0x0008);
    scene_poly(&s, 4, SQ, attr_make(31, 0, 0), 0x7000, true, 0, 0, 0);
    scene_poly(&s, 4, SQ, attr_make(15, id_a, 0), 0x5000, true, 31, 31, 31);
    scene_poly(&s, 4, SQ, attr_make(15, id_b, 0), 0x4000, true, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    uint32_t c = scene_color(&s, 4, 4);
    *depth = scene_depth(&s, 4, 4);
    scene_free(&s);
    return c;
}

static void test_translucent_id_rule(void **state)
{
    (void)state;
    uint32_t z;
    assert_int_equal(two_translucent(3, 3, &z), dsgx_pixel(31, 31, 31, 31));
    assert_int_equal(z, 0x7000);
    assert_int_equal(two_translucent(3, 4, &z), dsgx_pixel(47, 47, 47, 31));
}

/* Translucent depth update (POLYGON_ATTR bit 11). */
static void test_translucent_depth_update(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0x0008);
    scene_poly(&s, 4, SQ, attr_make(15, 3, 0) | 1u << 11, 0x5000, true, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_depth(&s, 4, 4), 0x5000);
    scene_free(&s);
}

/* Shadow volume: opaque floor (ID 2, depth 0x5000, black) over x 0..15; a shadow mask (mode 3,
 * ID 0) at depth 0x6000 (behind the floor: its depth test fails -> stencil set) over x 4..11;
 * then a shadow polygon (mode 3, ID 1, alpha 15, white, depth 0x1000) over x 0..15. Manual
 * translucent sort keeps mask -> shadow. The shadow is drawn only where the stencil is set:
 * x 4..11 gets (63 * 16) >> 5 = 31, x 0..3 and 12..15 stay black. */
static void test_shadow_stencil(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0x0008);
    s.f->regs.swap_param = 1;
    const int floor_xy[] = {0, 0, 0, 8, 16, 8, 16, 0};
    const int mask_xy[] = {4, 0, 4, 8, 12, 8, 12, 0};
    scene_poly(&s, 4, floor_xy, attr_make(31, 2, 0), 0x5000, true, 0, 0, 0);
    scene_poly(&s, 4, mask_xy, attr_make(15, 0, 3), 0x6000, true, 0, 0, 0);
    scene_poly(&s, 4, floor_xy, attr_make(15, 1, 3), 0x1000, true, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 2, 4), dsgx_pixel(0, 0, 0, 31));
    assert_int_equal(scene_color(&s, 5, 4), dsgx_pixel(31, 31, 31, 31));
    assert_int_equal(scene_color(&s, 10, 4), dsgx_pixel(31, 31, 31, 31));
    assert_int_equal(scene_color(&s, 13, 4), dsgx_pixel(0, 0, 0, 31));
    /* the mask itself draws nothing */
    scene_free(&s);

    /* A shadow is not drawn over opaque pixels of its own polygon ID: floor ID 1. */
    scene_init(&s, 0x0008);
    s.f->regs.swap_param = 1;
    scene_poly(&s, 4, floor_xy, attr_make(31, 1, 0), 0x5000, true, 0, 0, 0);
    scene_poly(&s, 4, mask_xy, attr_make(15, 0, 3), 0x6000, true, 0, 0, 0);
    scene_poly(&s, 4, floor_xy, attr_make(15, 1, 3), 0x1000, true, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 5, 4), dsgx_pixel(0, 0, 0, 31));
    scene_free(&s);
}

/* Alpha test: with DISP3DCNT bit 2 and ALPHA_TEST_REF 15, alpha 15 is dropped, 16 drawn. */
static void test_alpha_test(void **state)
{
    (void)state;
    for (unsigned a = 15; a <= 16; a++) {
        scene s;
        scene_init(&s, 0x0004 | 0x0008);
        s.f->regs.alpha_ref = 15;
        scene_poly(&s, 4, SQ, attr_make(a, 1, 0), 0x5000, true, 31, 31, 31);
        scene_draw(&s, false, 0x7FFFFF);
        /* over clear alpha 0 the translucent pixel is written as is */
        assert_int_equal(scene_color(&s, 4, 4), a == 15 ? 0u : dsgx_pixel(63, 63, 63, 16));
        scene_free(&s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_depth_less),
        cmocka_unit_test(test_depth_lequal_front_over_back),
        cmocka_unit_test(test_depth_equal_tolerance),
        cmocka_unit_test(test_translucent_id_rule),
        cmocka_unit_test(test_translucent_depth_update),
        cmocka_unit_test(test_shadow_stencil),
        cmocka_unit_test(test_alpha_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
