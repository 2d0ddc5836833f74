/* test_nitro_runtime.c - the exact GX bus stream the G3D runtime produces per render command.
 * Expected words are worked by hand from pret/pokediamond NNS_G3D_sbc.s and
 * pret/pokeplatinum glbstate.s (see the comments at each expectation). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "nitro/runtime.h"

typedef struct rec {
    unsigned n;
    uint32_t addr[4096], val[4096];
    fx32 clip[16]; /* what CLIPMTX_RESULT reads return */
} rec;

static void rec_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    rec *r = u;
    (void)bytes;
    if (r->n < 4096) {
        r->addr[r->n] = addr;
        r->val[r->n++] = val;
    }
}

static uint32_t rec_read(void *u, uint32_t addr)
{
    rec *r = u;
    if (addr >= 0x04000640 && addr < 0x04000680) return (uint32_t)r->clip[(addr - 0x04000640) / 4];
    if (addr >= 0x04000680 && addr < 0x040006A4) return (addr - 0x04000680) % 16 == 0 ? 0x1000 : 0;
    return 0;
}

static rec R;
static nitro_glb G;
static nitro_model M;
static nitro_material MATS[2];
static nitro_node NODES[2];
static nitro_mesh MESH[1];
static nitro_sbc_cmd CMDS[8];
static nitro_sbc_mix_term TERMS[2];
static nitro_envelope EVP[2];
static uint8_t BUF[16] = {0x40, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00};

static void setup_model(void)
{
    memset(&R, 0, sizeof R);
    memset(&M, 0, sizeof M);
    memset(MATS, 0, sizeof MATS);
    memset(NODES, 0, sizeof NODES);
    memset(CMDS, 0, sizeof CMDS);
    nitro_glb_init(&G);
    M.num_materials = 2;
    M.materials = MATS;
    M.num_nodes = 2;
    M.nodes = NODES;
    M.num_meshes = 1;
    M.meshes = MESH;
    MESH[0].dl.offset = 0;
    MESH[0].dl.size = 8;
    M.cmds = CMDS;
    M.mix_terms = TERMS;
    M.envelopes = EVP;
    M.num_envelopes = 2;
    M.info.pos_scale = 0x2000;
    M.info.inv_pos_scale = 0x800;
}

static void run(unsigned ncmds)
{
    CMDS[ncmds].op = NITRO_SBC_RET;
    CMDS[ncmds].opcode = 1;
    M.num_cmds = ncmds + 1;
    nitro_gx_sink s = {&R, rec_write, rec_read};
    static nitro_runtime rt;
    nitro_runtime_init(&rt, &M, BUF, &G, &s, NULL);
    nitro_runtime_draw(&rt);
}

static void expect_fifo(unsigned from, const uint32_t *w, unsigned n)
{
    assert_true(from + n <= R.n);
    for (unsigned i = 0; i < n; i++) {
        assert_int_equal(R.addr[from + i], 0x04000400);
        assert_int_equal(R.val[from + i], w[i]);
    }
}

static void test_glb_flush(void **st)
{
    (void)st;
    setup_model();
    nitro_gx_sink s = {&R, rec_write, rec_read};
    nitro_glb_flush(&G, &s);
    /* one command word + 62 parameters (NNS_G3dGlbFlushP: GeBufferOP_N(.., 0x3e)) */
    assert_int_equal(R.n, 63);
    assert_int_equal(R.val[0], 0x17101610);
    assert_int_equal(R.val[1], 0);      /* MTX_MODE projection */
    assert_int_equal(R.val[2], 0x1000); /* projection _00 */
    assert_int_equal(R.val[18], 2);     /* MTX_MODE position-vector */
    assert_int_equal(R.val[31], 0x32323232);
    assert_int_equal(R.val[32], 0x2D8B62D8); /* light 0 (-0.578,-0.578,-0.578): -296 each */
    assert_int_equal(R.val[34], 0x800001FF); /* light 2 (+0.998, 0, 0) */
    assert_int_equal(R.val[36], 0x60293130);
    assert_int_equal(R.val[37], 0x4210C210);
    assert_int_equal(R.val[39], 0x001F008F);
    assert_int_equal(R.val[40], 0xBFFF0000); /* VIEWPORT 0,0,255,191 */
    assert_int_equal(R.val[41], 0x33333333);
    assert_int_equal(R.val[45], 0xC0007C00); /* light 3 blue */
    assert_int_equal(R.val[46], 0x002A1B19);
    assert_int_equal(R.val[62], 0); /* TEXIMAGE_PARAM */
}

static void test_material_and_shape(void **st)
{
    (void)st;
    setup_model();
    MATS[0].flags = NITRO_MAT_DIFFUSE | NITRO_MAT_AMBIENT; /* mask 0x7fff7fff */
    MATS[0].dif_amb = 0x001f03e0;
    MATS[0].spe_emi = 0x12345678;
    MATS[0].polygon_attr = 0x000a0000; /* alpha 10 */
    MATS[0].polygon_attr_mask = 0x001f0000;
    MATS[0].teximage_param = 0x00030000;
    MATS[0].pltt_base = 5;
    CMDS[0].op = NITRO_SBC_MAT;
    CMDS[0].opcode = 0x04;
    CMDS[1].op = NITRO_SBC_SHP;
    CMDS[1].opcode = 0x05;
    run(2);
    /* DIF_AMB: glb 0x4210C210 & ~0x7fff7fff | mat & 0x7fff7fff = 0x001f83e0 (bit 15 of
     * glb is set, bit 31 clear); SPE_EMI: mask 0 -> glb; POLYGON_ATTR: 0x001F008F with alpha
     * replaced by 10. */
    const uint32_t w[] = {0x00293130, 0x001f83e0, 0x4210C210, 0x000A008F, 0x00002B2A,
                          0x00030000, 5,          0x40,       0x01};
    assert_int_equal(R.n, 9);
    expect_fifo(0, w, 9); /* then the mesh words as they are */
}

static void test_transparent_material_skips_shape(void **st)
{
    (void)st;
    setup_model();
    MATS[1].polygon_attr_mask = 0x001f0000; /* alpha 0 */
    CMDS[0].op = NITRO_SBC_MAT;
    CMDS[0].opcode = 0x04;
    CMDS[0].u.mat.material = 1;
    CMDS[1].op = NITRO_SBC_SHP;
    CMDS[1].opcode = 0x05;
    run(2);
    assert_int_equal(R.n, 0);
}

static void test_invisible_node(void **st)
{
    (void)st;
    setup_model();
    CMDS[0].op = NITRO_SBC_NODE;
    CMDS[0].opcode = 0x02;
    CMDS[0].u.node.flags = 0; /* invisible */
    CMDS[1].op = NITRO_SBC_MTX;
    CMDS[1].opcode = 0x03;
    CMDS[2].op = NITRO_SBC_SHP;
    CMDS[2].opcode = 0x05;
    CMDS[3].op = NITRO_SBC_POSSCALE; /* not gated by visibility */
    CMDS[3].opcode = 0x2b;
    CMDS[3].u.posscale.inverse = true;
    run(4);
    const uint32_t w[] = {0x1b, 0x800, 0x800, 0x800};
    assert_int_equal(R.n, 4);
    expect_fifo(0, w, 4);
}

static void test_nodedesc_store_restore(void **st)
{
    (void)st;
    setup_model();
    NODES[1].flags = NITRO_NODE_SCALE_ONE;
    NODES[1].translation[0] = 0x1000;
    for (int i = 0; i < 9; i++) NODES[1].rotation[i] = (i % 4 == 0) ? 0x1000 : 0;
    CMDS[0].op = NITRO_SBC_NODEDESC;
    CMDS[0].opcode = 0x66;
    CMDS[0].u.nodedesc.node = 1;
    CMDS[0].u.nodedesc.store = 3;
    CMDS[0].u.nodedesc.restore = 7;
    run(1);
    /* MTX_RESTORE 7; MTX_MULT_4x3 (rotation + translation); MTX_STORE 3 */
    const uint32_t w[] = {0x14, 7, 0x19,   0x1000, 0, 0, 0,    0x1000, 0,
                          0,    0, 0x1000, 0x1000, 0, 0, 0x13, 3};
    assert_int_equal(R.n, 17);
    expect_fifo(0, w, 17);
}

static void test_nodedesc_scale_only(void **st)
{
    (void)st;
    setup_model();
    NODES[0].flags = NITRO_NODE_TRANS_ZERO | NITRO_NODE_ROT_ZERO;
    NODES[0].scale[0] = 0x2000;
    NODES[0].scale[1] = 0x3000;
    NODES[0].scale[2] = 0x4000;
    CMDS[0].op = NITRO_SBC_NODEDESC;
    CMDS[0].opcode = 0x06;
    CMDS[0].u.nodedesc.store = CMDS[0].u.nodedesc.restore = -1;
    run(1);
    const uint32_t w[] = {0x1b, 0x2000, 0x3000, 0x4000};
    assert_int_equal(R.n, 4);
    expect_fifo(0, w, 4);
}

static void test_billboard(void **st)
{
    (void)st;
    setup_model();
    /* position matrix: rotation 90 deg about Z scaled by 2, translation (1, 2, 3) */
    fx32 c[16] = {0, 0x2000, 0,      0, -0x2000, 0,      0,      0,
                  0, 0,      0x2000, 0, 0x1000,  0x2000, 0x3000, 0x1000};
    memcpy(R.clip, c, sizeof c);
    CMDS[0].op = NITRO_SBC_BB;
    CMDS[0].opcode = 0x07;
    CMDS[0].u.bb.store = CMDS[0].u.bb.restore = -1;
    run(1);
    /* 0x00151110 0 0 (projection push identity), then bbcmd1: POP 1, MODE 2, LOAD_4x3 identity
     * rotation + translation, SCALE (|row0|, |row1|, |row2|) = (2, 2, 2) */
    const uint32_t w[] = {0x00151110, 0,      0,      0x1B171012, 1,      2,      0x1000,
                          0,          0,      0,      0x1000,     0,      0,      0,
                          0x1000,     0x1000, 0x2000, 0x3000,     0x2000, 0x2000, 0x2000};
    assert_int_equal(R.n, 21);
    expect_fifo(0, w, 21);
}

static void test_nodemix_single(void **st)
{
    (void)st;
    setup_model();
    for (int i = 0; i < 16; i++) R.clip[i] = (i % 5 == 0) ? 0x1000 : 0;
    memset(EVP, 0, sizeof EVP);
    EVP[1].pos[0] = EVP[1].pos[4] = EVP[1].pos[8] = 0x1000;
    EVP[1].dir[0] = EVP[1].dir[4] = EVP[1].dir[8] = 0x1000;
    TERMS[0].slot = 4;
    TERMS[0].node = 1;
    TERMS[0].weight = 128; /* 0.5 */
    CMDS[0].op = NITRO_SBC_NODEMIX;
    CMDS[0].opcode = 0x09;
    CMDS[0].u.nodemix.dest = 9;
    CMDS[0].u.nodemix.count = 1;
    CMDS[0].u.nodemix.first = 0;
    run(1);
    /* ports: MODE 0, STORE 1, IDENTITY, MODE 2, RESTORE 4, MODE 1, MULT_4x3 x12, MODE 2,
     * MULT_3x3 x9, LOAD_4x3 x12 (dir sum), MODE 1, LOAD_4x3 x12 (pos sum), MODE 0,
     * RESTORE 1, MODE 2, STORE 9 */
    assert_int_equal(R.n, 4 + 2 + 12 + 1 + 9 + 12 + 1 + 12 + 4);
    assert_int_equal(R.addr[0], 0x04000440);
    assert_int_equal(R.addr[1], 0x0400044C);
    assert_int_equal(R.val[1], 1);
    assert_int_equal(R.addr[4], 0x04000450);
    assert_int_equal(R.val[4], 4);
    assert_int_equal(R.addr[6], 0x04000464);
    assert_int_equal(R.addr[19], 0x04000468);
    /* dir sum row 0: 0.5 * identity (vector read returns identity) */
    assert_int_equal(R.addr[28], 0x0400045C);
    assert_int_equal(R.val[28], 0x800);
    /* pos sum: 0.5 * clip identity (4x3 part): _00 = 0x800, translation 0 */
    assert_int_equal(R.addr[41], 0x0400045C);
    assert_int_equal(R.val[41], 0x800);
    assert_int_equal(R.addr[R.n - 1], 0x0400044C);
    assert_int_equal(R.val[R.n - 1], 9);
}

static void test_material_cache(void **st)
{
    (void)st;
    setup_model();
    MATS[0].polygon_attr = 0x001f0000;
    MATS[0].polygon_attr_mask = 0x001f0000;
    CMDS[0].op = NITRO_SBC_MAT;
    CMDS[0].opcode = 0x44; /* fills the cache */
    CMDS[1].op = NITRO_SBC_MAT;
    CMDS[1].opcode = 0x24; /* uses it: the same words again */
    run(2);
    assert_int_equal(R.n, 14);
    for (unsigned i = 0; i < 7; i++) assert_int_equal(R.val[i], R.val[7 + i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glb_flush),
        cmocka_unit_test(test_material_and_shape),
        cmocka_unit_test(test_transparent_material_skips_shape),
        cmocka_unit_test(test_invisible_node),
        cmocka_unit_test(test_nodedesc_store_restore),
        cmocka_unit_test(test_nodedesc_scale_only),
        cmocka_unit_test(test_billboard),
        cmocka_unit_test(test_nodemix_single),
        cmocka_unit_test(test_material_cache),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
