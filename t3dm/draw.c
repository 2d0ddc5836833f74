/*
 * draw.c - a T3DM drawn as GX commands: Tiny3D's vertex cache replayed, parts under their
 * bone matrices, materials to POLYGON_ATTR / TEXIMAGE_PARAM.
 *
 * What is modelled (Tiny3D facts from HailToDodongo/tiny3d src/t3d/t3dmodel.c
 * t3d_model_draw_object and t3d.h): each part loads vert_count vertices into cache slots
 * vert_dest.. under the part's bone matrix (Tiny3D transforms at load time), then draws its u8
 * index triangles, then sequences (slots base, base+1, base+2, ...), then strips. A triangle
 * can use slots loaded by earlier parts under other bones: that is how Tiny3D skins. Here each
 * slot remembers which vertex and which matrix loaded it, and a vertex is sent with that
 * matrix current (MTX_RESTORE between vertices, as Nitro's skinned display lists do).
 *
 * DS side (GBATEK "DS 3D Geometry Commands", "DS 3D Polygon Attributes"): the matrix of each
 * bone is built once per draw: MTX_RESTORE of the base (the camera, stored in slot 0), MTX_MULT_4x3
 * of the bone's model-space matrix, MTX_SCALE by 4096 (positions go out as raw s16 in VTX_16,
 * 1.3.12, so the scale restores model units exactly), MTX_STORE in slots 1..30; bones beyond
 * 30 are rebuilt where they are used. Commands are packed four to a GXFIFO word.
 * Not modelled: the colour combiner, other modes and blender beyond "blend mode != 0 means
 * translucent", texture B, vertex effects, the depth flag, N64 bilinear filtering.
 */
#include <stdlib.h>
#include <string.h>

#include "gx/regs.h"
#include "t3dm/draw.h"
#include "t3dm/draw_internal.h"
#include "t3dm/t3dm_internal.h"

/* ---- packed command words ---- */

typedef struct cmdq {
    const nitro_gx_sink *s;
    uint8_t ops[4];
    unsigned nops, np;
    uint32_t params[48];
} cmdq;

static void q_flush(cmdq *q)
{
    if (!q->nops) return;
    uint32_t w = 0;
    for (unsigned i = 0; i < q->nops; i++) w |= (uint32_t)q->ops[i] << (8 * i);
    q->s->write(q->s->user, REG_GXFIFO, w, 4);
    for (unsigned i = 0; i < q->np; i++) q->s->write(q->s->user, REG_GXFIFO, q->params[i], 4);
    q->nops = q->np = 0;
}

/* Every command queued here takes 1..12 parameters (no zero-parameter opcodes). */
static void q_cmd(cmdq *q, uint8_t op, const uint32_t *p, unsigned n)
{
    if (q->nops == 4) q_flush(q);
    q->ops[q->nops++] = op;
    for (unsigned i = 0; i < n; i++) q->params[q->np++] = p[i];
}

static void q_one(cmdq *q, uint8_t op, uint32_t v)
{
    q_cmd(q, op, &v, 1);
}

/* ---- state ---- */

typedef struct slot {
    bool valid;
    uint32_t voff;
    uint16_t mtx; /**< matrix id: 0 none, b + 1 bone b */
} slot;

typedef struct drawer {
    const t3dm_model *m;
    const t3dm_draw_opts *o;
    cmdq q;
    slot cache[T3DM_CACHE_SLOTS];
    uint8_t *slot_of; /**< stack slot of each matrix id, 0 = not stored */
    int cur_mtx;
    bool lit, textured;
    uint32_t last_color, poly_attr, teximage, pltt;
    bool have_attr, have_tex, have_pltt;
    t3dm_axis_map ax[2];
    uint16_t nrm5[32], nrm6[64]; /**< 5- and 6-bit normal components as 1.0.9 (10 bits) */
    unsigned tris;
} drawer;

static void mult_bone(drawer *d, unsigned id)
{
    if (d->o->base_scaled) {
        if (!id) return; /* the base already holds the position scale */
        /* undo it exactly: 1/4096 is raw 1 in 1.19.12 and the scaled rows are multiples of
         * 4096, so the truncating product gives the camera rows back bit for bit */
        uint32_t one[3] = {1, 1, 1};
        q_cmd(&d->q, T3OP_MTX_SCALE, one, 3);
    }
    if (id && d->o->pose && id - 1 < d->o->pose->num_bones) {
        uint32_t p[12];
        for (int i = 0; i < 12; i++) p[i] = (uint32_t)d->o->pose->matrix[id - 1][i];
        q_cmd(&d->q, T3OP_MTX_MULT_4x3, p, 12);
    }
    uint32_t s[3] = {T3DM_POS_SCALE, T3DM_POS_SCALE, T3DM_POS_SCALE};
    q_cmd(&d->q, T3OP_MTX_SCALE, s, 3);
}

static void select_mtx(drawer *d, unsigned id)
{
    if (d->cur_mtx == (int)id) return;
    if (d->slot_of[id]) {
        q_one(&d->q, T3OP_MTX_RESTORE, d->slot_of[id]);
    } else {
        q_one(&d->q, T3OP_MTX_RESTORE, 0);
        mult_bone(d, id);
    }
    d->cur_mtx = (int)id;
}

/* Matrix ids in order of first use get stack slots 1..30. A model without bones needs one
 * matrix: the scale goes straight onto the camera, nothing is stored. */
static bool build_matrices(drawer *d)
{
    bool bones = false;
    for (uint32_t oi = 0; oi < d->m->num_objects && !bones; oi++)
        for (unsigned p = 0; p < d->m->objects[oi].num_parts; p++)
            bones = bones || d->m->objects[oi].parts[p].matrix != 0xFFFF;
    if (!bones) {
        mult_bone(d, 0);
        d->cur_mtx = 0;
        return false;
    }
    /* MTX_MODE position-vector (as nitro_glb_flush leaves it), the camera in slot 0 */
    q_one(&d->q, T3OP_MTX_MODE, 2);
    q_one(&d->q, T3OP_MTX_STORE, 0);
    unsigned next = 1;
    for (uint32_t oi = 0; oi < d->m->num_objects; oi++) {
        if (d->o->object >= 0 && (int)oi != d->o->object) continue;
        const t3dm_object *ob = &d->m->objects[oi];
        for (unsigned p = 0; p < ob->num_parts && next < T3DM_MTX_SLOTS; p++) {
            uint16_t mx = ob->parts[p].matrix;
            unsigned id = mx == 0xFFFF ? 0u : mx + 1u;
            if (d->slot_of[id]) continue;
            q_one(&d->q, T3OP_MTX_RESTORE, 0);
            mult_bone(d, id);
            q_one(&d->q, T3OP_MTX_STORE, next);
            d->slot_of[id] = (uint8_t)next++;
        }
    }
    d->cur_mtx = -1;
    return true;
}

/* ---- vertices ---- */

/* One vertex: read straight from the interleaved pair (t3dm_vertex_get's layout), the
 * normal through the per-draw tables. */
static void emit(drawer *d, unsigned s)
{
    const slot *sl = &d->cache[s];
    select_mtx(d, sl->mtx);
    uint32_t b = (sl->voff >> 4) & 1u;
    const uint8_t *p = d->m->data + d->m->vert_chunk + (sl->voff & ~31u);
    const uint8_t *pos = p + b * 8, *rgba = p + 16 + b * 4, *st = p + 24 + b * 4;
    uint16_t c = (uint16_t)((rgba[0] >> 3) | ((rgba[1] >> 3) << 5) | ((rgba[2] >> 3) << 10));
    if (d->lit) {
        uint16_t half = (uint16_t)((c >> 1) & 0x3DEFu);
        uint32_t dif = c | ((uint32_t)half << 16);
        if (dif != d->last_color) q_one(&d->q, T3OP_DIF_AMB, dif);
        d->last_color = dif;
        uint16_t n = t3dm_be16(pos + 6);
        q_one(&d->q, T3OP_NORMAL,
              d->nrm5[n >> 11] | ((uint32_t)d->nrm6[(n >> 5) & 63u] << 10) |
                  ((uint32_t)d->nrm5[n & 31u] << 20));
    } else {
        if (c != d->last_color) q_one(&d->q, T3OP_COLOR, c);
        d->last_color = c;
    }
    if (d->textured)
        q_one(&d->q, T3OP_TEXCOORD,
              ((uint32_t)t3dm_texc(&d->ax[0], (int16_t)t3dm_be16(st)) & 0xFFFFu) |
                  ((uint32_t)t3dm_texc(&d->ax[1], (int16_t)t3dm_be16(st + 2)) << 16));
    uint32_t v[2] = {t3dm_be16(pos) | ((uint32_t)t3dm_be16(pos + 2) << 16), t3dm_be16(pos + 4)};
    q_cmd(&d->q, T3OP_VTX_16, v, 2);
}

static bool tri_valid(const drawer *d, unsigned a, unsigned b, unsigned c)
{
    return d->cache[a].valid && d->cache[b].valid && d->cache[c].valid;
}

static void tri(drawer *d, unsigned a, unsigned b, unsigned c)
{
    if (!tri_valid(d, a, b, c)) return;
    emit(d, a);
    emit(d, b);
    emit(d, c);
    d->tris++;
}

/* ---- materials ---- */

static void set_material(drawer *d, const t3dm_material *mt, const t3dm_texbind *tb)
{
    d->lit = !(mt->draw_flags & T3DM_FLAG_NO_LIGHT);
    d->textured = tb && tb->bound;
    d->last_color = 0xFFFFFFFFu;
    uint32_t ti = 0;
    if (d->textured) ti = t3dm_material_teximage(mt, tb, d->ax);
    if (!d->have_tex || ti != d->teximage) q_one(&d->q, T3OP_TEXIMAGE_PARAM, ti);
    d->teximage = ti;
    d->have_tex = true;
    if (d->textured && tb->has_palette && (!d->have_pltt || d->pltt != tb->pltt_base)) {
        q_one(&d->q, T3OP_PLTT_BASE, tb->pltt_base);
        d->pltt = tb->pltt_base;
        d->have_pltt = true;
    }
}

/* POLYGON_ATTR for a part: lights, culling, fog, and (translucent materials) the smallest
 * vertex alpha among the slots the part draws. */
static void set_attr(drawer *d, const t3dm_material *mt, const t3dm_part *p)
{
    unsigned amin = 255;
    if (mt->blend_mode) {
        const uint8_t *ix = d->m->data + d->m->index_chunk + p->index_offset;
        for (unsigned i = 0; i < p->num_indices; i++) {
            const slot *s = &d->cache[ix[i]];
            if (!s->valid) continue;
            t3dm_vertex v;
            t3dm_vertex_get(d->m, s->voff, &v);
            if (v.rgba[3] < amin) amin = v.rgba[3];
        }
    }
    uint32_t attr = t3dm_part_attr(mt, d->lit, d->o->light_mask, amin);
    if (!d->have_attr || attr != d->poly_attr) q_one(&d->q, T3OP_POLYGON_ATTR, attr);
    d->poly_attr = attr;
    d->have_attr = true;
}

/* ---- parts ---- */

static void draw_strip(drawer *d, uint32_t off, unsigned n)
{
    const uint8_t *p = d->m->data + off;
    bool all = true;
    for (unsigned i = 0; i < n; i++) all = all && d->cache[t3dm_be16(p + 2 * i) & 0x7FFFu].valid;
    unsigned a = 0, b = 0, k = 0;
    for (unsigned i = 0; i < n; i++) {
        uint16_t v = t3dm_be16(p + 2 * i);
        unsigned s = v & 0x7FFFu;
        bool start = i == 0 || (v & 0x8000u);
        if (start) {
            unsigned s1 = t3dm_be16(p + 2 * (i + 1)) & 0x7FFFu;
            unsigned s2 = t3dm_be16(p + 2 * (i + 2)) & 0x7FFFu;
            if (all) {
                q_one(&d->q, T3OP_BEGIN_VTXS, T3PRIM_STRIP);
                emit(d, s);
                emit(d, s1);
                emit(d, s2);
                d->tris++;
            } else {
                if (i) q_one(&d->q, T3OP_BEGIN_VTXS, T3PRIM_TRIANGLES);
                tri(d, s, s1, s2);
            }
            a = s1;
            b = s2;
            k = 1;
            i += 2;
            continue;
        }
        /* triangle k of a strip segment is (a, b, s) for even k and (b, a, s) for odd k, as
         * strips alternate their winding; the list fallback keeps the same faces */
        if (all) {
            emit(d, s);
            d->tris++;
        } else {
            tri(d, (k & 1) ? b : a, (k & 1) ? a : b, s);
        }
        k++;
        a = b;
        b = s;
    }
}

static void draw_part(drawer *d, const t3dm_material *mt, const t3dm_part *p)
{
    for (unsigned i = 0; i < p->vert_count; i++) {
        slot *s = &d->cache[p->vert_dest + i];
        s->valid = true;
        s->voff = p->vert_offset + 16u * i;
        s->mtx = p->matrix == 0xFFFF ? 0 : (uint16_t)(p->matrix + 1u);
    }
    if (!p->num_indices && !p->strip_count[0] && !p->seq_count) return;
    set_attr(d, mt, p);
    if (p->num_indices || p->seq_count) {
        q_one(&d->q, T3OP_BEGIN_VTXS, T3PRIM_TRIANGLES);
        const uint8_t *ix = d->m->data + d->m->index_chunk + p->index_offset;
        for (unsigned i = 0; i + 2 < p->num_indices; i += 3) tri(d, ix[i], ix[i + 1], ix[i + 2]);
        for (unsigned t = 0; t < p->seq_count; t++) {
            unsigned b = p->seq_base + 3u * t;
            tri(d, b, b + 1, b + 2);
        }
    }
    for (int k = 0; k < 4 && p->strip_count[k]; k++)
        draw_strip(d, p->strip_offset[k], p->strip_count[k]);
}

void t3dm_glb_init(nitro_glb *g)
{
    nitro_glb_init(g);
    for (int k = 0; k < 3; k++) g->base_scale[k] = T3DM_POS_SCALE;
}

unsigned t3dm_draw_walk(const t3dm_model *m, const t3dm_draw_opts *o, const nitro_gx_sink *sink)
{
    drawer d;
    memset(&d, 0, sizeof d);
    d.m = m;
    d.o = o;
    d.q.s = sink;
    d.slot_of = calloc(m->num_bones + 2u, 1);
    if (!d.slot_of) return 0;
    for (unsigned i = 0; i < 32; i++) d.nrm5[i] = (uint16_t)t3dm_nrm_comp(dsgx_sext(i, 5), 31);
    for (unsigned i = 0; i < 64; i++) d.nrm6[i] = (uint16_t)t3dm_nrm_comp(dsgx_sext(i, 6), 63);
    q_one(&d.q, T3OP_SPE_EMI, 0);
    bool skinned = build_matrices(&d);
    for (uint32_t oi = 0; oi < m->num_objects; oi++) {
        if (o->object >= 0 && (int)oi != o->object) continue;
        const t3dm_object *ob = &m->objects[oi];
        const t3dm_material *mt = &m->materials[ob->material];
        set_material(&d, mt, o->binds ? &o->binds[ob->material] : NULL);
        for (unsigned p = 0; p < ob->num_parts; p++) draw_part(&d, mt, &ob->parts[p]);
    }
    if (skinned) q_one(&d.q, T3OP_MTX_RESTORE, 0);
    q_flush(&d.q);
    free(d.slot_of);
    return d.tris;
}
