/*
 * polygon.c - a completed polygon on its way into polygon RAM: culling, strip vertex sharing,
 * clipping, RAM limits, the viewport transform, 1-dot rejection, and the per-polygon values the
 * rendering engine reads (W normalization, depth, bounds, sort key).
 *
 * Hardware notes (GBATEK "DS 3D Polygon Attributes" / "Disp 1dot depth" for behaviour; exact
 * arithmetic from melonDS GPU3D.cpp SubmitPolygon, which our frames must match):
 * - Culling: the normal of (v0 - v1) x (v2 - v1) over the (x, y, w) clip coordinates, each
 *   component brought into 32 bits by shifting all three right by 4 until they fit, dotted with
 *   v1. dot < 0 is front-facing (drawn with POLYGON_ATTR bit 7), dot > 0 back-facing (bit 6),
 *   dot == 0 always drawn and counted as front-facing. How the hardware normalizes is a guess
 *   of melonDS's; only the first three vertices of a quad take part.
 * - Strips share vertex RAM: a strip polygon reuses the two vertices it shares with the previous
 *   polygon when that polygon was stored with its original vertex count and those two vertices
 *   were not made by the clipper; otherwise it is stored as a separate polygon ("if a shared
 *   vertex in a strip is clipped, affected polygons are converted into single polygons"). A
 *   culled, clipped-away or rejected polygon breaks the chain. Reused vertices are not clipped
 *   again. If clipping changes the vertex count, copies of the two shared vertices are stored.
 * - RAM: 2048 polygons, 6144 vertices; a polygon that does not fit (checked with its full
 *   clipped vertex count) is dropped and DISP3DCNT bit 13 is set (GBATEK).
 * - 1-dot polygons: when every vertex lands on the same screen pixel and every W exceeds the
 *   DISP_1DOT_DEPTH limit (val * 0x200 + 0x1FF), the polygon is dropped unless POLYGON_ATTR bit
 *   13 is set.
 * - W is normalized per polygon to 16 bits in steps of 4 bits, both ways; depth is W (W-buffer,
 *   the W bit of the SWAP_BUFFERS before the polygon was submitted) or
 *   ((z * 0x4000 / w) + 0x3FFF) * 0x200 clamped to 0..0xFFFFFF (Z-buffer; 0x7FFE00 for w = 0).
 * - Colours reach the rasterizer as 9 bits: 0 stays 0, else (c5 << 4) | 0xF.
 * - Translucent: alpha 1..30, or an A3I5/A5I3 texture in a mode other than decal/shadow.
 *   Shadow mask: mode 3 with polygon ID 0; shadow: mode 3 with another ID.
 * - Degenerate (not drawn by the rasterizer): a vertex with W = 0 (after the 24-bit truncation)
 *   or a bottom Y beyond 192.
 */
#include <stddef.h>
#include <string.h>

#include "gx/gx_internal.h"

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#include <emmintrin.h>
#endif

static int32_t sub32(int32_t a, int32_t b)
{
    return (int32_t)((uint32_t)a - (uint32_t)b);
}

static bool fits32(int64_t v)
{
    return v >= INT32_MIN && v <= INT32_MAX;
}

/* The winding test over three clip positions: < 0 front-facing, > 0 back-facing. Inline: the
 * direct stores call it per polygon. */
static GX_ALWAYS_INLINE int64_t facing_dot(const int32_t *c0, const int32_t *c1, const int32_t *c2)
{
    int64_t ax = sub32(c0[0], c1[0]), ay = sub32(c0[1], c1[1]);
    int64_t aw = sub32(c0[3], c1[3]);
    int64_t bx = sub32(c2[0], c1[0]), by = sub32(c2[1], c1[1]);
    int64_t bw = sub32(c2[3], c1[3]);
    int64_t nx = ay * bw - aw * by;
    int64_t ny = aw * bx - ax * bw;
    int64_t nz = ax * by - ay * bx;

    while (!fits32(nx) || !fits32(ny) || !fits32(nz)) {
        nx = dsgx_asr64(nx, 4);
        ny = dsgx_asr64(ny, 4);
        nz = dsgx_asr64(nz, 4);
    }
    /* the sum can exceed 63 bits for extreme inputs: wrap it as the reference does */
    uint64_t dot = (uint64_t)dsgx_mul64(c1[0], (int32_t)nx) +
                   (uint64_t)dsgx_mul64(c1[1], (int32_t)ny) +
                   (uint64_t)dsgx_mul64(c1[3], (int32_t)nz);
    return (int64_t)dot;
}

/* Tell the polygon hook about a polygon that did not reach RAM. */
static void report_rejected(gx_engine *gx, enum gx_poly_fate fate, const gx_vertex *v, int n)
{
    gx_geom_state *g = &gx->geom;
    gx_polygon tmp;

    g->poly_rejected = true;
    g->last_strip_poly = -1;
    if (!gx->hooks.polygon) return;
    memset(&tmp, 0, sizeof(tmp));
    tmp.nverts = (uint8_t)n;
    for (int i = 0; i < n; i++) tmp.vtx[i] = (uint16_t)i;
    tmp.prim = (uint8_t)g->prim_type;
    tmp.attr = g->cur_polygon_attr;
    tmp.teximage = g->teximage;
    tmp.pltt_base = g->pltt_base;
    gx->hooks.polygon(gx->hooks.user, gx, fate, &tmp, v);
}

static uint16_t color9(int32_t color5)
{
    uint32_t c = (uint32_t)color5 >> 12;
    return (uint16_t)(((c << 4) | 0xFu) & (0u - (uint32_t)(c != 0))); /* c ? c << 4 | 0xF : 0 */
}

static bool is_one_dot(const gx_geom_state *g, const gx_vertex *v, int n)
{
    for (int i = 0; i < n; i++) {
        if (v[i].sx != v[0].sx || v[i].sy != v[0].sy) return false;
        if ((uint32_t)v[i].clip[3] <= g->dot_w_limit) return false;
    }
    return true;
}

/* is_one_dot for vertices in RAM, given by index. */
static bool is_one_dot_at(const gx_geom_state *g, const gx_vertex *ram, const uint16_t *idx, int n)
{
    const gx_vertex *v0 = &ram[idx[0]];
    for (int i = 0; i < n; i++) {
        const gx_vertex *v = &ram[idx[i]];
        if (v->sx != v0->sx || v->sy != v0->sy) return false;
        if ((uint32_t)v->clip[3] <= g->dot_w_limit) return false;
    }
    return true;
}

/* Bounds, sort key, W normalization and depth of a stored polygon. */
static void finish_polygon(const gx_geom_state *g, gx_polygon *p, const gx_vertex *ram)
{
    uint32_t vtop = 0, vbot = 0, wbits = 0;
    int32_t ytop = 192, ybot = 0, xtop = 256, xbot = 0;

    for (uint32_t i = 0; i < p->nverts; i++) {
        const gx_vertex *v = &ram[p->vtx[i]];
        if (v->sy < ytop) {
            xtop = v->sx;
            ytop = v->sy;
            vtop = i;
        }
        if (v->sy > ybot || (v->sy == ybot && v->sx > xbot)) {
            xbot = v->sx;
            ybot = v->sy;
            vbot = i;
        }
        uint32_t w = (uint32_t)v->clip[3];
        if (w == 0) p->degenerate = true;
        wbits |= w;
    }
    /* W's size: the fewest multiple of 4 bits holding every vertex's W (as an unsigned
     * 32-bit number), i.e. the bit length of their OR rounded up to 4 */
    uint32_t wsize = wbits ? (32u - (uint32_t)__builtin_clz(wbits) + 3u) & ~3u : 0u;
    p->vtop = (uint8_t)vtop;
    p->vbottom = (uint8_t)vbot;
    p->ytop = ytop;
    p->ybottom = ybot;
    p->xtop = xtop;
    p->xbottom = xbot;
    if (ybot > 192) p->degenerate = true;
    p->sort_key = ((uint32_t)ybot << 8) | (uint32_t)ytop | (p->translucent ? 0x10000u : 0u);
    p->wbuffer = g->wbuffer;
    p->wshift = (uint8_t)wsize;

    for (uint32_t i = 0; i < p->nverts; i++) {
        const gx_vertex *v = &ram[p->vtx[i]];
        int32_t w, wshifted, z;
        if (wsize < 16) {
            w = dsgx_shl32(v->clip[3], 16 - wsize);
            wshifted = dsgx_asr32(w, 16 - wsize);
        } else {
            w = dsgx_asr32(v->clip[3], wsize - 16);
            wshifted = dsgx_shl32(w, wsize - 16);
        }
        if (g->wbuffer)
            z = wshifted;
        else if (v->clip[3] != 0)
            z = dsgx_wrap32((dsgx_mul64(v->clip[2], 0x4000) / v->clip[3] + 0x3FFF) * 0x200);
        else
            z = 0x7FFE00;
        p->z[i] = dsgx_clamp(z, 0, 0xFFFFFF);
        p->w[i] = w;
    }
}

static void fill_attributes(const gx_geom_state *g, gx_polygon *p, bool front)
{
    uint32_t attr = g->cur_polygon_attr;
    uint32_t fmt = teximage_format(g->teximage);
    uint32_t alpha = polyattr_alpha(attr);
    uint32_t mode = polyattr_mode(attr);

    p->prim = (uint8_t)g->prim_type;
    p->attr = attr;
    p->teximage = g->teximage;
    p->pltt_base = g->pltt_base;
    p->facing_front = front;
    p->translucent =
        ((fmt == TEXFMT_A3I5 || fmt == TEXFMT_A5I3) && !(mode & 1u)) || (alpha > 0 && alpha < 31);
    p->shadow_mask = mode == POLYMODE_SHADOW && polyattr_id(attr) == 0;
    p->shadow = mode == POLYMODE_SHADOW && !p->shadow_mask;
}

/* The vertices a polygon is clipped from: the reused strip vertices (from vertex RAM), then the
 * new ones (g->buf). */
static void gather(const gx_engine *gx, gx_vertex *work, int nverts, int clipstart,
                   const uint16_t reused[2])
{
    for (int i = 0; i < clipstart; i++) work[i] = gx->build->verts[reused[i]];
    for (int i = clipstart; i < nverts; i++) work[i] = gx->geom.buf[i];
}

/* A polygon's slot in polygon RAM, attributes filled. */
static gx_polygon *new_polygon(gx_engine *gx, int n, int64_t dot)
{
    gx_frame *f = gx->build;
    gx_polygon *p = &f->polys[f->npolys++];
    memset(p, 0, sizeof(*p));
    p->nverts = (uint8_t)n;
    fill_attributes(&gx->geom, p, dot <= 0);
    return p;
}

/* The polygon is in RAM (p, its vertices up to f->nverts): figures, strip chain, hook. */
static void polygon_stored(gx_engine *gx, gx_polygon *p)
{
    gx_geom_state *g = &gx->geom;
    gx_frame *f = gx->build;
    finish_polygon(g, p, f->verts);
    g->last_strip_poly = g->prim_type >= 2 ? (int32_t)(p - f->polys) : -1;
    if (gx->hooks.polygon) gx->hooks.polygon(gx->hooks.user, gx, GX_POLY_STORED, p, f->verts);
}

/* 9-bit rasterizer colour of an unclipped vertex's 5-bit channel: 0, or (c5 << 4) | 0xF. */
static const uint16_t color9_of_5[32] = {
    0,     0x01F, 0x02F, 0x03F, 0x04F, 0x05F, 0x06F, 0x07F, 0x08F, 0x09F, 0x0AF,
    0x0BF, 0x0CF, 0x0DF, 0x0EF, 0x0FF, 0x10F, 0x11F, 0x12F, 0x13F, 0x14F, 0x15F,
    0x16F, 0x17F, 0x18F, 0x19F, 0x1AF, 0x1BF, 0x1CF, 0x1DF, 0x1EF, 0x1FF,
};

/* The common case: no new vertex is outside the view volume, so the clipper would hand the list
 * back unchanged (gx_clip_polygon's fast path: its colour rounding leaves a submitted vertex's
 * (c5 << 12) | 0xFFF as it is). The new vertices go from g->buf straight into vertex RAM with
 * their screen position and colour, without the work copy; the outcome is the general path's
 * (unit.test_gx_polygon_diff compares the two). */
static void store_unclipped(gx_engine *gx, int n, int clipstart, const uint16_t reused[2],
                            int64_t dot)
{
    gx_geom_state *g = &gx->geom;
    gx_frame *f = gx->build;
    gx_vertex work[GX_MAX_POLY_VERTS];

    g->poly_nverts_clipped = (uint8_t)n;
    if (f->npolys >= GX_MAX_POLYGONS || f->nverts + (uint32_t)n > GX_MAX_VERTICES) {
        gx->disp3dcnt_status |= 1u << 13; /* DISP3DCNT bit 13: polygon/vertex RAM overflow */
        gather(gx, work, n, clipstart, reused);
        report_rejected(gx, GX_POLY_RAM_FULL, work, n);
        return;
    }

    /* the new vertices, written past the end of vertex RAM until the polygon is kept */
    gx_vertex *dst = &f->verts[f->nverts];
    uint32_t nv = f->nverts + (uint32_t)(n - clipstart);
    for (int i = clipstart; i < n; i++) {
        gx_vertex *v = &dst[i - clipstart];
        *v = g->buf[i];
        gx_viewport_transform(g, v);
        for (int k = 0; k < 3; k++) v->color[k] = color9_of_5[((uint32_t)v->color5[k] >> 12) & 31u];
    }

    uint16_t idx[GX_MAX_POLY_VERTS];
    for (int i = 0; i < clipstart; i++) idx[i] = reused[i];
    for (int i = clipstart; i < n; i++) idx[i] = (uint16_t)(f->nverts + (uint32_t)(i - clipstart));
    if (!polyattr_dot_always(g->cur_polygon_attr) && is_one_dot_at(g, f->verts, idx, n)) {
        for (int i = 0; i < n; i++) work[i] = f->verts[idx[i]];
        report_rejected(gx, GX_POLY_DOT_REJECTED, work, n);
        return;
    }

    gx_polygon *p = new_polygon(gx, n, dot);
    memcpy(p->vtx, idx, (size_t)n * sizeof(idx[0]));
    f->nverts = nv;
    polygon_stored(gx, p);
}

void gx_geom_submit_polygon(gx_engine *gx)
{
    gx_geom_state *g = &gx->geom;
    int nverts = (g->prim_type & 1u) ? 4 : 3;

    g->poly_completed = true;
    g->poly_rejected = false;
    g->poly_nverts_clipped = 0;

    int64_t dot = facing_dot(g->buf[0].clip, g->buf[1].clip, g->buf[2].clip);
    if (dot < 0 && !polyattr_front(g->cur_polygon_attr)) {
        report_rejected(gx, GX_POLY_CULLED_FRONT, g->buf, nverts);
        return;
    }
    if (dot > 0 && !polyattr_back(g->cur_polygon_attr)) {
        report_rejected(gx, GX_POLY_CULLED_BACK, g->buf, nverts);
        return;
    }
    gx_geom_submit_faced(gx, dot);
}

/* A strip polygon of @p n vertices (3: triangle strip, 4: quad strip) after the strip's last
 * stored polygon shares two of its vertex RAM entries (the odd triangles' order swapped, as the
 * polygon buffer's) unless that polygon had another vertex count (clipping changed its shape)
 * or either entry was made by the clipper. @return 2 with the two entries in @p shared, or 0
 * (none shared: every vertex is stored). */
static inline int strip_shared(const gx_geom_state *g, const gx_frame *f, int n, uint16_t shared[2])
{
    if (g->last_strip_poly < 0) return 0;
    const gx_polygon *prev = &f->polys[g->last_strip_poly];
    bool odd = (g->strip_polys & 1u) != 0;
    int id0 = n == 4 ? 3 : odd ? 2 : 0, id1 = n == 4 ? 2 : odd ? 1 : 2;
    if (prev->nverts != n || f->verts[prev->vtx[id0]].clipped || f->verts[prev->vtx[id1]].clipped)
        return 0;
    shared[0] = prev->vtx[id0];
    shared[1] = prev->vtx[id1];
    return 2;
}

void gx_geom_submit_faced(gx_engine *gx, int64_t dot)
{
    gx_geom_state *g = &gx->geom;
    gx_frame *f = gx->build;
    gx_vertex work[GX_MAX_POLY_VERTS];
    int nverts = (g->prim_type & 1u) ? 4 : 3;
    uint16_t reused[2] = {0, 0};
    int clipstart = g->prim_type >= 2 ? strip_shared(g, f, nverts, reused) : 0;

    bool inside = true;
    for (int i = clipstart; i < nverts; i++) inside = inside && gx_clip_inside(&g->buf[i]);
    if (inside) {
        store_unclipped(gx, nverts, clipstart, reused, dot);
        return;
    }

    gather(gx, work, nverts, clipstart, reused);
    int n = gx_clip_polygon(work, nverts, clipstart, true, polyattr_far_clip(g->cur_polygon_attr));
    g->poly_nverts_clipped = (uint8_t)n;
    if (n == 0) {
        report_rejected(gx, GX_POLY_CLIPPED_AWAY, work, 0);
        return;
    }

    if (f->npolys >= GX_MAX_POLYGONS || f->nverts + (uint32_t)n > GX_MAX_VERTICES) {
        gx->disp3dcnt_status |= 1u << 13; /* DISP3DCNT bit 13: polygon/vertex RAM overflow */
        report_rejected(gx, GX_POLY_RAM_FULL, work, n);
        return;
    }

    for (int i = clipstart; i < n; i++) gx_viewport_transform(g, &work[i]);

    if (!polyattr_dot_always(g->cur_polygon_attr) && is_one_dot(g, work, n)) {
        report_rejected(gx, GX_POLY_DOT_REJECTED, work, n);
        return;
    }

    gx_polygon *p = new_polygon(gx, n, dot);
    if (clipstart > 0) {
        if (n == nverts) {
            p->vtx[0] = reused[0];
            p->vtx[1] = reused[1];
        } else { /* clipping changed the shape: the shared vertices are stored again */
            for (int k = 0; k < 2; k++) {
                f->verts[f->nverts] = work[k];
                p->vtx[k] = (uint16_t)f->nverts++;
            }
        }
    }
    for (int i = clipstart; i < n; i++) {
        gx_vertex *v = &f->verts[f->nverts];
        *v = work[i];
        for (int k = 0; k < 3; k++) v->color[k] = color9(v->color5[k]);
        p->vtx[i] = (uint16_t)f->nverts++;
    }
    polygon_stored(gx, p);
}

void gx_geom_polygon_template(const gx_geom_state *g, gx_polygon *p)
{
    memset(p, 0, sizeof(*p));
    fill_attributes(g, p, false);
    p->wbuffer = g->wbuffer;
}

/* Whether every one of @p n clip positions is inside the view volume (gx_clip_inside_pos). */
static GX_ALWAYS_INLINE bool all_inside(const int32_t (*clip)[4], const int n)
{
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
    int out = 0;
    for (int i = 0; i < n; i++) { /* x, y, z > w or < -w (32-bit signed, -w wrapping) */
        __m128i c = _mm_loadu_si128((const __m128i *)clip[i]);
        __m128i w = _mm_shuffle_epi32(c, _MM_SHUFFLE(3, 3, 3, 3));
        __m128i nw = _mm_sub_epi32(_mm_setzero_si128(), w);
        out |= _mm_movemask_epi8(_mm_or_si128(_mm_cmpgt_epi32(c, w), _mm_cmpgt_epi32(nw, c)));
    }
    return (out & 0x0FFF) == 0; /* (lane 3, W against itself, is not a test) */
#else
    bool inside = true;
    for (int i = 0; i < n; i++) inside &= gx_clip_inside_pos(clip[i]);
    return inside;
#endif
}

/* A submitted vertex into vertex RAM with its screen position, as store_unclipped leaves it
 * (W masked to 24 bits, colours (c5 << 12) | 0xFFF and 9-bit, padding zero). Written in place,
 * never read back: a copy from a local vertex stalled on store forwarding (its fields written
 * in pieces, read back 16 bytes at a time). @p color packed (gx_unpack_color). */
static GX_ALWAYS_INLINE void put_vertex(gx_vertex *v, const int32_t clip[4], uint32_t color,
                                        const int16_t tex[2], int32_t sx, int32_t sy)
{
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
    /* gx_vertex as 52 bytes: clip | color5, texcoord | clipped + padding, sx, sy, color[0..1] |
     * color[2] + padding */
    _Static_assert(offsetof(gx_vertex, color5) == 16 && offsetof(gx_vertex, texcoord) == 28 &&
                       offsetof(gx_vertex, clipped) == 32 && offsetof(gx_vertex, sx) == 36 &&
                       offsetof(gx_vertex, sy) == 40 && offsetof(gx_vertex, color) == 44 &&
                       sizeof(gx_vertex) == 52,
                   "put_vertex's layout");
    const __m128i zero = _mm_setzero_si128();
    __m128i c = _mm_and_si128(_mm_loadu_si128((const __m128i *)clip),
                              _mm_set_epi32(0x00FFFFFF, -1, -1, -1));
    __m128i c16 = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)(color & 0x1F1F1Fu)), zero);
    __m128i c5 = _mm_or_si128(_mm_slli_epi32(_mm_unpacklo_epi16(c16, zero), 12),
                              _mm_set_epi32(0, 0xFFF, 0xFFF, 0xFFF));
    uint32_t st;
    memcpy(&st, tex, sizeof(st));
    c5 = _mm_or_si128(c5, _mm_slli_si128(_mm_cvtsi32_si128((int)st), 12));
    /* 9 bits: 0, or (c5 << 4) | 0xF */
    __m128i c9 = _mm_andnot_si128(_mm_cmpeq_epi16(c16, zero),
                                  _mm_or_si128(_mm_slli_epi16(c16, 4), _mm_set1_epi16(0xF)));
    __m128i mid = _mm_or_si128(_mm_set_epi32(0, sy, sx, 0), _mm_slli_si128(c9, 12));
    uint32_t tail = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(c9, 4)); /* color[2], 0 */
    char *d = (char *)v;
    _mm_storeu_si128((__m128i *)d, c);
    _mm_storeu_si128((__m128i *)(d + 16), c5);
    _mm_storeu_si128((__m128i *)(d + 32), mid);
    memcpy(d + 48, &tail, sizeof(tail));
#else
    uint32_t ck[3] = {color & 31u, (color >> 8) & 31u, (color >> 16) & 31u};
    memset(v, 0, sizeof(*v));
    v->clip[0] = clip[0];
    v->clip[1] = clip[1];
    v->clip[2] = clip[2];
    v->clip[3] = (int32_t)((uint32_t)clip[3] & 0x00FFFFFFu);
    for (int k = 0; k < 3; k++) {
        v->color5[k] = (int32_t)((ck[k] << 12) | 0xFFFu);
        v->color[k] = color9_of_5[ck[k]];
    }
    v->texcoord[0] = tex[0];
    v->texcoord[1] = tex[1];
    v->sx = sx;
    v->sy = sy;
#endif
}

/* The polygon entry of the direct stores (store_direct, store_strip) from @p tmpl, its vertices
 * @p idx in vertex RAM and their screen positions, 24-bit W and Z at hand: finish_polygon from
 * those values. */
static GX_ALWAYS_INLINE gx_polygon *new_direct_polygon(gx_engine *gx, const gx_polygon *tmpl,
                                                       int64_t dot, const uint16_t *idx,
                                                       const int32_t *sx, const int32_t *sy,
                                                       const uint32_t *w24, const int32_t *zc,
                                                       const int n)
{
    const gx_geom_state *g = &gx->geom;
    gx_frame *f = gx->build;
    gx_polygon *p = &f->polys[f->npolys++];
    /* the template but its last 20 bytes, ytop to sort_key, which are written below */
    _Static_assert(offsetof(gx_polygon, ybottom) == offsetof(gx_polygon, ytop) + 4 &&
                       offsetof(gx_polygon, xtop) == offsetof(gx_polygon, ytop) + 8 &&
                       offsetof(gx_polygon, xbottom) == offsetof(gx_polygon, ytop) + 12 &&
                       offsetof(gx_polygon, sort_key) == offsetof(gx_polygon, ytop) + 16 &&
                       sizeof(gx_polygon) == offsetof(gx_polygon, ytop) + 20,
                   "new_direct_polygon's copy");
    memcpy(p, tmpl, offsetof(gx_polygon, ytop));
    p->nverts = (uint8_t)n;
    p->facing_front = dot <= 0;
    for (int i = 0; i < n; i++) p->vtx[i] = idx[i];

    /* finish_polygon from the values at hand */
    uint32_t vtop = 0, vbot = 0, wbits = 0;
    int32_t ytop = 192, ybot = 0, xtop = 256, xbot = 0;
    for (int i = 0; i < n; i++) {
        if (sy[i] < ytop) {
            xtop = sx[i];
            ytop = sy[i];
            vtop = (uint32_t)i;
        }
        if (sy[i] > ybot || (sy[i] == ybot && sx[i] > xbot)) {
            xbot = sx[i];
            ybot = sy[i];
            vbot = (uint32_t)i;
        }
        wbits |= w24[i];
    }
    bool degenerate = ybot > 192;
    for (int i = 0; i < n; i++) degenerate |= w24[i] == 0;
    uint32_t wsize = wbits ? (32u - (uint32_t)__builtin_clz(wbits) + 3u) & ~3u : 0u;
    p->vtop = (uint8_t)vtop;
    p->vbottom = (uint8_t)vbot;
    p->ytop = ytop;
    p->ybottom = ybot;
    p->xtop = xtop;
    p->xbottom = xbot;
    p->degenerate = degenerate;
    p->sort_key = ((uint32_t)ybot << 8) | (uint32_t)ytop | (p->translucent ? 0x10000u : 0u);
    p->wshift = (uint8_t)wsize;
    for (int i = 0; i < n; i++) {
        int32_t w, wshifted, z, wi = (int32_t)w24[i];
        if (wsize < 16) {
            w = dsgx_shl32(wi, 16 - wsize);
            wshifted = dsgx_asr32(w, 16 - wsize);
        } else {
            w = dsgx_asr32(wi, wsize - 16);
            wshifted = dsgx_shl32(w, wsize - 16);
        }
        if (g->wbuffer)
            z = wshifted;
        else if (wi != 0)
            z = dsgx_wrap32((dsgx_mul64(zc[i], 0x4000) / wi + 0x3FFF) * 0x200);
        else
            z = 0x7FFE00;
        p->z[i] = dsgx_clamp(z, 0, 0xFFFFFF);
        p->w[i] = w;
    }
    return p;
}

/* How far ahead of the direct stores their RAM lines are fetched (write_ahead): about four
 * polygons of separate triangles (4 x 148 bytes of polygon RAM, 4 x 3 x 52 of vertex RAM). */
enum { AHEAD_BYTES = 640, LINE_BYTES = 64 };

/* The cache lines of polygon and vertex RAM the direct stores will write a few polygons on
 * (@p npolys, @p nverts: the RAMs' counts now), fetched ahead: the RAM being built was last
 * touched two frames ago (built, then read by the rendering engine) and is mostly out of the
 * cache, and the stores' misses (each a read for ownership) otherwise wait in the store buffer.
 * A hint only: it changes no state (the address may lie past the RAMs: a prefetch never
 * faults, and it is computed as an integer). Three lines each way, as a polygon entry (148
 * bytes) and a triangle's vertices (156) span up to three. bench/README.md, geo8: g_heavy_1's
 * geometry ~-7%. */
static GX_ALWAYS_INLINE void write_ahead(const gx_frame *f, uint32_t nverts, uint32_t npolys)
{
    uintptr_t v = (uintptr_t)f->verts + (uintptr_t)nverts * sizeof(gx_vertex) + AHEAD_BYTES;
    uintptr_t p = (uintptr_t)f->polys + (uintptr_t)npolys * sizeof(gx_polygon) + AHEAD_BYTES;
    for (int k = 0; k < 3; k++) {
        __builtin_prefetch((const void *)(v + (uintptr_t)k * LINE_BYTES), 1, 3);
        __builtin_prefetch((const void *)(p + (uintptr_t)k * LINE_BYTES), 1, 3);
    }
}

/* is_one_dot for the direct stores (store_direct, store_strip) from the values at hand (@p sx,
 * @p sy, 24-bit @p w24 of the @p n vertices): every vertex on vertex 0's pixel and beyond the
 * 1-dot depth, unless POLYGON_ATTR bit 13 (@p attr). The positions' differences are ORed and
 * tested once, a branch almost never taken: one test per vertex (sx[i] == sx[0] ...) went
 * either way on g_heavy_1, mispredicted (bench/README.md, geo10: paired wall ~0.96). */
static GX_ALWAYS_INLINE bool direct_one_dot(const gx_geom_state *g, uint32_t attr,
                                            const int32_t *sx, const int32_t *sy,
                                            const uint32_t *w24, const int n)
{
    uint32_t apart = 0, wmin = w24[0];
    for (int i = 1; i < n; i++) {
        apart |= (uint32_t)(sx[i] ^ sx[0]) | (uint32_t)(sy[i] ^ sy[0]);
        wmin = w24[i] < wmin ? w24[i] : wmin;
    }
    return apart == 0 && wmin > g->dot_w_limit && !polyattr_dot_always(attr);
}

/* The direct stores' start: the polygon complete, its winding test (*@p dot), and culling as
 * gx_geom_submit_polygon's (report_rejected without a hook). @return true when culled. */
static GX_ALWAYS_INLINE bool direct_culled(gx_geom_state *g, uint32_t attr, const int32_t *c0,
                                           const int32_t *c1, const int32_t *c2, int64_t *dot)
{
    g->poly_completed = true;
    g->poly_rejected = false;
    g->poly_nverts_clipped = 0;
    *dot = facing_dot(c0, c1, c2);
    if ((*dot < 0 && !polyattr_front(attr)) || (*dot > 0 && !polyattr_back(attr))) {
        g->poly_rejected = true;
        g->last_strip_poly = -1;
        return true;
    }
    return false;
}

/* The batch's separate triangles and quads (batch.c): the vertices come from the batch's arrays
 * rather than g->buf, and the polygon entry from a template made once per batch (its attributes,
 * translucency and shadow flags cannot change within a batch: POLYGON_ATTR latches at
 * BEGIN_VTXS, TEXIMAGE_PARAM and PLTT_BASE are not vertex commands). The outcome is
 * gx_geom_submit_polygon's unclipped one (the winding test, culling, store_unclipped,
 * finish_polygon); a polygon the clipper would change, or one that does not fit in RAM, goes
 * back to it. @p n is a constant in each instance (3, 4). unit.test_gx_batch compares the two. */
static GX_ALWAYS_INLINE bool store_direct(gx_engine *gx, const gx_polygon *tmpl,
                                          const int32_t (*clip)[4], const uint32_t *color,
                                          const int16_t (*tex)[2], const int n)
{
    gx_geom_state *g = &gx->geom;
    gx_frame *f = gx->build;
    uint32_t attr = g->cur_polygon_attr;

    int64_t dot;
    if (direct_culled(g, attr, clip[0], clip[1], clip[2], &dot)) return true;
    if (!all_inside(clip, n) || f->npolys >= GX_MAX_POLYGONS ||
        f->nverts + (uint32_t)n > GX_MAX_VERTICES)
        return false;

    /* as store_unclipped: the vertices written past the end of vertex RAM until the polygon is
     * kept */
    g->poly_nverts_clipped = (uint8_t)n;
    uint32_t base = f->nverts, nv = base + (uint32_t)n;
    gx_vertex *dst = &f->verts[base];
    write_ahead(f, base, f->npolys);
    int32_t sx[4], sy[4];
    uint32_t w24[4];
    for (int i = 0; i < n; i++) {
        w24[i] = (uint32_t)clip[i][3] & 0x00FFFFFFu;
        gx_viewport_xy(g, clip[i][0], clip[i][1], w24[i], &sx[i], &sy[i]);
        put_vertex(&dst[i], clip[i], color[i], tex[i], sx[i], sy[i]);
    }
    if (direct_one_dot(g, attr, sx, sy, w24, n)) {
        g->poly_rejected = true; /* report_rejected without a hook */
        g->last_strip_poly = -1;
        return true;
    }

    uint16_t idx[4];
    int32_t z[4];
    for (int i = 0; i < n; i++) {
        idx[i] = (uint16_t)(base + (uint32_t)i);
        z[i] = clip[i][2];
    }
    new_direct_polygon(gx, tmpl, dot, idx, sx, sy, w24, z, n);
    f->nverts = nv;
    g->last_strip_poly = -1; /* (polygon_stored) not a strip */
    return true;
}

int gx_geom_store_direct(gx_engine *gx, const gx_polygon *tmpl, const int32_t (*clip)[4],
                         const uint32_t *color, const int16_t (*tex)[2], int n)
{
    bool done = n == 3 ? store_direct(gx, tmpl, clip, color, tex, 3)
                       : store_direct(gx, tmpl, clip, color, tex, 4);
    return !done                    ? GX_DIRECT_LEFT
           : gx->geom.poly_rejected ? GX_DIRECT_REJECTED
           : n == 4                 ? GX_DIRECT_STORED_QUAD
                                    : GX_DIRECT_STORED;
}

/* The batch's strip polygons (batch.c): store_direct with the vertex sharing of
 * gx_geom_submit_polygon. The two vertices a strip polygon shares with the previous one are
 * taken from that polygon's RAM entry (not stored again, not tested against the view volume)
 * when it is the strip's last stored polygon (g->last_strip_poly), has its original vertex
 * count and neither of those vertices was made by the clipper; the winding test still reads
 * the polygon buffer's positions (@p clip, W not masked), the RAM limits the whole polygon's
 * count, and the 1-dot test, bounds, W and depth the shared vertices' RAM entries. @p clip,
 * @p color, @p tex: the polygon's vertices in polygon order (the buffer's after the strip's
 * swap); @p fresh: bit i set when vertex i's colour and texture coordinates are given (a vertex
 * of the batch; a vertex from before the batch is stored only through the submit path). @p n:
 * 3 (triangle strip), 4 (quad strip). */
static GX_ALWAYS_INLINE bool store_strip(gx_engine *gx, const gx_polygon *tmpl,
                                         const int32_t *const *clip, const uint32_t *color,
                                         const int16_t *const *tex, unsigned fresh,
                                         int64_t *dot_out, const int n)
{
    gx_geom_state *g = &gx->geom;
    gx_frame *f = gx->build;
    uint32_t attr = g->cur_polygon_attr;

    int64_t dot;
    if (direct_culled(g, attr, clip[0], clip[1], clip[2], &dot)) return true;

    /* the shared vertices: gx_geom_submit_polygon's rule */
    uint16_t idx[4];
    int first = strip_shared(g, f, n, idx); /* (clipstart) */
    bool inside = true;
    for (int i = first; i < n; i++)
        inside &= ((fresh >> i) & 1u) != 0 && all_inside((const int32_t(*)[4])clip[i], 1);
    if (!inside || f->npolys >= GX_MAX_POLYGONS || f->nverts + (uint32_t)n > GX_MAX_VERTICES) {
        *dot_out = dot;
        return false;
    }

    /* as store_unclipped: the new vertices written past the end of vertex RAM until the polygon
     * is kept */
    g->poly_nverts_clipped = (uint8_t)n;
    uint32_t base = f->nverts, nv = base + (uint32_t)(n - first);
    write_ahead(f, base, f->npolys);
    int32_t sx[4], sy[4], z[4];
    uint32_t w24[4];
    for (int i = 0; i < first; i++) {
        const gx_vertex *v = &f->verts[idx[i]];
        sx[i] = v->sx;
        sy[i] = v->sy;
        w24[i] = (uint32_t)v->clip[3];
        z[i] = v->clip[2];
    }
    for (int i = first; i < n; i++) {
        idx[i] = (uint16_t)(base + (uint32_t)(i - first));
        w24[i] = (uint32_t)clip[i][3] & 0x00FFFFFFu;
        z[i] = clip[i][2];
        gx_viewport_xy(g, clip[i][0], clip[i][1], w24[i], &sx[i], &sy[i]);
        put_vertex(&f->verts[idx[i]], clip[i], color[i], tex[i], sx[i], sy[i]);
    }
    if (direct_one_dot(g, attr, sx, sy, w24, n)) {
        g->poly_rejected = true; /* report_rejected without a hook */
        g->last_strip_poly = -1;
        return true;
    }

    gx_polygon *p = new_direct_polygon(gx, tmpl, dot, idx, sx, sy, w24, z, n);
    f->nverts = nv;
    g->last_strip_poly = (int32_t)(p - f->polys); /* (polygon_stored) */
    return true;
}

bool gx_geom_store_strip(gx_engine *gx, const gx_polygon *tmpl, const int32_t *const *clip,
                         const uint32_t *color, const int16_t *const *tex, unsigned fresh,
                         int64_t *dot, int n)
{
    return n == 3 ? store_strip(gx, tmpl, clip, color, tex, fresh, dot, 3)
                  : store_strip(gx, tmpl, clip, color, tex, fresh, dot, 4);
}
