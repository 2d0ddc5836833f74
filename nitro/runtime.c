/*
 * runtime.c - the render-command (SBC) executor of the NitroSystem G3D runtime.
 *
 * Hardware notes: what this models is software (NNS_G3dDraw and the NNSi_G3dFuncSbc_* table),
 * not hardware; the facts come from the decompiled runtime in pret/pokediamond
 * arm9/asm/NNS_G3D_sbc.s (function per opcode, the packed command words it sends, its
 * render-state flag bits) cross-checked with HaroohiePals/MarioKartToolbox (MIT)
 * src/HaroohiePals.Nitro.NitroSystem/G3d/Sbc.cs. Verified: command word / port sequences for
 * every opcode as read from the assembly, each checked word by word against hand-worked
 * expectations in test/unit/test_nitro_sbc.c / test_nitro_sbc2.c (NNS_G3dGetCurrentMtx writes
 * the command ports, util_nnsg3d.s; PRJMAP's TEXCOORD is (s16)((T_3x >> 4) >> 8); POSSCALE
 * takes the inverse for any flag bit). Not modelled: callbacks, animations (results are
 * always the model's own values), the NOGECMD/SKIP_SBCDRAW/SKIP_SBCMTXCALC options.
 * Guesses: VEC_Mag / VEC_Normalize rounding (camera.c); the three words after the 3x3 sum that
 * NODEMIX loads with G3_LoadMtx43 are stack contents on hardware and zero here (they land in
 * the translation of the vector matrix and the position matrix is reloaded right after, so
 * they do not affect any output).
 */
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "nitro/runtime_internal.h"

/* ---- bus helpers ---- */

void nrt_fifo(const nitro_gx_sink *s, uint32_t opword, const uint32_t *params, unsigned n)
{
    nrt_w32(s, NRT_GXFIFO, opword);
    for (unsigned i = 0; i < n; i++) nrt_w32(s, NRT_GXFIFO, params[i]);
}

void nrt_fifo_fx(const nitro_gx_sink *s, uint32_t opword, const fx32 *params, unsigned n)
{
    nrt_w32(s, NRT_GXFIFO, opword);
    for (unsigned i = 0; i < n; i++) nrt_w32(s, NRT_GXFIFO, (uint32_t)params[i]);
}

void nrt_port_fx(const nitro_gx_sink *s, uint8_t op, const fx32 *params, unsigned n)
{
    for (unsigned i = 0; i < n; i++) nrt_w32(s, NRT_PORT(op), (uint32_t)params[i]);
}

/* A display list straight into the engine when the sink is the engine's own
 * (nitro_gx_engine_sink): the same words in the same order as its gx_write32 calls, handed over
 * in runs (gx_write_gxfifo), as t3dm's compiled draw lists are. */
static void send_dl_gx(gx_engine *gx, const uint8_t *dl, uint32_t size)
{
    enum { RUN = 256 };
    uint32_t w[RUN];
    uint32_t n = size / 4, done = 0;
    while (done < n) {
        uint32_t k = n - done < RUN ? n - done : RUN;
        for (uint32_t j = 0; j < k; j++) {
            const uint8_t *b = dl + (size_t)(done + j) * 4;
            w[j] = (uint32_t)b[0] | ((uint32_t)b[1] << 8) | ((uint32_t)b[2] << 16) |
                   ((uint32_t)b[3] << 24);
        }
        gx_write_gxfifo(gx, w, k);
        done += k;
    }
}

void nrt_send_dl(const nitro_gx_sink *s, const uint8_t *dl, uint32_t size)
{
    if (s->write == nitro_gx_engine_sink(NULL).write) {
        send_dl_gx(s->user, dl, size);
        return;
    }
    for (uint32_t i = 0; i + 4 <= size; i += 4) {
        uint32_t w = (uint32_t)dl[i] | ((uint32_t)dl[i + 1] << 8) | ((uint32_t)dl[i + 2] << 16) |
                     ((uint32_t)dl[i + 3] << 24);
        nrt_w32(s, NRT_GXFIFO, w);
    }
}

static uint32_t rd(const nitro_gx_sink *s, uint32_t addr)
{
    return s->read32 ? s->read32(s->user, addr) : 0;
}

/* G3X_GetClipMtx returns non-zero while GXSTAT bit 27 (busy) is set; the runtime loops on it.
 * Our bound keeps a stuck engine from hanging the runtime. */
static void wait_idle(const nitro_gx_sink *s)
{
    for (int i = 0; i < 64 && (rd(s, REG_GXSTAT) & (1u << 27)); i++) {
    }
}

void nrt_read_clip(const nitro_gx_sink *s, fx32 out[16])
{
    wait_idle(s);
    for (unsigned i = 0; i < 16; i++) out[i] = (fx32)rd(s, REG_CLIPMTX_RESULT + 4 * i);
}

void nrt_read_vec(const nitro_gx_sink *s, fx32 out[9])
{
    wait_idle(s);
    for (unsigned i = 0; i < 9; i++) out[i] = (fx32)rd(s, REG_VECMTX_RESULT + 4 * i);
}

/* The projection-identity trick the runtime uses before reading CLIPMTX_RESULT: packed
 * MTX_MODE(projection), MTX_PUSH, MTX_IDENTITY (NNS_G3D_sbc.s sends 0x00151110, 0, 0). */
static void push_identity_projection(const nitro_gx_sink *s)
{
    static const uint32_t p[2] = {0, 0};
    nrt_fifo(s, nrt_pack(NRT_OP_MTX_MODE, NRT_OP_MTX_PUSH, NRT_OP_MTX_IDENTITY, 0), p, 2);
}

void nrt_get_current_mtx(const nitro_gx_sink *s, fx32 *pos12, fx32 *nrm9)
{
    /* NNS_G3dGetCurrentMtx (pret/pokeplatinum lib/NitroSystem/asm/g3d/util_nnsg3d.s): after
     * flushing the buffer it writes the command ports directly: MTX_MODE 0, MTX_PUSH,
     * MTX_IDENTITY (so the clip matrix is the position matrix), reads CLIPMTX_RESULT when pos
     * is wanted (MTX_Copy44To43_), VECMTX_RESULT when nrm is wanted, then MTX_POP 1 and
     * MTX_MODE 2, again through the ports. */
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_PUSH), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_IDENTITY), 0);
    if (pos12) {
        fx32 m[16];
        nrt_read_clip(s, m);
        for (unsigned r = 0; r < 4; r++)
            for (unsigned c = 0; c < 3; c++) pos12[r * 3 + c] = m[r * 4 + c];
    }
    if (nrm9) nrt_read_vec(s, nrm9);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_POP), 1);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 2);
}

/* ---- render commands ---- */

static void op_node(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    rt->cur_node = c->u.node.node;
    rt->flag |= NITRO_RS_CUR_NODE_VALID;
    /* A visibility animation replaces the command's flag (MarioKartToolbox Sbc.cs SbcNode). */
    bool vis = false;
    if (rt->hooks.visibility && rt->hooks.visibility(rt->hooks.user, c->u.node.node, &vis)) {
        if (vis)
            rt->flag |= NITRO_RS_NODE_VISIBLE;
        else
            rt->flag &= ~(uint32_t)NITRO_RS_NODE_VISIBLE;
    } else if (c->u.node.flags & 1u)
        rt->flag |= NITRO_RS_NODE_VISIBLE;
    else
        rt->flag &= ~(uint32_t)NITRO_RS_NODE_VISIBLE;
}

static void restore(nitro_runtime *rt, unsigned slot)
{
    uint32_t p = slot;
    nrt_fifo(&rt->sink, NRT_OP_MTX_RESTORE, &p, 1);
}

static void store(nitro_runtime *rt, unsigned slot)
{
    uint32_t p = slot;
    nrt_fifo(&rt->sink, NRT_OP_MTX_STORE, &p, 1);
}

static void op_mtx(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    if (rt->flag & NITRO_RS_NODE_VISIBLE) restore(rt, c->u.mtx.slot);
}

static void op_mat(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    unsigned idx = c->u.mat.material;
    /* Skipped only for an invisible node re-binding the current material. */
    if (!(rt->flag & NITRO_RS_NODE_VISIBLE) && (rt->flag & NITRO_RS_CUR_MAT_VALID) &&
        idx == rt->cur_mat)
        return;
    nrt_material(rt, c->opcode & 0xe0u, idx);
}

static void op_shp(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    if (!(rt->flag & NITRO_RS_NODE_VISIBLE) || (rt->flag & NITRO_RS_MAT_TRANSPARENT)) return;
    const nitro_mesh *m = &rt->model->meshes[c->u.shp.mesh];
    nrt_send_dl(&rt->sink, rt->data + m->dl.offset, m->dl.size);
}

static void op_nodedesc(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    rt->cur_nodedesc = c->u.nodedesc.node;
    rt->flag |= NITRO_RS_CUR_NODEDESC_VALID;
    /* Restore and store happen whether or not the node is visible. */
    if (c->u.nodedesc.restore >= 0) restore(rt, (unsigned)c->u.nodedesc.restore);
    nrt_joint_srt(rt, c);
    if (c->u.nodedesc.store >= 0) store(rt, (unsigned)c->u.nodedesc.store);
}

/* The billboard command blocks (bbcmd1 in NNS_G3D_sbc.s): packed MTX_POP, MTX_MODE,
 * MTX_LOAD_4x3, MTX_SCALE with POP 1, MODE position-vector, a 4x3 and a scale. */
static void send_bb(nitro_runtime *rt, const fx32 m43[12], const fx32 scale[3])
{
    uint32_t p[17];
    p[0] = 1;
    p[1] = 2;
    for (unsigned i = 0; i < 12; i++) p[2 + i] = (uint32_t)m43[i];
    for (unsigned i = 0; i < 3; i++) p[14 + i] = (uint32_t)scale[i];
    nrt_fifo(&rt->sink,
             nrt_pack(NRT_OP_MTX_POP, NRT_OP_MTX_MODE, NRT_OP_MTX_LOAD_4x3, NRT_OP_MTX_SCALE), p,
             17);
}

/* Read the clip matrix with an identity projection: the position matrix, camera included
 * (NNS_G3dGlbFlushP puts the camera in the position matrix; glb flag 0). */
static void bb_read(nitro_runtime *rt, fx32 m[16], fx32 scale[3])
{
    push_identity_projection(&rt->sink);
    nrt_read_clip(&rt->sink, m);
    for (unsigned r = 0; r < 3; r++) scale[r] = nrt_vec_mag(&m[r * 4]);
}

static void op_bb(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    if (c->u.bb.restore >= 0) restore(rt, (unsigned)c->u.bb.restore);
    fx32 m[16], scale[3];
    bb_read(rt, m, scale);
    /* Rotation dropped: identity 3x3, translation kept, per-axis scale re-applied. */
    fx32 bb[12] = {FX32_ONE, 0, 0, 0, FX32_ONE, 0, 0, 0, FX32_ONE, m[12], m[13], m[14]};
    send_bb(rt, bb, scale);
    if (c->u.bb.store >= 0) store(rt, (unsigned)c->u.bb.store);
}

static void op_bby(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    if (c->u.bb.restore >= 0) restore(rt, (unsigned)c->u.bb.restore);
    fx32 m[16], scale[3];
    bb_read(rt, m, scale);
    fx32 *b = rt->bby_mtx; /* the runtime's static matrix: entries not rewritten persist */
    b[9] = m[12];
    b[10] = m[13];
    b[11] = m[14];
    if (m[5] != 0 || m[6] != 0) {
        nrt_vec_normalize(&m[4], &b[3]); /* keep Y: row 1 normalized */
        b[7] = -b[5];
        b[8] = b[4];
    } else {
        nrt_vec_normalize(&m[8], &b[6]);
        b[5] = -b[7];
        b[4] = b[8];
    }
    send_bb(rt, b, scale);
    if (c->u.bb.store >= 0) store(rt, (unsigned)c->u.bb.store);
}

/* sum[i] += (w * m[i]) >> 12 for the 4x3 part of a 4x4 (pos) or a 3x3 (dir). */
static void acc43(fx32 sum[12], fx32 w, const fx32 m[16])
{
    for (unsigned r = 0; r < 4; r++)
        for (unsigned c = 0; c < 3; c++)
            sum[r * 3 + c] = (fx32)((uint32_t)sum[r * 3 + c] + (uint32_t)nrt_mul(w, m[r * 4 + c]));
}

static void acc33(fx32 sum[9], fx32 w, const fx32 m[9])
{
    for (unsigned i = 0; i < 9; i++) sum[i] = (fx32)((uint32_t)sum[i] + (uint32_t)nrt_mul(w, m[i]));
}

static void op_nodemix(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    const nitro_gx_sink *s = &rt->sink;
    const nitro_model *md = rt->model;
    fx32 sum_pos[12] = {0}, sum_dir[12] = {0}; /* dir: 9 entries + 3 unused (see notes) */
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_STORE), 1);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_IDENTITY), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 2);
    fx32 w = 0;
    const nitro_evp_cache *prev = NULL;
    for (unsigned i = 0; i < c->u.nodemix.count; i++) {
        const nitro_sbc_mix_term *t = &md->mix_terms[c->u.nodemix.first + i];
        unsigned j = t->node;
        nitro_evp_cache *e = &rt->evp_cache[j];
        bool cached = nrt_bit(rt->evp_cached, j);
        const nitro_envelope *ev = j < md->num_envelopes ? &md->envelopes[j] : NULL;
        static const nitro_envelope ident = {{FX32_ONE, 0, 0, 0, FX32_ONE, 0, 0, 0, FX32_ONE},
                                             {FX32_ONE, 0, 0, 0, FX32_ONE, 0, 0, 0, FX32_ONE}};
        if (!ev) ev = &ident;
        if (!cached) {
            nrt_bit_set(rt->evp_cached, j);
            nrt_w32(s, NRT_PORT(NRT_OP_MTX_RESTORE), t->slot);
            nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 1);
            nrt_port_fx(s, NRT_OP_MTX_MULT_4x3, ev->pos, 12);
        }
        if (i != 0) acc33(sum_dir, w, prev->dir);
        if (!cached) {
            nrt_read_clip(s, e->pos);
            nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 2);
            nrt_port_fx(s, NRT_OP_MTX_MULT_3x3, ev->dir, 9);
        }
        w = dsgx_shl32(t->weight, 4); /* weight / 256 in 1.19.12 */
        acc43(sum_pos, w, e->pos);
        prev = e;
        if (!cached) nrt_read_vec(s, e->dir);
    }
    if (prev) acc33(sum_dir, w, prev->dir);
    nrt_port_fx(s, NRT_OP_MTX_LOAD_4x3, sum_dir, 12);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 1);
    nrt_port_fx(s, NRT_OP_MTX_LOAD_4x3, sum_pos, 12);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_RESTORE), 1);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 2);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_STORE), c->u.nodemix.dest);
}

static void op_calldl(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    nrt_send_dl(&rt->sink, rt->data + c->u.calldl.dl.offset, c->u.calldl.dl.size);
}

static void op_posscale(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    /* NNSi_G3dFuncSbc_POSSCALE tests opt != 0, so any flag bit (0x2B, and also 0x4B/0x6B, which
     * the parser decodes as not inverse) selects the inverse scale (pret/pokeplatinum sbc.s). */
    bool inv = c->u.posscale.inverse || (c->opcode & 0xe0u) != 0;
    fx32 s = inv ? rt->model->info.inv_pos_scale : rt->model->info.pos_scale;
    fx32 p[3] = {s, s, s};
    nrt_fifo_fx(&rt->sink, NRT_OP_MTX_SCALE, p, 3);
}

/* Switch the current material's texgen mode and resend TEXIMAGE_PARAM if it changed. */
static void set_texgen(nitro_runtime *rt, uint32_t mode)
{
    if (!rt->mat) return;
    if ((rt->mat->teximage & 0xc0000000u) == (mode << 30)) return;
    rt->mat->teximage = (rt->mat->teximage & ~0xc0000000u) | (mode << 30);
    nrt_fifo(&rt->sink, NRT_OP_TEXIMAGE_PARAM, &rt->mat->teximage, 1);
}

static uint32_t texcoord_param(fx32 s, fx32 t)
{
    return ((uint32_t)s & 0xffffu) | (((uint32_t)t & 0xffffu) << 16);
}

static const fx32 *effect_mtx(const nitro_runtime *rt, unsigned mat)
{
    const nitro_material *m = &rt->model->materials[mat];
    return (m->flags & NITRO_MAT_EFFECT_MTX) ? m->effect_mtx : NULL;
}

static void op_envmap(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    if (!(rt->flag & NITRO_RS_NODE_VISIBLE)) return;
    const nitro_gx_sink *s = &rt->sink;
    set_texgen(rt, 2); /* normal */
    uint32_t mode = 3;
    nrt_fifo(s, NRT_OP_MTX_MODE, &mode, 1);
    int32_t w = rt->mat ? rt->mat->orig_w : 0, h = rt->mat ? rt->mat->orig_h : 0;
    fx32 sc[3] = {dsgx_shl32(w, 15), dsgx_shl32(-h, 15), 0x10000};
    nrt_fifo_fx(s, NRT_OP_MTX_SCALE, sc, 3);
    /* TEXCOORD (w/2, h/2) in 1.11.4: (w << 19) >> 16 */
    uint32_t tc = texcoord_param(dsgx_shl32(w, 19) >> 16, dsgx_shl32(h, 19) >> 16);
    nrt_fifo(s, NRT_OP_TEXCOORD, &tc, 1);
    const fx32 *eff = effect_mtx(rt, c->u.map.material);
    if (eff) nrt_fifo_fx(s, NRT_OP_MTX_MULT_4x4, eff, 16);
    mode = 2;
    nrt_fifo(s, NRT_OP_MTX_MODE, &mode, 1);
    fx32 nrm[9];
    nrt_get_current_mtx(s, NULL, nrm);
    mode = 3;
    nrt_fifo(s, NRT_OP_MTX_MODE, &mode, 1);
    nrt_fifo_fx(s, NRT_OP_MTX_MULT_3x3, nrm, 9); /* glb flag 0 (FlushP) */
    mode = 2;
    nrt_fifo(s, NRT_OP_MTX_MODE, &mode, 1);
}

static void op_prjmap(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    if (!(rt->flag & NITRO_RS_NODE_VISIBLE)) return;
    const nitro_gx_sink *s = &rt->sink;
    fx32 cur[12];
    nrt_get_current_mtx(s, cur, NULL);
    uint32_t p = 30; /* the runtime's system stack slot */
    nrt_fifo(s, NRT_OP_MTX_STORE, &p, 1);
    set_texgen(rt, 3); /* vertex */
    int32_t w = rt->mat ? rt->mat->orig_w : 0, h = rt->mat ? rt->mat->orig_h : 0;
    fx32 m[16] = {0};
    m[0] = dsgx_shl32(w, 15);
    m[5] = dsgx_shl32(-h, 15);
    m[10] = 0x10000;
    m[12] = dsgx_shl32(w, 15);
    m[13] = dsgx_shl32(h, 15);
    m[15] = 0x10000;
    nrt_fifo_fx(s, NRT_OP_MTX_LOAD_4x4, m, 16);
    const fx32 *eff = effect_mtx(rt, c->u.map.material);
    if (eff) nrt_fifo_fx(s, NRT_OP_MTX_MULT_4x4, eff, 16);
    if (!rt->glb->inv_camera_valid) {
        if (!nitro_mtx43_inverse(rt->glb->camera, rt->glb->inv_camera))
            memcpy(rt->glb->inv_camera, rt->glb->camera, sizeof rt->glb->inv_camera);
        rt->glb->inv_camera_valid = true;
    }
    nrt_fifo_fx(s, NRT_OP_MTX_MULT_4x3, rt->glb->inv_camera, 12);
    nrt_fifo_fx(s, NRT_OP_MTX_MULT_4x3, cur, 12);
    /* here the runtime writes the command ports directly */
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_PUSH), 0);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_IDENTITY), 0);
    fx32 t[16];
    nrt_read_clip(s, t);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_POP), 1);
    nrt_w32(s, NRT_PORT(NRT_OP_MTX_MODE), 3);
    nrt_fifo_fx(s, NRT_OP_MTX_LOAD_4x4, t, 16);
    /* TEXCOORD: the texture matrix is 16x a 1.19.12 texel matrix, so (t >> 4) is texels in
     * 1.19.12, and >> 8 more makes it 1.11.4: the asm computes (s16)((t >> 4) >> 8) for both
     * (lsl 8 / asr 16 / lsl 16 / lsr 16 in pret/pokeplatinum sbc.s NNSi_G3dFuncSbc_PRJMAP). */
    uint32_t tc = texcoord_param((t[12] >> 4) >> 8, (t[13] >> 4) >> 8);
    nrt_fifo(s, NRT_OP_TEXCOORD, &tc, 1);
    p = 2;
    nrt_fifo(s, NRT_OP_MTX_MODE, &p, 1);
    p = 30;
    nrt_fifo(s, NRT_OP_MTX_RESTORE, &p, 1);
}

void nitro_runtime_init(nitro_runtime *rt, const nitro_model *model, const uint8_t *data,
                        nitro_glb *glb, const nitro_gx_sink *sink,
                        const nitro_mat_bind binds[NITRO_MAX_MATERIALS])
{
    memset(rt, 0, sizeof *rt);
    rt->model = model;
    rt->data = data;
    rt->glb = glb;
    rt->sink = *sink;
    if (binds) memcpy(rt->binds, binds, sizeof rt->binds);
    /* bbcmd1$9234's initial matrix: identity rotation. */
    rt->bby_mtx[0] = rt->bby_mtx[4] = rt->bby_mtx[8] = FX32_ONE;
}

void nitro_runtime_set_hooks(nitro_runtime *rt, const nitro_anim_hooks *hooks)
{
    if (hooks)
        rt->hooks = *hooks;
    else
        memset(&rt->hooks, 0, sizeof rt->hooks);
}

unsigned nitro_runtime_draw(nitro_runtime *rt)
{
    /* G3dDrawInternal_: the render state is cleared; flag = NODE_VISIBLE. */
    rt->flag = NITRO_RS_NODE_VISIBLE;
    rt->cur_node = rt->cur_mat = rt->cur_nodedesc = 0;
    rt->mat = NULL;
    memset(rt->mat_cached, 0, sizeof rt->mat_cached);
    memset(rt->evp_cached, 0, sizeof rt->evp_cached);
    memset(rt->scale_one, 0, sizeof rt->scale_one);
    nrt_bit_set(rt->scale_one, 0); /* MarioKartToolbox Sbc.cs: IsScaleCacheOne[0] = true */
    unsigned n = 0;
    const nitro_model *m = rt->model;
    for (unsigned i = 0; i < m->num_cmds && !(rt->flag & NITRO_RS_RETURN); i++, n++) {
        const nitro_sbc_cmd *c = &m->cmds[i];
        switch (c->op) {
        case NITRO_SBC_NOP: break;
        case NITRO_SBC_RET: rt->flag |= NITRO_RS_RETURN; break;
        case NITRO_SBC_NODE: op_node(rt, c); break;
        case NITRO_SBC_MTX: op_mtx(rt, c); break;
        case NITRO_SBC_MAT: op_mat(rt, c); break;
        case NITRO_SBC_SHP: op_shp(rt, c); break;
        case NITRO_SBC_NODEDESC: op_nodedesc(rt, c); break;
        case NITRO_SBC_BB: op_bb(rt, c); break;
        case NITRO_SBC_BBY: op_bby(rt, c); break;
        case NITRO_SBC_NODEMIX: op_nodemix(rt, c); break;
        case NITRO_SBC_CALLDL: op_calldl(rt, c); break;
        case NITRO_SBC_POSSCALE: op_posscale(rt, c); break;
        case NITRO_SBC_ENVMAP: op_envmap(rt, c); break;
        case NITRO_SBC_PRJMAP: op_prjmap(rt, c); break;
        default: break; /* the parser rejects unknown opcodes */
        }
    }
    return n;
}
