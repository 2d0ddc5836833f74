/* test_nitro_material.c - material binding, texture matrices and the default VRAM managers of
 * the G3D runtime. Expected values are worked by hand from the decompiled runtime:
 * FX_Div / FX_GetDivResult (pret/pokeplatinum), maya.s texmtxCalc_flag_, bindMdlTex_Internal_,
 * gfd_frametexvramman.s / gfd_frameplttvramman.s (see the comment at each expectation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "nitro/runtime.h"

typedef struct rec {
    unsigned n;
    uint32_t addr[512], val[512];
} rec;

static void rec_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    rec *r = u;
    (void)bytes;
    if (r->n < 512) {
        r->addr[r->n] = addr;
        r->val[r->n++] = val;
    }
}

/* FX_Div(a, b) = ((a << 32) / b + 0x80000) >> 20. */
static void test_fx_div(void **state)
{
    (void)state;
    assert_int_equal(nitro_fx_div(16 << 12, 8 << 12), 0x2000); /* 2.0 exactly */
    assert_int_equal(nitro_fx_div(8 << 12, 16 << 12), 0x0800); /* 0.5 */
    /* 1/3: (2^44 / 3) = 0x5555_5555_555 ; + 0x80000 >> 20 = 0x555 (0.333 -> 1365) */
    assert_int_equal(nitro_fx_div(1 << 12, 3 << 12), 0x0555);
    /* 2/3: q = 0xAAAAAAAAAAA; 0xAAAAAAAAAAA + 0x80000 = 0xAAAAAB2AAAA; >> 20 = 0xAAB (rounded
     * up, where truncation would give 0xAAA) */
    assert_int_equal(nitro_fx_div(2 << 12, 3 << 12), 0x0AAB);
    assert_int_equal(nitro_fx_div(-(2 << 12), 3 << 12), -0x0AAB);
    /* division by zero: the divider returns -1, (-1 + 0x80000) >> 20 = 0 */
    assert_int_equal(nitro_fx_div(5 << 12, 0), 0);
}

/* Frame texture VRAM manager with all four slots. */
static void test_frame_tex_alloc(void **state)
{
    (void)state;
    static nitro_texvram v;
    nitro_texvram_init(&v);
    uint32_t a = 0;
    /* normal: from the top of slot 3, size rounded up to 16: 0x80000 - 0x110 */
    assert_true(nitro_texvram_alloc_tex(&v, 0x101, false, &a));
    assert_int_equal(a, 0x7FEF0);
    assert_true(nitro_texvram_alloc_tex(&v, 0, false, &a)); /* size 0 counts as 16 */
    assert_int_equal(a, 0x7FEE0);
    /* 4x4: from the bottom of slot 0 (its index data takes half from slot 1's first half) */
    assert_true(nitro_texvram_alloc_tex(&v, 0x40, true, &a));
    assert_int_equal(a, 0);
    assert_true(nitro_texvram_alloc_tex(&v, 0x8, true, &a));
    assert_int_equal(a, 0x40);
    /* slot 3 holds 0x20000 - 0x120 = 0x1FEE0 more; a 0x1FF00 request goes to slot 2's top */
    assert_true(nitro_texvram_alloc_tex(&v, 0x1FF00, false, &a));
    assert_int_equal(a, 0x60000 - 0x1FF00);
    /* slot 0 has 0x20000 - 0x50 left for 4x4; 0x1FFF0 does not fit slot 0 (0x1FFB0 free),
     * so it goes to slot 2 whose 0x100 bytes left are not enough either: failure */
    assert_false(nitro_texvram_alloc_tex(&v, 0x1FFF0, true, &a));
    /* too large for a texture key */
    assert_false(nitro_texvram_alloc_tex(&v, 0x80000, false, &a));
}

/* Frame palette VRAM manager, from the top of 64 KiB. */
static void test_frame_pltt_alloc(void **state)
{
    (void)state;
    static nitro_texvram v;
    nitro_texvram_init(&v);
    uint32_t a = 0;
    /* 0x24 bytes -> 0x28 (round to 8); 0x10000 - 0x28 = 0xFFD8, aligned down to 16: 0xFFD0 */
    assert_true(nitro_texvram_alloc_pltt(&v, 0x24, false, &a));
    assert_int_equal(a, 0xFFD0);
    /* 4-colour: 8 bytes below, 8-byte alignment: 0xFFC8 */
    assert_true(nitro_texvram_alloc_pltt(&v, 8, true, &a));
    assert_int_equal(a, 0xFFC8);
    /* 16-colour again: 0xFFC8 - 0x20 = 0xFFA8 -> aligned down to 0xFFA0 */
    assert_true(nitro_texvram_alloc_pltt(&v, 0x20, false, &a));
    assert_int_equal(a, 0xFFA0);
    assert_false(nitro_texvram_alloc_pltt(&v, 0x10000, false, &a));
}

/* A model with one material bound to a texture whose original size (32x8) differs from the
 * material's stored size (16x8): bindMdlTex_Internal_ sets magW = FX_Div(32 << 12, 16 << 12)
 * = 2.0 and magH = 1.0, and the Maya texture matrix is scaled by them. */
static nitro_model M;
static nitro_material MAT;
static nitro_tex0 TEX;
static nitro_texture TX;
static nitro_sbc_cmd CMDS[2];

static void setup_bind(void)
{
    memset(&M, 0, sizeof M);
    memset(&MAT, 0, sizeof MAT);
    memset(&TEX, 0, sizeof TEX);
    memset(&TX, 0, sizeof TX);
    nitro_name_set(&MAT.name, "m");
    MAT.has_texture = true;
    nitro_name_set(&MAT.texture_name, "t");
    MAT.orig_width = 16;
    MAT.orig_height = 8;
    MAT.mag_w = MAT.mag_h = FX32_ONE;
    MAT.polygon_attr = 0x001F0000u;
    MAT.polygon_attr_mask = 0xFFFFFFFFu;
    MAT.flags = NITRO_MAT_TEXMTX_USE | NITRO_MAT_TEXMTX_ROT_ZERO | NITRO_MAT_TEXMTX_TRANS_ZERO;
    MAT.scale_s = 0x2000;
    MAT.scale_t = 0x1000;
    nitro_name_set(&TX.name, "t");
    TX.format = NITRO_TEX_PLTT16;
    TX.teximage_param = (2u << 20) | (0u << 23) | (3u << 26) | 0x0004u; /* 32x8, offset 0x20 */
    TX.extra = 32u | (8u << 11);
    TEX.num_textures = 1;
    TEX.textures = &TX;
    M.num_materials = 1;
    M.materials = &MAT;
    M.info.texmtx_mode = 0;
    CMDS[0].op = NITRO_SBC_MAT;
    CMDS[0].opcode = 0x04;
    CMDS[0].u.mat.material = 0;
    CMDS[1].op = NITRO_SBC_RET;
    CMDS[1].opcode = 0x01;
    M.cmds = CMDS;
    M.num_cmds = 2;
}

static void test_bind_magnification(void **state)
{
    (void)state;
    setup_bind();
    static nitro_texvram v;
    nitro_texvram_init(&v);
    v.nsets = 1;
    v.sets[0].tex = &TEX;
    v.sets[0].tex_base = 0x7FF00;
    static nitro_mat_bind b[NITRO_MAX_MATERIALS];
    assert_int_equal(nitro_bind_textures(&v, &M, b), 0);
    assert_true(b[0].bound);
    /* TEXIMAGE_PARAM: the texture's parameter + key address >> 3 = 0x0C200004 + 0xFFE0 */
    assert_int_equal(b[0].teximage, 0x0C200004u + 0xFFE0u);
    assert_true(b[0].has_mag);
    assert_int_equal(b[0].mag_w, 0x2000);
    assert_int_equal(b[0].mag_h, 0x1000);
}

/* Maya texture matrix, scale (2.0, 1.0), no rotation or translation, w = 16, h = 8, bound
 * magW 2.0: texmtxCalc_flag_ gives _00 = ss*cos = 2.0, _11 = 1.0, _01 = _10 = 0,
 * _30 = ((ss - sss - ssc) * w) << 3 - w * ((ss * ts) >> 8) = ((0x2000 - 0 - 0x2000) * 16) << 3
 * - 0 = 0; _31 = ((sts - stc - st + 2.0) * h) << 3 + 0 = ((0 - 0x1000 - 0x1000 + 0x2000) * 8)
 * << 3 = 0. Then magW 2.0 scales _00, _01, _30: _00 = 4.0. Sent as MTX_MODE(3), LOAD_4x4,
 * MTX_MODE(2) (packed word 0x00101610) after the material's two command words. */
static void test_maya_texmtx_mag(void **state)
{
    (void)state;
    setup_bind();
    static nitro_texvram v;
    nitro_texvram_init(&v);
    v.nsets = 1;
    v.sets[0].tex = &TEX;
    static nitro_mat_bind b[NITRO_MAX_MATERIALS];
    nitro_bind_textures(&v, &M, b);
    static rec R;
    memset(&R, 0, sizeof R);
    nitro_gx_sink s = {&R, rec_write, NULL};
    static nitro_glb g;
    nitro_glb_init(&g);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, &M, NULL, &g, &s, b);
    nitro_runtime_draw(&rt);
    /* material: 0x00293130 + 3 params, 0x00002B2A's params are part of the same list */
    assert_int_equal(R.val[0], 0x00293130u);
    assert_int_equal(R.val[7], 0x00101610u);
    assert_int_equal(R.val[8], 3);
    const uint32_t expect[16] = {0x4000, 0, 0, 0, 0, 0x1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1000};
    for (unsigned i = 0; i < 16; i++) assert_int_equal(R.val[9 + i], expect[i]);
    assert_int_equal(R.val[25], 2);
}

/* Maya with rotation 30 degrees (sin 0x800, cos 0xDDB), scale 1, translation (0.25, -0.125),
 * w = h = 16 (magnification 1): _00 = _11 = cos = 0xDDB; ratio h/w = 1.0 so
 * _01 = (-sin * 0x1000) >> 12 = -0x800, _10 = 0x800;
 * _30 = ((0x1000 - 0x800 - 0xDDB) * 16) << 3 - 16 * ((0x1000 * 0x400) >> 8)
 *     = (-0x5DB * 16 * 8) - 16 * 0x4000 = -0x2ED80 - 0x40000 = -0x6ED80;
 * _31 = ((0x800 - 0xDDB - 0x1000 + 0x2000) * 16) << 3 + 16 * ((0x1000 * -0x200) >> 8)
 *     = (0xA25 * 128) + 16 * -0x2000 = 0x51280 - 0x20000 = 0x31280. */
static void test_maya_texmtx_rot_trans(void **state)
{
    (void)state;
    setup_bind();
    MAT.orig_width = 16;
    MAT.orig_height = 16;
    MAT.has_texture = false;
    MAT.flags = NITRO_MAT_TEXMTX_USE | NITRO_MAT_TEXMTX_SCALE_ONE;
    MAT.rot_sin = 0x800;
    MAT.rot_cos = 0xDDB;
    MAT.trans_s = 0x400;
    MAT.trans_t = -0x200;
    static rec R;
    memset(&R, 0, sizeof R);
    nitro_gx_sink s = {&R, rec_write, NULL};
    static nitro_glb g;
    nitro_glb_init(&g);
    static nitro_runtime rt;
    nitro_runtime_init(&rt, &M, NULL, &g, &s, NULL);
    nitro_runtime_draw(&rt);
    assert_int_equal(R.val[7], 0x00101610u);
    assert_int_equal((int32_t)R.val[9 + 0], 0xDDB);
    assert_int_equal((int32_t)R.val[9 + 1], -0x800);
    assert_int_equal((int32_t)R.val[9 + 4], 0x800);
    assert_int_equal((int32_t)R.val[9 + 5], 0xDDB);
    assert_int_equal((int32_t)R.val[9 + 12], -0x6ED80);
    assert_int_equal((int32_t)R.val[9 + 13], 0x31280);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fx_div),           cmocka_unit_test(test_frame_tex_alloc),
        cmocka_unit_test(test_frame_pltt_alloc), cmocka_unit_test(test_bind_magnification),
        cmocka_unit_test(test_maya_texmtx_mag),  cmocka_unit_test(test_maya_texmtx_rot_trans),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
