/*
 * test_gx_matrix.c - matrix modes, commands, stacks and the clip matrix.
 * Expected values worked by hand from GBATEK "DS 3D Matrix Load/Multiply" / "Matrix Stack"
 * and melonDS's arithmetic (new = parameter x current, 64-bit sums, >> 12 floor).
 * Matrices are row-major, m[row * 4 + col], 1.19.12 (1.0 = 0x1000).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx.h"

#define GXSTAT 0x04000600u
#define ONE    0x1000

enum { PROJ = 0, POS = 1, VEC = 2, TEX = 3, CLIP = 4 };

static uint32_t port(uint8_t op)
{
    return 0x04000400u + 4u * op;
}
static void cmd0(gx_engine *gx, uint8_t op)
{
    gx_write32(gx, port(op), 0);
}
static void cmd1(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, port(op), p);
}
static void cmdn(gx_engine *gx, uint8_t op, const int32_t *p, unsigned n)
{
    for (unsigned i = 0; i < n; i++) gx_write32(gx, port(op), (uint32_t)p[i]);
}
static void mode(gx_engine *gx, uint32_t m)
{
    cmd1(gx, 0x10, m);
}

static const int32_t ident[16] = {ONE, 0, 0, 0, 0, ONE, 0, 0, 0, 0, ONE, 0, 0, 0, 0, ONE};

static void expect(gx_engine *gx, int which, const int32_t want[16])
{
    int32_t m[16];
    gx_get_matrix(gx, which, m);
    for (unsigned i = 0; i < 16; i++) {
        if (m[i] != want[i])
            print_message("matrix %d entry %u: %d != %d\n", which, i, m[i], want[i]);
        assert_int_equal(m[i], want[i]);
    }
}

static int32_t seq[16];
static const int32_t *sequence(int32_t base)
{
    for (int i = 0; i < 16; i++) seq[i] = base + i;
    return seq;
}

static void test_reset_and_loads(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    for (int w = 0; w < 5; w++) expect(gx, w, ident);

    /* mode 1: LOAD_4x4 changes the position matrix only */
    mode(gx, 1);
    int32_t a[16];
    memcpy(a, sequence(100), sizeof(a));
    cmdn(gx, 0x16, a, 16);
    expect(gx, POS, a);
    expect(gx, VEC, ident);
    /* mode 2: position and vector */
    mode(gx, 2);
    memcpy(a, sequence(200), sizeof(a));
    cmdn(gx, 0x16, a, 16);
    expect(gx, POS, a);
    expect(gx, VEC, a);
    /* mode 0 and 3 */
    mode(gx, 0);
    memcpy(a, sequence(300), sizeof(a));
    cmdn(gx, 0x16, a, 16);
    expect(gx, PROJ, a);
    mode(gx, 3);
    memcpy(a, sequence(400), sizeof(a));
    cmdn(gx, 0x16, a, 16);
    expect(gx, TEX, a);

    /* LOAD_4x3: rows of three, column 3 = (0, 0, 0, 1.0) */
    mode(gx, 1);
    const int32_t p43[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
    cmdn(gx, 0x17, p43, 12);
    const int32_t w43[16] = {1, 2, 3, 0, 4, 5, 6, 0, 7, 8, 9, 0, 10, 11, 12, ONE};
    expect(gx, POS, w43);

    /* IDENTITY in mode 2 resets both */
    mode(gx, 2);
    cmd0(gx, 0x15);
    expect(gx, POS, ident);
    expect(gx, VEC, ident);
    /* MTX_MODE uses bits 0-1 only: 6 -> mode 2 */
    mode(gx, 6);
    cmdn(gx, 0x16, sequence(7), 16);
    expect(gx, VEC, seq);
    gx_destroy(gx);
}

/* MULT rounding: each entry is floor(sum of products / 4096). 1.5 x (1/4096) = 6144/4096 ->
 * 1 (not 2); 1.5 x (-1/4096) = -6144/4096 -> -2 (floor, not truncation toward zero). */
static void test_mult_rounding(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    mode(gx, 1);
    int32_t cur[16];
    memcpy(cur, ident, sizeof(cur));
    cur[0] = 0x1800;
    cur[5] = 0x1800;
    cmdn(gx, 0x16, cur, 16);
    int32_t p[16];
    memcpy(p, ident, sizeof(p));
    p[0] = 1;
    p[5] = -1;
    cmdn(gx, 0x18, p, 16);
    int32_t want[16];
    memcpy(want, ident, sizeof(want));
    want[0] = 1;
    want[5] = -2;
    expect(gx, POS, want);

    /* four products summed before the shift: row (0.5, 0.5, 0.5, 0.5) x column
     * (1/4096, 1/4096, 1/4096, 1/4096) = 4 * 2048 / 4096 / 4096... in raw units:
     * 4 * 0x800 * 1 = 0x2000 -> >> 12 = 2 (each product alone would floor to 0). */
    int32_t c2[16] = {0};
    c2[0] = c2[4] = c2[8] = c2[12] = 1; /* column 0 = 1/4096 each */
    cmdn(gx, 0x16, c2, 16);
    int32_t p2[16] = {0};
    p2[0] = p2[1] = p2[2] = p2[3] = 0x800;
    cmdn(gx, 0x18, p2, 16);
    int32_t m[16];
    gx_get_matrix(gx, POS, m);
    assert_int_equal(m[0], 2);
    gx_destroy(gx);
}

/* Order: MULT computes parameter x current. Current = translation (1, 2, 3); MULT by a scale
 * of 2: rows 0-2 become 2.0 and the translation row stays (1, 2, 3) (it would be (2, 4, 6) for
 * current x parameter). */
static void test_mult_order_and_forms(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    mode(gx, 2);
    const int32_t t[3] = {ONE, 2 * ONE, 3 * ONE};
    cmdn(gx, 0x1C, t, 3); /* TRANS in mode 2: both matrices */
    const int32_t s2[16] = {2 * ONE, 0, 0, 0, 0, 2 * ONE, 0, 0, 0, 0, 2 * ONE, 0, 0, 0, 0, ONE};
    cmdn(gx, 0x18, s2, 16);
    const int32_t want[16] = {2 * ONE, 0, 0,       0, 0,   2 * ONE, 0,       0,
                              0,       0, 2 * ONE, 0, ONE, 2 * ONE, 3 * ONE, ONE};
    expect(gx, POS, want);
    expect(gx, VEC, want);

    /* SCALE in mode 2 scales the position matrix only: rows 0-2 times (0.5, 3, 1) */
    const int32_t sc[3] = {ONE / 2, 3 * ONE, ONE};
    cmdn(gx, 0x1B, sc, 3);
    const int32_t wsc[16] = {ONE, 0, 0,       0, 0,   6 * ONE, 0,       0,
                             0,   0, 2 * ONE, 0, ONE, 2 * ONE, 3 * ONE, ONE};
    expect(gx, POS, wsc);
    expect(gx, VEC, want);

    /* TRANS: row 3 += t x rows 0-2 (here mode 1): (1,1,1) -> (1 + 1, 2 + 6, 3 + 2) */
    mode(gx, 1);
    const int32_t t1[3] = {ONE, ONE, ONE};
    cmdn(gx, 0x1C, t1, 3);
    const int32_t wt[16] = {ONE, 0, 0,       0, 0,       6 * ONE, 0,       0,
                            0,   0, 2 * ONE, 0, 2 * ONE, 8 * ONE, 5 * ONE, ONE};
    expect(gx, POS, wt);
    expect(gx, VEC, want);

    /* MULT_3x3 leaves row 3 alone: a 90-degree rotation about Z on identity */
    cmd0(gx, 0x15);
    const int32_t r[9] = {0, ONE, 0, -ONE, 0, 0, 0, 0, ONE};
    cmdn(gx, 0x1A, r, 9);
    const int32_t wr[16] = {0, ONE, 0, 0, -ONE, 0, 0, 0, 0, 0, ONE, 0, 0, 0, 0, ONE};
    expect(gx, POS, wr);
    /* MULT_4x3: rows of three plus (0,0,0,1): translation (5, 0, 0) after the rotation:
     * row 3 = (5,0,0,1) x current = (0, 5, 0, 1) */
    const int32_t m43[12] = {ONE, 0, 0, 0, ONE, 0, 0, 0, ONE, 5 * ONE, 0, 0};
    cmdn(gx, 0x19, m43, 12);
    const int32_t w43[16] = {0, ONE, 0, 0, -ONE, 0, 0, 0, 0, 0, ONE, 0, 0, 5 * ONE, 0, ONE};
    expect(gx, POS, w43);
    gx_destroy(gx);
}

static uint32_t sp(gx_engine *gx)
{
    return (gx_read32(gx, GXSTAT) >> 8) & 0x1F;
}
static bool ovf(gx_engine *gx)
{
    return (gx_read32(gx, GXSTAT) >> 15) & 1;
}

static void load_marker(gx_engine *gx, int32_t v)
{
    int32_t m[16];
    memcpy(m, ident, sizeof(m));
    m[12] = v;
    cmdn(gx, 0x16, m, 16);
}
static int32_t marker(gx_engine *gx, int which)
{
    int32_t m[16];
    gx_get_matrix(gx, which, m);
    return m[12];
}

static void test_pos_stack(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    mode(gx, 2);
    /* push 31 matrices: pointer 31, no error */
    for (int i = 0; i < 31; i++) {
        load_marker(gx, i);
        cmd0(gx, 0x11);
    }
    assert_int_equal(sp(gx), 31);
    assert_false(ovf(gx));
    /* the 32nd push (pointer 31 > 30) stores entry 31 and sets the error */
    load_marker(gx, 31);
    cmd0(gx, 0x11);
    assert_true(ovf(gx));
    assert_int_equal(sp(gx), 0); /* pointer 32: bits 8-12 show 0 */
    /* acknowledge: writing 1 to bit 15 clears it (position pointer unchanged) */
    gx_write32(gx, GXSTAT, 1u << 15);
    assert_false(ovf(gx));
    /* POP 1: pointer 31, loads entry 31 (a real entry) - and 31 > 30 is an error */
    cmd1(gx, 0x12, 1);
    assert_int_equal(sp(gx), 31);
    assert_int_equal(marker(gx, POS), 31);
    assert_int_equal(marker(gx, VEC), 31);
    assert_true(ovf(gx));
    gx_write32(gx, GXSTAT, 1u << 15);
    /* POP 2: pointer 29, entry 29 */
    cmd1(gx, 0x12, 2);
    assert_int_equal(sp(gx), 29);
    assert_int_equal(marker(gx, POS), 29);
    assert_false(ovf(gx));
    /* POP -1 (6-bit 3Fh): pointer 30, entry 30 */
    cmd1(gx, 0x12, 0x3F);
    assert_int_equal(sp(gx), 30);
    assert_int_equal(marker(gx, POS), 30);
    /* POP 30 -> 0, entry 0; POP 1 from 0 wraps to 63 (error), entry 31 */
    cmd1(gx, 0x12, 30);
    assert_int_equal(sp(gx), 0);
    assert_int_equal(marker(gx, POS), 0);
    assert_false(ovf(gx));
    cmd1(gx, 0x12, 1);
    assert_int_equal(sp(gx), 31); /* 63 & 31 */
    assert_int_equal(marker(gx, POS), 31);
    assert_true(ovf(gx));
    /* only bits 0-5 of the parameter count: 7Eh -> 3Eh = -2 */
    gx_write32(gx, GXSTAT, 1u << 15);
    cmd1(gx, 0x12, 0x7E); /* pointer 63 - (-2) = 65 -> 1 */
    assert_int_equal(sp(gx), 1);
    assert_int_equal(marker(gx, POS), 1);
    gx_destroy(gx);
}

static void test_store_restore(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    mode(gx, 1); /* mode 1 also moves the vector matrix through the stack */
    load_marker(gx, 0x31);
    cmd1(gx, 0x13, 31); /* STORE 31: a real 32nd entry, sets the error */
    assert_true(ovf(gx));
    gx_write32(gx, GXSTAT, 1u << 15);
    load_marker(gx, 0x30);
    cmd1(gx, 0x13, 30);
    assert_false(ovf(gx));
    cmd1(gx, 0x13, 0x20 | 5); /* index is bits 0-4: entry 5 */
    cmd0(gx, 0x15);
    cmd1(gx, 0x14, 31);
    assert_int_equal(marker(gx, POS), 0x31);
    assert_int_equal(marker(gx, VEC), 0); /* the vector matrix stored with it was identity */
    assert_true(ovf(gx));
    cmd1(gx, 0x14, 30);
    assert_int_equal(marker(gx, POS), 0x30);
    cmd0(gx, 0x15);
    cmd1(gx, 0x14, 5);
    assert_int_equal(marker(gx, POS), 0x30);
    assert_int_equal(sp(gx), 0); /* STORE/RESTORE never move the pointer */
    gx_destroy(gx);
}

static void test_proj_tex_stacks(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    mode(gx, 0);
    load_marker(gx, 7);
    cmd0(gx, 0x11); /* push: pointer 1 (GXSTAT bit 13) */
    assert_int_equal((gx_read32(gx, GXSTAT) >> 13) & 1, 1);
    assert_false(ovf(gx));
    load_marker(gx, 8);
    cmd0(gx, 0x11); /* second push: error, the single entry is overwritten, pointer wraps */
    assert_true(ovf(gx));
    assert_int_equal((gx_read32(gx, GXSTAT) >> 13) & 1, 0);
    cmd1(gx, 0x12, 1); /* pop at pointer 0: error, loads the entry (8) */
    assert_int_equal(marker(gx, PROJ), 8);
    assert_int_equal((gx_read32(gx, GXSTAT) >> 13) & 1, 1);
    /* acknowledge resets the projection pointer to 0 */
    gx_write16(gx, GXSTAT, 0x8000);
    assert_false(ovf(gx));
    assert_int_equal((gx_read32(gx, GXSTAT) >> 13) & 1, 0);
    /* texture stack: one entry */
    mode(gx, 3);
    load_marker(gx, 9);
    cmd0(gx, 0x11);
    cmd0(gx, 0x15);
    assert_int_equal(marker(gx, TEX), 0);
    cmd1(gx, 0x12, 1);
    assert_int_equal(marker(gx, TEX), 9);
    assert_false(ovf(gx));
    gx_destroy(gx);
}

/* Clip = position x projection, and the result registers. */
static void test_clip_and_results(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    mode(gx, 0);
    const int32_t s[3] = {2 * ONE, 2 * ONE, 2 * ONE};
    cmdn(gx, 0x1B, s, 3); /* projection: scale 2 */
    mode(gx, 2);
    const int32_t t[3] = {ONE, 0, 0};
    cmdn(gx, 0x1C, t, 3); /* position: translate (1, 0, 0) */
    /* clip row 3 = (1, 0, 0, 1) x proj = (2, 0, 0, 1); diagonal 2, 2, 2, 1 */
    const int32_t want[16] = {2 * ONE, 0, 0,       0, 0,       2 * ONE, 0, 0,
                              0,       0, 2 * ONE, 0, 2 * ONE, 0,       0, ONE};
    expect(gx, CLIP, want);
    for (unsigned i = 0; i < 16; i++)
        assert_int_equal((int32_t)gx_read32(gx, 0x04000640u + 4 * i), want[i]);
    /* VECMTX_RESULT: the 3x3 part of the vector matrix, rows of three */
    const int32_t r[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    cmd0(gx, 0x15);
    cmdn(gx, 0x1A, r, 9); /* identity x r = r (rounded: r * 4096 >> 12 = r) */
    for (unsigned i = 0; i < 9; i++) assert_int_equal(gx_read32(gx, 0x04000680u + 4 * i), i + 1);
    /* the clip matrix follows: pos = r (3x3) -> clip = pos x proj(2) */
    int32_t c[16];
    gx_get_matrix(gx, CLIP, c);
    /* row 0 of pos is (1, 2, 3, 0) raw; times 2.0 (0x2000): (1 * 0x2000) >> 12 = 2, ... */
    assert_int_equal(c[0], 2);
    assert_int_equal(c[1], 4);
    assert_int_equal(c[2], 6);
    assert_int_equal(c[3], 0);
    gx_destroy(gx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_and_loads),      cmocka_unit_test(test_mult_rounding),
        cmocka_unit_test(test_mult_order_and_forms), cmocka_unit_test(test_pos_stack),
        cmocka_unit_test(test_store_restore),        cmocka_unit_test(test_proj_tex_stacks),
        cmocka_unit_test(test_clip_and_results),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
