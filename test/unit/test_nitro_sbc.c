/* test_nitro_sbc.c - the exact GX bus stream of each render command (part 1: NOP, RET, NODE,
 * MTX, MAT 0x04/0x24/0x44, SHP, NODEDESC 0x06/0x26/0x46/0x66 with the Maya segment scale
 * compensation flags, CALLDL, POSSCALE 0x0B/0x2B). Part 2 (billboards, NODEMIX, ENVMAP,
 * PRJMAP) is test_nitro_sbc2.c.
 *
 * Every expected word is worked by hand from the decompiled NitroSystem runtime:
 * pret/pokeplatinum lib/NitroSystem/asm/g3d/sbc.s (NNSi_G3dFuncSbc_*), maya.s
 * (NNSi_G3dGetJointScaleMaya, NNSi_G3dSendJointSRTMaya, texmtxCalc_flag*), basic.s, and
 * pret/pokediamond arm9/asm/NNS_G3D_sbc.s; the render commands are written as raw bytes with
 * their operand layout (MarioKartToolbox G3d/Sbc.cs command lengths), then parsed. The
 * fixture model is described in test_nitro_sbc_fixture.h. */
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

/* Material 0 bound (NNSi_G3dFuncSbc_MAT_InternalDefault): one GeBufferOP_N of the packed word
 * 0x00293130 (DIF_AMB, SPE_EMI, POLYGON_ATTR) + 3 words, 0x00002B2A (TEXIMAGE_PARAM,
 * PLTT_BASE) + 2 words.
 * DIF_AMB: flags diffuse|ambient -> matColorMask_[3] = 0x7FFF7FFF; glb 0x4210C210 & ~mask =
 * 0x00008000, | 0x001F03E0 = 0x001F83E0. SPE_EMI: mask 0 -> glb 0x4210C210. POLYGON_ATTR: glb
 * 0x001F008F with the alpha bits (mask 0x001F0000) from the material (31) = 0x001F008F. */
static void expect_mat0(uint32_t spe_emi)
{
    FIFO(0x00293130, 0x001F83E0, spe_emi, 0x001F008F, 0x00002B2A, 0x00030000, 3);
}

/* Material 1: colours from the global state, then the texture matrix (NNSi_G3dSendTexSRTMaya:
 * GeBufferOP_N(0x00101610 = MODE, LOAD_4x4, MODE, 18 words): 3, the 4x4, 2). texmtxCalc for
 * scale 1, rotation 0, translation (0.5, 0.25), 16x16 (texmtxCalc_flagRS): _00 = _11 = 1.0,
 * _01 = _10 = 0, _30 = -(w * tS) << 4 = -(16 * 0x800) << 4 = -0x80000, _31 = (h * tT) << 4 =
 * (16 * 0x400) << 4 = 0x40000; _22 = 0 and _33 = 1.0 from the initial matrix on the stack. */
static void expect_mat1(uint32_t spe_emi)
{
    FIFO(0x00293130, 0x4210C210, spe_emi, 0x001F008F, 0x00002B2A, 0x00030000, 0);
    FIFO(0x00101610, 3, 0x1000, 0, 0, 0, 0, 0x1000, 0, 0, 0, 0, 0, 0, 0xFFF80000, 0x40000, 0,
         0x1000, 2);
}

/* ---- 0x00 NOP, 0x01 RET ---- */

static void test_nop_ret(void **st)
{
    (void)st;
    BUILD(0, 0x00, 0x00, 0x05, 0, 0x01);
    /* NNSi_G3dFuncSbc_NOP only advances the pointer: the stream is the mesh alone. */
    assert_int_equal(fx_draw(), 4);
    expect_dl();
    expect_end();
    /* RET sets the return flag and the draw loop stops: put RET before the SHP. */
    nitro_model *m = &F.models[0];
    assert_int_equal(m->num_cmds, 4);
    nitro_sbc_cmd shp = m->cmds[2];
    m->cmds[2] = m->cmds[3];
    m->cmds[3] = shp;
    assert_int_equal(fx_draw(), 3);
    expect_end(); /* nothing at all */
    fx_free();
}

/* ---- 0x02 NODE (visible and invisible), 0x03 MTX, 0x05 SHP ---- */

static void test_node_mtx_shp(void **st)
{
    (void)st;
    BUILD(0, 0x02, 0, 1, /* NODE 0 visible */
          0x03, 5,       /* MTX 5 */
          0x05, 0,       /* SHP 0 */
          0x02, 1, 0,    /* NODE 1 invisible */
          0x03, 6,       /* skipped: MTX only when visible */
          0x05, 0,       /* skipped */
          0x02, 2, 1,    /* NODE 2 visible again */
          0x05, 0, 0x01);
    fx_draw();
    FIFO(0x14, 5); /* GeBufferOP_N(MTX_RESTORE, {5}, 1) */
    expect_dl();
    expect_dl();
    expect_end();
    fx_free();
}

/* ---- 0x04 / 0x24 / 0x44 MAT ---- */

static unsigned HOOK_CALLS;

/* A material animation that stamps the call number into SPE_EMI: shows when the material is
 * computed (hook called) and when the cached result is reused (hook not called). */
static void stamp_hook(void *user, unsigned mat, nitro_mat_result *r)
{
    (void)user;
    (void)mat;
    r->spe_emi = ++HOOK_CALLS;
}

static void test_mat_cache(void **st)
{
    (void)st;
    BUILD(0, 0x44, 0, /* computed, fills the cache of material 0 */
          0x24, 0,    /* cached: the same result again, not recomputed */
          0x04, 0,    /* 0x04 never uses the cache: recomputed */
          0x24, 1,    /* not cached yet: computed into the temporary, cache not filled */
          0x24, 1,    /* so computed again */
          0x44, 1,    /* computed, cached */
          0x24, 1,    /* cached: the whole block re-sent, texture matrix included */
          0x44, 0,    /* cached (0x44 also reads a filled entry) */
          0x01);
    nitro_anim_hooks h = {NULL, NULL, stamp_hook, NULL};
    nitro_runtime_set_hooks(&RT, &h);
    HOOK_CALLS = 0;
    fx_draw();
    expect_mat0(1);
    expect_mat0(1);
    expect_mat0(2);
    expect_mat1(3);
    expect_mat1(4);
    expect_mat1(5);
    expect_mat1(5);
    expect_mat0(1);
    expect_end();
    assert_int_equal(HOOK_CALLS, 5);
    /* The cache flags are cleared at each draw (G3dDrawInternal_ clears the render state). */
    HOOK_CALLS = 0;
    fx_draw();
    expect_mat0(1);
    expect_mat0(1);
    fx_free();
}

static void test_mat_invisible_node(void **st)
{
    (void)st;
    BUILD(0, 0x02, 0, 0, /* invisible */
          0x04, 0,       /* no current material yet: bound */
          0x04, 0,       /* invisible node, same material as the current one: skipped */
          0x04, 1,       /* a different material: bound */
          0x05, 0,       /* invisible: not drawn */
          0x01);
    fx_draw();
    expect_mat0(0x4210C210);
    expect_mat1(0x4210C210);
    expect_end();
    fx_free();
}

/* Wireframe: the alpha test happens first (31: drawn), then the alpha bits of the RESULT are
 * cleared (bicne r0, r1, #0x1f0000; strne r0, [r5, #0xc]). For 0x44 the result is the cache
 * entry, so a later 0x24 finds alpha 0 and treats the material as transparent. */
static void test_mat_wireframe_cache(void **st)
{
    (void)st;
    BUILD(0, 0x44, 2, 0x05, 0, 0x24, 2, 0x05, 0, 0x04, 2, 0x05, 0, 0x01);
    fx_draw();
    FIFO(0x00293130, 0x4210C210, 0x4210C210, 0x0000008F, 0x00002B2A, 0x00030000, 0);
    expect_dl();
    /* 0x24: cached alpha 0 -> MAT_TRANSPARENT, no words; SHP skipped */
    /* 0x04: recomputed from the model: drawn again */
    FIFO(0x00293130, 0x4210C210, 0x4210C210, 0x0000008F, 0x00002B2A, 0x00030000, 0);
    expect_dl();
    expect_end();
    fx_free();
}

/* ---- 0x06 NODEDESC ---- */

/* Node 1 (basic.s NNSi_G3dSendJointSRTBasic): rotation and translation -> MTX_MULT_4x3 of the
 * 3x3 rows then the translation; scale 1 -> nothing more. */
static void expect_node1(void)
{
    FIFO(0x19, 0, 0x1000, 0, 0xFFFFF000, 0, 0, 0, 0, 0x1000, 0x1000, 0x2000, 0xFFFFD000);
}

static void test_nodedesc_variants(void **st)
{
    (void)st;
    BUILD(0, 0x06, 1, 0, 0,    /* plain */
          0x26, 1, 0, 0, 7,    /* store: byte 4 */
          0x46, 1, 0, 0, 9,    /* restore: byte 4 */
          0x66, 1, 0, 0, 7, 9, /* both: store byte 4, restore byte 5 */
          0x06, 2, 0, 0,       /* scale only -> MTX_SCALE */
          0x06, 3, 0, 0,       /* translation only -> MTX_TRANS */
          0x06, 0, 0, 0,       /* identity -> nothing */
          0x02, 0, 0,          /* invisible node ... */
          0x66, 1, 0, 0, 2, 3, /* ... NODEDESC still runs (no visibility test) */
          0x01);
    fx_draw();
    expect_node1();
    expect_node1();
    FIFO(0x13, 7); /* MTX_STORE after the transform */
    FIFO(0x14, 9); /* MTX_RESTORE before it */
    expect_node1();
    FIFO(0x14, 9);
    expect_node1();
    FIFO(0x13, 7);
    FIFO(0x1B, 0x2000, 0x3000, 0x4000);
    FIFO(0x1C, 0x1000, 0x2000, 0x3000);
    FIFO(0x14, 3);
    expect_node1();
    FIFO(0x13, 2);
    expect_end();
    fx_free();
}

/* Maya segment scale compensation (scaling rule 1; maya.s NNSi_G3dGetJointScaleMaya /
 * NNSi_G3dSendJointSRTMaya). Flags byte (byte 3): bit 1 = remember this node's inverse scale
 * (scale-one bit cleared, inverse scale into the scale cache), bit 0 = apply the parent's
 * remembered inverse scale: MTX_TRANS(translation) first, then MTX_SCALE(parent inverse), then
 * the rotation as a 3x3, then the node's own scale. A parent whose scale-one bit is set
 * (node 0 is, from the start of the draw; or a scale-one node with bit 1) gives no
 * compensation. */
static void test_nodedesc_maya_ssc(void **st)
{
    (void)st;
    BUILD(1, 0x06, 2, 0, 2, /* node 2: scale (2,3,4) sent, inverse remembered */
          0x06, 3, 2, 1,    /* node 3 under node 2: T(1,2,3), S(0.5, 0x555, 0.25) */
          0x06, 1, 0, 1,    /* node 1 under node 0 (scale one): plain 4x3 */
          0x06, 3, 2, 0,    /* flag 0: no compensation even under node 2 */
          0x06, 1, 2, 1,    /* node 1 under node 2: T(1,2,-3), S(inverse), rotation 3x3 */
          0x06, 0, 0, 2,    /* node 0 scale one, bit 1: scale-one bit set, nothing sent */
          0x06, 3, 0, 1,    /* under node 0: no compensation */
          0x01);
    fx_draw();
    FIFO(0x1B, 0x2000, 0x3000, 0x4000);
    FIFO(0x1C, 0x1000, 0x2000, 0x3000);
    FIFO(0x1B, 0x800, 0x555, 0x400);
    expect_node1();
    FIFO(0x1C, 0x1000, 0x2000, 0x3000);
    FIFO(0x1C, 0x1000, 0x2000, 0xFFFFD000);
    FIFO(0x1B, 0x800, 0x555, 0x400);
    FIFO(0x1A, 0, 0x1000, 0, 0xFFFFF000, 0, 0, 0, 0, 0x1000);
    FIFO(0x1C, 0x1000, 0x2000, 0x3000);
    expect_end();
    fx_free();
}

/* The standard scaling rule ignores the flags byte. */
static void test_nodedesc_standard_ignores_ssc(void **st)
{
    (void)st;
    BUILD(0, 0x06, 2, 0, 2, 0x06, 3, 2, 1, 0x01);
    fx_draw();
    FIFO(0x1B, 0x2000, 0x3000, 0x4000);
    FIFO(0x1C, 0x1000, 0x2000, 0x3000);
    expect_end();
    fx_free();
}

/* ---- 0x0A CALLDL, 0x0B / 0x2B POSSCALE ---- */

static void test_calldl(void **st)
{
    (void)st;
    /* CALLDL u32 offset (from the opcode), u32 size; pointed at the mesh below. */
    BUILD(0, 0x02, 0, 0, 0x0A, 0, 0, 0, 0, 8, 0, 0, 0, 0x01);
    nitro_model *m = &F.models[0];
    nitro_sbc_cmd *c = &m->cmds[1];
    assert_int_equal(c->op, NITRO_SBC_CALLDL);
    c->u.calldl.dl = m->meshes[0].dl;
    fx_draw();
    /* NNSi_G3dFuncSbc_CALLDL: NNS_G3dGeSendDL(sbc + offset, size); no visibility test. */
    expect_dl();
    expect_end();
    fx_free();
}

static void test_posscale(void **st)
{
    (void)st;
    BUILD(0, 0x0B, 0x2B, 0x02, 0, 0, 0x0B, 0x01);
    fx_draw();
    /* GeBufferOP_N(MTX_SCALE, {s, s, s}, 3): opt 0 -> posScale (2.0), else invPosScale (0.5);
     * only NOGECMD / SKIP_SBCDRAW gate it, not visibility. */
    FIFO(0x1B, 0x2000, 0x2000, 0x2000);
    FIFO(0x1B, 0x800, 0x800, 0x800);
    FIFO(0x1B, 0x2000, 0x2000, 0x2000);
    expect_end();
    fx_free();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nop_ret),
        cmocka_unit_test(test_node_mtx_shp),
        cmocka_unit_test(test_mat_cache),
        cmocka_unit_test(test_mat_invisible_node),
        cmocka_unit_test(test_mat_wireframe_cache),
        cmocka_unit_test(test_nodedesc_variants),
        cmocka_unit_test(test_nodedesc_maya_ssc),
        cmocka_unit_test(test_nodedesc_standard_ignores_ssc),
        cmocka_unit_test(test_calldl),
        cmocka_unit_test(test_posscale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
