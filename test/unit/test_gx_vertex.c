/*
 * test_gx_vertex.c - vertex formats (GBATEK "DS 3D Vertex"), the clip-matrix transform, the
 * vertex colour, polygon assembly of the four primitive types and strip vertex sharing/restart
 * (melonDS GPU3D.cpp SubmitVertex/SubmitPolygon). All values are worked by hand with identity
 * matrices (clip = position, w = 1.0 = 0x1000) unless a test loads another matrix.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "gx/gx_internal.h"

enum {
    OP_MTX_MODE = 0x10,
    OP_MTX_LOAD44 = 0x16,
    OP_COLOR = 0x20,
    OP_VTX16 = 0x23,
    OP_VTX10 = 0x24,
    OP_VTXXY = 0x25,
    OP_VTXXZ = 0x26,
    OP_VTXYZ = 0x27,
    OP_VTXDIFF = 0x28,
    OP_ATTR = 0x29,
    OP_BEGIN = 0x40,
    OP_END = 0x41,
    OP_VIEWPORT = 0x60,
};
#define ATTR_BOTH 0x001F00C0u /* alpha 31, front and back drawn */

static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}
static uint32_t pk(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16);
}
static void vtx(gx_engine *gx, int32_t x, int32_t y, int32_t z)
{
    cmd(gx, OP_VTX16, pk(x, y));
    cmd(gx, OP_VTX16, (uint32_t)z & 0xFFFFu);
}
static gx_engine *setup(uint32_t attr, uint32_t prim)
{
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    cmd(gx, OP_VIEWPORT, 0xBFFF0000u); /* 0,0 - 255,191 */
    cmd(gx, OP_ATTR, attr);
    cmd(gx, OP_BEGIN, prim);
    return gx;
}

static void test_vtx16_transform_and_color(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 0);
    cmd(gx, OP_COLOR, 0x7C1Fu); /* r 31, g 0, b 31 */
    vtx(gx, 0x1000, 0x800, -0x400);
    const gx_vertex *v = &gx->geom.buf[0];
    assert_int_equal(v->clip[0], 0x1000);
    assert_int_equal(v->clip[1], 0x800);
    assert_int_equal(v->clip[2], -0x400);
    assert_int_equal(v->clip[3], 0x1000);
    assert_int_equal(v->color5[0], 0x1FFFF); /* (31 << 12) | 0xFFF */
    assert_int_equal(v->color5[1], 0xFFF);
    assert_int_equal(v->color5[2], 0x1FFFF);
    assert_false(gx->geom.poly_completed);
    gx_destroy(gx);
}

static void test_matrix_transform(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 0);
    /* projection: scale x by 2, w = z + 1 (m[11] = 1.0, m[15] = 1.0) */
    static const int32_t m[16] = {0x2000, 0, 0,      0,      0, 0x1000, 0, 0,
                                  0,      0, 0x1000, 0x1000, 0, 0,      0, 0x1000};
    cmd(gx, OP_MTX_MODE, 0);
    for (int i = 0; i < 16; i++) cmd(gx, OP_MTX_LOAD44, (uint32_t)m[i]);
    vtx(gx, 0x800, -0x800, 0x800);
    const gx_vertex *v = &gx->geom.buf[0];
    assert_int_equal(v->clip[0], 0x1000);
    assert_int_equal(v->clip[1], -0x800);
    assert_int_equal(v->clip[2], 0x800);
    assert_int_equal(v->clip[3], 0x1800);
    /* x = -1/4096 * 2.0 = -2/4096: (-1 * 0x2000) >> 12 = -2 exactly; -1 * 0x1000 >> 12 = -1 */
    vtx(gx, -1, -1, 0);
    v = &gx->geom.buf[1];
    assert_int_equal(v->clip[0], -2);
    assert_int_equal(v->clip[1], -1);
    gx_destroy(gx);
}

static void test_vtx10_xy_xz_yz_diff(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 0);
    gx_geom_state *g = &gx->geom;
    /* VTX_10: x = 0x3FF (-1/64), y = 0x040 (+1.0), z = 0x200 (-8.0) -> top 10 bits of 1.3.12 */
    cmd(gx, OP_VTX10, 0x3FFu | (0x040u << 10) | (0x200u << 20));
    assert_int_equal(g->cur_vtx[0], -64);
    assert_int_equal(g->cur_vtx[1], 0x1000);
    assert_int_equal(g->cur_vtx[2], -0x8000);
    cmd(gx, OP_VTXXY, pk(0x123, -0x456));
    assert_int_equal(g->cur_vtx[0], 0x123);
    assert_int_equal(g->cur_vtx[1], -0x456);
    assert_int_equal(g->cur_vtx[2], -0x8000); /* kept */
    assert_false(g->poly_completed);
    cmd(gx, OP_VTXXZ, pk(0x10, 0x20)); /* third vertex: completes a triangle */
    assert_true(g->poly_completed);
    assert_int_equal(g->cur_vtx[0], 0x10);
    assert_int_equal(g->cur_vtx[1], -0x456);
    assert_int_equal(g->cur_vtx[2], 0x20);
    cmd(gx, OP_VTXYZ, pk(0x7FFF, 0x30));
    assert_int_equal(g->cur_vtx[0], 0x10);
    assert_int_equal(g->cur_vtx[1], 0x7FFF);
    assert_int_equal(g->cur_vtx[2], 0x30);
    /* VTX_DIFF: x += -1, y += 1 (wraps 0x7FFF -> -0x8000), z += -512 */
    cmd(gx, OP_VTXDIFF, 0x3FFu | (0x001u << 10) | (0x200u << 20));
    assert_int_equal(g->cur_vtx[0], 0xF);
    assert_int_equal(g->cur_vtx[1], -0x8000);
    assert_int_equal(g->cur_vtx[2], 0x30 - 512);
    gx_destroy(gx);
}

static void test_triangles_and_quads(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 0);
    for (int t = 0; t < 2; t++) {
        vtx(gx, -0x800, 0x800, 0);
        vtx(gx, -0x800, -0x800, 0);
        vtx(gx, 0x800, -0x800, 0);
    }
    assert_int_equal(gx->build->npolys, 2);
    assert_int_equal(gx->build->nverts, 6);
    assert_int_equal(gx->build->polys[1].vtx[0], 3);
    assert_int_equal(gx->build->polys[1].prim, 0);
    cmd(gx, OP_BEGIN, 1);
    vtx(gx, -0x800, 0x800, 0);
    vtx(gx, -0x800, -0x800, 0);
    vtx(gx, 0x800, -0x800, 0);
    assert_false(gx->geom.poly_completed);
    vtx(gx, 0x800, 0x800, 0);
    assert_true(gx->geom.poly_completed);
    assert_false(gx->geom.poly_rejected);
    assert_int_equal(gx->geom.poly_nverts_clipped, 4);
    assert_int_equal(gx->build->npolys, 3);
    assert_int_equal(gx->build->nverts, 10);
    const gx_polygon *p = &gx->build->polys[2];
    assert_int_equal(p->nverts, 4);
    assert_int_equal(p->prim, 1);
    for (int i = 0; i < 4; i++) assert_int_equal(p->vtx[i], 6 + i);
    gx_destroy(gx);
}

/* zig-zag strip: even k at the top (y = +0.5), odd k at the bottom */
static void strip_vertex(gx_engine *gx, int k)
{
    vtx(gx, -0x800 + 0x200 * k, (k & 1) ? -0x800 : 0x800, 0);
}

static void test_triangle_strip_sharing(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F0080u, 2); /* front faces only: every strip polygon is front */
    for (int k = 0; k < 5; k++) strip_vertex(gx, k);
    const gx_frame *f = gx->build;
    assert_int_equal(f->npolys, 3);
    assert_int_equal(f->nverts, 5); /* shared vertices stored once */
    /* polygon 0: v0 v1 v2; polygon 1 (odd) swaps its first two: v2 v1 v3; polygon 2: v2 v3 v4 */
    static const uint16_t expect[3][3] = {{0, 1, 2}, {2, 1, 3}, {2, 3, 4}};
    for (int p = 0; p < 3; p++) {
        for (int i = 0; i < 3; i++) assert_int_equal(f->polys[p].vtx[i], expect[p][i]);
        assert_true(f->polys[p].facing_front);
    }
    /* vertex RAM entry 3 is v3 */
    assert_int_equal(f->verts[3].clip[0], -0x800 + 0x600);
    assert_int_equal(f->verts[3].clip[1], -0x800);
    gx_destroy(gx);
}

static void test_quad_strip_sharing(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 3);
    /* pairs (top, bottom) left to right */
    for (int k = 0; k < 3; k++) {
        vtx(gx, -0x800 + 0x400 * k, 0x800, 0);
        vtx(gx, -0x800 + 0x400 * k, -0x800, 0);
    }
    const gx_frame *f = gx->build;
    assert_int_equal(f->npolys, 2);
    assert_int_equal(f->nverts, 6);
    /* quad 0 is v0 v1 v3 v2 (stored in that order); quad 1 is v2 v3 v5 v4 sharing v2, v3 */
    static const uint16_t expect[2][4] = {{0, 1, 2, 3}, {3, 2, 4, 5}};
    for (int p = 0; p < 2; p++)
        for (int i = 0; i < 4; i++) assert_int_equal(f->polys[p].vtx[i], expect[p][i]);
    assert_int_equal(f->verts[2].clip[0], -0x400); /* v3 = (-0.25, -0.5) */
    assert_int_equal(f->verts[2].clip[1], -0x800);
    assert_int_equal(f->verts[4].clip[0], 0); /* v5 = (0, -0.5) */
    assert_int_equal(f->verts[4].clip[1], -0x800);
    assert_true(f->polys[0].facing_front);
    assert_true(f->polys[1].facing_front);
    gx_destroy(gx);
}

static void test_strip_restarts_after_cull(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F0080u, 2); /* back faces culled */
    vtx(gx, -0x800, 0x800, 0);             /* v0 */
    vtx(gx, -0x800, -0x800, 0);            /* v1 */
    vtx(gx, 0, 0x800, 0);                  /* v2: polygon 0 front */
    vtx(gx, -0x400, 0x1000, 0);            /* v3: polygon 1 (v2 v1 v3) is back-facing: culled */
    assert_true(gx->geom.poly_rejected);
    vtx(gx, 0, -0x800, 0); /* v4: polygon 2 (v2 v3 v4) front, cannot share */
    const gx_frame *f = gx->build;
    assert_int_equal(f->npolys, 2);
    assert_int_equal(f->nverts, 6);
    for (int i = 0; i < 3; i++) assert_int_equal(f->polys[1].vtx[i], 3 + i);
    assert_int_equal(f->verts[3].clip[0], 0); /* v2 stored again */
    assert_int_equal(f->verts[3].clip[1], 0x800);
    assert_int_equal(f->verts[4].clip[0], -0x400);
    assert_int_equal(f->verts[5].clip[1], -0x800);
    /* polygon 3 (odd: v4 v3 v5) shares v4 and v3 with polygon 2 again */
    vtx(gx, -0x800, 0, 0);
    assert_int_equal(f->npolys, 3);
    assert_int_equal(f->nverts, 7);
    assert_int_equal(f->polys[2].vtx[0], 5);
    assert_int_equal(f->polys[2].vtx[1], 4);
    assert_int_equal(f->polys[2].vtx[2], 6);
    gx_destroy(gx);
}

static void test_strip_shared_vertex_clipped(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 2);
    vtx(gx, -0x800, 0x800, 0);  /* v0 */
    vtx(gx, -0x800, -0x800, 0); /* v1 */
    vtx(gx, 0, 0x800, 0);       /* v2 */
    vtx(gx, 0x1800, -0x800, 0); /* v3: x = 1.5 w, outside the right plane */
    const gx_frame *f = gx->build;
    /* polygon 1 = v2 v1 v3 shares v2, v1 but clips to 4 vertices: the shared vertices are
     * stored again, then the two clipped ones */
    assert_int_equal(f->npolys, 2);
    assert_int_equal(f->nverts, 7);
    const gx_polygon *p = &f->polys[1];
    assert_int_equal(p->nverts, 4);
    for (int i = 0; i < 4; i++) assert_int_equal(p->vtx[i], 3 + i);
    assert_int_equal(f->verts[3].clip[0], 0);
    assert_int_equal(f->verts[3].clip[1], 0x800);
    assert_int_equal(f->verts[4].clip[1], -0x800);
    /* v3 -> v1: factor (w - x) / ... = -0x800 / -0x2000: x = w, y = -0x800 */
    assert_int_equal(f->verts[5].clip[0], 0x1000);
    assert_int_equal(f->verts[5].clip[1], -0x800);
    assert_true(f->verts[5].clipped);
    /* v3 -> v2: factor 1/3: y = -0x800 + 0x1000 * 0x800 / 0x1800 = -0x800 + 0x555 */
    assert_int_equal(f->verts[6].clip[0], 0x1000);
    assert_int_equal(f->verts[6].clip[1], -0x800 + 0x555);
    /* polygon 2 = v2 v3 v4 cannot share (polygon 1 has 4 vertices): all new */
    vtx(gx, 0x800, 0x800, 0);
    assert_int_equal(f->npolys, 3);
    assert_int_equal(f->polys[2].vtx[0], 7);
    gx_destroy(gx);
}

static void test_begin_resets_strip(void **state)
{
    (void)state;
    gx_engine *gx = setup(ATTR_BOTH, 2);
    for (int k = 0; k < 3; k++) strip_vertex(gx, k);
    cmd(gx, OP_END, 0);
    cmd(gx, OP_BEGIN, 2);
    for (int k = 0; k < 3; k++) strip_vertex(gx, k);
    assert_int_equal(gx->build->npolys, 2);
    assert_int_equal(gx->build->nverts, 6);
    assert_int_equal(gx->build->polys[1].vtx[0], 3);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vtx16_transform_and_color),
        cmocka_unit_test(test_matrix_transform),
        cmocka_unit_test(test_vtx10_xy_xz_yz_diff),
        cmocka_unit_test(test_triangles_and_quads),
        cmocka_unit_test(test_triangle_strip_sharing),
        cmocka_unit_test(test_quad_strip_sharing),
        cmocka_unit_test(test_strip_restarts_after_cull),
        cmocka_unit_test(test_strip_shared_vertex_clipped),
        cmocka_unit_test(test_begin_resets_strip),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
