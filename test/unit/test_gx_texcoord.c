/*
 * test_gx_texcoord.c - texture-coordinate generation, TEXIMAGE_PARAM bits 30-31 (GBATEK "DS 3D
 * Texture Coordinates"; arithmetic as melonDS GPU3D.cpp, see gx/texcoord.c):
 *   mode 0: TEXCOORD as is; mode 1: (s*m0 + t*m4 + m8 + m12) >> 12;
 *   mode 2 (at NORMAL): s + ((nx*m0 + ny*m4 + nz*m8) >> 21);
 *   mode 3 (at each vertex): ((vx*m0 + vy*m4 + vz*m8) >> 24) + s.
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
    OP_NORMAL = 0x21,
    OP_TEXCOORD = 0x22,
    OP_VTX16 = 0x23,
    OP_ATTR = 0x29,
    OP_TEXIMAGE = 0x2A,
    OP_BEGIN = 0x40,
};
static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}
static uint32_t pk(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16);
}

static gx_engine *setup(uint32_t texgen, const int32_t tex[16])
{
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    cmd(gx, OP_ATTR, 0x001F00C0u);
    cmd(gx, OP_BEGIN, 0);
    cmd(gx, OP_TEXIMAGE, texgen << 30);
    if (tex) {
        cmd(gx, OP_MTX_MODE, 3);
        for (int i = 0; i < 16; i++) cmd(gx, OP_MTX_LOAD44, (uint32_t)tex[i]);
    }
    return gx;
}

static void test_mode0_passthrough(void **state)
{
    (void)state;
    static const int32_t m[16] = {0x2000, 0, 0,      0, 0,       0x2000, 0, 0,
                                  0,      0, 0x1000, 0, 0x10000, 0,      0, 0x1000};
    gx_engine *gx = setup(0, m);
    cmd(gx, OP_TEXCOORD, pk(-0x10, 0x123));
    cmd(gx, OP_VTX16, 0);
    cmd(gx, OP_VTX16, 0);
    assert_int_equal(gx->geom.buf[0].texcoord[0], -0x10);
    assert_int_equal(gx->geom.buf[0].texcoord[1], 0x123);
    gx_destroy(gx);
}

static void test_mode1_texcoord_source(void **state)
{
    (void)state;
    /* m8 = 3/4096 * 4096 = 0x3000 adds 3, m12 = 0x10000 adds 16 (one texel) */
    static const int32_t m[16] = {0x1000, 0, 0,      0, 0,       0x800,   0, 0,
                                  0x3000, 0, 0x1000, 0, 0x10000, -0x1000, 0, 0x1000};
    gx_engine *gx = setup(1, m);
    cmd(gx, OP_TEXCOORD, pk(0x100, 0x200));
    /* s = (0x100 * 0x1000 + 0x3000 + 0x10000) >> 12 = 0x113 */
    assert_int_equal(gx->geom.tex_cur[0], 0x113);
    /* t = (0x200 * 0x800 + 0 - 0x1000) >> 12 = 0x100 - 1 */
    assert_int_equal(gx->geom.tex_cur[1], 0xFF);
    /* s = -1: (-0x1000 + 0x3000 + 0x10000) >> 12 = 0x12 */
    cmd(gx, OP_TEXCOORD, pk(-1, 0));
    assert_int_equal(gx->geom.tex_cur[0], (-0x1000 + 0x13000) >> 12);
    assert_int_equal(gx->geom.tex_cur[1], -1); /* (0 - 0x1000) >> 12 */
    cmd(gx, OP_VTX16, 0);
    cmd(gx, OP_VTX16, 0);
    assert_int_equal(gx->geom.buf[0].texcoord[1], -1);
    gx_destroy(gx);
}

static void test_mode2_normal_source(void **state)
{
    (void)state;
    static const int32_t m[16] = {0x10000, 0, 0,      0, 0, 0x10000, 0, 0,
                                  0,       0, 0x1000, 0, 0, 0,       0, 0x1000};
    gx_engine *gx = setup(2, m);
    cmd(gx, OP_TEXCOORD, pk(0x20, 0x40));
    assert_int_equal(gx->geom.tex_cur[0], 0x20); /* TEXCOORD alone does nothing in mode 2 */
    /* normal (511, -512, 0): s = 0x20 + (511 * 0x10000 >> 21) = 0x20 + 15;
     * t = 0x40 + (-512 * 0x10000 >> 21) = 0x40 - 16 */
    cmd(gx, OP_NORMAL, 0x1FFu | (0x200u << 10));
    assert_int_equal(gx->geom.tex_cur[0], 0x20 + 15);
    assert_int_equal(gx->geom.tex_cur[1], 0x40 - 16);
    cmd(gx, OP_VTX16, 0);
    cmd(gx, OP_VTX16, 0);
    assert_int_equal(gx->geom.buf[0].texcoord[0], 0x2F);
    gx_destroy(gx);
}

static void test_mode3_vertex_source(void **state)
{
    (void)state;
    static const int32_t m[16] = {0x1000, 0, 0,      0, 0, 0x10000, 0, 0,
                                  0,      0, 0x1000, 0, 0, 0,       0, 0x1000};
    gx_engine *gx = setup(3, m);
    cmd(gx, OP_TEXCOORD, pk(0x40, 0x80));
    /* vertex (1.0, -0.5, 0): s = (0x1000 * 0x1000 >> 24) + 0x40 = 0x41;
     * t = (-0x800 * 0x10000 >> 24) + 0x80 = 0x80 - 8 */
    cmd(gx, OP_VTX16, pk(0x1000, -0x800));
    cmd(gx, OP_VTX16, 0);
    assert_int_equal(gx->geom.buf[0].texcoord[0], 0x41);
    assert_int_equal(gx->geom.buf[0].texcoord[1], 0x78);
    /* vertex (-1/4096, ...): (-1 * 0x1000) >> 24 = -1 (floor) */
    cmd(gx, OP_VTX16, pk(-1, 0));
    cmd(gx, OP_VTX16, 0);
    assert_int_equal(gx->geom.buf[1].texcoord[0], 0x3F);
    assert_int_equal(gx->geom.buf[1].texcoord[1], 0x80);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mode0_passthrough),
        cmocka_unit_test(test_mode1_texcoord_source),
        cmocka_unit_test(test_mode2_normal_source),
        cmocka_unit_test(test_mode3_vertex_source),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
