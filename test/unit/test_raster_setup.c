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
 * Also the frame's render list (which polygons are drawn, in which order, their screen
 * extent) against a plain filter and insertion sort on random frames.
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

/* ---- the render list (setup.c raster_setup_frame) against a plain reference ---- */

static uint32_t rnd(uint64_t *st)
{
    *st = *st * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*st >> 33);
}

/* Drawn at all: 1..GX_MAX_POLY_VERTS vertices, each index in vertex RAM with W != 0, bottom Y
 * at most 192 (melonDS's Degenerate flag). */
static bool ref_drawable(const gx_frame *f, const gx_polygon *p)
{
    if (p->nverts == 0 || p->nverts > GX_MAX_POLY_VERTS || p->ybottom > 192) return false;
    for (unsigned k = 0; k < p->nverts; k++)
        if (p->vtx[k] >= GX_MAX_VERTICES || f->verts[p->vtx[k]].clip[3] == 0) return false;
    return true;
}

/* The drawing-order key: translucent after opaque; then bottom Y, top Y (low bytes), except
 * translucent polygons under manual sort, which keep their submission order. */
static uint32_t ref_key(const gx_polygon *p, bool manual)
{
    uint32_t key = ((uint32_t)p->ybottom & 0xFFu) << 8 | ((uint32_t)p->ytop & 0xFFu);
    if (p->translucent && manual) key = 0;
    return (p->translucent ? 0x10000u : 0u) | key;
}

/* Random frames, some submitted in drawing order already (the set-up then skips its sort),
 * some not, some in order up to a point, some with polygons that are not drawn: the list (insertion
 * sort, stable, of the drawn polygons), each polygon's extent (min/max vertex X, top and bottom
 * line), the shadow flag and the top-line check equal the reference's. */
static void test_render_list_matches_ref(void **state)
{
    (void)state;
    gx_frame *f = calloc(1, sizeof *f);
    raster_engine *r = raster_create();
    assert_non_null(f);
    assert_non_null(r);
    raster_pixel_frame_setup(&r->pixel, &f->regs);
    static const gx_polygon *ref[GX_MAX_POLYGONS];
    uint64_t st = 11;
    for (int frame = 0; frame < 300; frame++) {
        uint32_t n = frame % 7 == 0 ? rnd(&st) % 4 : 1 + rnd(&st) % GX_MAX_POLYGONS;
        bool manual = rnd(&st) & 1, in_order = frame % 3 == 0, some_undrawn = frame % 4 == 1;
        /* (a prefix in drawing order, then not: the set-up writes the list in place until its
         * first entry out of order, then moves it aside and sorts) */
        uint32_t ordered = in_order ? n : frame % 5 == 2 ? (uint32_t)(rnd(&st) % (n + 1u)) : 0u;
        f->regs.swap_param = manual ? 1u : 0u;
        f->npolys = n;
        f->nverts = GX_MAX_VERTICES;
        for (uint32_t v = 0; v < GX_MAX_VERTICES; v++) {
            f->verts[v].sx = (int32_t)(rnd(&st) % 540) - 10;
            f->verts[v].sy = (int32_t)(rnd(&st) % 200);
            f->verts[v].clip[3] = some_undrawn && rnd(&st) % 64 == 0 ? 0 : 0x1000;
        }
        uint32_t y = 0;
        for (uint32_t i = 0; i < n; i++) {
            gx_polygon *p = &f->polys[i];
            memset(p, 0, sizeof *p);
            p->nverts = (uint8_t)(3 + rnd(&st) % 2);
            if (some_undrawn && rnd(&st) % 50 == 0) p->nverts = 0;
            int32_t top = 1000, bottom = -1000;
            for (unsigned k = 0; k < p->nverts; k++) {
                p->vtx[k] = (uint16_t)(rnd(&st) % GX_MAX_VERTICES);
                if (some_undrawn && rnd(&st) % 200 == 0)
                    p->vtx[k] = GX_MAX_VERTICES + 3;
                else {
                    int32_t sy = f->verts[p->vtx[k]].sy;
                    top = sy < top ? sy : top;
                    bottom = sy > bottom ? sy : bottom;
                }
            }
            p->translucent = rnd(&st) % 4 == 0;
            p->attr = rnd(&st) % 16 == 0 ? 3u << 4 : 0u; /* (mode 3: shadow) */
            p->ytop = top;
            p->ybottom = bottom;
            if (i < ordered) { /* keys ascending: bottom Y never decreasing, top 2 above it;
                                * the translucent ones last */
                y += rnd(&st) % 3 == 0;
                p->ybottom = (int32_t)(y > 192 ? 192 : y);
                p->ytop = p->ybottom < 2 ? 0 : p->ybottom - 2;
                p->translucent = i >= n / 2 && frame % 2 == 0;
            }
            if (rnd(&st) % 100 == 0) p->ytop = -(int32_t)(rnd(&st) % 5); /* (above the screen) */
        }
        raster_setup_frame(r, f);

        uint32_t m = 0;
        bool shadows = false, ytop_ok = true;
        for (uint32_t i = 0; i < n; i++) {
            const gx_polygon *p = &f->polys[i];
            if (!ref_drawable(f, p)) continue;
            shadows |= polyattr_mode(p->attr) == POLYMODE_SHADOW;
            ytop_ok &= p->ytop >= 0 && p->ytop <= p->ybottom;
            uint32_t j = m++;
            for (; j > 0 && ref_key(ref[j - 1], manual) > ref_key(p, manual); j--)
                ref[j] = ref[j - 1];
            ref[j] = p;
        }
        assert_int_equal(r->npolys, m);
        assert_int_equal(r->has_shadows, shadows);
        assert_int_equal(r->list_ytop_ok, ytop_ok);
        for (uint32_t k = 0; k < m; k++) {
            const gx_polygon *p = ref[k];
            assert_ptr_equal(r->list[k], p);
            int32_t x0 = INT32_MAX, x1 = INT32_MIN;
            for (unsigned v = 0; v < p->nverts; v++) {
                int32_t x = f->verts[p->vtx[v]].sx;
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
            }
            assert_int_equal(r->box[k].x0, x0);
            assert_int_equal(r->box[k].x1, x1);
            assert_int_equal(r->box[k].ytop, p->ytop);
            assert_int_equal(r->box[k].ybottom, p->ybottom);
        }
    }
    raster_destroy(r);
    free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slot_reuse_attr_and_facing),
        cmocka_unit_test(test_slot_reuse_alpha),
        cmocka_unit_test(test_slot_reuse_wbuffer),
        cmocka_unit_test(test_slot_reuse_next_frame),
        cmocka_unit_test(test_render_list_matches_ref),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
