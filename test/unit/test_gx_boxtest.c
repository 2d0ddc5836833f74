/*
 * test_gx_boxtest.c - BOX_TEST, POS_TEST, VEC_TEST (GBATEK "DS 3D Tests"; result formats and
 * arithmetic as melonDS GPU3D.cpp BoxTest/PosTest/VecTest, see gx/boxtest.c), through the
 * command ports and the result registers.
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
    OP_VTXXY = 0x25,
    OP_BOX = 0x70,
    OP_POS = 0x71,
    OP_VEC = 0x72,
};
static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}
static uint32_t pk(int32_t lo, int32_t hi)
{
    return ((uint32_t)lo & 0xFFFFu) | ((uint32_t)hi << 16);
}
static void load(gx_engine *gx, uint32_t mode, const int32_t m[16])
{
    cmd(gx, OP_MTX_MODE, mode);
    for (int i = 0; i < 16; i++) cmd(gx, OP_MTX_LOAD44, (uint32_t)m[i]);
}
static bool box(gx_engine *gx, int32_t x, int32_t y, int32_t z, int32_t w, int32_t h, int32_t d)
{
    cmd(gx, OP_BOX, pk(x, y));
    cmd(gx, OP_BOX, pk(z, w));
    cmd(gx, OP_BOX, pk(h, d));
    return gx->geom.box_result;
}

static void test_box_test(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    /* a 1.0 cube around the origin: inside */
    assert_true(box(gx, -0x800, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    assert_true(gx_read32(gx, REG_GXSTAT) & 2u);
    /* x from 2.0 to 3.0: every face right of the view volume */
    assert_false(box(gx, 0x2000, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    assert_false(gx_read32(gx, REG_GXSTAT) & 2u);
    /* straddling the right plane: inside */
    assert_true(box(gx, 0x800, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    /* a box enclosing the whole view volume: every face is outside, so "outside" */
    assert_false(box(gx, -0x4000, -0x4000, -0x4000, 0x7FFF, 0x7FFF, 0x7FFF));
    /* corner sums wrap at 16 bits: x 7.0 + 1.0 = 0x8000 = -8.0, so the box spans x -8..7 and
     * crosses the view volume (without the wrap it would span 7..8, outside) */
    assert_true(box(gx, 0x7000, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    assert_false(box(gx, 0x6000, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    gx_destroy(gx);
}

static void test_box_test_uses_clip_matrix(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    /* position matrix translating by x + 3.0 moves the unit cube out of view */
    static const int32_t t[16] = {0x1000, 0, 0,      0, 0,      0x1000, 0, 0,
                                  0,      0, 0x1000, 0, 0x3000, 0,      0, 0x1000};
    load(gx, 1, t);
    assert_false(box(gx, -0x800, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    assert_true(box(gx, -0x3800, -0x800, -0x800, 0x1000, 0x1000, 0x1000));
    gx_destroy(gx);
}

static void test_pos_test(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    static const int32_t t[16] = {0x2000, 0, 0,      0, 0,      0x1000, 0, 0,
                                  0,      0, 0x1000, 0, 0x1000, 0x2000, 0, 0x1000};
    load(gx, 1, t);
    cmd(gx, OP_POS, pk(0x800, -0x800));
    cmd(gx, OP_POS, 0x400);
    /* x = 0.5 * 2 + 1 = 2.0, y = -0.5 + 2 = 1.5, z = 0.25, w = 1.0 */
    assert_int_equal((int32_t)gx_read32(gx, REG_POS_RESULT + 0), 0x2000);
    assert_int_equal((int32_t)gx_read32(gx, REG_POS_RESULT + 4), 0x1800);
    assert_int_equal((int32_t)gx_read32(gx, REG_POS_RESULT + 8), 0x400);
    assert_int_equal((int32_t)gx_read32(gx, REG_POS_RESULT + 12), 0x1000);
    /* POS_TEST sets the current vertex: VTX_XY keeps its z */
    assert_int_equal(gx->geom.cur_vtx[2], 0x400);
    cmd(gx, OP_VTXXY, pk(1, 2));
    assert_int_equal(gx->geom.buf[0].clip[2], 0x400);
    gx_destroy(gx);
}

static void test_vec_test(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    /* identity: (511, -512, 0) -> 511 * 0x1000 >> 9 = 0xFF8; -512 * 0x1000 >> 9 = -0x1000 */
    cmd(gx, OP_VEC, 0x1FFu | (0x200u << 10));
    assert_int_equal(gx->geom.vec_result[0], 0xFF8);
    assert_int_equal(gx->geom.vec_result[1], -0x1000);
    assert_int_equal(gx->geom.vec_result[2], 0);
    assert_int_equal(gx_read16(gx, REG_VEC_RESULT), 0x0FF8);
    assert_int_equal(gx_read16(gx, REG_VEC_RESULT + 2), 0xF000);
    /* vector matrix scaled by 2.0 (mode 2 loads both): 511 * 0x2000 >> 9 = 0x1FF0, bit 12 set:
     * bits 13-15 set too -> 0xFFF0 (the result is 4.12 with a 1-bit integer part) */
    static const int32_t s[16] = {0x2000, 0, 0,      0, 0, 0x2000, 0, 0,
                                  0,      0, 0x2000, 0, 0, 0,      0, 0x1000};
    load(gx, 2, s);
    cmd(gx, OP_VEC, 0x1FFu | (0x100u << 10));
    assert_int_equal(gx->geom.vec_result[0], -16);
    /* 256 * 0x2000 >> 9 = 0x1000: bit 12 set -> 0xF000 */
    assert_int_equal(gx->geom.vec_result[1], -0x1000);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_box_test),
        cmocka_unit_test(test_box_test_uses_clip_matrix),
        cmocka_unit_test(test_pos_test),
        cmocka_unit_test(test_vec_test),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
