/*
 * test_raster_span.c - spans of whole polygons through the scanline loop (raster/span.c,
 * setup.c): the nds-interp line polygon with its hardware gap (69x49), the right vertical
 * edge shift, wireframe polygons, fill rules of opaque edges, edge flags, draw order.
 * Expected pixels are worked by hand (see each test) from the hardware captures
 * (/work/shared/hardware/nds-interp/dataset/README.md) and melonDS GPU3D_Soft.cpp's rules.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "raster_scene.h"

/* The capture ROM's polygon: a wireframe (alpha 0) triangle v0 = v1 = (0,0), v2 = (69,49).
 * Hardware: row 37 lit 52..52, row 38 54..54 (gap at 53), row 49 unlit. */
static void draw_69x49(bool melonds, int *f37, int *l37, int *f38, int *l38, int *f49)
{
    scene s;
    scene_init(&s, 0x0008);
    const int xy[] = {0, 0, 0, 0, 69, 49};
    scene_poly(&s, 3, xy, attr_make(0, 0, 0), 0, true, 31, 31, 31);
    scene_draw(&s, melonds, 0x7FFFFF);
    int l49;
    scene_row_extent(&s, 37, f37, l37);
    scene_row_extent(&s, 38, f38, l38);
    scene_row_extent(&s, 49, f49, &l49);
    scene_free(&s);
}

static void test_gap_69x49_hardware(void **state)
{
    (void)state;
    int f37, l37, f38, l38, f49;
    draw_69x49(false, &f37, &l37, &f38, &l38, &f49);
    assert_int_equal(f37, 52);
    assert_int_equal(l37, 52);
    assert_int_equal(f38, 54);
    assert_int_equal(l38, 54);
    assert_int_equal(f49, -1);
}

static void test_gap_69x49_melonds(void **state)
{
    (void)state;
    int f37, l37, f38, l38, f49;
    draw_69x49(true, &f37, &l37, &f38, &l38, &f49);
    assert_int_equal(f37, 52);
    assert_int_equal(l37, 53); /* melonDS fills the gap */
    assert_int_equal(f38, 54);
}

/* An opaque rectangle (10,10)-(20,10)-(20,20)-(10,20): the right vertical edge is pushed one
 * pixel left, so columns 10..19 and rows 10..19 are drawn. Edge flags: left 1 at x = 10,
 * right 2 at x = 19, top 4 on row 10, bottom 8 on row 19. */
static void test_rect_right_edge_shift(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    const int xy[] = {10, 10, 10, 20, 20, 20, 20, 10}; /* counter-clockwise on screen */
    scene_poly(&s, 4, xy, attr_make(31, 5, 0), 0x1000, true, 31, 0, 0);
    scene_draw(&s, false, 0x7FFFFF);
    int f, l;
    scene_row_extent(&s, 9, &f, &l);
    assert_int_equal(f, -1);
    for (int y = 10; y < 20; y++) {
        scene_row_extent(&s, y, &f, &l);
        assert_int_equal(f, 10);
        assert_int_equal(l, 19);
    }
    scene_row_extent(&s, 20, &f, &l);
    assert_int_equal(f, -1);
    /* colour: 9-bit 0x1FF >> 3 = 63 red, alpha 31 */
    assert_int_equal(scene_color(&s, 15, 15), dsgx_pixel(63, 0, 0, 31));
    assert_int_equal(scene_attr(&s, 10, 15) & 0xFu, RASTER_ATTR_EDGE_LEFT);
    assert_int_equal(scene_attr(&s, 19, 15) & 0xFu, RASTER_ATTR_EDGE_RIGHT);
    assert_int_equal(scene_attr(&s, 15, 10) & 0xFu, RASTER_ATTR_EDGE_TOP);
    assert_int_equal(scene_attr(&s, 15, 19) & 0xFu, RASTER_ATTR_EDGE_BOTTOM);
    assert_int_equal(scene_attr(&s, 15, 15) & 0xFu, 0);
    /* opaque polygon ID 5 in bits 24-29, depth written */
    assert_int_equal(scene_attr(&s, 15, 15) >> 24, 5);
    assert_int_equal(scene_depth(&s, 15, 15), 0x1000);
    scene_free(&s);
}

/* Wireframe rectangle (alpha 0): only the edges (left column 10, right column 19) and the top
 * and bottom rows; the inside stays clear. Wireframe pixels get alpha 31. */
static void test_wireframe(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    const int xy[] = {10, 10, 10, 20, 20, 20, 20, 10};
    scene_poly(&s, 4, xy, attr_make(0, 0, 0), 0x1000, true, 0, 31, 0);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 10, 15) >> 24, 31);
    assert_int_equal(scene_color(&s, 19, 15) >> 24, 31);
    assert_int_equal(scene_color(&s, 15, 15), 0);
    int f, l;
    scene_row_extent(&s, 10, &f, &l);
    assert_int_equal(f, 10);
    assert_int_equal(l, 19);
    scene_row_extent(&s, 19, &f, &l);
    assert_int_equal(f, 10);
    assert_int_equal(l, 19);
    scene_free(&s);
}

/* Fill rules: triangle (0,0), (40,0), (40,10), back-facing so its left edge is the long edge
 * (0,0)-(40,10) (positive X-major: slope 40 * (262144 / 10) = 1048560) and its right edge is
 * vertical at 40 (pushed to 39). A left edge that is X-major and positive is NOT filled when
 * nothing forces edges: on row 5 its run starts at (0x20000 + 5 * 1048560) >> 18 = 20 and is
 * 4 pixels long (20..23), so the first pixel drawn is 24. With edge marking (DISP3DCNT bit 5)
 * every edge is filled: first pixel 20. */
static void test_fill_rule_left_xmajor(void **state)
{
    (void)state;
    const int xy[] = {0, 0, 40, 0, 40, 10};
    int f_plain, l, f_edge;
    scene s;
    scene_init(&s, 0);
    scene_poly(&s, 3, xy, attr_make(31, 0, 0), 0x1000, false, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    /* row 5: left edge run starts at 0x20000 + 5*4*2^18 -> 20 and is 4 long (20..23);
     * not filled, so the first drawn pixel is 24 */
    scene_row_extent(&s, 5, &f_plain, &l);
    scene_free(&s);
    scene_init(&s, 0x0020); /* edge marking: all edges filled */
    scene_poly(&s, 3, xy, attr_make(31, 0, 0), 0x1000, false, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    scene_row_extent(&s, 5, &f_edge, &l);
    scene_free(&s);
    assert_int_equal(f_plain, 24);
    assert_int_equal(f_edge, 20);
    assert_int_equal(l, 39); /* right vertical edge at 40 pushed to 39 */
}

/* Draw order: opaque polygons are drawn before translucent ones whatever their submission
 * order; a translucent quad submitted first still blends over the opaque one drawn later. */
static void test_order_opaque_first(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0x0008); /* blending on */
    const int xy[] = {0, 0, 0, 8, 8, 8, 8, 0};
    scene_poly(&s, 4, xy, attr_make(15, 1, 0), 0x100, true, 31, 31, 31); /* translucent, near */
    scene_poly(&s, 4, xy, attr_make(31, 2, 0), 0x200, true, 0, 0, 0);    /* opaque black, far */
    scene_draw(&s, false, 0x7FFFFF);
    /* white 63 with alpha 15 over black: (63 * 16 + 0 * 16) >> 5 = 31; alpha max(15, 31) */
    assert_int_equal(scene_color(&s, 3, 3), dsgx_pixel(31, 31, 31, 31));
    assert_true(scene_attr(&s, 3, 3) & RASTER_ATTR_TRANSLUCENT);
    scene_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gap_69x49_hardware),    cmocka_unit_test(test_gap_69x49_melonds),
        cmocka_unit_test(test_rect_right_edge_shift), cmocka_unit_test(test_wireframe),
        cmocka_unit_test(test_fill_rule_left_xmajor), cmocka_unit_test(test_order_opaque_first),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
