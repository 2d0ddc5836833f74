/* test_nitro_sbc_fixture.h - the fixture of the per-opcode render-command tests
 * (test_nitro_sbc.c, test_nitro_sbc2.c): a model written with nitro/writer.h from raw
 * render-command bytes, parsed, drawn by the runtime into a bus recorder, and helpers that
 * walk the recorded stream word by word. Include after <cmocka.h>.
 *
 * The fixture model (every value chosen so the expected words are exact by hand):
 *   nodes  0 "root" identity;  1 "tr" translation (1, 2, -3), rotation 90 deg about Z
 *          (rows (0,1,0), (-1,0,0), (0,0,1));  2 "sc" scale (2, 3, 4), inverse (0.5, 0x555,
 *          0.25);  3 "ts" translation (1, 2, 3).
 *   materials 0 "plain": diffuse+ambient from the material (0x001F03E0), alpha 31, PLTT_BASE 3,
 *          original size 16x32;  1 "texmtx": texture matrix with translation (0.5, 0.25) only,
 *          16x16;  2 "wire": wireframe;  3 "fx": texture matrix (all flagged 1/0), effect
 *          matrix, 16x32.
 *   mesh 0: the two words {0x00004140, 1} (BEGIN_VTXS 1, END_VTXS), sent as they are.
 *   envelopes: 1 = translation (-1, 0, 0) / identity; 2 = scale 0.5 / scale 2; others identity.
 */
#ifndef DSGX_TEST_NITRO_SBC_FIXTURE_H
#define DSGX_TEST_NITRO_SBC_FIXTURE_H

#include <string.h>

#include "nitro/nitro.h"
#include "nitro/runtime.h"
#include "nitro/writer.h"

#define DL_W0 0x00004140u
#define DL_W1 0x00000001u

typedef struct rec {
    unsigned n, pos;
    uint32_t addr[2048], val[2048];
    /* CLIPMTX_RESULT / VECMTX_RESULT reads: the k-th read of element 0 selects matrix
     * min(k, count - 1) for the reads that follow. */
    fx32 clip[4][16], vec[4][9];
    unsigned nclip, nvec, clip_reads, vec_reads, cur_clip, cur_vec;
} rec;

static rec R;
static nitro_glb G;
static nitro_file F;
static nitro_buf FILEBUF;
static nitro_runtime RT;

static inline void rec_write(void *u, uint32_t addr, uint32_t val, unsigned bytes)
{
    rec *r = u;
    (void)bytes;
    if (r->n < 2048) {
        r->addr[r->n] = addr;
        r->val[r->n++] = val;
    }
}

static inline uint32_t rec_read(void *u, uint32_t addr)
{
    rec *r = u;
    if (addr >= 0x04000640 && addr < 0x04000680) {
        if (addr == 0x04000640) {
            r->cur_clip = r->clip_reads < r->nclip ? r->clip_reads : (r->nclip ? r->nclip - 1 : 0);
            r->clip_reads++;
        }
        return (uint32_t)r->clip[r->cur_clip][(addr - 0x04000640) / 4];
    }
    if (addr >= 0x04000680 && addr < 0x040006A4) {
        if (addr == 0x04000680) {
            r->cur_vec = r->vec_reads < r->nvec ? r->vec_reads : (r->nvec ? r->nvec - 1 : 0);
            r->vec_reads++;
        }
        return (uint32_t)r->vec[r->cur_vec][(addr - 0x04000680) / 4];
    }
    return 0; /* GXSTAT: never busy */
}

static inline void fx_node(nitro_node *n, const char *name)
{
    memset(n, 0, sizeof *n);
    nitro_name_set(&n->name, name);
    n->flags = NITRO_NODE_TRANS_ZERO | NITRO_NODE_ROT_ZERO | NITRO_NODE_SCALE_ONE;
    n->rot_raw[0] = 0x1000;
    for (int i = 0; i < 3; i++) n->scale[i] = n->inv_scale[i] = FX32_ONE;
}

static inline void fx_mat(nitro_material *m, const char *name, uint16_t w, uint16_t h)
{
    memset(m, 0, sizeof *m);
    nitro_name_set(&m->name, name);
    m->polygon_attr = 0x001F0000u; /* alpha 31, the rest from the global state */
    m->polygon_attr_mask = 0x001F0000u;
    m->teximage_param = 0x00030000u; /* repeat S and T */
    m->teximage_param_mask = 0xFFFFFFFFu;
    m->orig_width = w;
    m->orig_height = h;
    m->mag_w = m->mag_h = FX32_ONE;
    for (int i = 0; i < 4; i++) m->effect_mtx[i * 5] = FX32_ONE;
}

/* The effect matrix of material 3. */
static const fx32 FX_EFFECT[16] = {0x2000, 0, 0,      0, 0,     0x1000, 0, 0,
                                   0,      0, 0x1000, 0, 0x100, 0x200,  0, 0x1000};

/** Write, parse and set up the fixture model with these render commands (which must end with
 *  RET) and scaling rule. */
static inline void fx_build(const uint8_t *sbc, size_t sbc_size, unsigned scaling_rule)
{
    nitro_node nodes[4];
    fx_node(&nodes[0], "root");
    fx_node(&nodes[1], "tr");
    nodes[1].flags = NITRO_NODE_SCALE_ONE;
    nodes[1].translation[0] = 0x1000;
    nodes[1].translation[1] = 0x2000;
    nodes[1].translation[2] = -0x3000;
    static const int16_t rz[9] = {0, 0x1000, 0, -0x1000, 0, 0, 0, 0, 0x1000};
    memcpy(nodes[1].rot_raw, rz, sizeof rz);
    fx_node(&nodes[2], "sc");
    nodes[2].flags = NITRO_NODE_TRANS_ZERO | NITRO_NODE_ROT_ZERO;
    nodes[2].scale[0] = 0x2000;
    nodes[2].scale[1] = 0x3000;
    nodes[2].scale[2] = 0x4000;
    nodes[2].inv_scale[0] = 0x800;
    nodes[2].inv_scale[1] = 0x555;
    nodes[2].inv_scale[2] = 0x400;
    fx_node(&nodes[3], "ts");
    nodes[3].flags = NITRO_NODE_ROT_ZERO | NITRO_NODE_SCALE_ONE;
    nodes[3].translation[0] = 0x1000;
    nodes[3].translation[1] = 0x2000;
    nodes[3].translation[2] = 0x3000;

    nitro_material mats[4];
    fx_mat(&mats[0], "plain", 16, 32);
    mats[0].flags = NITRO_MAT_DIFFUSE | NITRO_MAT_AMBIENT;
    mats[0].dif_amb = 0x001F03E0u;
    mats[0].pltt_base = 3;
    fx_mat(&mats[1], "texmtx", 16, 16);
    mats[1].flags = NITRO_MAT_TEXMTX_USE | NITRO_MAT_TEXMTX_SCALE_ONE | NITRO_MAT_TEXMTX_ROT_ZERO;
    mats[1].trans_s = 0x800;
    mats[1].trans_t = 0x400;
    fx_mat(&mats[2], "wire", 16, 16);
    mats[2].flags = NITRO_MAT_WIREFRAME;
    fx_mat(&mats[3], "fx", 16, 32);
    mats[3].flags = NITRO_MAT_TEXMTX_USE | NITRO_MAT_TEXMTX_SCALE_ONE | NITRO_MAT_TEXMTX_ROT_ZERO |
                    NITRO_MAT_TEXMTX_TRANS_ZERO | NITRO_MAT_EFFECT_MTX;
    memcpy(mats[3].effect_mtx, FX_EFFECT, sizeof FX_EFFECT);

    static const uint8_t dl[8] = {0x40, 0x41, 0, 0, 1, 0, 0, 0};
    nitro_wmesh mesh = {"mesh", 0, 0, dl, sizeof dl};

    nitro_envelope env[4];
    memset(env, 0, sizeof env);
    for (unsigned i = 0; i < 4; i++) {
        env[i].pos[0] = env[i].pos[4] = env[i].pos[8] = FX32_ONE;
        env[i].dir[0] = env[i].dir[4] = env[i].dir[8] = FX32_ONE;
    }
    env[1].pos[9] = -0x1000;
    env[2].pos[0] = env[2].pos[4] = env[2].pos[8] = 0x800;
    env[2].dir[0] = env[2].dir[4] = env[2].dir[8] = 0x2000;

    nitro_wmodel w;
    memset(&w, 0, sizeof w);
    w.name = "sbc";
    w.info.scaling_rule = (uint8_t)scaling_rule;
    w.info.texmtx_mode = 0; /* Maya */
    w.info.pos_scale = 0x2000;
    w.info.inv_pos_scale = 0x800;
    w.info.box_pos_scale = w.info.box_inv_pos_scale = FX32_ONE;
    w.info.first_unused_mtx_stack = 10;
    w.nodes = nodes;
    w.num_nodes = 4;
    w.materials = mats;
    w.num_materials = 4;
    w.meshes = &mesh;
    w.num_meshes = 1;
    w.sbc = sbc;
    w.sbc_size = (uint32_t)sbc_size;
    w.envelopes = env;
    w.num_envelopes = 4;

    char err[128];
    nitro_buf_free(&FILEBUF);
    memset(&FILEBUF, 0, sizeof FILEBUF);
    assert_true(nitro_write_bmd0(&w, 1, NULL, &FILEBUF, err, sizeof err));
    nitro_status st = nitro_parse(FILEBUF.data, FILEBUF.size, &F);
    assert_true(st.ok);
    assert_int_equal(F.num_models, 1);

    memset(&R, 0, sizeof R);
    nitro_glb_init(&G);
    nitro_gx_sink s = {&R, rec_write, rec_read};
    nitro_runtime_init(&RT, &F.models[0], FILEBUF.data, &G, &s, NULL);
}

/** Draw the model once. @return number of commands executed. */
static inline unsigned fx_draw(void)
{
    R.n = R.pos = 0;
    return nitro_runtime_draw(&RT);
}

static inline void fx_free(void)
{
    nitro_file_free(&F);
    nitro_buf_free(&FILEBUF);
    memset(&FILEBUF, 0, sizeof FILEBUF);
}

/* ---- walking the recorded stream ---- */

static inline void expect_at(uint32_t addr, const uint32_t *w, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        assert_true(R.pos < R.n);
        assert_int_equal(R.addr[R.pos], addr);
        assert_int_equal(R.val[R.pos], w[i]);
        R.pos++;
    }
}

/* Words written to the GXFIFO (04000400), in order. */
#define FIFO(...)                                                                                  \
    expect_at(0x04000400u, (const uint32_t[]){__VA_ARGS__},                                        \
              (unsigned)(sizeof((const uint32_t[]){__VA_ARGS__}) / sizeof(uint32_t)))

/* Words of an array to the GXFIFO. */
static inline void fifo_arr(const fx32 *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) expect_at(0x04000400u, (const uint32_t *)&v[i], 1);
}

/* One write to the command port of a GX opcode (04000400 + op * 4). */
static inline void port(uint8_t op, uint32_t v)
{
    expect_at(0x04000400u + 4u * op, &v, 1);
}

static inline void port_arr(uint8_t op, const fx32 *v, unsigned n)
{
    for (unsigned i = 0; i < n; i++) port(op, (uint32_t)v[i]);
}

static inline void expect_end(void)
{
    assert_int_equal(R.pos, R.n);
}

/* The mesh's words, sent as they are (NNS_G3dGeSendDL). */
static inline void expect_dl(void)
{
    FIFO(DL_W0, DL_W1);
}

#endif
