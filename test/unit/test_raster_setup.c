/*
 * test_raster_setup.c - per-polygon set-up through the scanline loop (raster/setup.c): a
 * polygon's state slot is reused by the next polygon (raster_engine.slot), which keeps the
 * slot's material state (attribute word, depth test, shader, span functions and their
 * constants) only when the new polygon has the same POLYGON_ATTR, TEXIMAGE_PARAM, PLTT_BASE,
 * facing and buffer mode in the same frame (setup.c material_reusable). Each test draws
 * polygons that one after the other take the same slot (each ends above the next one's top
 * line) and differ in one of those inputs, and checks that each polygon's pixels carry its
 * own material: a slot that kept the previous polygon's state would fail them.
 * Expected words from melonDS GPU3D_Soft.cpp's attribute buffer (raster_internal.h layout).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "raster_scene.h"

/* An 8x8 square from row y to row y + 8 (drawn on rows y..y+7). */
static gx_polygon *square(scene *s, int y, uint32_t attr, int32_t z, bool front, unsigned r5,
                          unsigned g5, unsigned b5)
{
    const int cw[] = {10, y, 10, y + 8, 18, y + 8, 18, y};
    const int ccw[] = {10, y, 18, y, 18, y + 8, 10, y + 8};
    return scene_poly(s, 4, front ? cw : ccw, attr, z, front, r5, g5, b5);
}

/* Polygon ID and facing: the opaque attribute word (ID << 24, back-facing bit 4) and the
 * colour are the new polygon's, also where only one of them changes. */
static void test_slot_reuse_attr_and_facing(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    square(&s, 10, attr_make(31, 5, 0), 0x1000, true, 31, 0, 0);  /* red, ID 5 */
    square(&s, 30, attr_make(31, 9, 0), 0x1000, true, 31, 0, 0);  /* ID 9 */
    square(&s, 50, attr_make(31, 9, 0), 0x1000, false, 31, 0, 0); /* ID 9, back-facing */
    square(&s, 70, attr_make(31, 9, 0), 0x1000, false, 0, 31, 0); /* same material, green */
    scene_draw(&s, false, 0x7FFFFF);

    assert_int_equal(scene_attr(&s, 14, 14) >> 24, 5);
    assert_int_equal(scene_attr(&s, 14, 14) & RASTER_ATTR_BACKFACE, 0);
    assert_int_equal(scene_attr(&s, 14, 34) >> 24, 9);
    assert_int_equal(scene_attr(&s, 14, 34) & RASTER_ATTR_BACKFACE, 0);
    assert_int_equal(scene_attr(&s, 14, 54) >> 24, 9);
    assert_int_equal(scene_attr(&s, 14, 54) & RASTER_ATTR_BACKFACE, RASTER_ATTR_BACKFACE);
    assert_int_equal(scene_attr(&s, 14, 74) >> 24, 9);
    assert_int_equal(scene_attr(&s, 14, 74) & RASTER_ATTR_BACKFACE, RASTER_ATTR_BACKFACE);
    /* colour 31 -> 9-bit 0x1FF -> 6-bit 63 (vertex colour shading) */
    assert_int_equal(scene_color(&s, 14, 54), dsgx_pixel(63, 0, 0, 31));
    assert_int_equal(scene_color(&s, 14, 74), dsgx_pixel(0, 63, 0, 31));
    scene_free(&s);
}

/* Polygon alpha (POLYGON_ATTR bits 16-20): an opaque polygon after a translucent one of the
 * same ID is written as opaque (alpha 31, no translucent flag), and the translucent one after
 * it as translucent again. */
static void test_slot_reuse_alpha(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    square(&s, 10, attr_make(15, 3, 0), 0x1000, true, 0, 0, 31); /* translucent */
    square(&s, 30, attr_make(31, 3, 0), 0x1000, true, 0, 0, 31); /* opaque */
    square(&s, 50, attr_make(15, 3, 0), 0x1000, true, 0, 0, 31); /* translucent */
    scene_draw(&s, false, 0x7FFFFF);
    /* translucent over the clear colour (alpha 0): the source itself, alpha 15 */
    assert_int_equal(scene_color(&s, 14, 14), dsgx_pixel(0, 0, 63, 15));
    assert_true(scene_attr(&s, 14, 14) & RASTER_ATTR_TRANSLUCENT);
    assert_int_equal(scene_color(&s, 14, 34), dsgx_pixel(0, 0, 63, 31));
    assert_false(scene_attr(&s, 14, 34) & RASTER_ATTR_TRANSLUCENT);
    assert_int_equal(scene_color(&s, 14, 54), dsgx_pixel(0, 0, 63, 15));
    assert_true(scene_attr(&s, 14, 54) & RASTER_ATTR_TRANSLUCENT);
    scene_free(&s);
}

/* A square whose depth goes from 0x1000 on its left edge to 0x9000 on its right one. */
static gx_polygon *deep_square(scene *s, int y, bool wbuffer)
{
    gx_polygon *p = square(s, y, attr_make(31, 1, 0), 0, true, 31, 31, 31);
    for (unsigned i = 0; i < p->nverts; i++)
        p->z[i] = s->f->verts[p->vtx[i]].sx == 10 ? 0x1000 : 0x9000;
    p->wbuffer = wbuffer;
    return p;
}

/* Buffer mode: W-buffered and Z-buffered polygons of the same attributes in turn; the span
 * function, chosen by it, must be the polygon's own. Pixel x = 14 of a span from x = 10 to
 * 17 (the right vertical edge at 18 is drawn at 17: xdiff 8), xr = 4:
 *  - Z-buffer (interp.h raster_interp_z along X): 0x1000 + (((0x8000 >> 9) * 4 * xrecip_z)
 *    >> 13) with xrecip_z = 2^22 / 8 = 0x80000: 0x1000 + (2^27 >> 13) = 0x5000;
 *  - W-buffer: the depth takes the perspective factor, which is 0 on a linear span (equal
 *    W, scene_poly's 0x1000): the left edge's 0x1000. */
static void test_slot_reuse_wbuffer(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    deep_square(&s, 10, false);
    deep_square(&s, 30, true);
    deep_square(&s, 50, false);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_depth(&s, 14, 14), 0x5000);
    assert_int_equal(scene_depth(&s, 14, 34), 0x1000);
    assert_int_equal(scene_depth(&s, 14, 54), 0x5000);
    scene_free(&s);
}

/* Frames: the same polygon in the same slot in the next frame is set up again, with that
 * frame's engine state. Alpha test on (DISP3DCNT bit 2) with ALPHA_TEST_REF 20 drops the
 * second frame's alpha-15 pixels (alpha <= ref), which the first frame drew. */
static void test_slot_reuse_next_frame(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    square(&s, 10, attr_make(15, 2, 0), 0x1000, true, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 14, 14), dsgx_pixel(63, 63, 63, 15));

    s.f->regs.disp3dcnt = 0x0004;
    s.f->regs.alpha_ref = 20;
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 14, 14), 0);
    scene_free(&s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slot_reuse_attr_and_facing),
        cmocka_unit_test(test_slot_reuse_alpha),
        cmocka_unit_test(test_slot_reuse_wbuffer),
        cmocka_unit_test(test_slot_reuse_next_frame),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
