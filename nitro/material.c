/*
 * material.c - material binding, texture matrices and joint transforms of the G3D runtime.
 *
 * Hardware notes (software facts, no hardware involved):
 * - Material bind: pret/pokediamond arm9/asm/NNS_G3D_sbc.s NNSi_G3dFuncSbc_MAT_InternalDefault:
 *   colour masks matColorMask_ indexed by (flag >> 6) & 7 and (flag >> 9) & 7, POLYGON_ATTR
 *   merged through the material's mask, alpha 0 = transparent (nothing drawn), wireframe clears
 *   alpha after that test; sent as ONE GeBufferOP_N with the packed words 0x00293130
 *   (DIF_AMB, SPE_EMI, POLYGON_ATTR) and 0x00002B2A (TEXIMAGE_PARAM, PLTT_BASE).
 *   Material cache: opcode 0x44 fills the cache entry, 0x24/0x44 use it once filled.
 * - Texture matrices: pret/pokeplatinum lib/NitroSystem/src/g3d/cgtool/si3d.c, 3dsmax.c, xsi.c
 *   (verified formulas: the per-flag variants there are the general formula with the flagged
 *   values set to 1/0, which is what is computed here). Maya: pret/pokeplatinum
 *   lib/NitroSystem/asm/g3d/maya.s texmtxCalc_flag_ (and its S/R/T variants, which are the
 *   general formula with the flagged values at 1/0): the exact 32-bit arithmetic is followed
 *   (products of the rotation terms with the size ratio are 32-bit `mul` then asr 12; the
 *   translation products are (scale * trans) >> 8 in 64 bits, then times the size).
 *   Ratios are FX_Div: the hardware divider on (a << 32) / b, rounded with + 0x80000 >> 20
 *   (pret/pokeplatinum FX_GetDivResult).
 * - Magnification: NNS_G3dBindMdlTex (bindMdlTex_Internal_, pret NitroSystem kernel asm)
 *   sets the material's magW = FX_Div(texture original width << 12, material origWidth << 12)
 *   when they differ (else 1.0), magH likewise; nitro_bind_textures computes it (texupload.c)
 *   and the bound value replaces the material's stored one here.
 * - Joint SRT: cgtool/basic.c and si3d.c (verified); Maya from MarioKartToolbox CGTool/Maya.cs.
 */
#include <string.h>

#include "nitro/runtime_internal.h"

/* matColorMask_ (NNS_G3D_sbc.s rodata). */
static const uint32_t color_mask[8] = {0x00000000u, 0x00007fffu, 0x7fff0000u, 0x7fff7fffu,
                                       0x00008000u, 0x0000ffffu, 0x7fff8000u, 0x7fffffffu};

static void compute(nitro_runtime *rt, unsigned idx, nitro_mat_result *r)
{
    const nitro_material *m = &rt->model->materials[idx];
    const nitro_glb *g = rt->glb;
    const nitro_mat_bind *b = &rt->binds[idx];
    memset(r, 0, sizeof *r);
    if (m->flags & NITRO_MAT_WIREFRAME) r->flag |= NITRO_MATRES_WIREFRAME;
    uint32_t da = color_mask[(m->flags >> 6) & 7u];
    r->dif_amb = (g->dif_amb & ~da) | (m->dif_amb & da);
    uint32_t se = color_mask[(m->flags >> 9) & 7u];
    r->spe_emi = (g->spe_emi & ~se) | (m->spe_emi & se);
    r->polygon_attr =
        (g->polygon_attr & ~m->polygon_attr_mask) | (m->polygon_attr & m->polygon_attr_mask);
    /* NNS_G3dBindMdlTex ORs the texture's bits into the material's TEXIMAGE_PARAM and
     * NNS_G3dBindMdlPltt writes texPlttBase. */
    r->teximage = m->teximage_param | (b->bound ? b->teximage : 0);
    r->pltt_base = b->pltt_bound ? b->pltt_base : m->pltt_base;
    if (m->flags & NITRO_MAT_TEXMTX_USE) {
        if (m->flags & NITRO_MAT_TEXMTX_SCALE_ONE) {
            r->flag |= NITRO_MATRES_SCALE_ONE;
        } else {
            r->scale_s = m->scale_s;
            r->scale_t = m->scale_t;
        }
        if (m->flags & NITRO_MAT_TEXMTX_ROT_ZERO) {
            r->flag |= NITRO_MATRES_ROT_ZERO;
        } else {
            r->rot_sin = m->rot_sin;
            r->rot_cos = m->rot_cos;
        }
        if (m->flags & NITRO_MAT_TEXMTX_TRANS_ZERO) {
            r->flag |= NITRO_MATRES_TRANS_ZERO;
        } else {
            r->trans_s = m->trans_s;
            r->trans_t = m->trans_t;
        }
        r->flag |= NITRO_MATRES_TEXMTX_SET;
    }
    /* Material animations act here, between the model's values and the texture sizes
     * (MarioKartToolbox Sbc.cs SbcMatDefault: BlendMaterialFunction). */
    if (rt->hooks.material) rt->hooks.material(rt->hooks.user, idx, r);
    if (r->flag & (NITRO_MATRES_TEXMTX_SET | NITRO_MATRES_TEXMTX_MULT)) {
        r->orig_w = m->orig_width;
        r->orig_h = m->orig_height;
        r->mag_w = b->has_mag ? b->mag_w : m->mag_w;
        r->mag_h = b->has_mag ? b->mag_h : m->mag_h;
    }
}

void nrt_material(nitro_runtime *rt, unsigned opt, unsigned idx)
{
    rt->cur_mat = idx;
    rt->flag |= NITRO_RS_CUR_MAT_VALID;
    nitro_mat_result *r;
    if ((opt == 0x20 || opt == 0x40) && nrt_bit(rt->mat_cached, idx)) {
        r = &rt->mat_cache[idx];
    } else {
        if (opt == 0x40) {
            nrt_bit_set(rt->mat_cached, idx);
            r = &rt->mat_cache[idx];
        } else {
            r = &rt->tmp_mat;
        }
        compute(rt, idx, r);
    }
    rt->mat = r;
    if ((r->polygon_attr & 0x001f0000u) == 0) {
        rt->flag |= NITRO_RS_MAT_TRANSPARENT;
        return;
    }
    if (r->flag & NITRO_MATRES_WIREFRAME) r->polygon_attr &= ~0x001f0000u;
    rt->flag &= ~(uint32_t)NITRO_RS_MAT_TRANSPARENT;
    uint32_t p[6] = {r->dif_amb,  r->spe_emi,  r->polygon_attr,
                     0x00002b2au, r->teximage, r->pltt_base};
    nrt_fifo(&rt->sink, 0x00293130u, p, 6);
    if (r->flag & (NITRO_MATRES_TEXMTX_SET | NITRO_MATRES_TEXMTX_MULT)) nrt_send_tex_srt(rt, r);
}

/* ---- texture matrices ---- */

typedef struct texv {
    fx32 ss, st, sin, cos, ts, tt, magw, magh;
    int32_t w, h;
} texv;

static texv tex_values(const nitro_mat_result *r)
{
    texv v;
    bool s1 = r->flag & NITRO_MATRES_SCALE_ONE, r0 = r->flag & NITRO_MATRES_ROT_ZERO,
         t0 = r->flag & NITRO_MATRES_TRANS_ZERO;
    v.ss = s1 ? FX32_ONE : r->scale_s;
    v.st = s1 ? FX32_ONE : r->scale_t;
    v.sin = r0 ? 0 : r->rot_sin;
    v.cos = r0 ? FX32_ONE : r->rot_cos;
    v.ts = t0 ? 0 : r->trans_s;
    v.tt = t0 ? 0 : r->trans_t;
    v.magw = r->mag_w;
    v.magh = r->mag_h;
    v.w = r->orig_w;
    v.h = r->orig_h;
    return v;
}

/* FX_Div(a << 12, b << 12): the divider's 64/32 mode on ((a << 12) << 32) / (b << 12), then
 * FX_GetDivResult's (q + 0x80000) >> 20 (pret/pokeplatinum FX_GetDivResult). */
static fx32 ratio(int32_t a, int32_t b)
{
    return nitro_fx_div(dsgx_shl32(a, 12), dsgx_shl32(b, 12));
}

static void apply_mag(fx32 m[16], const texv *v)
{
    if (v->magw != FX32_ONE) {
        m[0] = nrt_mul(v->magw, m[0]);
        m[1] = nrt_mul(v->magw, m[1]);
        m[12] = nrt_mul(v->magw, m[12]);
    }
    if (v->magh != FX32_ONE) {
        m[4] = nrt_mul(v->magh, m[4]);
        m[5] = nrt_mul(v->magh, m[5]);
        m[13] = nrt_mul(v->magh, m[13]);
    }
}

/* 3ds Max (cgtool/3dsmax.c texmtxCalc_flag_). */
static void calc_3dsmax(const texv *v, fx32 m[16])
{
    fx32 ssc = nrt_mul(v->ss, v->cos), sss = nrt_mul(v->ss, v->sin);
    fx32 stc = nrt_mul(v->st, v->cos), sts = nrt_mul(v->st, v->sin);
    m[0] = ssc;
    m[5] = stc;
    m[1] = (fx32)(dsgx_mul64(sts, ratio(v->h, v->w)) >> 12);
    int64_t p = -dsgx_shl64(v->w, 11) - dsgx_mul64(v->ts, v->w);
    int64_t q = -dsgx_shl64(v->h, 11) + dsgx_mul64(v->tt, v->h);
    m[12] =
        dsgx_wrap32(((int64_t)ssc * (fx32)p - (int64_t)sss * (fx32)q) >> 8) + dsgx_shl32(v->w, 15);
    m[13] =
        dsgx_wrap32(((int64_t)sts * (fx32)p + (int64_t)stc * (fx32)q) >> 8) + dsgx_shl32(v->h, 15);
    m[4] = (fx32)(dsgx_mul64(-sss, ratio(v->w, v->h)) >> 12);
}

/* XSI (cgtool/xsi.c texmtxCalc_flag_). */
static void calc_xsi(const texv *v, fx32 m[16])
{
    fx32 ssc = nrt_mul(v->ss, v->cos), sss = nrt_mul(v->ss, v->sin);
    fx32 stc = nrt_mul(v->st, v->cos), sts = nrt_mul(v->st, v->sin);
    m[0] = ssc;
    m[5] = stc;
    m[1] = (fx32)(dsgx_mul64(sts, ratio(v->h, v->w)) >> 12);
    int64_t t = (dsgx_mul64(v->ts, v->cos) + dsgx_mul64(v->tt, v->sin)) >> 12;
    fx32 p = dsgx_wrap32((t * v->ss) >> 12);
    t = (dsgx_mul64(v->ts, v->sin) - dsgx_mul64(v->tt, v->cos)) >> 12;
    fx32 q = dsgx_wrap32((t * v->st) >> 12);
    m[12] = dsgx_shl32(dsgx_wrap32((int64_t)v->w * (sss - p)), 4);
    m[13] = dsgx_shl32(dsgx_wrap32((int64_t)-v->h * (stc + q - FX32_ONE)), 4);
    m[4] = (fx32)(dsgx_mul64(-sss, ratio(v->w, v->h)) >> 12);
}

/* Maya (pret/pokeplatinum maya.s texmtxCalc_flag_). 32-bit products wrap as ARM `mul` does. */
static fx32 mul32_asr12(fx32 a, fx32 b)
{
    return dsgx_wrap32((int64_t)dsgx_wrap32(dsgx_mul64(a, b))) >> 12;
}

static void calc_maya(const texv *v, fx32 m[16])
{
    fx32 ssc = nrt_mul(v->ss, v->cos), sss = nrt_mul(v->ss, v->sin);
    fx32 stc = nrt_mul(v->st, v->cos), sts = nrt_mul(v->st, v->sin);
    m[0] = ssc;
    m[5] = stc;
    m[1] = mul32_asr12(-sts, ratio(v->h, v->w));
    m[4] = mul32_asr12(sss, ratio(v->w, v->h));
    /* _30 = ((ss - sss - ssc) * w) << 3  -  w * ((ss * ts) >> 8) */
    fx32 a = dsgx_wrap32(dsgx_mul64(v->w, v->ss - (sss + ssc)));
    fx32 b = dsgx_wrap32(dsgx_mul64(v->w, dsgx_wrap32(dsgx_mul64(v->ss, v->ts) >> 8)));
    m[12] = dsgx_wrap32((int64_t)dsgx_shl32(a, 3) - b);
    /* _31 = ((sts - stc - st + 2.0) * h) << 3  +  h * ((st * tt) >> 8) */
    fx32 c = dsgx_wrap32(dsgx_mul64(v->h, sts - stc - v->st + 2 * FX32_ONE));
    fx32 d = dsgx_wrap32(dsgx_mul64(v->h, dsgx_wrap32(dsgx_mul64(v->st, v->tt) >> 8)));
    m[13] = dsgx_wrap32((int64_t)dsgx_shl32(c, 3) + d);
}

void nrt_send_tex_srt(nitro_runtime *rt, const nitro_mat_result *r)
{
    texv v = tex_values(r);
    bool set = r->flag & NITRO_MATRES_TEXMTX_SET;
    unsigned mode = rt->model->info.texmtx_mode;
    if (mode == 1) {
        /* Softimage 3D (cgtool/si3d.c): a 4x3, scale and translation only. */
        fx32 m[12] = {0};
        bool s1 = r->flag & NITRO_MATRES_SCALE_ONE;
        if (r->flag & NITRO_MATRES_TRANS_ZERO) {
            m[0] = s1 ? FX32_ONE : r->scale_s;
            m[4] = s1 ? FX32_ONE : r->scale_t;
        } else if (s1) {
            m[9] = dsgx_wrap32(-dsgx_mul64(dsgx_shl32(r->trans_s, 4), v.w));
            m[10] = dsgx_wrap32(-dsgx_mul64(dsgx_shl32(r->trans_t, 4), v.h));
            m[0] = m[4] = FX32_ONE;
        } else {
            m[9] = dsgx_wrap32(-dsgx_mul64((fx32)(dsgx_mul64(r->scale_s, r->trans_s) >> 8), v.w));
            m[10] = dsgx_wrap32(-dsgx_mul64((fx32)(dsgx_mul64(r->scale_t, r->trans_t) >> 8), v.h));
            m[0] = r->scale_s;
            m[4] = r->scale_t;
        }
        if (v.magw != FX32_ONE) {
            m[0] = nrt_mul(v.magw, m[0]);
            m[9] = nrt_mul(v.magw, m[9]);
        }
        if (v.magh != FX32_ONE) {
            m[4] = nrt_mul(v.magh, m[4]);
            m[10] = nrt_mul(v.magh, m[10]);
        }
        uint32_t p[14];
        p[0] = 3;
        for (unsigned i = 0; i < 12; i++) p[1 + i] = (uint32_t)m[i];
        p[13] = 2;
        uint8_t op = set ? NRT_OP_MTX_LOAD_4x3 : NRT_OP_MTX_MULT_4x3;
        nrt_fifo(&rt->sink, nrt_pack(NRT_OP_MTX_MODE, op, NRT_OP_MTX_MODE, 0), p, 14);
        return;
    }
    fx32 m[16] = {0};
    m[15] = FX32_ONE;
    if (mode == 2)
        calc_3dsmax(&v, m);
    else if (mode == 3)
        calc_xsi(&v, m);
    else
        calc_maya(&v, m);
    apply_mag(m, &v);
    uint32_t p[18];
    p[0] = 3;
    for (unsigned i = 0; i < 16; i++) p[1 + i] = (uint32_t)m[i];
    p[17] = 2;
    uint8_t op = set ? NRT_OP_MTX_LOAD_4x4 : NRT_OP_MTX_MULT_4x4;
    nrt_fifo(&rt->sink, nrt_pack(NRT_OP_MTX_MODE, op, NRT_OP_MTX_MODE, 0), p, 18);
}

/* ---- joint SRT ---- */

enum {
    JR_SCALE_ONE = 1,
    JR_ROT_ZERO = 2,
    JR_TRANS_ZERO = 4,
    JR_EX0_ONE = 8,
    JR_EX1_ONE = 16,
    JR_MAYA_SSC = 32
};

typedef struct joint {
    uint32_t flag;
    fx32 scale[3], ex0[3], ex1[3];
    fx32 rot[9], trans[3];
} joint;

static void send_basic(nitro_runtime *rt, const joint *j)
{
    const nitro_gx_sink *s = &rt->sink;
    if (!(j->flag & JR_TRANS_ZERO)) {
        if (!(j->flag & JR_ROT_ZERO)) {
            fx32 m[12];
            memcpy(m, j->rot, sizeof j->rot);
            memcpy(m + 9, j->trans, sizeof j->trans);
            nrt_fifo_fx(s, NRT_OP_MTX_MULT_4x3, m, 12);
        } else {
            nrt_fifo_fx(s, NRT_OP_MTX_TRANS, j->trans, 3);
        }
    } else if (!(j->flag & JR_ROT_ZERO)) {
        nrt_fifo_fx(s, NRT_OP_MTX_MULT_3x3, j->rot, 9);
    }
    if (!(j->flag & JR_SCALE_ONE)) nrt_fifo_fx(s, NRT_OP_MTX_SCALE, j->scale, 3);
}

static void send_maya(nitro_runtime *rt, const joint *j)
{
    const nitro_gx_sink *s = &rt->sink;
    bool tr = !(j->flag & JR_TRANS_ZERO);
    if ((j->flag & JR_MAYA_SSC) && !(j->flag & JR_EX0_ONE)) {
        if (tr) nrt_fifo_fx(s, NRT_OP_MTX_TRANS, j->trans, 3);
        tr = false;
        nrt_fifo_fx(s, NRT_OP_MTX_SCALE, j->ex0, 3);
    }
    joint k = *j;
    if (!tr) k.flag |= JR_TRANS_ZERO;
    send_basic(rt, &k);
}

static void send_si3d(nitro_runtime *rt, const joint *j)
{
    const nitro_gx_sink *s = &rt->sink;
    bool ex = (j->flag & (JR_EX0_ONE | JR_EX1_ONE)) != 0, rt_flag = false;
    if (!ex) nrt_fifo_fx(s, NRT_OP_MTX_SCALE, j->ex1, 3);
    if (!(j->flag & JR_TRANS_ZERO)) {
        if (!ex) {
            fx32 t[3];
            for (unsigned i = 0; i < 3; i++) t[i] = nrt_mul(j->trans[i], j->ex0[i]);
            nrt_fifo_fx(s, NRT_OP_MTX_TRANS, t, 3);
        } else {
            rt_flag = true;
        }
    }
    if (!(j->flag & JR_ROT_ZERO)) {
        if (rt_flag) {
            fx32 m[12];
            memcpy(m, j->rot, sizeof j->rot);
            memcpy(m + 9, j->trans, sizeof j->trans);
            nrt_fifo_fx(s, NRT_OP_MTX_MULT_4x3, m, 12);
        } else {
            nrt_fifo_fx(s, NRT_OP_MTX_MULT_3x3, j->rot, 9);
        }
    } else if (rt_flag) {
        nrt_fifo_fx(s, NRT_OP_MTX_TRANS, j->trans, 3);
    }
    if (!ex) nrt_fifo_fx(s, NRT_OP_MTX_SCALE, j->ex0, 3);
    if (!(j->flag & JR_SCALE_ONE)) nrt_fifo_fx(s, NRT_OP_MTX_SCALE, j->scale, 3);
}

static void scale_si3d(nitro_runtime *rt, const nitro_node *n, unsigned id, unsigned parent,
                       joint *j)
{
    fx32 *c = rt->scale_cache[id], *pc = rt->scale_cache[parent];
    bool parent_one = nrt_bit(rt->scale_one, parent);
    if (n->flags & NITRO_NODE_SCALE_ONE) {
        j->flag |= JR_SCALE_ONE;
        if (parent_one) {
            nrt_bit_set(rt->scale_one, id);
            j->flag |= JR_EX0_ONE | JR_EX1_ONE;
        } else {
            memmove(c, pc, 6 * sizeof *c);
            memcpy(j->ex0, pc, 3 * sizeof *c);
            memcpy(j->ex1, pc + 3, 3 * sizeof *c);
        }
        return;
    }
    memcpy(j->scale, n->scale, sizeof j->scale);
    if (parent_one) {
        memcpy(c, n->scale, 3 * sizeof *c);
        memcpy(c + 3, n->inv_scale, 3 * sizeof *c);
        nrt_bit_clr(rt->scale_one, id);
        j->flag |= JR_EX0_ONE | JR_EX1_ONE;
    } else {
        nrt_bit_clr(rt->scale_one, id);
        memcpy(j->ex0, pc, 3 * sizeof *c); /* parent's cache, before this node's update */
        memcpy(j->ex1, pc + 3, 3 * sizeof *c);
        for (unsigned i = 0; i < 3; i++) {
            c[i] = nrt_mul(n->scale[i], pc[i]);
            c[3 + i] = nrt_mul(n->inv_scale[i], pc[3 + i]);
        }
    }
}

void nrt_joint_srt(nitro_runtime *rt, const nitro_sbc_cmd *c)
{
    unsigned id = c->u.nodedesc.node, parent = c->u.nodedesc.parent;
    nitro_node nv = rt->model->nodes[id]; /* the node, or the animated transform in its place */
    const nitro_node *n = &nv;
    nitro_jnt_result ar;
    if (rt->hooks.joint && rt->hooks.joint(rt->hooks.user, id, &ar)) {
        nv.flags = (uint16_t)((ar.flag & NITRO_JNT_RES_TRANS_ZERO ? NITRO_NODE_TRANS_ZERO : 0) |
                              (ar.flag & NITRO_JNT_RES_ROT_ZERO ? NITRO_NODE_ROT_ZERO : 0) |
                              (ar.flag & NITRO_JNT_RES_SCALE_ONE ? NITRO_NODE_SCALE_ONE : 0));
        memcpy(nv.translation, ar.trans, sizeof ar.trans);
        memcpy(nv.rotation, ar.rot, sizeof ar.rot);
        memcpy(nv.scale, ar.scale, sizeof ar.scale);
        memcpy(nv.inv_scale, ar.inv_scale, sizeof ar.inv_scale);
    }
    joint j;
    memset(&j, 0, sizeof j);
    if (n->flags & NITRO_NODE_TRANS_ZERO)
        j.flag |= JR_TRANS_ZERO;
    else
        memcpy(j.trans, n->translation, sizeof j.trans);
    if (n->flags & NITRO_NODE_ROT_ZERO)
        j.flag |= JR_ROT_ZERO;
    else
        memcpy(j.rot, n->rotation, sizeof j.rot);
    unsigned rule = rt->model->info.scaling_rule;
    if (rule == 1) {
        /* Maya segment scale compensation (MarioKartToolbox CGTool/Maya.cs GetJointScale). */
        unsigned f = c->u.nodedesc.flags;
        if (n->flags & NITRO_NODE_SCALE_ONE) {
            j.flag |= JR_SCALE_ONE;
            if (f & 2u) nrt_bit_set(rt->scale_one, id);
        } else {
            memcpy(j.scale, n->scale, sizeof j.scale);
            if (f & 2u) {
                nrt_bit_clr(rt->scale_one, id);
                memcpy(rt->scale_cache[id] + 3, n->inv_scale, 3 * sizeof(fx32));
            }
        }
        if (f & 1u) {
            j.flag |= JR_MAYA_SSC;
            if (nrt_bit(rt->scale_one, parent))
                j.flag |= JR_EX0_ONE;
            else
                memcpy(j.ex0, rt->scale_cache[parent] + 3, 3 * sizeof(fx32));
        }
        j.flag |= JR_EX1_ONE;
        send_maya(rt, &j);
    } else if (rule == 2) {
        scale_si3d(rt, n, id, parent, &j);
        send_si3d(rt, &j);
    } else {
        if (n->flags & NITRO_NODE_SCALE_ONE)
            j.flag |= JR_SCALE_ONE;
        else
            memcpy(j.scale, n->scale, sizeof j.scale);
        j.flag |= JR_EX0_ONE | JR_EX1_ONE;
        send_basic(rt, &j);
    }
}
