/* test_nitro_sbc2.c - the exact GX bus stream of each render command (part 2: BB 0x07/0x27/
 * 0x47/0x67, BBY 0x08/0x28/0x48/0x68, NODEMIX with two weighted terms and the envelope cache,
 * ENVMAP 0x0C, PRJMAP 0x0D). Part 1 is test_nitro_sbc.c; the fixture model is described in
 * test_nitro_sbc_fixture.h.
 *
 * Expected words are worked by hand from pret/pokeplatinum lib/NitroSystem/asm/g3d/sbc.s
 * (NNSi_G3dFuncSbc_BB / _BBY / _NODEMIX / _ENVMAP / _PRJMAP), util_nnsg3d.s
 * (NNS_G3dGetCurrentMtx) and pret/pokediamond arm9/asm/NNS_G3D_sbc.s (the bbcmd1 blocks and
 * the projection-map matrix in .data). The matrices the runtime reads back (CLIPMTX_RESULT,
 * VECMTX_RESULT) are supplied by the recorder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "test_nitro_sbc_fixture.h"

#define BUILD(rule, ...)                                                                           \
    do {                                                                                           \
        static const uint8_t sbc_[] = {__VA_ARGS__};                                               \
        fx_build(sbc_, sizeof sbc_, rule);                                                         \
    } while (0)

static void set_clip(unsigned i, const fx32 m[16])
{
    memcpy(R.clip[i], m, sizeof R.clip[i]);
    if (R.nclip < i + 1) R.nclip = i + 1;
}

static void set_vec(unsigned i, const fx32 m[9])
{
    memcpy(R.vec[i], m, sizeof R.vec[i]);
    if (R.nvec < i + 1) R.nvec = i + 1;
}

/* ---- 0x07 BB ---- */

/* Position matrix: 90 degrees about Z with scale (2, 3, 4), translation (1, -2, 3). */
static const fx32 CLIP_A[16] = {0, 0x2000, 0,      0, -0x3000, 0,       0,      0,
                                0, 0,      0x4000, 0, 0x1000,  -0x2000, 0x3000, 0x1000};

/* NNSi_G3dFuncSbc_BB with the global state flushed by FlushP (glb flag 0): flush, then
 * 0x00151110 0 0 straight to the GXFIFO (MTX_MODE projection, MTX_PUSH, MTX_IDENTITY: the clip
 * matrix is now the position matrix), read it back, and send bbcmd1 (0x48 bytes, MIi_CpuSend32):
 * 0x1B171012 = MTX_POP, MTX_MODE, MTX_LOAD_4x3, MTX_SCALE; POP 1; MODE 2; the identity 3x3 with
 * the read translation (clip _30.._32); the scale (VEC_Mag of clip rows 0, 1, 2 = 2, 3, 4). */
static void expect_bb_a(void)
{
    FIFO(0x00151110, 0, 0);
    FIFO(0x1B171012, 1, 2, 0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000, 0x1000, 0xFFFFE000, 0x3000,
         0x2000, 0x3000, 0x4000);
}

static void test_bb_variants(void **st)
{
    (void)st;
    BUILD(0, 0x07, 0,          /* BB node 0 */
          0x27, 0, 4,          /* store: byte 2 */
          0x47, 0, 5,          /* restore: byte 2 */
          0x67, 0, 4, 5,       /* store byte 2, restore byte 3 */
          0x02, 0, 0, 0x07, 0, /* no visibility test in NNSi_G3dFuncSbc_BB */
          0x01);
    set_clip(0, CLIP_A);
    fx_draw();
    expect_bb_a();
    expect_bb_a();
    FIFO(0x13, 4); /* GeBufferOP_N(MTX_STORE) after */
    FIFO(0x14, 5); /* GeBufferOP_N(MTX_RESTORE) before */
    expect_bb_a();
    FIFO(0x14, 5);
    expect_bb_a();
    FIFO(0x13, 4);
    expect_bb_a();
    expect_end();
    assert_int_equal(R.clip_reads, 5);
    fx_free();
}

/* ---- 0x08 BBY ---- */

/* Position matrix: 90 degrees about X with scale (2, 3, 4), translation (0.3125, 0.375, ..). */
static const fx32 CLIP_B[16] = {0x2000, 0,       0, 0, 0,     0,     0x3000, 0,
                                0,      -0x4000, 0, 0, 0x500, 0x600, 0x700,  0x1000};

/* NNSi_G3dFuncSbc_BBY: the same read-back, then its own static block (bbcmd1 of BBY) whose
 * 3x3 starts as identity and is partly rewritten each time:
 *   clip _11 or _12 non-zero: row 1 = VEC_Normalize(clip row 1), _21 = -_12, _22 = _11;
 *   else: row 2 = VEC_Normalize(clip row 2), _12 = -_21, _11 = _22.
 * A: _11 = _12 = 0 -> row 2 = (0, 0, 1), _12 = 0, _11 = 1: identity.
 * B: _12 = 3 -> row 1 = (0, 0, 1), _21 = -1, _22 = 0; row 2's _20 is kept (0). */
static void expect_bby(bool b)
{
    FIFO(0x00151110, 0, 0);
    if (!b)
        FIFO(0x1B171012, 1, 2, 0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000, 0x1000, 0xFFFFE000, 0x3000,
             0x2000, 0x3000, 0x4000);
    else
        FIFO(0x1B171012, 1, 2, 0x1000, 0, 0, 0, 0, 0x1000, 0, 0xFFFFF000, 0, 0x500, 0x600, 0x700,
             0x2000, 0x3000, 0x4000);
}

static void test_bby_variants(void **st)
{
    (void)st;
    BUILD(0, 0x08, 0, 0x28, 0, 4, 0x48, 0, 5, 0x68, 0, 4, 5, 0x01);
    set_clip(0, CLIP_A);
    set_clip(1, CLIP_B);
    set_clip(2, CLIP_A);
    set_clip(3, CLIP_B);
    fx_draw();
    expect_bby(false);
    expect_bby(true);
    FIFO(0x13, 4);
    FIFO(0x14, 5);
    expect_bby(false);
    FIFO(0x14, 5);
    expect_bby(true);
    FIFO(0x13, 4);
    expect_end();
    fx_free();
}

/* ---- 0x09 NODEMIX ---- */

/* What the two envelope terms read back: position matrices (after restoring the slot and
 * multiplying by the node's inverse-bind matrix) and vector matrices (after the 3x3). */
static const fx32 MIX_CLIP0[16] = {0x2000, 0, 0,      0, 0,      0x2000, 0, 0,
                                   0,      0, 0x2000, 0, 0x1000, 0,      0, 0x1000};
static const fx32 MIX_VEC0[9] = {0x1000, 0, 0, 0, 0, 0x1000, 0, -0x1000, 0};
static const fx32 MIX_CLIP1[16] = {0x1000, 0, 0,      0, 0, 0x1000, 0, 0,
                                   0,      0, 0x1000, 0, 0, 0x2000, 0, 0x1000};
static const fx32 MIX_VEC1[9] = {0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000};

static void expect_mix_prologue(void)
{
    /* flush, then ports: MTX_MODE 0, MTX_STORE 1 (projection saved), MTX_IDENTITY, MTX_MODE 2 */
    port(0x10, 0);
    port(0x13, 1);
    port(0x15, 0);
    port(0x10, 2);
}

/* The 9 direction sums then G3_LoadMtx43's 3 more words (stack contents on hardware: only the
 * addresses are checked), MODE 1, the position sum, MODE 0, RESTORE 1 (projection back),
 * MODE 2, MTX_STORE dest. */
static void expect_mix_epilogue(const fx32 dir[9], const fx32 pos[12], uint32_t dest)
{
    port_arr(0x17, dir, 9);
    for (unsigned i = 0; i < 3; i++) {
        assert_true(R.pos < R.n);
        assert_int_equal(R.addr[R.pos++], 0x0400045C);
    }
    port(0x10, 1);
    port_arr(0x17, pos, 12);
    port(0x10, 0);
    port(0x14, 1);
    port(0x10, 2);
    port(0x13, dest);
}

static void test_nodemix_two_terms(void **st)
{
    (void)st;
    BUILD(0, 0x09, 3, 2, 4, 1, 160, 5, 2, 96, /* dest 3: slot 4 x env 1 x 160/256 + ... */
          0x09, 6, 1, 4, 1, 128,              /* node 1 again: from the envelope cache */
          0x01);
    set_clip(0, MIX_CLIP0);
    set_clip(1, MIX_CLIP1);
    set_vec(0, MIX_VEC0);
    set_vec(1, MIX_VEC1);
    const nitro_envelope *env = F.models[0].envelopes;
    fx_draw();
    expect_mix_prologue();
    /* term 0: not cached: RESTORE 4, MODE 1 (position), G3_MultMtx43(inverse bind), read the
     * clip matrix, MODE 2, G3_MultMtx33(inverse direction), read the vector matrix */
    port(0x14, 4);
    port(0x10, 1);
    port_arr(0x19, env[1].pos, 12);
    port(0x10, 2);
    port_arr(0x1A, env[1].dir, 9);
    port(0x14, 5);
    port(0x10, 1);
    port_arr(0x19, env[2].pos, 12);
    port(0x10, 2);
    port_arr(0x1A, env[2].dir, 9);
    /* w0 = 160 << 4 = 0xA00, w1 = 96 << 4 = 0x600; each product (w * m) >> 12 (64-bit).
     * position (4x3 of each clip): _00 = 0xA00*2 + 0x600*1 = 0x1A00 (so _11, _22);
     *   _30 = 0xA00*1 = 0xA00, _31 = 0x600*2 = 0xC00.
     * direction: _00 = 0xA00 + 0x600 = 0x1000, _11 = 0x600, _12 = 0xA00, _21 = -0xA00,
     *   _22 = 0x600. */
    static const fx32 pos[12] = {0x1A00, 0, 0, 0, 0x1A00, 0, 0, 0, 0x1A00, 0xA00, 0xC00, 0};
    static const fx32 dir[9] = {0x1000, 0, 0, 0, 0x600, 0xA00, 0, -0xA00, 0x600};
    expect_mix_epilogue(dir, pos, 3);
    /* second NODEMIX: env 1 is cached this draw: no restore / multiply / read-back, the cached
     * matrices times 128 << 4 = 0x800 (one half) */
    expect_mix_prologue();
    static const fx32 pos2[12] = {0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000, 0x800, 0, 0};
    static const fx32 dir2[9] = {0x800, 0, 0, 0, 0, 0x800, 0, -0x800, 0};
    expect_mix_epilogue(dir2, pos2, 6);
    expect_end();
    assert_int_equal(R.clip_reads, 2);
    assert_int_equal(R.vec_reads, 2);
    fx_free();
}

/* ---- 0x0C ENVMAP, 0x0D PRJMAP ---- */

/* Material 3 bound: colours from the global state, then the texture matrix (everything
 * flagged: texmtxCalc_flagTRS, _00 = _11 = 1.0, _33 = 1.0, the rest 0). */
static void expect_mat3(void)
{
    FIFO(0x00293130, 0x4210C210, 0x4210C210, 0x001F008F, 0x00002B2A, 0x00030000, 0);
    FIFO(0x00101610, 3, 0x1000, 0, 0, 0, 0, 0x1000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x1000, 2);
}

/* NNS_G3dGetCurrentMtx: command ports MTX_MODE 0, MTX_PUSH, MTX_IDENTITY, the read(s), then
 * MTX_POP 1 and MTX_MODE 2 (pret/pokeplatinum util_nnsg3d.s). */
static void expect_get_current(void)
{
    port(0x10, 0);
    port(0x11, 0);
    port(0x15, 0);
    port(0x12, 1);
    port(0x10, 2);
}

static const fx32 ENV_VEC[9] = {0x1000, 0, 0, 0, 0, 0x1000, 0, -0x1000, 0};

/* NNSi_G3dFuncSbc_ENVMAP (glb flag 0): TEXIMAGE_PARAM with texgen 2 (normal) only when it
 * changes; MTX_MODE 3; MTX_SCALE (w << 15, -h << 15, 1.0 << 4) = (16 << 15, -(32 << 15),
 * 0x10000); TEXCOORD ((w << 19) >> 16, (h << 19) >> 16) = (0x80, 0x100); the material's effect
 * matrix (MTX_MULT_4x4, material flag 0x2000); MTX_MODE 2; the current vector matrix
 * (NNS_G3dGetCurrentMtx(NULL, nrm)); MTX_MODE 3; MTX_MULT_3x3 of it; MTX_MODE 2. */
static void expect_envmap(bool texgen)
{
    if (texgen) FIFO(0x2A, 0x80030000);
    FIFO(0x10, 3);
    FIFO(0x1B, 0x80000, 0xFFF00000, 0x10000);
    FIFO(0x22, 0x01000080);
    FIFO(0x18);
    fifo_arr(FX_EFFECT, 16);
    FIFO(0x10, 2);
    expect_get_current();
    FIFO(0x10, 3);
    FIFO(0x1A);
    fifo_arr(ENV_VEC, 9);
    FIFO(0x10, 2);
}

static void test_envmap(void **st)
{
    (void)st;
    BUILD(0, 0x04, 3, 0x0C, 3, 0, 0x0C, 3, 0, 0x02, 0, 0, 0x0C, 3, 0, 0x01);
    set_vec(0, ENV_VEC);
    fx_draw();
    expect_mat3();
    expect_envmap(true);
    expect_envmap(false); /* texgen already normal: no TEXIMAGE_PARAM */
    expect_end();         /* invisible node: ENVMAP skipped */
    assert_int_equal(R.clip_reads, 0);
    fx_free();
}

static const fx32 PRJ_CUR[16] = {0x1000, 0, 0,      0, 0,     0x1000, 0,     0,
                                 0,      0, 0x1000, 0, 0x500, 0x600,  0x700, 0x1000};
static const fx32 PRJ_TEX[16] = {0x10000, 0, 0,       0, 0,       0x10000,   0, 0,
                                 0,       0, 0x10000, 0, 0x80000, -0x100000, 0, 0x10000};

/* NNSi_G3dFuncSbc_PRJMAP (glb flag 0):
 *   NNS_G3dGetCurrentMtx(pos, NULL); MTX_STORE 30 (the system slot); TEXIMAGE_PARAM with texgen
 *   3 (vertex) when it changes; MTX_LOAD_4x4 of the static matrix with _00 = w << 15, _11 =
 *   -h << 15, _22 = 0x10000, _30 = w << 15, _31 = h << 15, _33 = 0x10000; the effect matrix
 *   (MTX_MULT_4x4); MTX_MULT_4x3 of the inverse camera (NNS_G3dGlbGetInvV; camera = translation
 *   (1, 2, 3) -> inverse translation (-1, -2, -3)); MTX_MULT_4x3 of the current matrix; ports
 *   MODE 0, PUSH, IDENTITY; read the clip matrix T; ports POP 1, MODE 3; MTX_LOAD_4x4 T;
 *   TEXCOORD (s16)((T_30 >> 4) >> 8), (s16)((T_31 >> 4) >> 8) = (0x80000 >> 12 = 0x80,
 *   -0x100000 >> 12 = -0x100); MTX_MODE 2; MTX_RESTORE 30. */
static void expect_prjmap(bool texgen)
{
    expect_get_current();
    FIFO(0x13, 30);
    if (texgen) FIFO(0x2A, 0xC0030000);
    FIFO(0x16, 0x80000, 0, 0, 0, 0, 0xFFF00000, 0, 0, 0, 0, 0x10000, 0, 0x80000, 0x100000, 0,
         0x10000);
    FIFO(0x18);
    fifo_arr(FX_EFFECT, 16);
    FIFO(0x19, 0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000, 0xFFFFF000, 0xFFFFE000, 0xFFFFD000);
    FIFO(0x19, 0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000, 0x500, 0x600, 0x700);
    port(0x10, 0);
    port(0x11, 0);
    port(0x15, 0);
    port(0x12, 1);
    port(0x10, 3);
    FIFO(0x16);
    fifo_arr(PRJ_TEX, 16);
    FIFO(0x22, 0xFF000080);
    FIFO(0x10, 2);
    FIFO(0x14, 30);
}

static void test_prjmap(void **st)
{
    (void)st;
    BUILD(0, 0x04, 3, 0x0D, 3, 0, 0x0D, 3, 0, 0x02, 0, 0, 0x0D, 3, 0, 0x01);
    fx32 cam[12] = {0x1000, 0, 0, 0, 0x1000, 0, 0, 0, 0x1000, 0x1000, 0x2000, 0x3000};
    nitro_glb_set_camera(&G, cam);
    set_clip(0, PRJ_CUR);
    set_clip(1, PRJ_TEX);
    set_clip(2, PRJ_CUR);
    set_clip(3, PRJ_TEX);
    fx_draw();
    expect_mat3();
    expect_prjmap(true);
    expect_prjmap(false); /* texgen already vertex */
    expect_end();         /* invisible node: PRJMAP skipped */
    assert_int_equal(R.clip_reads, 4);
    fx_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bb_variants),
        cmocka_unit_test(test_bby_variants),
        cmocka_unit_test(test_nodemix_two_terms),
        cmocka_unit_test(test_envmap),
        cmocka_unit_test(test_prjmap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
