/*
 * drawlist.c - a T3DM compiled once into a packed GX command list, then replayed.
 *
 * The compiler runs the same walk as draw.c (Tiny3D's vertex cache replayed part by part, the
 * matrix commands that select each slot's bone, materials to POLYGON_ATTR / TEXIMAGE_PARAM)
 * but writes the GXFIFO words into one array instead of the bus. Index lists convert a cache
 * slot's vertex (colour, NORMAL, TEXCOORD, VTX_16 words) at most once per material and reuse
 * it; strips whose slots are all loaded run in a loop specialised per material kind and are
 * undone (then drawn as lists, as the walk does) at the first unloaded slot. Replaying
 * is a word copy to the sink; the only words that change from frame to frame are the bones'
 * MTX_MULT_4x3 parameters, which the list records as patches and takes from the pose at each
 * replay. The list is rebuilt when anything else that shapes the command stream changes (the
 * model, the object drawn, the texture binds, the light mask, the base scale, whether a pose is
 * given and how many bones it has).
 *
 * Contract: the words replayed are exactly the bus writes t3dm_draw_walk makes for the same
 * model, options and pose (test/unit/test_t3dm_drawlist.c checks it for every fixture, random
 * poses and random option sets). Memory is bounded by T3DM_DRAWLIST_MAX_WORDS; a model whose
 * list would exceed it (or an allocation failure) is drawn by the walk directly.
 */
#include <stdlib.h>
#include <string.h>

#include "gx/gx.h"
#include "gx/regs.h"
#include "t3dm/draw.h"
#include "t3dm/draw_internal.h"
#include "t3dm/t3dm_internal.h"

/* More words than one step of the compiler appends: a vertex with its matrix rebuilt in
 * front (MTX_RESTORE, MTX_SCALE, MTX_MULT_4x3, MTX_SCALE: 19 parameters) plus DIF_AMB or
 * COLOR, NORMAL, TEXCOORD and VTX_16 (5 parameters), with their command words: 27 at most. */
enum { STEP_WORDS = 48 };

/* The per-vertex functions are forced inline into the strip and list loops: with the packer
 * a local there, its fields live in registers (about 6 instructions a command). */
#if defined(__GNUC__)
#define T3DM_HOT static inline __attribute__((always_inline))
#else
#define T3DM_HOT static inline
#endif

typedef struct cslot {
    bool valid;
    uint16_t mtx; /**< matrix id: 0 none, b + 1 bone b */
    uint32_t voff;
    uint32_t epoch; /**< material epoch the words below were converted for, 0 = none */
    uint32_t color, nrm, tex, v0, v1;
} cslot;

/* The packer. The hot loops work on a local copy (in registers once inlined) and hand it
 * back to the compiler state around anything that is not inlined. */
typedef struct packer {
    uint32_t *out;   /**< next word */
    uint32_t *cmd;   /**< the command word being filled */
    uint32_t cmdval; /**< its value so far */
    unsigned sh;     /**< bit position of its next command (32: start a new one) */
} packer;

typedef struct compiler {
    const t3dm_model *m;
    const t3dm_draw_opts *o;
    t3dm_drawlist *dl;
    packer pk;
    bool full;                 /**< the list outgrew its bound or an allocation failed */
    bool tex_fast;             /**< TEXCOORD needs no shift and no clamp (see convert) */
    const uint8_t *verts;      /**< the vertex chunk */
    uint32_t rgb_raw, rgb_col; /**< the last colour converted (raw RGB, its COLOR/DIF_AMB) */
    cslot cache[T3DM_CACHE_SLOTS];
    uint8_t *slot_of;
    int cur_mtx;
    bool lit, textured;
    uint32_t epoch;
    uint32_t last_color, poly_attr, teximage, pltt;
    bool have_attr, have_tex, have_pltt;
    t3dm_axis_map ax[2];
    uint32_t nrmx[32], nrmy[64], nrmz[32]; /**< NORMAL's three fields, in place */
    unsigned tris;
} compiler;

/* ---- the word array ---- */

static bool room(compiler *c, size_t k)
{
    t3dm_drawlist *dl = c->dl;
    if (c->full) return false;
    size_t n = c->pk.out ? (size_t)(c->pk.out - dl->words) : 0;
    if (n + k <= dl->cap) return true;
    size_t cap = dl->cap ? dl->cap * 2 : 4096;
    while (cap < n + k) cap *= 2;
    if (cap > T3DM_DRAWLIST_MAX_WORDS) cap = T3DM_DRAWLIST_MAX_WORDS;
    uint32_t *w = cap >= n + k ? realloc(dl->words, cap * sizeof *w) : NULL;
    if (!w) {
        c->full = true;
        return false;
    }
    size_t cmd = c->pk.cmd ? (size_t)(c->pk.cmd - dl->words) : 0;
    dl->words = w;
    dl->cap = cap;
    c->pk.out = w + n;
    c->pk.cmd = w + cmd;
    return true;
}

/* Commands pack four to a word, parameters follow their word in order (every command sent
 * here has parameters, so a word is never left with a gap). Callers reserve with room(). */
T3DM_HOT void pk_op(packer *k, uint8_t op)
{
    if (k->sh == 32) {
        k->cmd = k->out++;
        k->cmdval = 0;
        k->sh = 0;
    }
    k->cmdval |= (uint32_t)op << k->sh;
    *k->cmd = k->cmdval;
    k->sh += 8;
}

T3DM_HOT void pk1(packer *k, uint8_t op, uint32_t v)
{
    pk_op(k, op);
    *k->out++ = v;
}

static inline void put_op(compiler *c, uint8_t op)
{
    pk_op(&c->pk, op);
}

static inline void put1(compiler *c, uint8_t op, uint32_t v)
{
    pk1(&c->pk, op, v);
}

static void put_n(compiler *c, uint8_t op, const uint32_t *p, unsigned n)
{
    put_op(c, op);
    memcpy(c->pk.out, p, n * sizeof *p);
    c->pk.out += n;
}

/* ---- matrices (draw.c's mult_bone / select_mtx / build_matrices) ---- */

static void mult_bone(compiler *c, unsigned id)
{
    if (c->o->base_scaled) {
        if (!id) return;
        uint32_t one[3] = {1, 1, 1};
        put_n(c, T3OP_MTX_SCALE, one, 3);
    }
    const t3dm_pose *pose = c->o->pose;
    if (id && pose && id - 1 < pose->num_bones) {
        t3dm_drawlist *dl = c->dl;
        if (dl->num_patches == dl->patch_cap) {
            size_t cap = dl->patch_cap ? dl->patch_cap * 2 : 16;
            t3dm_patch *p = realloc(dl->patches, cap * sizeof *p);
            if (!p) {
                c->full = true;
                return;
            }
            dl->patches = p;
            dl->patch_cap = cap;
        }
        uint32_t p[12];
        for (int i = 0; i < 12; i++) p[i] = (uint32_t)pose->matrix[id - 1][i];
        put_op(c, T3OP_MTX_MULT_4x3);
        dl->patches[dl->num_patches++] = (t3dm_patch){(size_t)(c->pk.out - dl->words), id - 1};
        memcpy(c->pk.out, p, sizeof p);
        c->pk.out += 12;
    }
    uint32_t s[3] = {T3DM_POS_SCALE, T3DM_POS_SCALE, T3DM_POS_SCALE};
    put_n(c, T3OP_MTX_SCALE, s, 3);
}

static void select_mtx(compiler *c, unsigned id)
{
    if (c->slot_of[id]) {
        put1(c, T3OP_MTX_RESTORE, c->slot_of[id]);
    } else {
        put1(c, T3OP_MTX_RESTORE, 0);
        mult_bone(c, id);
    }
    c->cur_mtx = (int)id;
}

static bool build_matrices(compiler *c)
{
    const t3dm_model *m = c->m;
    bool bones = false;
    for (uint32_t oi = 0; oi < m->num_objects && !bones; oi++)
        for (unsigned p = 0; p < m->objects[oi].num_parts; p++)
            bones = bones || m->objects[oi].parts[p].matrix != 0xFFFF;
    if (!room(c, STEP_WORDS)) return false;
    if (!bones) {
        mult_bone(c, 0);
        c->cur_mtx = 0;
        return false;
    }
    put1(c, T3OP_MTX_MODE, 2);
    put1(c, T3OP_MTX_STORE, 0);
    unsigned next = 1;
    for (uint32_t oi = 0; oi < m->num_objects; oi++) {
        if (c->o->object >= 0 && (int)oi != c->o->object) continue;
        const t3dm_object *ob = &m->objects[oi];
        for (unsigned p = 0; p < ob->num_parts && next < T3DM_MTX_SLOTS; p++) {
            uint16_t mx = ob->parts[p].matrix;
            unsigned id = mx == 0xFFFF ? 0u : mx + 1u;
            if (c->slot_of[id]) continue;
            if (!room(c, STEP_WORDS)) return true;
            put1(c, T3OP_MTX_RESTORE, 0);
            mult_bone(c, id);
            put1(c, T3OP_MTX_STORE, next);
            c->slot_of[id] = (uint8_t)next++;
        }
    }
    c->cur_mtx = -1;
    return true;
}

/* ---- vertices ---- */

/* A vertex's words under the current material (draw.c's emit). */
typedef struct vwords {
    uint32_t color, nrm, tex, v0, v1;
} vwords;

enum { TEX_NONE, TEX_FAST, TEX_CLAMP };

/* The loads are 32-bit big-endian where two fields sit side by side (x y, s t). `lit` and
 * `tm` are the material's (constants where the strip loop is specialised). */
T3DM_HOT void convert_v(compiler *c, uint32_t voff, vwords *o, bool lit, int tm)
{
    /* a pair of vertices is 32 bytes: position + normal of each (8 bytes), then RGBA of each,
     * then S T of each; q is the pair's start plus 4 for the second one */
    uint32_t b4 = (voff >> 2) & 4u;
    const uint8_t *q = c->verts + (voff & ~31u) + b4;
    const uint8_t *pos = q + b4;
    uint32_t rgb = t3dm_be32(q + 16) >> 8;
    if (rgb != c->rgb_raw) { /* runs of one colour are the rule */
        uint32_t col =
            ((rgb >> 19) & 31u) | (((rgb >> 11) & 31u) << 5) | (((rgb >> 3) & 31u) << 10);
        c->rgb_raw = rgb;
        c->rgb_col = lit ? col | (((col >> 1) & 0x3DEFu) << 16) : col;
    }
    o->color = c->rgb_col;
    o->nrm = o->tex = 0; /* unused without light / texture */
    uint32_t xy = t3dm_be32(pos), zn = t3dm_be32(pos + 4);
    if (lit) o->nrm = c->nrmx[(zn >> 11) & 31u] | c->nrmy[(zn >> 5) & 63u] | c->nrmz[zn & 31u];
    if (tm == TEX_FAST) {
        /* shift 0 and |low| <= 2^14: (st >> 1) - low stays inside s16, t3dm_texc's clamp
         * never acts; an arithmetic shift by 17 of the half in the top bits is its sign
         * extension shifted by 1 */
        uint32_t w = t3dm_be32(q + 24);
        int32_t s0 = dsgx_asr32((int32_t)w, 17) - c->ax[0].low16;
        int32_t t0 = dsgx_asr32((int32_t)(w << 16), 17) - c->ax[1].low16;
        o->tex = ((uint32_t)s0 & 0xFFFFu) | ((uint32_t)t0 << 16);
    } else if (tm == TEX_CLAMP) {
        o->tex = ((uint32_t)t3dm_texc(&c->ax[0], (int16_t)t3dm_be16(q + 24)) & 0xFFFFu) |
                 ((uint32_t)t3dm_texc(&c->ax[1], (int16_t)t3dm_be16(q + 26)) << 16);
    }
    o->v0 = (xy >> 16) | (xy << 16);
    o->v1 = zn >> 16;
}

static int tex_mode(const compiler *c)
{
    return !c->textured ? TEX_NONE : c->tex_fast ? TEX_FAST : TEX_CLAMP;
}

/* A slot's words, converted at most once per material epoch (index lists reuse slots). */
T3DM_HOT void convert(compiler *c, cslot *sl)
{
    vwords w;
    convert_v(c, sl->voff, &w, c->lit, tex_mode(c));
    sl->color = w.color;
    sl->nrm = w.nrm;
    sl->tex = w.tex;
    sl->v0 = w.v0;
    sl->v1 = w.v1;
    sl->epoch = c->epoch;
}

/* A matrix switch in front of a vertex goes through c->pk (select_mtx is not inlined). The
 * packer goes in and out by value: a loop whose packer's address is never taken keeps it in
 * registers. */
T3DM_HOT packer switch_mtx(compiler *c, packer k, unsigned id)
{
    c->pk = k;
    select_mtx(c, id);
    return c->pk;
}

/* NORMAL, TEXCOORD, VTX_16 (a lit, textured vertex of the last colour: most strip vertices)
 * in one step: what pk1, pk1, pk_op and the two VTX_16 words write, for each position the
 * first command can take in its word (sh is 8, 16, 24 or 32 between commands). */
T3DM_HOT bool pk_ntv(packer *k, const vwords *w)
{
    enum { N = T3OP_NORMAL, T = T3OP_TEXCOORD, V = T3OP_VTX_16 };
    uint32_t *o = k->out;
    switch (k->sh) {
    case 32: /* N T V open a word */
        k->cmd = o;
        k->cmdval = N | T << 8 | V << 16;
        o[0] = k->cmdval;
        o[1] = w->nrm;
        o[2] = w->tex;
        k->out = o + 3;
        k->sh = 24;
        break;
    case 24: /* N closes the word, T V open the next */
        *k->cmd = k->cmdval |= (uint32_t)N << 24;
        o[0] = w->nrm;
        k->cmd = o + 1;
        k->cmdval = T | V << 8;
        o[1] = k->cmdval;
        o[2] = w->tex;
        k->out = o + 3;
        k->sh = 16;
        break;
    case 16: /* N T close the word, V opens the next */
        *k->cmd = k->cmdval |= (uint32_t)N << 16 | (uint32_t)T << 24;
        o[0] = w->nrm;
        o[1] = w->tex;
        k->cmd = o + 2;
        k->cmdval = V;
        o[2] = V;
        k->out = o + 3;
        k->sh = 8;
        break;
    case 8: /* N T V close the word */
        *k->cmd = k->cmdval |= (uint32_t)N << 8 | (uint32_t)T << 16 | (uint32_t)V << 24;
        o[0] = w->nrm;
        o[1] = w->tex;
        k->out = o + 2;
        k->sh = 32;
        break;
    default: return false;
    }
    k->out[0] = w->v0;
    k->out[1] = w->v1;
    k->out += 2;
    return true;
}

/* One vertex's commands into the packer k (a local copy of c->pk). */
T3DM_HOT void pack_v(uint32_t *last_color, packer *k, const vwords *w, bool lit, bool tex)
{
    if (lit && tex && w->color == *last_color && pk_ntv(k, w)) return;
    if (lit) {
        if (w->color != *last_color) pk1(k, T3OP_DIF_AMB, w->color);
        pk1(k, T3OP_NORMAL, w->nrm);
    } else if (w->color != *last_color) {
        pk1(k, T3OP_COLOR, w->color);
    }
    *last_color = w->color;
    if (tex) pk1(k, T3OP_TEXCOORD, w->tex);
    pk_op(k, T3OP_VTX_16);
    k->out[0] = w->v0;
    k->out[1] = w->v1;
    k->out += 2;
}

T3DM_HOT void emit_k(compiler *c, packer *k, cslot *sl)
{
    if (c->cur_mtx != (int)sl->mtx) *k = switch_mtx(c, *k, sl->mtx);
    if (sl->epoch != c->epoch) convert(c, sl);
    vwords w = {sl->color, sl->nrm, sl->tex, sl->v0, sl->v1};
    pack_v(&c->last_color, k, &w, c->lit, c->textured);
}

static inline void emit(compiler *c, unsigned s)
{
    packer k = c->pk;
    emit_k(c, &k, &c->cache[s]);
    c->pk = k;
}

static void tri(compiler *c, unsigned a, unsigned b, unsigned d)
{
    if (!c->cache[a].valid || !c->cache[b].valid || !c->cache[d].valid) return;
    emit(c, a);
    emit(c, b);
    emit(c, d);
    c->tris++;
}

static void begin(compiler *c, uint32_t prim)
{
    put1(c, T3OP_BEGIN_VTXS, prim);
}

/* ---- materials and parts (draw.c's set_material / set_attr / draw_strip / draw_part) ---- */

static void set_material(compiler *c, const t3dm_material *mt, const t3dm_texbind *tb)
{
    c->lit = !(mt->draw_flags & T3DM_FLAG_NO_LIGHT);
    c->textured = tb && tb->bound;
    c->last_color = 0xFFFFFFFFu;
    c->rgb_raw = 0xFFFFFFFFu; /* never a 24-bit RGB */
    c->epoch++;
    uint32_t ti = 0;
    if (c->textured) ti = t3dm_material_teximage(mt, tb, c->ax);
    c->tex_fast = c->textured;
    for (int k = 0; k < 2; k++)
        c->tex_fast =
            c->tex_fast && !c->ax[k].shift && c->ax[k].low16 >= -16384 && c->ax[k].low16 <= 16384;
    if (!room(c, STEP_WORDS)) return;
    if (!c->have_tex || ti != c->teximage) put1(c, T3OP_TEXIMAGE_PARAM, ti);
    c->teximage = ti;
    c->have_tex = true;
    if (c->textured && tb->has_palette && (!c->have_pltt || c->pltt != tb->pltt_base)) {
        put1(c, T3OP_PLTT_BASE, tb->pltt_base);
        c->pltt = tb->pltt_base;
        c->have_pltt = true;
    }
}

static void set_attr(compiler *c, const t3dm_material *mt, const t3dm_part *p)
{
    unsigned amin = 255;
    if (mt->blend_mode) {
        const uint8_t *ix = c->m->data + c->m->index_chunk + p->index_offset;
        for (unsigned i = 0; i < p->num_indices; i++) {
            const cslot *s = &c->cache[ix[i]];
            if (!s->valid) continue;
            t3dm_vertex v;
            t3dm_vertex_get(c->m, s->voff, &v);
            if (v.rgba[3] < amin) amin = v.rgba[3];
        }
    }
    uint32_t attr = t3dm_part_attr(mt, c->lit, c->o->light_mask, amin);
    if (!c->have_attr || attr != c->poly_attr) put1(c, T3OP_POLYGON_ATTR, attr);
    c->poly_attr = attr;
    c->have_attr = true;
}

/* A strip whose slots are all loaded goes out as GX strips (draw.c's draw_strip, "all"
 * case): BEGIN_VTXS at the start and at each restart, every index a vertex. Written
 * optimistically; at the first unloaded slot everything it did is undone (words, command
 * word, matrix, colour, patches, count) and it returns false for the list fallback. */
T3DM_HOT bool strip_all_k(compiler *c, const uint8_t *p, unsigned n, bool lit, int tm)
{
    packer k = c->pk, saved = c->pk;
    int cur_mtx = c->cur_mtx;
    uint32_t last_color = c->last_color;
    size_t patches = c->dl->num_patches;
    unsigned segs = 1;
    int cur = cur_mtx;
    uint32_t color = last_color, epoch = c->epoch;
    pk1(&k, T3OP_BEGIN_VTXS, T3PRIM_STRIP);
    for (unsigned i = 0; i < n; i++) {
        uint32_t v = t3dm_be16(p + 2 * i);
        cslot *sl = &c->cache[v & 0x7FFFu];
        if (!sl->valid) {
            c->pk = saved;
            if (saved.sh < 32) *saved.cmd = saved.cmdval;
            c->cur_mtx = cur_mtx;
            c->last_color = last_color;
            c->dl->num_patches = patches;
            return false;
        }
        /* a restart: the reader keeps them off the first index and out of first triangles,
         * so each segment has at least 3 indices and makes its count less 2 triangles */
        if ((v & 0x8000u) && i) {
            pk1(&k, T3OP_BEGIN_VTXS, T3PRIM_STRIP);
            segs++;
        }
        if (cur != (int)sl->mtx) {
            k = switch_mtx(c, k, sl->mtx);
            cur = c->cur_mtx;
        }
        vwords w;
        if (sl->epoch == epoch) /* converted for an earlier list */
            w = (vwords){sl->color, sl->nrm, sl->tex, sl->v0, sl->v1};
        else /* strips use a slot about once: convert without caching */
            convert_v(c, sl->voff, &w, lit, tm);
        pack_v(&color, &k, &w, lit, tm != TEX_NONE);
    }
    c->pk = k;
    c->last_color = color;
    c->tris += n - 2 * segs;
    return true;
}

/* The common material kinds get a loop of their own (the flags become constants). */
static bool strip_all(compiler *c, const uint8_t *p, unsigned n)
{
    int tm = tex_mode(c);
    if (c->lit && tm == TEX_FAST) return strip_all_k(c, p, n, true, TEX_FAST);
    if (c->lit && tm == TEX_NONE) return strip_all_k(c, p, n, true, TEX_NONE);
    if (!c->lit && tm == TEX_FAST) return strip_all_k(c, p, n, false, TEX_FAST);
    if (!c->lit && tm == TEX_NONE) return strip_all_k(c, p, n, false, TEX_NONE);
    return strip_all_k(c, p, n, c->lit, tm);
}

/* The list fallback (draw.c's draw_strip when a slot is not loaded): triangle k of a segment
 * is (a, b, s) for even k and (b, a, s) for odd k; triangles with an unloaded slot are
 * dropped. */
static void strip_list(compiler *c, const uint8_t *p, unsigned n)
{
    unsigned a = 0, b = 0, k = 0;
    for (unsigned i = 0; i < n; i++) {
        uint16_t v = t3dm_be16(p + 2 * i);
        unsigned s = v & 0x7FFFu;
        if (i == 0 || (v & 0x8000u)) {
            unsigned s1 = t3dm_be16(p + 2 * (i + 1)) & 0x7FFFu;
            unsigned s2 = t3dm_be16(p + 2 * (i + 2)) & 0x7FFFu;
            if (i) begin(c, T3PRIM_TRIANGLES);
            tri(c, s, s1, s2);
            a = s1;
            b = s2;
            k = 1;
            i += 2;
            continue;
        }
        tri(c, (k & 1) ? b : a, (k & 1) ? a : b, s);
        k++;
        a = b;
        b = s;
    }
}

static void draw_strip(compiler *c, uint32_t off, unsigned n)
{
    const uint8_t *p = c->m->data + off;
    if (!strip_all(c, p, n)) strip_list(c, p, n);
}

static void draw_part(compiler *c, const t3dm_material *mt, const t3dm_part *p)
{
    uint16_t mtx = p->matrix == 0xFFFF ? 0 : (uint16_t)(p->matrix + 1u);
    bool draws = p->num_indices || p->strip_count[0] || p->seq_count;
    for (unsigned i = 0; i < p->vert_count; i++) {
        cslot *s = &c->cache[p->vert_dest + i];
        s->valid = true;
        s->voff = p->vert_offset + 16u * i;
        s->mtx = mtx;
        s->epoch = 0;
    }
    if (!draws) return;
    /* the most the part can append: every index a vertex of a triangle of its own (the list
     * fallback of strips), each with a matrix rebuilt in front, a BEGIN_VTXS per index */
    size_t strip_idx = 0;
    for (int k = 0; k < 4; k++) strip_idx += p->strip_count[k];
    size_t verts = p->num_indices + 3u * p->seq_count + 3u * strip_idx;
    if (!room(c, verts * STEP_WORDS + 2 * strip_idx + STEP_WORDS)) return;
    set_attr(c, mt, p);
    if (p->num_indices || p->seq_count) {
        begin(c, T3PRIM_TRIANGLES);
        const uint8_t *ix = c->m->data + c->m->index_chunk + p->index_offset;
        for (unsigned i = 0; i + 2 < p->num_indices; i += 3) tri(c, ix[i], ix[i + 1], ix[i + 2]);
        for (unsigned t = 0; t < p->seq_count; t++) {
            unsigned b = p->seq_base + 3u * t;
            tri(c, b, b + 1, b + 2);
        }
    }
    for (int k = 0; k < 4 && p->strip_count[k]; k++)
        draw_strip(c, p->strip_offset[k], p->strip_count[k]);
}

/* ---- the list ---- */

static uint32_t pose_bones(const t3dm_draw_opts *o)
{
    return o->pose ? o->pose->num_bones : 0;
}

static bool same_binds(const t3dm_drawlist *dl, const t3dm_model *m, const t3dm_texbind *b)
{
    if (!b != !dl->binds) return false;
    for (uint32_t i = 0; b && i < m->num_materials; i++) {
        const t3dm_texbind *x = &dl->binds[i];
        if (x->bound != b[i].bound || x->teximage != b[i].teximage ||
            x->has_palette != b[i].has_palette || x->pltt_base != b[i].pltt_base)
            return false;
    }
    return true;
}

static bool key_matches(const t3dm_drawlist *dl, const t3dm_model *m, const t3dm_draw_opts *o)
{
    return dl->valid && dl->model == m && dl->data == m->data && dl->size == m->size &&
           dl->objects == m->objects && dl->object == o->object &&
           dl->light_mask == o->light_mask && dl->base_scaled == o->base_scaled &&
           dl->pose_bones == pose_bones(o) && same_binds(dl, m, o->binds);
}

static bool compile(t3dm_drawlist *dl, const t3dm_model *m, const t3dm_draw_opts *o)
{
    dl->valid = false;
    dl->num_words = dl->num_patches = 0;
    free(dl->binds);
    dl->binds = NULL;
    if (o->binds) {
        dl->binds = malloc((m->num_materials ? m->num_materials : 1u) * sizeof *dl->binds);
        if (!dl->binds) return false;
        memcpy(dl->binds, o->binds, m->num_materials * sizeof *dl->binds);
    }
    compiler *c = calloc(1, sizeof *c);
    uint8_t *slot_of = calloc(m->num_bones + 2u, 1);
    if (!c || !slot_of) {
        free(c);
        free(slot_of);
        return false;
    }
    c->m = m;
    c->o = o;
    c->dl = dl;
    c->pk.out = dl->words;
    c->verts = m->data + m->vert_chunk;
    c->pk.sh = 32;
    c->slot_of = slot_of;
    for (unsigned i = 0; i < 32; i++) {
        c->nrmx[i] = t3dm_nrm_comp(dsgx_sext(i, 5), 31);
        c->nrmz[i] = c->nrmx[i] << 20;
    }
    for (unsigned i = 0; i < 64; i++) c->nrmy[i] = t3dm_nrm_comp(dsgx_sext(i, 6), 63) << 10;
    if (room(c, STEP_WORDS)) put1(c, T3OP_SPE_EMI, 0);
    bool skinned = build_matrices(c);
    for (uint32_t oi = 0; oi < m->num_objects && !c->full; oi++) {
        if (o->object >= 0 && (int)oi != o->object) continue;
        const t3dm_object *ob = &m->objects[oi];
        const t3dm_material *mt = &m->materials[ob->material];
        set_material(c, mt, o->binds ? &o->binds[ob->material] : NULL);
        for (unsigned p = 0; p < ob->num_parts && !c->full; p++) draw_part(c, mt, &ob->parts[p]);
    }
    if (skinned && room(c, STEP_WORDS)) put1(c, T3OP_MTX_RESTORE, 0);
    bool ok = !c->full;
    if (ok) dl->num_words = (size_t)(c->pk.out - dl->words);
    dl->tris = c->tris;
    free(slot_of);
    free(c);
    if (!ok) return false;
    dl->valid = true;
    dl->model = m;
    dl->data = m->data;
    dl->size = m->size;
    dl->objects = m->objects;
    dl->object = o->object;
    dl->light_mask = o->light_mask;
    dl->base_scaled = o->base_scaled;
    dl->pose_bones = pose_bones(o);
    return true;
}

/* Straight into the engine when the sink is the engine's own (nitro_gx_engine_sink): the same
 * words in the same order as its gx_write32 calls, by runs between the patches. */
static void replay_gx(const t3dm_drawlist *dl, const t3dm_pose *pose, gx_engine *gx)
{
    size_t i = 0;
    for (size_t k = 0; k < dl->num_patches; k++) {
        const t3dm_patch *p = &dl->patches[k];
        uint32_t mtx[12];
        for (int j = 0; j < 12; j++) mtx[j] = (uint32_t)pose->matrix[p->bone][j];
        gx_write_gxfifo(gx, dl->words + i, p->at - i);
        gx_write_gxfifo(gx, mtx, 12);
        i = p->at + 12;
    }
    gx_write_gxfifo(gx, dl->words + i, dl->num_words - i);
}

static void replay(const t3dm_drawlist *dl, const t3dm_pose *pose, const nitro_gx_sink *sink)
{
    if (sink->write == nitro_gx_engine_sink(NULL).write) {
        replay_gx(dl, pose, sink->user);
        return;
    }
    void (*wr)(void *, uint32_t, uint32_t, unsigned) = sink->write;
    void *u = sink->user;
    const uint32_t *w = dl->words;
    size_t i = 0;
    for (size_t k = 0; k < dl->num_patches; k++) {
        const t3dm_patch *p = &dl->patches[k];
        for (; i < p->at; i++) wr(u, REG_GXFIFO, w[i], 4);
        for (int j = 0; j < 12; j++) wr(u, REG_GXFIFO, (uint32_t)pose->matrix[p->bone][j], 4);
        i += 12;
    }
    for (; i + 4 <= dl->num_words; i += 4) {
        wr(u, REG_GXFIFO, w[i], 4);
        wr(u, REG_GXFIFO, w[i + 1], 4);
        wr(u, REG_GXFIFO, w[i + 2], 4);
        wr(u, REG_GXFIFO, w[i + 3], 4);
    }
    for (; i < dl->num_words; i++) wr(u, REG_GXFIFO, w[i], 4);
}

void t3dm_drawlist_init(t3dm_drawlist *dl)
{
    memset(dl, 0, sizeof *dl);
}

void t3dm_drawlist_free(t3dm_drawlist *dl)
{
    free(dl->words);
    free(dl->patches);
    free(dl->binds);
    memset(dl, 0, sizeof *dl);
}

unsigned t3dm_drawlist_draw(t3dm_drawlist *dl, const t3dm_model *m, const t3dm_draw_opts *o,
                            const nitro_gx_sink *sink)
{
    if (!key_matches(dl, m, o)) {
        dl->compiles++;
        if (!compile(dl, m, o)) return t3dm_draw_walk(m, o, sink);
    }
    replay(dl, o->pose, sink);
    return dl->tris;
}

unsigned t3dm_draw(const t3dm_model *m, const t3dm_draw_opts *o, const nitro_gx_sink *sink)
{
    t3dm_drawlist dl;
    t3dm_drawlist_init(&dl);
    unsigned tris = t3dm_drawlist_draw(&dl, m, o, sink);
    t3dm_drawlist_free(&dl);
    return tris;
}
