/*
 * test_gx_polygon.c - what reaches polygon RAM: culling (GBATEK POLYGON_ATTR bits 6-7; the
 * winding test of melonDS SubmitPolygon), viewport transform (GBATEK "DS 3D Viewport"), depth
 * and W normalization, the W-buffer bit of SWAP_BUFFERS, 1-dot rejection (DISP_1DOT_DEPTH),
 * RAM limits 2048/6144 with DISP3DCNT bit 13, translucent/shadow flags, bounds and sort key.
 * Expected values are worked by hand from those formulas (see gx/polygon.c, gx/viewport.c).
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
    OP_ATTR = 0x29,
    OP_TEXIMAGE = 0x2A,
    OP_BEGIN = 0x40,
    OP_SWAP = 0x50,
    OP_VIEWPORT = 0x60,
};

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
    cmd(gx, OP_VIEWPORT, 0xBFFF0000u);
    cmd(gx, OP_ATTR, attr);
    cmd(gx, OP_BEGIN, prim);
    return gx;
}
static void load_proj(gx_engine *gx, const int32_t m[16])
{
    cmd(gx, OP_MTX_MODE, 0);
    for (int i = 0; i < 16; i++) cmd(gx, OP_MTX_LOAD44, (uint32_t)m[i]);
}
/* counter-clockwise (front-facing) triangle: (-0.5, 0.5), (-0.5, -0.5), (0.5, -0.5) */
static void front_tri(gx_engine *gx, int32_t z)
{
    vtx(gx, -0x800, 0x800, z);
    vtx(gx, -0x800, -0x800, z);
    vtx(gx, 0x800, -0x800, z);
}
static void back_tri(gx_engine *gx)
{
    vtx(gx, -0x800, 0x800, 0);
    vtx(gx, 0x800, -0x800, 0);
    vtx(gx, -0x800, -0x800, 0);
}

typedef struct {
    int calls;
    enum gx_poly_fate fate;
} fate_log;
static void on_poly(void *user, gx_engine *gx, enum gx_poly_fate fate, const gx_polygon *p,
                    const gx_vertex *v)
{
    (void)gx;
    (void)p;
    (void)v;
    fate_log *l = user;
    l->calls++;
    l->fate = fate;
}
static void hook(gx_engine *gx, fate_log *l)
{
    gx_hooks h = {0};
    h.user = l;
    h.polygon = on_poly;
    gx_set_hooks(gx, &h);
}

static void test_culling(void **state)
{
    (void)state;
    fate_log l = {0};
    gx_engine *gx = setup(0x001F0080u, 0); /* front only */
    hook(gx, &l);
    front_tri(gx, 0);
    assert_int_equal(l.fate, GX_POLY_STORED);
    assert_true(gx->build->polys[0].facing_front);
    back_tri(gx);
    assert_int_equal(l.fate, GX_POLY_CULLED_BACK);
    assert_true(gx->geom.poly_rejected);
    assert_int_equal(gx->build->npolys, 1);

    cmd(gx, OP_ATTR, 0x001F0040u); /* back only: takes effect at BEGIN */
    front_tri(gx, 0);
    assert_int_equal(l.fate, GX_POLY_STORED);
    cmd(gx, OP_BEGIN, 0);
    front_tri(gx, 0);
    assert_int_equal(l.fate, GX_POLY_CULLED_FRONT);
    back_tri(gx);
    assert_int_equal(l.fate, GX_POLY_STORED);
    assert_false(gx->build->polys[2].facing_front);

    cmd(gx, OP_ATTR, 0x001F0000u); /* neither */
    cmd(gx, OP_BEGIN, 0);
    front_tri(gx, 0);
    back_tri(gx);
    assert_int_equal(gx->build->npolys, 3);
    /* zero area (collinear): the dot product is 0, drawn whatever the bits say */
    vtx(gx, 0, 0, 0);
    vtx(gx, 0x400, 0, 0);
    vtx(gx, 0x800, 0, 0);
    assert_int_equal(l.fate, GX_POLY_STORED);
    assert_int_equal(gx->build->npolys, 4);
    assert_true(gx->build->polys[3].facing_front);
    assert_int_equal(l.calls, 8);
    gx_destroy(gx);
}

static void test_screen_bounds_sortkey_colour(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001000C0u, 0);  /* alpha 16: translucent */
    cmd(gx, OP_COLOR, 0x001Fu | (1u << 5)); /* r 31, g 1, b 0 */
    front_tri(gx, 0);
    const gx_polygon *p = &gx->build->polys[0];
    const gx_vertex *v = gx->build->verts;
    /* x' = (x + w) * 256 / 2w, y' = (w - y) * 192 / 2w */
    assert_int_equal(v[0].sx, 64);
    assert_int_equal(v[0].sy, 48);
    assert_int_equal(v[1].sx, 64);
    assert_int_equal(v[1].sy, 144);
    assert_int_equal(v[2].sx, 192);
    assert_int_equal(v[2].sy, 144);
    assert_int_equal(p->vtop, 0);
    assert_int_equal(p->ytop, 48);
    assert_int_equal(p->xtop, 64);
    assert_int_equal(p->vbottom, 2); /* equal bottom Y: the rightmost wins */
    assert_int_equal(p->ybottom, 144);
    assert_int_equal(p->xbottom, 192);
    assert_true(p->translucent);
    assert_int_equal(p->sort_key, 0x10000u | (144u << 8) | 48u);
    assert_int_equal(v[0].color[0], 0x1FF); /* (31 << 4) | 0xF */
    assert_int_equal(v[0].color[1], 0x1F);  /* (1 << 4) | 0xF */
    assert_int_equal(v[0].color[2], 0);     /* 0 stays 0 */
    assert_false(p->degenerate);
    gx_destroy(gx);
}

static void test_sub_viewport(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F00C0u, 0);
    cmd(gx, OP_VIEWPORT, 64u | (48u << 8) | (191u << 16) | (143u << 24));
    assert_int_equal(gx->geom.viewport[4], 128);
    assert_int_equal(gx->geom.viewport[5], 96);
    vtx(gx, -0x1000, 0x1000, 0);
    vtx(gx, 0, 0, 0);
    vtx(gx, 0x1000, -0x1000, 0);
    const gx_vertex *v = gx->build->verts;
    assert_int_equal(v[0].sx, 64);
    assert_int_equal(v[0].sy, 48);
    assert_int_equal(v[1].sx, 128);
    assert_int_equal(v[1].sy, 96);
    assert_int_equal(v[2].sx, 192);
    assert_int_equal(v[2].sy, 144);
    gx_destroy(gx);
}

static void test_zbuffer_depth(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F00C0u, 0);
    /* depth = (z * 0x4000 / w + 0x3FFF) * 0x200, clamped to 0..0xFFFFFF */
    vtx(gx, -0x800, 0x800, 0);
    vtx(gx, -0x800, -0x800, 0x800);
    vtx(gx, 0x800, -0x800, -0x800);
    const gx_polygon *p = &gx->build->polys[0];
    assert_false(p->wbuffer);
    assert_int_equal(p->z[0], 0x7FFE00);
    assert_int_equal(p->z[1], 0xBFFE00);
    assert_int_equal(p->z[2], 0x3FFE00);
    assert_int_equal(p->w[0], 0x1000); /* already 16 bits wide */
    assert_int_equal(p->wshift, 16);
    vtx(gx, -0x800, 0x800, -0x1000); /* z = -w: (-0x4000 + 0x3FFF) * 0x200 < 0 -> 0 */
    vtx(gx, -0x800, -0x800, 0x1000); /* z = w: 0x7FFF * 0x200 */
    vtx(gx, 0x800, -0x800, 0);
    p = &gx->build->polys[1];
    assert_int_equal(p->z[0], 0);
    assert_int_equal(p->z[1], 0xFFFE00);
    gx_destroy(gx);
}

static void test_wbuffer_and_w_normalization(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F00C0u, 0);
    /* W-buffer bit of SWAP_BUFFERS applies to polygons submitted after the swap */
    cmd(gx, OP_SWAP, 2);
    assert_true(gx_vblank(gx));
    cmd(gx, OP_BEGIN, 0);
    /* w = 1/16 (0x100): normalized up by 4 bits; the depth is the W before normalization */
    static const int32_t small[16] = {0x1000, 0, 0,      0, 0, 0x1000, 0, 0,
                                      0,      0, 0x1000, 0, 0, 0,      0, 0x100};
    load_proj(gx, small);
    vtx(gx, -0x80, 0x80, 0);
    vtx(gx, -0x80, -0x80, 0);
    vtx(gx, 0x80, -0x80, 0);
    const gx_polygon *p = &gx->build->polys[0];
    assert_true(p->wbuffer);
    assert_int_equal(p->wshift, 12);
    assert_int_equal(p->w[0], 0x1000);
    assert_int_equal(p->z[0], 0x100);
    assert_int_equal(gx->build->verts[0].sx, 64); /* (-0x80 + 0x100) * 256 / 0x200 */
    /* w = 0x12345 (> 16 bits): normalized down by 4 bits, depth loses the low 4 bits */
    static const int32_t big[16] = {0x1000, 0, 0,      0, 0, 0x1000, 0, 0,
                                    0,      0, 0x1000, 0, 0, 0,      0, 0x12345};
    load_proj(gx, big);
    front_tri(gx, 0);
    p = &gx->build->polys[1];
    assert_int_equal(p->wshift, 20);
    assert_int_equal(p->w[1], 0x1234);
    assert_int_equal(p->z[1], 0x12340);
    /* the 32-bit divider halves w > 0xFFFF: x = -0x800 -> (0x11B45 >> 1) * 256 / (0x91A2 * 2) */
    assert_int_equal(gx->build->verts[3].sx, (0x8DA2u * 256u) / 0x12344u);
    /* the next swap without the bit goes back to Z */
    cmd(gx, OP_SWAP, 0);
    assert_true(gx_vblank(gx));
    cmd(gx, OP_BEGIN, 0);
    front_tri(gx, 0);
    assert_false(gx->build->polys[0].wbuffer);
    assert_int_equal(gx->build->polys[0].z[0], 0x7FFE00);
    gx_destroy(gx);
}

static void test_w_zero_is_degenerate(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F00C0u, 0);
    /* w = z (m[11] = 1.0, m[15] = 0): the vertex at the origin has w = 0 */
    static const int32_t m[16] = {0x1000, 0, 0,      0,      0, 0x1000, 0, 0,
                                  0,      0, 0x1000, 0x1000, 0, 0,      0, 0};
    load_proj(gx, m);
    vtx(gx, 0, 0, 0);
    vtx(gx, 0x800, 0, 0x1000);
    vtx(gx, 0, 0x800, 0x1000);
    assert_int_equal(gx->build->npolys, 1);
    const gx_polygon *p = &gx->build->polys[0];
    assert_true(p->degenerate);
    assert_int_equal(p->z[0], 0x7FFE00);
    assert_int_equal(gx->build->verts[0].sx, 0);
    assert_int_equal(gx->build->verts[0].sy, 0);
    gx_destroy(gx);
}

static void tiny_tri(gx_engine *gx)
{
    vtx(gx, 0, 0, 0);
    vtx(gx, 1, 0, 0);  /* x' = 0x1001 * 256 / 0x2000 = 128 */
    vtx(gx, 0, -1, 0); /* y' = 0x1001 * 192 / 0x2000 = 96 */
}

static void test_one_dot(void **state)
{
    (void)state;
    fate_log l = {0};
    gx_engine *gx = setup(0x001F00C0u, 0);
    hook(gx, &l);
    tiny_tri(gx); /* every vertex at (128, 96), w = 0x1000 <= 0xFFFFFF: kept */
    assert_int_equal(gx->build->npolys, 1);
    gx_write32(gx, 0x04000610, 0); /* limit 0x1FF: w = 0x1000 is beyond */
    tiny_tri(gx);
    assert_int_equal(l.fate, GX_POLY_DOT_REJECTED);
    assert_int_equal(gx->build->npolys, 1);
    gx_write32(gx, 0x04000610, 8); /* limit 8 * 0x200 + 0x1FF = 0x11FF >= 0x1000: kept */
    tiny_tri(gx);
    assert_int_equal(gx->build->npolys, 2);
    gx_write32(gx, 0x04000610, 0);
    cmd(gx, OP_ATTR, 0x001F20C0u); /* bit 13: 1-dot polygons always drawn */
    cmd(gx, OP_BEGIN, 0);
    tiny_tri(gx);
    assert_int_equal(gx->build->npolys, 3);
    gx_destroy(gx);
}

static void test_polygon_ram_overflow(void **state)
{
    (void)state;
    fate_log l = {0};
    gx_engine *gx = setup(0x001F00C0u, 0);
    hook(gx, &l);
    for (int i = 0; i < GX_MAX_POLYGONS; i++) front_tri(gx, 0);
    assert_int_equal(gx->build->npolys, 2048);
    assert_int_equal(gx->build->nverts, 6144);
    assert_int_equal(gx->disp3dcnt_status & 0x2000u, 0);
    front_tri(gx, 0);
    assert_int_equal(l.fate, GX_POLY_RAM_FULL);
    assert_int_equal(gx->build->npolys, 2048);
    assert_int_equal(gx->disp3dcnt_status & 0x2000u, 0x2000u);
    gx_destroy(gx);
}

static void test_vertex_ram_overflow(void **state)
{
    (void)state;
    gx_engine *gx = setup(0x001F00C0u, 1);
    for (int i = 0; i < GX_MAX_VERTICES / 4; i++) {
        front_tri(gx, 0);
        vtx(gx, 0x800, 0x800, 0);
    }
    assert_int_equal(gx->build->npolys, 1536);
    assert_int_equal(gx->build->nverts, 6144);
    assert_int_equal(gx->disp3dcnt_status & 0x2000u, 0);
    front_tri(gx, 0);
    vtx(gx, 0x800, 0x800, 0);
    assert_int_equal(gx->build->npolys, 1536);
    assert_int_equal(gx->disp3dcnt_status & 0x2000u, 0x2000u);
    gx_destroy(gx);
}

static void test_translucent_and_shadow_flags(void **state)
{
    (void)state;
    static const struct {
        uint32_t attr, tex;
        bool translucent, mask, shadow;
    } cases[] = {
        {0x001F00C0u, 0, false, false, false},
        {0x001E00C0u, 0, true, false, false},         /* alpha 30 */
        {0x000000C0u, 0, false, false, false},        /* alpha 0 (wireframe) */
        {0x001F00C0u, 1u << 26, true, false, false},  /* A3I5, modulate */
        {0x001F00D0u, 1u << 26, false, false, false}, /* A3I5, decal */
        {0x001F00E0u, 6u << 26, true, false, false},  /* A5I3, toon */
        {0x001F00F0u, 0, false, true, false},         /* shadow, ID 0: mask */
        {0x051F00F0u, 0, false, false, true},         /* shadow, ID 5 */
        {0x050F00F0u, 0, true, false, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        gx_engine *gx = setup(cases[i].attr, 0);
        cmd(gx, OP_TEXIMAGE, cases[i].tex);
        front_tri(gx, 0);
        const gx_polygon *p = &gx->build->polys[0];
        assert_int_equal(p->translucent, cases[i].translucent);
        assert_int_equal(p->shadow_mask, cases[i].mask);
        assert_int_equal(p->shadow, cases[i].shadow);
        assert_int_equal(p->attr, cases[i].attr);
        assert_int_equal(p->teximage, cases[i].tex);
        gx_destroy(gx);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_culling),
        cmocka_unit_test(test_screen_bounds_sortkey_colour),
        cmocka_unit_test(test_sub_viewport),
        cmocka_unit_test(test_zbuffer_depth),
        cmocka_unit_test(test_wbuffer_and_w_normalization),
        cmocka_unit_test(test_w_zero_is_degenerate),
        cmocka_unit_test(test_one_dot),
        cmocka_unit_test(test_polygon_ram_overflow),
        cmocka_unit_test(test_vertex_ram_overflow),
        cmocka_unit_test(test_translucent_and_shadow_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
