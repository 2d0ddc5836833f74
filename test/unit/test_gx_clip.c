/*
 * test_gx_clip.c - clipping against the view volume (gx/clip.c): a vertex outside is replaced
 * by the intersections with its inside neighbours (previous first), attributes interpolated with
 * factor (w_in - c_in) / ((w_in - c_in) - (w_out - c_out)) truncated toward zero, colours kept
 * at 5 bits ((c5 << 12) | 0xFFF), far plane by POLYGON_ATTR bit 12 (GBATEK), near plane always.
 * Worked by hand from those rules (melonDS GPU3D.cpp ClipSegment/ClipAgainstPlane).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

#define RED5  0x1FFFF /* (31 << 12) | 0xFFF */
#define ZERO5 0xFFF

static gx_vertex mk(int32_t x, int32_t y, int32_t z, int32_t w, int32_t r, int16_t s)
{
    gx_vertex v;
    memset(&v, 0, sizeof(v));
    v.clip[0] = x;
    v.clip[1] = y;
    v.clip[2] = z;
    v.clip[3] = w;
    v.color5[0] = r;
    v.color5[1] = ZERO5;
    v.color5[2] = ZERO5;
    v.texcoord[0] = s;
    return v;
}

static void test_one_vertex_outside_right(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    v[0] = mk(0x2000, 0, 0, 0x1000, RED5, 0x100); /* x = 2w */
    v[1] = mk(0, 0x800, 0, 0x1000, ZERO5, 0);
    v[2] = mk(0, -0x800, 0, 0x1000, ZERO5, 0);
    int n = gx_clip_polygon(v, 3, 0, true, false);
    assert_int_equal(n, 4);
    /* v0 -> v1 (next) first, factor 1/2 */
    assert_int_equal(v[0].clip[0], 0x1000);
    assert_int_equal(v[0].clip[1], 0x400);
    assert_true(v[0].clipped);
    /* the inside vertices follow unchanged */
    assert_int_equal(v[1].clip[1], 0x800);
    assert_false(v[1].clipped);
    assert_int_equal(v[2].clip[1], -0x800);
    /* v0 -> v2 (vertex 0 against the last vertex) goes LAST (hardware, clip.c),
     * factor -0x1000 / -0x2000 = 1/2 */
    assert_int_equal(v[3].clip[0], 0x1000);
    assert_int_equal(v[3].clip[1], -0x400);
    assert_int_equal(v[3].clip[3], 0x1000);
    assert_true(v[3].clipped);
    /* red: 0x1FFFF + (0xFFF - 0x1FFFF) / 2 = 0x107FF -> 5 bits again: 0x10FFF (16) */
    assert_int_equal(v[3].color5[0], 0x10FFF);
    assert_int_equal(v[3].color5[1], ZERO5);
    assert_int_equal(v[3].texcoord[0], 0x80);
}

static void test_interpolation_truncates_toward_zero(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    v[0] = mk(0x3000, 0, 0, 0x1000, RED5, 0x100); /* factor -0x2000 / -0x3000 = 2/3 */
    v[1] = mk(0, 0x800, 0, 0x1000, ZERO5, 0);
    v[2] = mk(0, -0x800, 0, 0x1000, ZERO5, 0);
    assert_int_equal(gx_clip_polygon(v, 3, 0, true, false), 4);
    /* y: -0x800 * -0x2000 / -0x3000 = -1365.33 -> -1365; s: 0x100 - 170.67 -> 0x100 - 170 */
    /* (v0 -> v1 first, v0 -> v2 last: clip.c) */
    assert_int_equal(v[3].clip[1], -1365);
    assert_int_equal(v[3].texcoord[0], 0x100 - 170);
    assert_int_equal(v[0].clip[1], 1365);
}

static void test_vertex_on_plane_is_inside(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    v[0] = mk(0x1000, 0, 0, 0x1000, RED5, 0);
    v[1] = mk(0, -0x1000, 0, 0x1000, ZERO5, 0);
    v[2] = mk(-0x1000, 0x1000, -0x1000, 0x1000, ZERO5, 0);
    assert_int_equal(gx_clip_polygon(v, 3, 0, true, false), 3);
    assert_int_equal(v[0].clip[0], 0x1000);
    assert_false(v[0].clipped);
    assert_int_equal(v[0].color5[0], RED5);
}

static void test_far_plane_modes(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    for (int far = 0; far < 2; far++) {
        v[0] = mk(0, 0, 0x2000, 0x1000, RED5, 0); /* beyond the far plane */
        v[1] = mk(0, 0x800, 0, 0x1000, ZERO5, 0);
        v[2] = mk(0x800, 0, 0, 0x1000, ZERO5, 0);
        int n = gx_clip_polygon(v, 3, 0, true, far != 0);
        if (!far) {
            assert_int_equal(n, 0); /* bit 12 clear: the whole polygon is hidden */
            continue;
        }
        assert_int_equal(n, 4);
        /* v0 -> v2 (last): factor (0x1000 - 0x2000) / (-0x1000 - 0x1000) = 1/2 */
        assert_int_equal(v[3].clip[2], 0x1000);
        assert_int_equal(v[3].clip[0], 0x400);
        assert_int_equal(v[0].clip[2], 0x1000); /* v0 -> v1 */
        assert_int_equal(v[0].clip[1], 0x400);
    }
}

static void test_near_plane_always_clips(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    v[0] = mk(0, 0, -0x2000, 0x1000, RED5, 0); /* in front of the near plane */
    v[1] = mk(0, 0x800, 0, 0x1000, ZERO5, 0);
    v[2] = mk(0x800, 0, 0, 0x1000, ZERO5, 0);
    assert_int_equal(gx_clip_polygon(v, 3, 0, true, false), 4);
    /* factor (w + z) = -0x1000 over -0x1000 - 0x1000: 1/2; z = -w */
    assert_int_equal(v[3].clip[2], -0x1000); /* v0 -> v2, last */
    assert_int_equal(v[3].clip[0], 0x400);
    assert_int_equal(v[0].clip[2], -0x1000); /* v0 -> v1 */
}

static void test_all_outside(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    v[0] = mk(-0x2000, 0, 0, 0x1000, RED5, 0);
    v[1] = mk(-0x3000, 0x800, 0, 0x1000, ZERO5, 0);
    v[2] = mk(-0x1800, -0x800, 0, 0x1000, ZERO5, 0);
    assert_int_equal(gx_clip_polygon(v, 3, 0, true, true), 0);
}

static void test_reused_strip_vertices_not_clipped(void **state)
{
    (void)state;
    gx_vertex v[GX_MAX_POLY_VERTS];
    /* with clipstart 2 the first two vertices are taken as inside, even if they are not */
    v[0] = mk(0x2000, 0, 0, 0x1000, RED5, 0);
    v[1] = mk(0, 0x800, 0, 0x1000, ZERO5, 0);
    v[2] = mk(0, -0x800, 0, 0x1000, ZERO5, 0);
    assert_int_equal(gx_clip_polygon(v, 3, 2, true, false), 3);
    assert_int_equal(v[0].clip[0], 0x2000);
    assert_false(v[0].clipped);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_vertex_outside_right),
        cmocka_unit_test(test_interpolation_truncates_toward_zero),
        cmocka_unit_test(test_vertex_on_plane_is_inside),
        cmocka_unit_test(test_far_plane_modes),
        cmocka_unit_test(test_near_plane_always_clips),
        cmocka_unit_test(test_all_outside),
        cmocka_unit_test(test_reused_strip_vertices_not_clipped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
