/*
 * span.c - the scanline loop of the rendering engine: per polygon and line, the span between
 * the left and right edges, the fill rules of its edge runs, the depth test, shadow stencil,
 * alpha test, and the opaque / translucent writes into the two-layer buffers.
 *
 * Hardware notes (facts from melonDS GPU3D_Soft.cpp RenderPolygonScanline /
 * RenderShadowMaskScanline / PlotTranslucentPixel / DepthTest_*, the reference of our frames;
 * behaviours melonDS marks as verified on hardware are noted there, the rest is its model):
 *  - A line's span is split into the left edge's run (edge flag 1), the inside, and the right
 *    edge's run (edge flag 2); the first and last line add flags 4 and 8. Right vertical edges
 *    are pushed 1 pixel left (unless the span is a single pixel on a vertical left edge, or at
 *    x = 0). Crossed (swapped) edges are drawn from the right edge to the left one with the
 *    edge runs forced to 1 pixel.
 *  - Fill rules of opaque edge runs: left runs are drawn when the slope is <= 1 or negative,
 *    right runs when the slope is > 1 or vertical, the bottom pixel of X-major edges next to a
 *    flat bottom, and identical fully overlapping edges; every edge is drawn with
 *    anti-aliasing or edge marking, for translucent polygons with blending on, and for
 *    wireframe polygons (which draw only edges, plus their top and bottom lines).
 *  - Depth test less-than; less-or-equal for a front-facing pixel over an opaque back-facing
 *    one; POLYGON_ATTR bit 14 equal test with tolerance 0x200 (Z-buffer) / 0xFF (W-buffer). A
 *    failed test against an edge pixel is retried against the pixel underneath.
 *  - Alpha test: pixels with alpha <= ALPHA_TEST_REF (0 when the test is off) are dropped.
 *  - Opaque pixels (alpha 31) replace colour, depth and attributes; with anti-aliasing, edge
 *    pixels push the old pixel to the lower layer and store their coverage.
 *  - Translucent pixels are not drawn over a pixel with the same translucent polygon ID (shadow
 *    polygons: nor over an opaque pixel with their own ID), keep the fog flag only if the pixel
 *    under them had it, blend with DISP3DCNT bit 3 (raster_pixel_blend), write depth only with
 *    POLYGON_ATTR bit 11, and are also blended into the lower layer of edge pixels.
 *  - Shadow masks (mode 3, ID 0) draw nothing: they set stencil bits where their depth test
 *    FAILS; shadow polygons (ID != 0) draw only where a stencil bit is set.
 *  - Guess (melonDS's own TODOs): wireframe equal-Z rules, edge fill of swapped shadow masks.
 *
 * Performance: everything polygon-constant (shadow or not, depth test, buffer mode,
 * anti-aliasing, shading) selects one of the specialised span functions of span_fns.c per
 * polygon line; the pixel loops (span_pixel.h) contain no dispatch on it. Per-edge attribute
 * preparation (edge.h), per-polygon set-up at the polygon's top line (setup.c) and the lazy
 * clear (render.c) keep the per-line work small. The common polygon (Z-buffered, no
 * anti-aliasing, no shadow, one W for every vertex: all its edges and spans linear) takes a
 * line set-up with those modes resolved once per polygon (line_setup_lin), every other polygon
 * but shadows and shadow masks one with its modes passed in (line_setup_persp); line_setup
 * stays the general form and the reference (raster_engine.ref_lines, test_raster_lines_fast).
 * Frames without shadow polygons are drawn polygon by polygon (raster_draw_band_pmajor, at the
 * end of this file): one polygon state over all its lines, no active list to merge per line,
 * and a polygon's lines taken in segments between two edge set-ups (line_seg_edges: what
 * depends only on the two edges is decided once per segment, line_seg); the scanline loop
 * stays for the rest and is the reference (test_raster_pmajor).
 */
#include <stddef.h>
#include <string.h>

#include "raster/span_pixel.h"

/* ---- shadow masks (melonDS RenderShadowMaskScanline) ---- */

SPAN_INLINE void mask_pixel(span_line *c, int32_t x, int dt, bool wbuf)
{
    raster_engine *r = c->r;
    uint32_t addr = c->line + (uint32_t)x;
    raster_interp_set_pos(&c->ix, x);
    if (wbuf) raster_interp_update_factor(&c->ix);
    int32_t z = raster_interp_z(&c->ix, c->zl, c->zr, wbuf);
    uint32_t dstattr = r->attr[addr];
    if (!depth_pass(dt, (int32_t)r->depth[addr], z, dstattr)) c->stencil[x] = 1;
    if (dstattr & RASTER_ATTR_EDGE_MASK) {
        addr += RASTER_BUF_SIZE;
        if (!depth_pass(dt, (int32_t)r->depth[addr], z, r->attr[addr])) c->stencil[x] |= 2;
    }
}

static void draw_mask_line(span_line *c, int32_t xcut, int dt, bool wbuf)
{
    const bool wire = c->rp->wireframe;
    int32_t x = c->xstart < 0 ? 0 : c->xstart;
    int32_t end1 = min32(c->xend + 1, min32(256, xcut));
    int32_t xlimit = min32(c->xstart + c->l_len, end1);
    if (!c->l_fill) {
        x = xlimit < 0 ? 0 : xlimit;
    } else {
        for (; x < xlimit; x++) mask_pixel(c, x, dt, wbuf);
    }
    xlimit = min32(c->xend - c->r_len + 1, end1);
    if (wire && !c->yedge) {
        if (x < xlimit) x = xlimit;
    } else {
        for (; x < xlimit; x++) mask_pixel(c, x, dt, wbuf);
    }
    if (c->r_fill) {
        for (; x < end1; x++) mask_pixel(c, x, dt, wbuf);
    }
}

/* ---- per polygon line ---- */

/* Span constants for the pixel loops: the same arithmetic as raster_interp_attr/_z along X,
 * with everything that does not depend on the pixel computed once. */
#if SPAN_VEC
/* The values of r, g, b, s, t at one edge of a span: lanes 0-3 and 1-4 (raster_slope_attr_vec). */
typedef __m128i span_vals[2];

/* span_attrs_prepare (span_pixel.h) from the values in registers: @p a0 / @p a1 at the span's
 * start / end, lanes 0-3 and 1-4 of the five attributes (the overlapping lanes 1-3 are
 * written twice with the same values); @p d: the differences a_d, for the caller. */
SPAN_INLINE void span_attrs_prepare_vec(span_line *c, const __m128i a0[2], const __m128i a1[2],
                                        bool persp, __m128i d[2])
{
    for (int h = 0; h < 2; h++) {
        __m128i lt = _mm_cmplt_epi32(a0[h], a1[h]);
        d[h] = vec_select(lt, _mm_sub_epi32(a1[h], a0[h]), _mm_sub_epi32(a0[h], a1[h]));
        _mm_storeu_si128((__m128i *)(c->a_base + h), vec_select(lt, a0[h], a1[h]));
        _mm_storeu_si128((__m128i *)(c->a_d + h), d[h]);
        _mm_storeu_si128((__m128i *)(c->a_sel + h), _mm_andnot_si128(lt, _mm_set1_epi32(1)));
        if (!persp) continue;
        /* (a1 - a0 is -d for sel 1) */
        _mm_storeu_si128((__m128i *)(c->a_ps + h), _mm_sub_epi32(a1[h], a0[h]));
        _mm_storeu_si128((__m128i *)(c->a_pd + h),
                         _mm_andnot_si128(lt, _mm_slli_epi32(_mm_sub_epi32(a0[h], a1[h]), 8)));
    }
}
#else
/* The values of r, g, b, s, t at one edge of a span. */
typedef int32_t span_vals[5];
#endif

#if SPAN_VEC
/* Whether every d * xdiff < 2^25 (span_attrs_lin_fast) for the differences @p d (lanes 0-3
 * and 1-4 of the five): the 64-bit products of lanes 0 and 2 of d[0] (r, b), of d[0] >> 32
 * (g, s) and of d[1] >> 32 (b, t), ORed. */
static inline bool span_lin_fast_vec(const __m128i d[2], int32_t xdiff)
{
    const __m128i x = _mm_set1_epi32(xdiff);
    __m128i any = _mm_or_si128(_mm_mul_epu32(d[0], x), _mm_mul_epu32(_mm_srli_epi64(d[0], 32), x));
    any = _mm_or_si128(any, _mm_mul_epu32(_mm_srli_epi64(d[1], 32), x));
    any = _mm_srli_epi64(any, 25);
    return _mm_movemask_epi8(_mm_cmpeq_epi32(any, _mm_setzero_si128())) == 0xFFFF;
}
#endif

/* The polygon-major loop has a copy compiled for AVX2 (pmajor_poly_avx2) where the compiler
 * can make one; its helpers take a flag @p wide, true only there: 32-byte vectors in the
 * compiler's generic form (the other copies lower them to two 16-byte halves, less well than
 * their own SSE2 form, so they keep it). */
#if SPAN_VEC && (defined(__x86_64__) || defined(__i386__)) &&                                      \
    (defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 12)) && !defined(DSGX_NO_AVX2)
#define PMAJOR_AVX2 1
typedef uint64_t pmajor_u64x4 __attribute__((vector_size(32), aligned(8), may_alias));
typedef uint32_t pmajor_u32x8 __attribute__((vector_size(32), aligned(4), may_alias));
typedef uint32_t pmajor_u32x4 __attribute__((vector_size(16), aligned(4), may_alias));
typedef int32_t pmajor_i32x8 __attribute__((vector_size(32), aligned(4), may_alias));
#include <immintrin.h>
/* The functions with AVX2 intrinsics (pmajor_lin_fast's), inlined only into pmajor_poly_avx2:
 * an intrinsic cannot be inlined into a function not compiled for AVX2, so pmajor_poly_avx2
 * has its own lin_line loop (pmajor_lin_poly_avx2) beside pmajor_poly_plain's (pmajor_lin_poly). */
#define PMAJOR_AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))
#else
#define PMAJOR_AVX2 0
typedef struct persp8_seg {
    int unused; /* (line_persp_w8 is false) */
} persp8_seg;
#endif

#if SPAN_VEC
/* An edge's r, g, b, s (lanes 0-3) from its accumulators, and its t in @p t: lanes 0-3 of
 * raster_slope_acc_vec's v[0] and lane 3 of its v[1] (the edge's values of a linear span,
 * line_lin_span). @p wide: pmajor_poly_avx2's (the four accumulators as one vector). */
SPAN_INLINE __m128i slope_acc4(const raster_slope *s, uint32_t *t, bool wide)
{
#if PMAJOR_AVX2
    if (wide) {
        *t = s->attr_base[RASTER_EA_T] + (uint32_t)(s->attr_acc[RASTER_EA_T - 1] >> 35);
        const pmajor_u32x8 w = (pmajor_u32x8)(*(const pmajor_u64x4 *)s->attr_acc >> 35);
        return (__m128i)(__builtin_shufflevector(w, w, 0, 2, 4, 6) +
                         *(const pmajor_u32x4 *)(s->attr_base + RASTER_EA_R));
    }
#else
    (void)wide;
#endif
    const __m128i *acc = (const __m128i *)s->attr_acc;
    __m128 lo = _mm_castsi128_ps(_mm_srli_epi64(_mm_loadu_si128(acc), 35));
    __m128 hi = _mm_castsi128_ps(_mm_srli_epi64(_mm_loadu_si128(acc + 1), 35));
    *t = s->attr_base[RASTER_EA_T] + (uint32_t)(s->attr_acc[RASTER_EA_T - 1] >> 35);
    return _mm_add_epi32(_mm_castps_si128(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))),
                         _mm_loadu_si128((const __m128i *)(s->attr_base + RASTER_EA_R)));
}

/* span_attrs_prepare_vec of a linear span (no perspective fields) from r, g, b, s in lanes
 * 0-3 of @p a0 / @p a1 and t in @p t0 / @p t1 (not as two overlapping four-lane halves: one
 * vector and one scalar); @p d / @p dt: the differences a_d, for the caller. */
SPAN_INLINE void span_attrs_prepare_lin4(span_line *c, __m128i a0, __m128i a1, uint32_t t0,
                                         uint32_t t1, __m128i *d, uint32_t *dt, __m128i *base)
{
    const __m128i lt = _mm_cmplt_epi32(a0, a1), diff = _mm_sub_epi32(a0, a1);
    /* |a0 - a1| = lt ? a1 - a0 : a0 - a1; the smaller end a0 - (lt ? 0 : a0 - a1); sel 1 + lt */
    *d = _mm_sub_epi32(_mm_xor_si128(diff, lt), lt);
    *base = _mm_sub_epi32(a0, _mm_andnot_si128(lt, diff));
    _mm_storeu_si128((__m128i *)c->a_base, *base);
    _mm_storeu_si128((__m128i *)c->a_d, *d);
    _mm_storeu_si128((__m128i *)c->a_sel, _mm_add_epi32(lt, _mm_set1_epi32(1)));
    const bool tlt = (int32_t)t0 < (int32_t)t1;
    c->a_sel[4] = tlt ? 0u : 1u;
    c->a_base[4] = tlt ? t0 : t1;
    *dt = c->a_d[4] = tlt ? t1 - t0 : t0 - t1;
}

/* span_lin_fast_vec of span_attrs_prepare_lin4's differences. */
static inline bool span_lin_fast4(__m128i d, uint32_t dt, int32_t xdiff)
{
    const __m128i x = _mm_set1_epi32(xdiff);
    __m128i any = _mm_or_si128(_mm_mul_epu32(d, x), _mm_mul_epu32(_mm_srli_epi64(d, 32), x));
    any = _mm_srli_epi64(any, 25);
    return _mm_movemask_epi8(_mm_cmpeq_epi32(any, _mm_setzero_si128())) == 0xFFFF &&
           ((uint64_t)dt * (uint32_t)xdiff) >> 25 == 0;
}
#endif

/* span_prepare's depth along the span from its ends c->zl, c->zr. */
SPAN_INLINE void span_prepare_z(span_line *c, bool wbuffer)
{
    const raster_interp *ix = &c->ix;
    int32_t z0 = c->zl, z1 = c->zr;
    c->zsel = z0 < z1 ? 0u : 1u;
    c->zbase = z0 < z1 ? z0 : z1;
    int32_t disp = z0 < z1 ? z1 - z0 : z0 - z1;
    if (ix->xdiff == 0 || z0 == z1) {
        c->zbase = z0;
        c->zk = 0;
    } else if (wbuffer) {
        c->zk = disp; /* base + (disp * f) >> 8 */
    } else {
        c->zk = (int64_t)(disp >> 9) * ix->xrecip_z; /* base + (disp >> 9) * k * recip >> 13 */
    }
    if (!wbuffer) {
        c->zacc0 = c->zsel ? c->zk * ix->xdiff : 0;
        c->zstep = c->zsel ? -c->zk : c->zk;
    }
}

/* span_prepare_z's values for a Z-buffered span whose ends are both at depth @p z, whatever
 * its length: zk 0 (the z0 == z1 case), zsel 1 (z0 < z1 fails), so zacc0 and zstep 0. */
static inline void span_z_const(span_line *c, int32_t z)
{
    c->zl = c->zr = z;
    c->zsel = 1;
    c->zbase = z;
    c->zk = 0;
    c->zacc0 = c->zstep = 0;
}

/* @p vs, @p ve: r, g, b, s, t at the span's start and end edge, prepared here straight from
 * the edges' values (no copy into span_line in between). @p lin: the span is known to be
 * linear with equal W and its factor denominator set (line_setup_lin: line_lin_begin,
 * line_lin_interp); else both are read from / set for the interpolator. @p small (with lin):
 * every attribute's d * xdiff is known to be below 2^25 (line_lin_narrow), so lin_fast is.
 * @p zset: the depth fields (span_prepare_z) already hold the span's (span_z_const). */
SPAN_INLINE void span_prepare(span_line *c, bool wbuffer, bool lin, bool small, bool zset,
                              const span_vals vs, const span_vals ve)
{
    const raster_interp *ix = &c->ix;
    bool linear = lin || ix->linear;
    if (!lin) {
        c->den_step = ix->w0d - ix->w1d;
        c->den_base = dsgx_wrap32(dsgx_mul64(ix->xdiff, ix->w1d));
    }
    /* raster_attr_prepare of the five attributes, four lanes at a time */
#if SPAN_VEC
    __m128i d[2];
    span_attrs_prepare_vec(c, vs, ve, !linear, d);
#else
    span_attrs_prepare(c, vs, ve, !linear);
#endif

    if (!zset) span_prepare_z(c, wbuffer);

    c->lin_fast = false;
    if (lin && small) {
        c->lin_fast = true;
    } else if (linear && ix->lin_recip != 0 && ix->xdiff <= 1024) {
        /* d * x <= d * xdiff: the exactness bound of raster_interp_lindiv holds for the span */
#if SPAN_VEC
        c->lin_fast = span_lin_fast_vec(d, ix->xdiff);
#else
        c->lin_fast = span_attrs_lin_fast(c, ix->xdiff);
#endif
    }
}

#if SPAN_VEC
/* raster_span_choose's flat colour but the alpha, (a_base[0] >> 3) | ((a_base[1] >> 3) << 8) |
 * ((a_base[2] >> 3) << 16), from r, g, b in lanes 0-2 of @p base: the 64-bit shift moves lane 1
 * into lane 0 << 8 and lane 0 >> 24, which is 0 (the values lie between 16-bit vertex
 * attributes: line_lin_narrow). */
static inline uint32_t span_flat_rgb(__m128i base)
{
    const __m128i v = _mm_srli_epi32(base, 3);
    __m128i x = _mm_or_si128(v, _mm_srli_epi64(v, 24));
    x = _mm_or_si128(x, _mm_slli_epi32(_mm_srli_si128(v, 8), 16));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

/* span_prepare(c, false, true, @p small, @p zset, ...) of a linear span (line_lin_span) from
 * the edges' values as slope_acc4 gives them: r, g, b, s of the span's start / end in @p a0 /
 * @p a1, t in @p t0 / @p t1. */
SPAN_INLINE raster_span_fn span_prepare_lin4(const raster_poly *rp, span_line *c, bool small,
                                             bool zset, __m128i a0, __m128i a1, uint32_t t0,
                                             uint32_t t1)
{
    const raster_interp *ix = &c->ix;
    __m128i d, base;
    uint32_t dt;
    span_attrs_prepare_lin4(c, a0, a1, t0, t1, &d, &dt, &base);
    if (!zset) span_prepare_z(c, false);
    c->lin_fast =
        small || (ix->lin_recip != 0 && ix->xdiff <= 1024 && span_lin_fast4(d, dt, ix->xdiff));
    /* raster_span_choose (span_pixel.h) with its colour test and flat colour from the
     * registers (c->ix.linear holds: line_lin_begin) */
    if (!rp->span_lin || !c->lin_fast) return raster_span_choose(rp, c);
    if (!rp->span_flat ||
        (_mm_movemask_epi8(_mm_cmpeq_epi32(d, _mm_setzero_si128())) & 0xFFF) != 0xFFF)
        return rp->span_lin;
    c->flat_color = span_flat_rgb(base) | rp->spk.valpha;
    return rp->span_flat;
}
#endif

/* Run lengths of the span's start edge a and end edge b; their coverage only with
 * anti-aliasing (the only reader of l_cov / r_cov). */
static void edge_runs(const raster_poly *rp, const raster_slope *a, const raster_slope *b,
                      bool swapped, span_line *c)
{
    if (rp->span_flags & SPAN_AA) {
        raster_slope_edge_params(a, swapped, &c->l_len, &c->l_cov);
        raster_slope_edge_params(b, swapped, &c->r_len, &c->r_cov);
    } else {
        c->l_len = raster_slope_edge_length(a, swapped);
        c->r_len = raster_slope_edge_length(b, swapped);
        c->l_cov = c->r_cov = 0;
    }
}

/* Fill rules of a line whose left edge L starts the span (not crossed): fill_start /
 * fill_end are the slopes' own terms (edge.h); the row above a flat bottom fills its x-major
 * runs; the line polygon rule applies only to polygons with a shared vertex (setup.c). Reads
 * c->l_len (edge_runs first). */
static inline void fill_rules(const raster_poly *rp, const raster_slope *L, const raster_slope *R,
                              bool bottom, int32_t xstart, int32_t xend, span_line *c)
{
    if (rp->fill_all) {
        c->l_fill = c->r_fill = true;
        return;
    }
    bool flatb = bottom && L->x1 != R->x1;
    c->l_fill = L->fill_start || (flatb && L->xmajor) ||
                (rp->line_poly && L->inc == R->inc && xstart + c->l_len == xend + 1);
    c->r_fill = R->fill_end || (flatb && R->xmajor);
}

/* The span's ends, its top/bottom edge flag and where it draws (every line set-up). */
static inline void line_span_ends(const raster_poly *rp, int32_t y, bool bottom, int32_t xstart,
                                  int32_t xend, span_line *c)
{
    c->yedge = y == rp->ytop ? RASTER_ATTR_EDGE_TOP : (bottom ? RASTER_ATTR_EDGE_BOTTOM : 0u);
    c->xstart = xstart;
    c->xend = xend;
    c->line = raster_addr(0, y);
}

/* line_span_ends and the fields the per-polygon set-ups set once (line_begin_common): what
 * line_setup writes after its fill rules. */
static inline void line_ends(raster_engine *r, raster_poly *rp, int32_t y, bool bottom,
                             int32_t xstart, int32_t xend, span_line *c)
{
    line_span_ends(rp, y, bottom, xstart, xend, c);
    c->xcov = 0;
    c->r = r;
    c->rp = rp;
}

/* Edges, span ends, fill rules and edge runs of a polygon on line y (the part of melonDS's
 * scanline functions before the pixel loops). */
static void line_setup(raster_engine *r, raster_poly *rp, int32_t y, span_line *c)
{
    raster_slope *L = &rp->left, *R = &rp->right;

    if (!rp->flat) {
        if (y >= rp->yl_next && rp->cur_l != rp->vbottom) raster_poly_setup_left(r, rp, y);
        if (y >= rp->yr_next && rp->cur_r != rp->vbottom) raster_poly_setup_right(r, rp, y);
    }

    int32_t xstart = rp->xl, xend = rp->xr;
    /* W, colour and texcoords along both edges, from their per-edge preparation */
#if SPAN_VEC
    span_vals lv, rv;
    int32_t wl = raster_slope_attr_vec(L, lv), wr = raster_slope_attr_vec(R, rv);
    const __m128i *vs = lv, *ve = rv; /* the span's start and end edge */
#else
    int32_t la[RASTER_EDGE_ATTRS], ra[RASTER_EDGE_ATTRS];
    raster_slope_attr_values(L, la);
    raster_slope_attr_values(R, ra);
    const int32_t *lv = la + RASTER_EA_R, *rv = ra + RASTER_EA_R;
    const int32_t *vs = lv, *ve = rv; /* the span's start and end edge */
    int32_t wl = la[RASTER_EA_W], wr = ra[RASTER_EA_W];
#endif
    if (rp->wbuffer) {
        c->zl = raster_interp_z(&L->interp, L->z0, L->z1, true);
        c->zr = raster_interp_z(&R->interp, R->z0, R->z1, true);
    } else {
        c->zl = raster_slope_zdepth(L); /* = raster_interp_z(..., false), stepped per line */
        c->zr = raster_slope_zdepth(R);
    }

    /* right vertical edges are pushed 1 pixel left (melonDS) */
    if (R->inc == 0 && (L->inc != 0 || xstart != xend) && xend != 0) xend--;

    bool fill_all = rp->fill_all;
    bool bottom = y == rp->ybottom - 1;

    if (xstart > xend) {
        /* crossed edges: draw from the right edge to the left one */
        vs = rv, ve = lv;
        edge_runs(rp, R, L, true, c);
        int32_t tx = xstart;
        xstart = xend, xend = tx;
        int32_t tw = wl;
        wl = wr, wr = tw;
        int32_t tz = c->zl;
        c->zl = c->zr, c->zr = tz;
        bool flatb = bottom && R->x1 != L->x1; /* lower vertices of the span's edges */
        if (fill_all) {
            c->l_fill = c->r_fill = true;
        } else {
            c->l_fill = R->negative || !R->xmajor || (flatb && R->xmajor);
            c->r_fill = (!L->negative && L->xmajor) ||
                        (!(L->negative && L->xmajor) && R->inc == 0) || (flatb && L->xmajor);
        }
    } else {
        edge_runs(rp, L, R, false, c);
        fill_rules(rp, L, R, bottom, xstart, xend, c);
    }

    line_ends(r, rp, y, bottom, xstart, xend, c);
    /* (read by shadow polygons and masks only: span_pixel.h plot, mask_pixel) */
    if (rp->is_shadow || rp->is_mask) c->stencil = &r->stencil[(y & 1) * 256];
    raster_interp_setup_tab(&c->ix, RASTER_INTERP_X, xstart, xend + 1, wl, wr, r->recip);
    span_prepare(c, rp->wbuffer, false, false, false, vs, ve);
}

/* The span_line fields both per-polygon set-ups (line_lin_begin, line_persp_begin) give the
 * values line_setup gives them: the polygon, no coverage, the X interpolator's position and
 * factor 0, shift and direction. */
static inline void line_begin_common(raster_engine *r, raster_poly *rp, span_line *c)
{
    c->r = r;
    c->rp = rp;
    c->xcov = 0;
    c->l_cov = c->r_cov = 0;
    raster_interp *ix = &c->ix;
    ix->x = 0;
    ix->factor = 0;
    ix->shift = 8;
    ix->dir = RASTER_INTERP_X;
}

/* The fields of a lin_line polygon's span_line that are the same on every line, with the
 * values line_setup gives them too (X interpolator of W lin_w on both ends: linear, position
 * and factor 0, factor denominator step 0; no coverage; no stencil): set once before the polygon's
 * first line_setup_lin, which writes every other field. (The span functions write none of them:
 * only the anti-aliased ones write xcov.) */
static void line_lin_begin(raster_engine *r, raster_poly *rp, span_line *c)
{
    line_begin_common(r, rp, c);
    c->ix.linear = true;
    c->ix.w0n = c->ix.w0d = c->ix.w1d = rp->lin_w;
    c->den_step = 0;
}

/* Whether every line_setup_lin span of the polygon is at most 512 pixels long: its vertices' X
 * lie within 511 of each other (a span lies between its edges' ends, each clamped to its edge's
 * extent). Then every span attribute's d * xdiff < 2^16 * 2^9 = 2^25, lin_fast's bound: the
 * attributes are 16-bit at the vertices (colour, texcoords; below), and line_setup_lin reads an
 * edge's values only between its ends (x <= xdiff), where they lie between the ends' values, so
 * a span's difference d is at most 65535. Read from the polygon's extent in the render list
 * (raster_engine.box). */
_Static_assert(_Generic(((const gx_vertex *)0)->color[0], uint16_t : 1, default : 0) &&
                   _Generic(((const gx_vertex *)0)->texcoord[0], int16_t : 1, default : 0),
               "line_lin_narrow's bound needs 16-bit vertex attributes");
static bool line_lin_narrow(const raster_list_box *box)
{
    /* (the smallest and largest vertex X: setup.c, from the walk that decides it is drawn) */
    return (int64_t)box->x1 - box->x0 < 512;
}

/* raster_interp_setup_tab(&c->ix, RASTER_INTERP_X, xstart, xend + 1, w, w, tab) of a
 * linear span's interpolator (xstart <= xend) after line_lin_begin: its position and
 * reciprocals, and the factor denominator's base (as span_prepare sets it; unused by linear
 * spans) unless @p narrow. @p narrow: @p tab is not NULL and the span at most 512 pixels long
 * (line_lin_narrow), so its reciprocals are in the table. */
static inline void line_lin_interp(span_line *c, int32_t xstart, int32_t xend,
                                   const raster_recip *tab, bool narrow)
{
    raster_interp *ix = &c->ix;
    int32_t xdiff = xend + 1 - xstart; /* (>= 1) */
    ix->x0 = xstart;
    ix->xdiff = xdiff;
    if (narrow) {
        /* (no factor denominator: only perspective spans read it, span_factor) */
        ix->xrecip_z = tab->z[xdiff];
        ix->lin_recip = tab->lin[xdiff];
        return;
    }
    if (tab && xdiff <= RASTER_RECIP_MAX) {
        ix->xrecip_z = tab->z[xdiff];
        ix->lin_recip = tab->lin[xdiff];
    } else {
        ix->xrecip_z = (1 << 22) / xdiff;
        ix->lin_recip = xdiff <= 1024 ? (((uint64_t)1 << 35) / (uint64_t)xdiff) + 1u : 0u;
    }
    c->den_base = dsgx_wrap32(dsgx_mul64(xdiff, ix->w1d));
}

/* The parts of a line's set-up (line_setup_lin, line_setup_persp) that depend only on the
 * polygon's two current edges, known once per edge pair (line_seg_init; the lines between two
 * edge set-ups: line_seg_edges, pmajor_poly_* / pmajor_lines): the fill rules (fill_rules: of a
 * line above / on the polygon's bottom line, and whether the line polygon rule applies) and
 * the right vertical edge's push (line_setup). */
typedef struct line_seg {
    bool l_mid, l_bot, r_mid, r_bot; /* l_fill / r_fill off / on the bottom line */
    bool rule;                       /* l_fill also when xstart + l_len == xend + 1 */
    bool rvert;                      /* the right edge is vertical */
    bool lslant;                     /* the left edge is not */
} line_seg;

static inline void line_seg_init(const raster_poly *rp, line_seg *g)
{
    const raster_slope *L = &rp->left, *R = &rp->right;
    const bool all = rp->fill_all, flatx = L->x1 != R->x1; /* (fill_rules' flatb off the line) */
    g->l_mid = all || L->fill_start;
    g->l_bot = g->l_mid || (flatx && L->xmajor);
    g->r_mid = all || R->fill_end;
    g->r_bot = g->r_mid || (flatx && R->xmajor);
    g->rule = !all && rp->line_poly && L->inc == R->inc;
    g->rvert = R->inc == 0;
    g->lslant = L->inc != 0;
}

/* The right end of a line's span: right vertical edges are pushed 1 pixel left (melonDS;
 * line_setup's test with the edges' part from @p g). */
static inline int32_t line_seg_xend(const line_seg *g, int32_t xstart, int32_t xend)
{
    return g->rvert && (g->lslant || xstart != xend) && xend != 0 ? xend - 1 : xend;
}

/* fill_rules from the edges' part @p g (reads c->l_len). */
static inline void line_seg_fill(const line_seg *g, bool bottom, int32_t xstart, int32_t xend,
                                 span_line *c)
{
    c->l_fill = (bottom ? g->l_bot : g->l_mid) || (g->rule && xstart + c->l_len == xend + 1);
    c->r_fill = bottom ? g->r_bot : g->r_mid;
}

/* span_line's l_len, r_len, l_fill, r_fill and yedge, which lie in this order in 16 bytes:
 * line_lin_span's values of them for a line of a segment whose two edges are Y-major (runs of
 * 1 pixel) and that no line polygon rule applies to (line_seg.rule false), where they depend
 * only on whether the line is the polygon's top or bottom line (line_span_ends,
 * line_seg_fill); stored at once (line_runs_put). */
typedef struct line_runs {
    int32_t l_len, r_len;
    bool l_fill, r_fill;
    uint32_t yedge;
} line_runs;
_Static_assert(
    sizeof(line_runs) == 16 &&
        offsetof(span_line, r_len) - offsetof(span_line, l_len) == offsetof(line_runs, r_len) &&
        offsetof(span_line, l_fill) - offsetof(span_line, l_len) == offsetof(line_runs, l_fill) &&
        offsetof(span_line, r_fill) - offsetof(span_line, l_len) == offsetof(line_runs, r_fill) &&
        offsetof(span_line, yedge) - offsetof(span_line, l_len) == offsetof(line_runs, yedge),
    "line_runs mirrors span_line's l_len .. yedge");

static inline void line_runs_put(span_line *c, const line_runs *v)
{
    memcpy((char *)c + offsetof(span_line, l_len), v, sizeof *v);
}

/* The edges set up for line y (line_setup's edge set-up, when an edge's lower vertex is
 * reached), and @return the first line at or after y, below @p ydraw, where one is set up
 * again: the lines [y, return) have the same two edges (an edge that is set up again later
 * has its yl_next / yr_next > y after its set-up). */
static inline int32_t line_seg_edges(raster_engine *r, raster_poly *rp, int32_t y, int32_t ydraw)
{
    if (y >= rp->yl_next && rp->cur_l != rp->vbottom) raster_poly_setup_left(r, rp, y);
    if (y >= rp->yr_next && rp->cur_r != rp->vbottom) raster_poly_setup_right(r, rp, y);
    int32_t yseg = ydraw;
    if (rp->cur_l != rp->vbottom && rp->yl_next < yseg) yseg = rp->yl_next;
    if (rp->cur_r != rp->vbottom && rp->yr_next < yseg) yseg = rp->yr_next;
    return yseg;
}

/* Whether line_setup_lin's edge values (the accumulators: attr_lin_fast, the interpolator
 * within the edge) hold for the edge on its current line and the @p n - 1 lines after it
 * (its position only grows, by one a line). */
static inline bool line_lin_edge_ok(const raster_slope *s, int32_t n)
{
    return s->attr_lin_fast && s->interp.x >= 0 &&
           (int64_t)s->interp.x + n - 1 <= (int64_t)(uint32_t)s->interp.xdiff;
}

/*
 * line_setup_lin's line once its edges are set up and known to take it (line_lin_edge_ok for
 * the line, @p xstart <= @p xend, the span's ends with line_seg_xend's push); @p g: the edges'
 * part, line_seg_init; @p wide: pmajor_poly_avx2's (slope_acc4); @p runs_set: c's run
 * lengths, fill rules and edge flag hold the line's already (pmajor_lin_lines: line_runs).
 */
SPAN_INLINE raster_span_fn line_lin_span(raster_engine *r, raster_poly *rp, int32_t y, span_line *c,
                                         bool narrow, bool zconst, int32_t xstart, int32_t xend,
                                         const line_seg *g, bool wide, bool runs_set)
{
    const raster_slope *L = &rp->left, *R = &rp->right;
#if SPAN_VEC
    /* the edges' values in registers (staged through arrays, the four-lane reloads of lanes
     * 1-4 each waited for two stores: store-forwarding stalls, a quarter of this function's
     * time under perf); r, g, b, s in one vector, t apart */
    uint32_t lt, rt;
    const __m128i lv = slope_acc4(L, &lt, wide), rv = slope_acc4(R, &rt, wide);
#else
    /* the edges' values (raster_slope_attr_values' accumulator case; W is rp->lin_w) */
    (void)wide;
    span_vals lv, rv;
    for (int k = 0; k < 5; k++) {
        lv[k] = (int32_t)(L->attr_base[k + 1] + (uint32_t)(L->attr_acc[k] >> 35));
        rv[k] = (int32_t)(R->attr_base[k + 1] + (uint32_t)(R->attr_acc[k] >> 35));
    }
#endif
    if (!zconst) {
        c->zl = raster_slope_zdepth(L);
        c->zr = raster_slope_zdepth(R);
    }

    if (runs_set) {
        c->xstart = xstart;
        c->xend = xend;
        c->line = raster_addr(0, y);
    } else {
        bool bottom = y == rp->ybottom - 1;
        c->l_len = raster_slope_edge_length(L, false);
        c->r_len = raster_slope_edge_length(R, false);
        line_seg_fill(g, bottom, xstart, xend, c);
        line_span_ends(rp, y, bottom, xstart, xend, c);
    }
    line_lin_interp(c, xstart, xend, r->recip, narrow);
#if SPAN_VEC
    return span_prepare_lin4(rp, c, narrow, zconst, lv, rv, lt, rt);
#else
    span_prepare(c, false, true, narrow, zconst, lv, rv);
    return raster_span_choose(rp, c);
#endif
}

/*
 * line_setup for the common polygon (raster_poly.lin_line, setup.c): Z-buffered, no
 * anti-aliasing, no shadow, every vertex W equal with bits 0-6 clear, so every edge and every
 * span interpolates linearly with that W. The same values as line_setup with the modes it
 * tests per line resolved once per polygon: the edges' values straight from their
 * accumulators, no W-buffer depth, run lengths without coverage, no stencil row; the fields
 * that are the same on every line of the polygon are set once by line_lin_begin. A line it
 * does not cover (crossed edges, an edge without its accumulators) takes line_setup. @p narrow:
 * line_lin_narrow's result for the polygon, and the engine has its reciprocal table (false:
 * not known).
 * unit.test_raster_lines_fast compares the two on random frames. (The polygon-major loop,
 * pmajor_poly_*, takes line_lin_span straight, with the edges' tests once per edge pair.)
 */
SPAN_INLINE void line_setup_lin(raster_engine *r, raster_poly *rp, int32_t y, span_line *c,
                                bool narrow)
{
    raster_slope *L = &rp->left, *R = &rp->right;
    if (y >= rp->yl_next && rp->cur_l != rp->vbottom) raster_poly_setup_left(r, rp, y);
    if (y >= rp->yr_next && rp->cur_r != rp->vbottom) raster_poly_setup_right(r, rp, y);

    line_seg g;
    line_seg_init(rp, &g);
    int32_t xstart = rp->xl, xend = line_seg_xend(&g, rp->xl, rp->xr);
    if (xstart > xend || !line_lin_edge_ok(L, 1) || !line_lin_edge_ok(R, 1)) {
        line_setup(r, rp, y, c); /* (the edges are set up for y: it does not repeat that) */
        return;
    }
    (void)line_lin_span(r, rp, y, c, narrow, false, xstart, xend, &g, false, false);
}

/* Whether the polygon's lines take line_setup_persp: every polygon that is not a shadow or a
 * shadow mask (their stencil row), not flat (one line: edges without height) and not
 * lin_line (line_setup_lin); raster_engine.ref_lines keeps line_setup for the reference. */
static inline bool line_persp_ok(const raster_engine *r, const raster_poly *rp)
{
    return !rp->lin_line && !rp->flat && !rp->is_shadow && !rp->is_mask && !r->ref_lines;
}

/* The fields of a line_persp_ok polygon's span_line that are the same on every line, with the
 * values line_setup gives them too (the X interpolator's position and factor 0, shift and
 * direction; without anti-aliasing no coverage): set once before the polygon's first
 * line_setup_persp, which writes every other field. (The span functions write none of them but
 * xcov, which the anti-aliased ones set at the start of an X-major edge run before reading it,
 * span_pixel.h draw_line: its value before a line is never read.) */
static void line_persp_begin(raster_engine *r, raster_poly *rp, span_line *c)
{
    line_begin_common(r, rp, c);
}

/* raster_interp_setup_tab(&c->ix, RASTER_INTERP_X, xstart, xend + 1, wl, wr, tab) after
 * line_persp_begin (xstart <= xend): the interpolator's position, reciprocals, mode and W. */
static inline void line_persp_interp(span_line *c, int32_t xstart, int32_t xend, int32_t wl,
                                     int32_t wr, const raster_recip *tab)
{
    raster_interp *ix = &c->ix;
    int32_t xdiff = xend + 1 - xstart; /* (>= 1) */
    ix->x0 = xstart;
    ix->xdiff = xdiff;
    ix->w0n = ix->w0d = wl;
    ix->w1d = wr;
    /* linear along X: equal W with bits 0-6 clear (interp.h) */
    bool linear = wl == wr && !(wl & 0x7F);
    ix->linear = linear;
    if (tab && xdiff <= RASTER_RECIP_MAX) {
        ix->xrecip_z = tab->z[xdiff];
        ix->lin_recip = linear ? tab->lin[xdiff] : 0u;
    } else {
        ix->xrecip_z = (1 << 22) / xdiff;
        ix->lin_recip = linear && xdiff <= 1024 ? (((uint64_t)1 << 35) / (uint64_t)xdiff) + 1u : 0u;
    }
}

#if PMAJOR_AVX2
/* raster_slope_attr_vec of a perspective edge (interp.linear false) on eight lanes: W, r, g,
 * b, s, t in lanes 0-5 of @p v (6, 7: not values), each base + ((d * f[sel]) >> 9) mod 2^32,
 * f = {factor, 512 - factor}, from 32-byte loads of attr_base, attr_d and attr_sel (with the
 * two words after each, in the struct); one multiply (vpmulld) for the six. pmajor_lines_avx2
 * only (@p wide of line_persp_span). */
SPAN_INLINE void slope_persp8(const raster_slope *s, pmajor_u32x8 *v)
{
    const uint32_t f0 = s->interp.factor, fx = f0 ^ ((1u << 9) - f0);
    const pmajor_u32x8 sel = *(const pmajor_u32x8 *)s->attr_sel;
    const pmajor_u32x8 fs = f0 ^ (fx & (0u - sel));
    *v = *(const pmajor_u32x8 *)s->attr_base + ((*(const pmajor_u32x8 *)s->attr_d * fs) >> 9);
}

/* slope_persp8's select folded out of its multiply, for a segment's lines (attr_d and attr_sel
 * are the edge set-up's): with m = 0 - sel, d * f[sel] mod 2^32 is ((d * factor) ^ m) - m +
 * ((d << 9) & m), i.e. d * factor or 512 d - d * factor; @p neg: m, @p d9: (d << 9) & m. */
typedef struct slope_pre8 {
    pmajor_u32x8 neg, d9;
} slope_pre8;

SPAN_INLINE void slope_pre8_init(const raster_slope *s, slope_pre8 *p)
{
    p->neg = 0u - *(const pmajor_u32x8 *)s->attr_sel;
    p->d9 = (*(const pmajor_u32x8 *)s->attr_d << 9) & p->neg;
}

/* slope_persp8 with the edge's slope_pre8 @p p: one broadcast of the factor a line. */
SPAN_INLINE void slope_persp8_pre(const raster_slope *s, const slope_pre8 *p, pmajor_u32x8 *v)
{
    const pmajor_u32x8 prod = *(const pmajor_u32x8 *)s->attr_d * s->interp.factor;
    *v = *(const pmajor_u32x8 *)s->attr_base + ((((prod ^ p->neg) - p->neg) + p->d9) >> 9);
}

/* Both edges' slope_pre8 (line_persp_w8's segments). */
typedef struct persp8_seg {
    slope_pre8 l, r;
} persp8_seg;

/* raster_slope_attr_vec's @p v from slope_persp8's lanes @p w; @return W. */
SPAN_INLINE int32_t slope_persp8_split(const pmajor_u32x8 *w, __m128i v[2])
{
    v[0] = (__m128i)__builtin_shufflevector(*w, *w, 1, 2, 3, 4);
    v[1] = (__m128i)__builtin_shufflevector(*w, *w, 2, 3, 4, 5);
    return (int32_t)(*w)[0];
}

/* span_prepare(c, @p wbuffer, false, false, false, ...) of a perspective line's span from the
 * edges' values as slope_persp8 gives them (@p v0 at the span's start, @p v1 at its end, W in
 * lane 0): span_attrs_prepare_vec's fields on eight lanes (the same selects, lane by lane), each
 * array stored as eight lanes in the order of span_line (lanes 5-7 land on the next array,
 * which the next store writes), the last, a_ps, as its five; a_pd and a_ps also for a linear
 * span (which reads neither). */
SPAN_INLINE void span_prepare_persp8(span_line *c, bool wbuffer, const pmajor_u32x8 *v0,
                                     const pmajor_u32x8 *v1)
{
    _Static_assert(offsetof(span_line, a_d) == offsetof(span_line, a_base) + 20 &&
                       offsetof(span_line, a_sel) == offsetof(span_line, a_d) + 20 &&
                       offsetof(span_line, a_pd) == offsetof(span_line, a_sel) + 20 &&
                       offsetof(span_line, a_ps) == offsetof(span_line, a_pd) + 20,
                   "a_base, a_d, a_sel, a_pd and a_ps follow each other");
    const raster_interp *ix = &c->ix;
    c->den_step = ix->w0d - ix->w1d;
    c->den_base = dsgx_wrap32(dsgx_mul64(ix->xdiff, ix->w1d));
    /* r, g, b, s, t in lanes 0-4 */
    const pmajor_u32x8 a0 = __builtin_shufflevector(*v0, *v0, 1, 2, 3, 4, 5, 6, 7, 0),
                       a1 = __builtin_shufflevector(*v1, *v1, 1, 2, 3, 4, 5, 6, 7, 0);
    const pmajor_u32x8 lt = (pmajor_u32x8)((pmajor_i32x8)a0 < (pmajor_i32x8)a1), diff = a0 - a1;
    const pmajor_u32x8 d = (diff ^ lt) - lt, ps = a1 - a0;
    *(pmajor_u32x8 *)c->a_base = a0 - (diff & ~lt);
    *(pmajor_u32x8 *)c->a_d = d;
    *(pmajor_u32x8 *)c->a_sel = lt + 1;
    *(pmajor_u32x8 *)c->a_pd = (diff << 8) & ~lt;
    *(pmajor_u32x4 *)c->a_ps = __builtin_shufflevector(ps, ps, 0, 1, 2, 3);
    c->a_ps[4] = ps[4];
    span_prepare_z(c, wbuffer);
    c->lin_fast = false;
    if (ix->linear && ix->lin_recip != 0 && ix->xdiff <= 1024) {
        const __m128i dd[2] = {(__m128i)__builtin_shufflevector(d, d, 0, 1, 2, 3),
                               (__m128i)__builtin_shufflevector(d, d, 1, 2, 3, 4)};
        c->lin_fast = span_lin_fast_vec(dd, ix->xdiff);
    }
}
#endif

/* raster_slope_attr_vec (SPAN_VEC), with slope_persp8 for a perspective edge when @p wide. */
#if SPAN_VEC
SPAN_INLINE int32_t slope_attr_wide(const raster_slope *s, __m128i v[2], bool wide)
{
#if PMAJOR_AVX2
    if (wide && !s->interp.linear) {
        pmajor_u32x8 w;
        slope_persp8(s, &w);
        return slope_persp8_split(&w, v);
    }
#else
    (void)wide;
#endif
    return raster_slope_attr_vec(s, v);
}
#endif

/* Whether line_persp_span takes both edges' values and the span's set-up on eight lanes
 * (@p wide, pmajor_lines_avx2's, and both edges perspective): constant between two edge
 * set-ups. */
SPAN_INLINE bool line_persp_w8(const raster_poly *rp, bool wide)
{
    return PMAJOR_AVX2 && wide && !rp->left.interp.linear && !rp->right.interp.linear;
}

/* line_setup_persp's line once the edges are set up and not crossed (@p xstart <= @p xend,
 * the span's ends with line_seg_xend's push); @p g: the edges' part, line_seg_init; @p wide:
 * pmajor_lines_avx2's (slope_attr_wide); @p w8: line_persp_w8(rp, wide), then @p p8 the
 * edges' slope_pre8. */
SPAN_INLINE void line_persp_span(raster_engine *r, raster_poly *rp, int32_t y, span_line *c,
                                 bool wbuf, bool aa, int32_t xstart, int32_t xend,
                                 const line_seg *g, bool wide, bool w8, const persp8_seg *p8)
{
    const raster_slope *L = &rp->left, *R = &rp->right;
#if SPAN_VEC
    /* (zero: gcc 12 does not see that the eight-lane path, w8, leaves them unread) */
    __m128i lv[2] = {0}, rv[2] = {0};
    int32_t wl, wr;
#if PMAJOR_AVX2
    /* both edges perspective: their values and the span's set-up on eight lanes */
    pmajor_u32x8 l8, r8;
    if (w8) {
        slope_persp8_pre(L, &p8->l, &l8);
        slope_persp8_pre(R, &p8->r, &r8);
        wl = (int32_t)l8[0];
        wr = (int32_t)r8[0];
    } else
#endif
    {
        wl = slope_attr_wide(L, lv, wide);
        wr = slope_attr_wide(R, rv, wide);
    }
#if !PMAJOR_AVX2
    (void)w8;
    (void)p8;
#endif
#else
    (void)wide;
    (void)w8;
    (void)p8;
    int32_t la[RASTER_EDGE_ATTRS], ra[RASTER_EDGE_ATTRS];
    raster_slope_attr_values(L, la);
    raster_slope_attr_values(R, ra);
    const int32_t *lv = la + RASTER_EA_R, *rv = ra + RASTER_EA_R;
    int32_t wl = la[RASTER_EA_W], wr = ra[RASTER_EA_W];
#endif
    if (wbuf) {
        c->zl = raster_interp_z(&L->interp, L->z0, L->z1, true);
        c->zr = raster_interp_z(&R->interp, R->z0, R->z1, true);
    } else {
        c->zl = raster_slope_zdepth(L);
        c->zr = raster_slope_zdepth(R);
    }

    bool bottom = y == rp->ybottom - 1;
    if (aa) {
        raster_slope_edge_params(L, false, &c->l_len, &c->l_cov);
        raster_slope_edge_params(R, false, &c->r_len, &c->r_cov);
    } else {
        c->l_len = raster_slope_edge_length(L, false);
        c->r_len = raster_slope_edge_length(R, false);
    }
    line_seg_fill(g, bottom, xstart, xend, c);
    line_span_ends(rp, y, bottom, xstart, xend, c);
    line_persp_interp(c, xstart, xend, wl, wr, r->recip);
#if PMAJOR_AVX2
    if (w8) {
        span_prepare_persp8(c, wbuf, &l8, &r8);
        return;
    }
#endif
    span_prepare(c, wbuf, false, false, false, lv, rv);
}

/*
 * line_setup for the polygons of line_persp_ok (perspective ones: vertices of different W,
 * most of scene_terrain's, scene_characters' and Nitro models'; and those lin_line leaves out:
 * W-buffered, anti-aliased, W with low bits). The same values as line_setup, with the modes
 * that are constant for the polygon passed in (@p wbuf: W-buffered; @p aa: anti-aliasing, the
 * edges' coverage) rather than tested per line, the fields that are the same on every line set
 * once by line_persp_begin, the edges' values kept in registers, and the span's interpolator
 * without the direction's tests (line_persp_interp). Crossed edges take line_setup. (The
 * polygon-major loop, pmajor_lines, takes line_persp_span straight, the edges' tests once per
 * edge pair.)
 * unit.test_raster_lines_fast compares the two on random frames (raster_engine.ref_lines).
 */
SPAN_INLINE void line_setup_persp(raster_engine *r, raster_poly *rp, int32_t y, span_line *c,
                                  bool wbuf, bool aa)
{
    if (y >= rp->yl_next && rp->cur_l != rp->vbottom) raster_poly_setup_left(r, rp, y);
    if (y >= rp->yr_next && rp->cur_r != rp->vbottom) raster_poly_setup_right(r, rp, y);
    line_seg g;
    line_seg_init(rp, &g);
    int32_t xstart = rp->xl, xend = line_seg_xend(&g, rp->xl, rp->xr);
    if (xstart > xend) {
        line_setup(r, rp, y, c); /* (the edges are set up for y: it does not repeat that) */
        return;
    }
    line_persp_span(r, rp, y, c, wbuf, aa, xstart, xend, &g, false, false, NULL);
}

uint8_t raster_span_flags(const raster_engine *r, const raster_poly *rp)
{
    return (uint8_t)(rp->depth_test | (rp->poly->wbuffer ? SPAN_WBUFFER : 0) |
                     (rp->is_shadow ? SPAN_SHADOW : 0) |
                     (disp3dcnt_antialias(r->disp3dcnt) ? SPAN_AA : 0));
}

SPAN_INLINE void step_edges(raster_poly *rp)
{
    rp->xl = raster_slope_step(&rp->left);
    rp->xr = raster_slope_step(&rp->right);
}

/* An edge's perspective factor (raster_interp_update_factor) on a segment's lines, its
 * numerator and denominator stepped instead of multiplied out each line: num = (x * w0n) <<
 * shift mod 2^64 and den = x * w0d + (xdiff - x) * w1d mod 2^32 are linear in x, so at x + 1
 * they are num + (w0n << shift) and den + (w0d - w1d) in the same arithmetic, exactly. w0n,
 * w0d, w1d, shift, xdiff and linear are the edge set-up's, constant on the segment. */
typedef struct seg_fac {
    uint64_t num, nstep;
    uint32_t den, dstep;
} seg_fac;

SPAN_INLINE void seg_fac_init(seg_fac *f, const raster_interp *ip)
{
    const int32_t x = ip->x;
    if (ip->xdiff == 0 || ip->linear) {
        /* the factor is not computed: it keeps its value, which num / den = factor / 1 gives
         * on every line (below 2^32: the 32-bit divide's case), no test a line */
        f->num = ip->factor;
        f->den = 1u;
        f->nstep = f->dstep = 0u;
        return;
    }
    f->num = (uint64_t)dsgx_shl64(dsgx_mul64(x, ip->w0n), ip->shift);
    f->nstep = (uint64_t)dsgx_shl64(ip->w0n, ip->shift);
    f->den = (uint32_t)dsgx_wrap32(dsgx_mul64(x, ip->w0d) + dsgx_mul64(ip->xdiff - x, ip->w1d));
    f->dstep = (uint32_t)ip->w0d - (uint32_t)ip->w1d;
}

/* raster_slope_advance with the factor from @p f (its quotient as
 * raster_interp_update_factor's). */
SPAN_INLINE void seg_advance(raster_slope *s, seg_fac *f)
{
    s->dx = (int32_t)((uint32_t)s->dx + (uint32_t)s->inc);
    s->interp.x++;
    f->num += f->nstep;
    f->den += f->dstep;
    s->interp.factor = raster_interp_quotient(f->num, (int32_t)f->den);
    if (s->attr_lin_fast) {
        for (int k = 0; k < RASTER_EDGE_ATTRS - 1; k++) s->attr_acc[k] += s->attr_step[k];
    }
    s->zacc += s->zstep; /* (0 unless zacc_on) */
}

/* step_edges' X on a segment's lines (line_seg_edges: the edges' lines y0 <= y < y1, set up
 * again where one ends) once both edges have advanced (seg_advance, each with its factor from
 * seg_fac_init at the segment's start), @p lx / @p rx the edges' xmajor: a Y-major edge's X by
 * raster_slope_x_ymajor (the X stepped past the segment's last line, yseg, may lie out of the
 * edge's range only if the edge ends there: then line_seg_edges sets it up again, and rp->xl /
 * rp->xr anew, or the line is the polygon's bottom, not drawn). */
SPAN_INLINE void seg_step_x(raster_poly *rp, bool lx, bool rx)
{
    rp->xl = lx ? raster_slope_x(&rp->left) : raster_slope_x_ymajor(&rp->left);
    rp->xr = rx ? raster_slope_x(&rp->right) : raster_slope_x_ymajor(&rp->right);
}

/* The pixels a line draw may touch, [max(xstart, 0), min(xend + 1, 256, xcut)), as
 * draw_line / draw_mask_line bound them, are made valid for the lazy clear (render.c). */
static void span_touch(raster_engine *r, int32_t y, const span_line *c, int32_t xcut)
{
    int32_t x0 = c->xstart < 0 ? 0 : c->xstart;
    raster_span_begin(r, y, x0, min32(c->xend + 1, min32(256, xcut)));
}

static void mask_line(raster_band *b, raster_poly *rp, int32_t y)
{
    raster_engine *r = b->r;
    span_line c;
    b->drew = true;
    if (!b->prev_mask) {
        for (int i = 0; i < 256; i++) r->stencil[(y & 1) * 256 + i] = 0;
    }
    b->prev_mask = true;
    line_setup(r, rp, y, &c);

    /* the whole mask has one alpha (shadows use decal); alpha-tested up front, and the edges
     * are then not stepped (melonDS returns early) */
    uint32_t alpha = rp->wireframe ? 31u : rp->alpha;
    if (raster_timing_line_aborted(b->timing, y)) {
        step_edges(rp);
        return;
    }
    if (alpha <= r->alpha_ref) {
        (void)raster_timing_poly_span(b->timing, y, c.xstart, c.xend, false);
        return;
    }
    int32_t xcut = raster_timing_poly_span(b->timing, y, c.xstart, c.xend, true);
    if (xcut >= 0) {
        span_touch(r, y, &c, xcut);
        draw_mask_line(&c, xcut, rp->depth_test, rp->wbuffer);
    }
    step_edges(rp);
}

/* (not inlined into draw_scanline: gcc 12 does since span_prepare became smaller, and the
 * merged function ran ~0.56 M more instructions on g_heavy_1, callgrind) */
SPAN_NOINLINE static void poly_line(raster_band *b, raster_poly *rp, int32_t y)
{
    raster_engine *r = b->r;
    span_line c;
    b->drew = true;
    b->prev_mask = false;
    if (rp->lin_line) {
        line_lin_begin(r, rp, &c);
        line_setup_lin(r, rp, y, &c, false);
    } else if (line_persp_ok(r, rp)) {
        line_persp_begin(r, rp, &c);
        line_setup_persp(r, rp, y, &c, rp->wbuffer, rp->span_flags & SPAN_AA);
    } else {
        line_setup(r, rp, y, &c);
    }
    if (!raster_timing_line_aborted(b->timing, y)) {
        int32_t xcut = raster_timing_poly_span_px(b->timing, y, c.xstart, c.xend);
        if (xcut >= 0) {
            span_touch(r, y, &c, xcut);
            raster_span_choose(rp, &c)(&c, xcut);
        }
    }
    if (rp->lin_line) { /* (every edge of the polygon is linear) */
        rp->xl = raster_slope_step_lin(&rp->left);
        rp->xr = raster_slope_step_lin(&rp->right);
    } else {
        step_edges(rp);
    }
}

/* The polygons on line y, in render-list order: those still on it from the line above, merged
 * with those whose top line is y (at the band's first line: every polygon on it). Same set as
 * testing ytop <= y <= ybottom for every polygon. An entry of the active list is the polygon's
 * render-list index << 16 | its state slot: entries compare in list order, and the scanline
 * loop finds the state without a second lookup. */
static void update_active(raster_band *b, int32_t y)
{
    raster_engine *r = b->r;
    uint32_t n = 0, k = 0;
    uint32_t next;
    if (y == b->y0 && y > 0) {
        /* the first line of a band below line 0: the polygons above it that reach it, in list
         * order */
        b->nactive = 0;
        for (uint32_t i = 0; i < r->npolys; i++) {
            if (r->list[i]->ytop < y && r->list[i]->ybottom >= y) {
                uint32_t slot = b->free_slots[--b->nfree];
                b->active[b->nactive++] = i << 16 | slot;
                b->polys[slot].poly = r->list[i];
                raster_poly_activate(r, &b->polys[slot], y);
            }
        }
    }
    next = y < 256 ? r->start_first[y] : 0xFFFF;
    for (;;) {
        uint32_t a = UINT32_MAX;
        while (k < b->nactive) {
            a = b->active[k];
            if (b->polys[a & 0xFFFFu].ybottom >= y) break;
            b->free_slots[b->nfree++] = (uint16_t)a; /* done: its slot is free */
            a = UINT32_MAX, k++;
        }
        if (a == UINT32_MAX && next == 0xFFFF) break;
        if (next << 16 < a) {
            uint32_t slot = b->free_slots[--b->nfree]; /* (never empty: one per polygon) */
            b->polys[slot].poly = r->list[next];
            raster_poly_activate(r, &b->polys[slot], y);
            b->active_tmp[n++] = next << 16 | slot;
            next = r->start_next[next];
        } else {
            b->active_tmp[n++] = a;
            k++;
        }
    }
    for (uint32_t i = 0; i < n; i++) b->active[i] = b->active_tmp[i];
    b->nactive = n;
}

static void draw_scanline(raster_band *b, int32_t y)
{
    raster_engine *r = b->r;
    update_active(b, y);
    /* Lazy clear: a line crossed by many polygons is cleared whole at once (one vectorised
     * fill instead of many small range extensions); same buffer contents either way. */
    if (r->lazy_clear && b->nactive >= 8) raster_span_begin(r, y, 0, 256);
    raster_timing_line_begin(b->timing, y);
    for (uint32_t i = 0; i < b->nactive; i++) {
        raster_poly *rp = &b->polys[b->active[i] & 0xFFFFu];
        if (y == rp->ybottom && rp->ytop != rp->ybottom) {
            raster_timing_poly_bottom(b->timing, y);
            continue;
        }
        if (rp->is_mask)
            mask_line(b, rp, y);
        else
            poly_line(b, rp, y);
    }
    raster_timing_line_end(b->timing, y);
}

void raster_band_start(raster_band *b)
{
    /* every state slot free, slot 0 taken first */
    b->nactive = 0;
    b->nfree = GX_MAX_POLYGONS;
    for (uint32_t k = 0; k < GX_MAX_POLYGONS; k++)
        b->free_slots[k] = (uint16_t)(GX_MAX_POLYGONS - 1u - k);
    b->drew = false;
    b->prev_mask = b->r->prev_shadow_mask;
}

void raster_band_line(raster_band *b, int32_t y)
{
    draw_scanline(b, y);
}

void raster_draw_band(raster_band *b)
{
    raster_band_start(b);
    for (int32_t y = b->y0; y < b->y1; y++) draw_scanline(b, y);
}

/* ---- polygon-major order ---- */

/*
 * The same frame drawn polygon by polygon: each polygon of the render list over all its lines
 * of the band, in list order, instead of every polygon on a line, line by line. Why the
 * pixels are the same: a polygon line reads and writes only its own row (both layers), and on
 * every row the polygons still come in list order, so each pixel sees the same writes in the
 * same order; what runs from line to line in the scanline order is left out or kept per line:
 *  - the shadow stencil rows and the "previous polygon was a shadow mask" flag: frames with
 *    shadow polygons or masks are drawn scanline by scanline (raster_pmajor_frame);
 *  - the timing model: each line's charges are recorded into that line's entry (timing.h
 *    raster_timing_prec_*; the need made at the band's end), in list order per line, and
 *    replayed in line order by the caller as for the bands of several threads (threads.c; a
 *    line the live model would have cut sends the frame back to the scanline order);
 *  - the lazy clear (render.c) is exact in any order: a line's valid range only grows to the
 *    one run holding every span that touched it, and only pixels outside it are cleared; the
 *    whole-line clear of lines crossed by 8 or more polygons is done for every line before any
 *    polygon, where draw_scanline does it before the line's first polygon (the line is then
 *    untouched either way);
 *  - a polygon's edges step from line to line in its own state (one activation per band, at
 *    its first line in it, as update_active does).
 */

/* An upper bound of each line's timing charges (rec[y]): every polygon charged 12 plus the
 * pixel cost of its bounding box's width on each line it is drawn on, 4 on its bottom line,
 * and 2 units more needed after the last. Every span lies within its polygon's bounding box
 * (edges are clamped to their extent), so no line costs more than this. Also which lines 8 or
 * more polygons cross (raster_engine.pmajor_full). From the per-line differences
 * raster_setup_frame added up (raster_engine.est; the reference: test_raster_pmajor's
 * estimate_ref, from the boxes). */
static int64_t pmajor_estimate(raster_engine *r, raster_timing_line *rec)
{
    int64_t run = 0, most = 0;
    for (int32_t y = 0; y < RASTER_TIMING_LINES; y++) {
        run += r->est[y];
        r->pmajor_full[y] = (run & (RASTER_EST_ONE - 1)) >= 8;
        rec[y].time = run / RASTER_EST_ONE; /* (run >= 0) */
        rec[y].need = rec[y].time > 0 ? rec[y].time + RASTER_TIMING_MIN_TO_START : INT64_MIN;
        most = rec[y].need > most ? rec[y].need : most;
    }
    return most;
}

bool raster_pmajor_frame(raster_engine *r)
{
    if (r->has_shadows || r->scanline_order) return false;
    /* (the active list keeps a polygon from its top line through its bottom line; the lines
     * drawn here are the same for these, which is every polygon the geometry engine makes) */
    if (!r->list_ytop_ok) return false; /* (0 <= ytop <= ybottom for each: setup.c) */
    /* A frame the timing model cuts is drawn scanline by scanline against the live model: drawn
     * polygon by polygon first, it would be drawn twice. When the upper bound of its lines'
     * costs fits, the frame does (a line that costs less leaves no less time to any later
     * line: timing.h raster_timing_fits); else it may not, and the scanline order draws it. */
    /* (lines that need at most the final pass's 500 units, the first-polygon delay included,
     * always fit: each pair then takes 512 units, its deadline comes 2130 later than the last
     * one's, and a buffer stall waits for a line read far before the deadline; no need to ask
     * the model) */
    return pmajor_estimate(r, r->line_rec) <= 500 - 4 ||
           raster_timing_fits(&r->timing, r->line_rec) || r->pmajor_unchecked;
}

/* span_touch when @p touch (pmajor_touch), else nothing. */
SPAN_INLINE void pmajor_span_touch(raster_engine *r, int32_t y, const span_line *c, bool touch)
{
    if (touch) span_touch(r, y, c, RASTER_TIMING_NO_LIMIT);
}

/* The timing record of a line whose span is [xstart, xend] with xstart <= xend (the segment
 * loops' uncrossed lines): its width when the span starts on the screen, else the span. */
SPAN_INLINE void pmajor_prec(raster_timing_line *rec, int32_t xstart, int32_t xend)
{
    if (xstart >= 0)
        raster_timing_prec_width(rec, xend + 1 - xstart);
    else
        raster_timing_prec_span(rec, xstart, xend);
}

/* pmajor_lines' lines [y, yseg) of a line_persp_ok polygon between two edge set-ups (@p g,
 * @p xpush, @p fl, @p fr: the segment's, as set up there; @p w8: line_persp_w8); @return yseg. */
SPAN_INLINE int32_t pmajor_persp_seg(raster_engine *r, raster_poly *rp, int32_t y, int32_t yseg,
                                     span_line *c, raster_timing_line *rec, bool touch,
                                     const line_seg *g, int32_t xpush, seg_fac *fl, seg_fac *fr,
                                     bool wbuf, bool aa, bool wide, bool w8)
{
    const bool lx = rp->left.xmajor, rx = rp->right.xmajor;
    persp8_seg p8;
#if PMAJOR_AVX2
    if (w8) {
        slope_pre8_init(&rp->left, &p8.l);
        slope_pre8_init(&rp->right, &p8.r);
    }
#endif
    for (; y < yseg; y++) {
        int32_t xstart = rp->xl, xend = rp->xr - xpush;
        if (xstart <= xend) {
            line_persp_span(r, rp, y, c, wbuf, aa, xstart, xend, g, wide, w8, &p8);
            /* (the span's xstart, xend: line_persp_span's) */
            pmajor_prec(&rec[y], xstart, xend);
        } else {
            line_setup(r, rp, y, c); /* (crossed edges) */
            raster_timing_prec_span(&rec[y], c->xstart, c->xend);
        }
        pmajor_span_touch(r, y, c, touch);
        const raster_span_fn fn = raster_span_choose(rp, c);
        /* The next line's edge values (two divisions for the factors, ~15 cycles of latency
         * each, on which the next line's set-up waits) are begun before the span is drawn, so
         * that they run in its shadow; the span functions read no edge's per-line fields.
         * rp->xl / rp->xr after: curse.c's roles compare the span's start with this line's
         * rp->xl. */
        seg_advance(&rp->left, fl);
        seg_advance(&rp->right, fr);
        fn(c, RASTER_TIMING_NO_LIMIT);
        seg_step_x(rp, lx, rx);
    }
    return y;
}

/* pmajor_poly_*'s lines [y, ydraw) of a polygon that is not lin_line: by line_setup_persp when
 * line_persp_ok, else line_setup. (Out of line, pmajor_lines_avx2 / pmajor_lines_plain: with
 * these loops inline beside line_setup_lin's, the latter's lost registers, g_heavy_1 +0.05 to
 * +0.17 M instructions.) */
SPAN_INLINE void pmajor_lines(raster_engine *r, raster_poly *rp, int32_t y, int32_t ydraw,
                              raster_timing_line *rec, bool touch, bool wide)
{
    /* 64-byte aligned (in gcc's 32-byte aligned frame it sat at 48 mod 64): scene_terrain's
     * render paired 0.987 over 67 rounds on AMD Zen 4, the same instructions. One profile of
     * the 48 mod 64 frame had put 35% of pmajor_lines_avx2's samples after
     * span_prepare_persp8's 16-byte a_ps store, which then split a cache line (bytes 52-67);
     * four more did not, so that cost depends on the process (its stack's place). */
    _Alignas(64) span_line c;
    if (line_persp_ok(r, rp)) {
        line_persp_begin(r, rp, &c);
        const bool wbuf = rp->wbuffer, aa = rp->span_flags & SPAN_AA;
        while (y < ydraw) {
            /* the lines up to the next edge set-up, as in pmajor_poly_* */
            const int32_t yseg = line_seg_edges(r, rp, y, ydraw);
            line_seg g;
            line_seg_init(rp, &g);
            /* line_seg_xend's push, the segment's constant (as in pmajor_lin_fast) */
            const int32_t xpush = rp->xr - line_seg_xend(&g, rp->xl, rp->xr);
            seg_fac fl, fr;
            seg_fac_init(&fl, &rp->left.interp);
            seg_fac_init(&fr, &rp->right.interp);
            /* the segment's lines with the modes known: the common case (no W-buffer, no
             * anti-aliasing, both edges perspective on eight lanes) without their tests */
            const bool w8 = line_persp_w8(rp, wide);
            if (w8 && !wbuf && !aa)
                y = pmajor_persp_seg(r, rp, y, yseg, &c, rec, touch, &g, xpush, &fl, &fr, false,
                                     false, true, true);
            else if (!w8)
                y = pmajor_persp_seg(r, rp, y, yseg, &c, rec, touch, &g, xpush, &fl, &fr, wbuf, aa,
                                     wide, false);
            else
                y = pmajor_persp_seg(r, rp, y, yseg, &c, rec, touch, &g, xpush, &fl, &fr, wbuf, aa,
                                     true, true);
        }
        return;
    }
    for (; y < ydraw; y++) {
        line_setup(r, rp, y, &c);
        raster_timing_prec_span(&rec[y], c.xstart, c.xend);
        pmajor_span_touch(r, y, &c, touch);
        raster_span_choose(rp, &c)(&c, RASTER_TIMING_NO_LIMIT);
        step_edges(rp);
    }
}

#if PMAJOR_AVX2
/* The polygon-major loop of an engine with span_isa AVX2 (its span functions are AVX2's too)
 * compiled for AVX2 (pmajor_poly_avx2, pmajor_lines_avx2): the line set-up's vectors in the
 * three-operand VEX forms, which need no register copies and take their memory operands
 * unaligned, an edge's four 64-bit accumulators in one vector (seg_step, slope_acc4). The same
 * source and arithmetic as the other engines' copies (_plain). */
static __attribute__((noinline, target("avx2"))) void
pmajor_lines_avx2(raster_engine *r, raster_poly *rp, int32_t y, int32_t ydraw,
                  raster_timing_line *rec, bool touch)
{
    pmajor_lines(r, rp, y, ydraw, rec, touch, true);
}
#endif

/* pmajor_lines of other engines. */
SPAN_NOINLINE static void pmajor_lines_plain(raster_engine *r, raster_poly *rp, int32_t y,
                                             int32_t ydraw, raster_timing_line *rec, bool touch)
{
    pmajor_lines(r, rp, y, ydraw, rec, touch, false);
}

/* pmajor_poly_*'s lines [y, yseg) of a lin_line polygon whose edges line_setup_lin does not
 * take (line_lin_edge_ok): line_setup, as line_setup_lin falls back to. (Out of line: rare.) */
SPAN_NOINLINE static void pmajor_lines_ref(raster_engine *r, raster_poly *rp, int32_t y,
                                           int32_t yseg, raster_timing_line *rec, bool touch)
{
    span_line c;
    line_lin_begin(r, rp, &c);
    for (; y < yseg; y++) {
        line_setup(r, rp, y, &c);
        raster_timing_prec_span(&rec[y], c.xstart, c.xend);
        pmajor_span_touch(r, y, &c, touch);
        raster_span_choose(rp, &c)(&c, RASTER_TIMING_NO_LIMIT);
        rp->xl = raster_slope_step_lin(&rp->left);
        rp->xr = raster_slope_step_lin(&rp->right);
    }
}

/* raster_slope_step_acc(s, true) of an edge whose depth does not step (zacc_on false: zstep
 * 0) when !@p zstep, on a segment's lines (seg_step_x: its X by raster_slope_x_ymajor
 * when @p xmajor is false, which the edge's xmajor is then). */
SPAN_INLINE int32_t seg_step(raster_slope *s, bool zstep, bool wide, bool xmajor)
{
    s->dx = (int32_t)((uint32_t)s->dx + (uint32_t)s->inc);
    s->interp.x++;
#if PMAJOR_AVX2
    if (wide) {
        *(pmajor_u64x4 *)s->attr_acc += *(const pmajor_u64x4 *)s->attr_step;
        s->attr_acc[4] += s->attr_step[4];
        if (zstep) s->zacc += s->zstep;
        return xmajor ? raster_slope_x(s) : raster_slope_x_ymajor(s);
    }
#else
    (void)wide;
#endif
#if SPAN_VEC
    /* (as two four-lane halves and a scalar, the loads raster_slope_acc_vec / slope_acc4
     * make: gcc's own vector form of the loop here ran 4 instructions more a line) */
    __m128i *acc = (__m128i *)s->attr_acc;
    const __m128i *step = (const __m128i *)s->attr_step;
    _mm_storeu_si128(acc, _mm_add_epi64(_mm_loadu_si128(acc), _mm_loadu_si128(step)));
    _mm_storeu_si128(acc + 1, _mm_add_epi64(_mm_loadu_si128(acc + 1), _mm_loadu_si128(step + 1)));
    s->attr_acc[4] += s->attr_step[4];
#else
    for (int k = 0; k < RASTER_EDGE_ATTRS - 1; k++) s->attr_acc[k] += s->attr_step[k];
#endif
    if (zstep) s->zacc += s->zstep;
    return xmajor ? raster_slope_x(s) : raster_slope_x_ymajor(s);
}

/* pmajor_poly_*'s lines [y, yseg) of a segment of a lin_line polygon whose edges line_lin_span
 * takes; @p zconst: span_z_const holds for them; @p quick: their runs, fill rules and edge
 * flags are line_runs' (both edges Y-major, no line polygon rule). (Inline with constant
 * flags: one loop for each; a constant quick took g_heavy_1 from 9.26 M to 9.10 M
 * instructions against a flag tested per line.) */
SPAN_INLINE void pmajor_lin_lines(raster_engine *r, raster_poly *rp, int32_t y, int32_t yseg,
                                  span_line *c, raster_timing_line *rec, bool touch, bool narrow,
                                  const line_seg *g, bool zconst, bool wide, bool quick)
{
    raster_slope *L = &rp->left, *R = &rp->right;
    /* the lines' runs, fill rules and edge flag when line_runs has them: a line's stored
     * before it (for the first line here, for the others after the line above, which a
     * crossed line's line_setup may have overwritten) */
    const int32_t ybot = rp->ybottom - 1;
    line_runs runs[2]; /* [1]: the polygon's bottom line */
    if (quick) {
        runs[0] = (line_runs){1, 1, g->l_mid, g->r_mid, 0u};
        runs[1] = (line_runs){1, 1, g->l_bot, g->r_bot, RASTER_ATTR_EDGE_BOTTOM};
        line_runs first = runs[y == ybot];
        if (y == rp->ytop) first.yedge = RASTER_ATTR_EDGE_TOP;
        line_runs_put(c, &first);
    }
    /* (quick: both Y-major) */
    const bool lx = !quick && L->xmajor, rx = !quick && R->xmajor;
    /* line_seg_xend's push, the segment's constant (as in pmajor_lin_fast) */
    const int32_t xpush = rp->xr - line_seg_xend(g, rp->xl, rp->xr);
    for (; y < yseg; y++) {
        int32_t xstart = rp->xl, xend = rp->xr - xpush;
        raster_span_fn fn;
        if (xstart <= xend) {
            fn = line_lin_span(r, rp, y, c, narrow, zconst, xstart, xend, g, wide, quick);
            pmajor_prec(&rec[y], xstart, xend);
        } else {
            line_setup(r, rp, y, c); /* (crossed edges) */
            fn = raster_span_choose(rp, c);
            raster_timing_prec_span(&rec[y], c->xstart, c->xend);
        }
        pmajor_span_touch(r, y, c, touch);
        fn(c, RASTER_TIMING_NO_LIMIT);
        rp->xl = seg_step(L, !zconst, wide, lx);
        rp->xr = seg_step(R, !zconst, wide, rx);
        if (quick) line_runs_put(c, &runs[y + 1 == ybot]); /* (the next line's: not the top) */
    }
}

#if PMAJOR_AVX2
typedef uint32_t pmajor_u32x4v __attribute__((vector_size(16)));
typedef int32_t pmajor_i32x4v __attribute__((vector_size(16)));

/* Both edges' raster_slope_x state for the lines of a segment, lane 0 the left edge, lane 1
 * the right (lanes 2, 3: another field's pair, unread): their accumulators dx, stepped here
 * (seg_x_step), and the rest of their X fields, which are the segment's constants; the edges' own
 * dx and interpolator positions are written back once, where the segment ends or a line reads them
 * (seg_x_sync). One vector form for both edges, its operands read from here (the span call takes
 * every vector register): the X of the two edges took ~44 instructions a line as scalars, stored,
 * loaded and clamped one edge at a time. */
typedef struct seg_x {
    pmajor_u32x4v dx, inc, xbase, xsign;
} seg_x;

/* raster_slope's X fields dx .. near_keep: 32 bytes in this order, read by seg_x_init as one
 * vector per edge */
_Static_assert(offsetof(raster_slope, inc) == offsetof(raster_slope, dx) + 4 &&
                   offsetof(raster_slope, xbase) == offsetof(raster_slope, dx) + 8 &&
                   offsetof(raster_slope, xsign) == offsetof(raster_slope, dx) + 12 &&
                   offsetof(raster_slope, xmin) == offsetof(raster_slope, dx) + 16 &&
                   offsetof(raster_slope, xmax) == offsetof(raster_slope, dx) + 20 &&
                   offsetof(raster_slope, far_mask) == offsetof(raster_slope, dx) + 24 &&
                   offsetof(raster_slope, near_keep) == offsetof(raster_slope, dx) + 28,
               "raster_slope's X fields adjacent, in seg_x_init's order");

/* Each edge's X fields as one load, the pair interleaved by two shuffles (lanes 0, 1 of every
 * field: left, right; lanes 2, 3 hold another field's pair, which seg_x_step computes with and
 * nothing reads): a few instructions a segment for the ~35 of seven vectors built lane by
 * lane. */
SPAN_INLINE void seg_x_init(seg_x *v, const raster_slope *L, const raster_slope *R)
{
    const pmajor_u32x8 l = *(const pmajor_u32x8 *)&L->dx, r = *(const pmajor_u32x8 *)&R->dx;
    /* lo: dx, inc | xmin, xmax; hi: xbase, xsign | far_mask, near_keep (left, right each) */
    const pmajor_u32x8 lo = __builtin_shufflevector(l, r, 0, 8, 1, 9, 4, 12, 5, 13);
    const pmajor_u32x8 hi = __builtin_shufflevector(l, r, 2, 10, 3, 11, 6, 14, 7, 15);
    v->dx = __builtin_shufflevector(lo, lo, 0, 1, 2, 3);
    v->inc = __builtin_shufflevector(lo, lo, 2, 3, 0, 1);
    v->xbase = __builtin_shufflevector(hi, hi, 0, 1, 2, 3);
    v->xsign = __builtin_shufflevector(hi, hi, 2, 3, 0, 1);
}

/* raster_slope_step_acc's dx step and raster_slope_x of both edges, lane by lane the same
 * 32-bit arithmetic (wrapping adds, the arithmetic shift): the span X of the next line in
 * lanes 0 (left) and 1 (right). Of two Y-major edges (pmajor_lin_fast's): raster_slope_x_ymajor
 * (edge.h) lane by lane, without the far-end correction and the clamps (its comment gives the
 * proof). The X stepped past a segment's last line (seg_x_sync's, line yseg) is read only where
 * the edge ends there, and then its set-up (line_seg_edges) writes it anew, or on the polygon's
 * bottom line, which is not drawn. */
SPAN_INLINE pmajor_i32x4v seg_x_step(seg_x *v)
{
    const pmajor_u32x4v d = v->dx + v->inc;
    v->dx = d;
    const pmajor_i32x4v off = (pmajor_i32x4v)d >> 18;
    return (pmajor_i32x4v)((v->xbase + (pmajor_u32x4v)off) ^ v->xsign);
}

/* The edges' dx from @p v, their interpolator positions @p n lines after @p ixl / @p ixr (one
 * a line: raster_slope_step_acc), and the polygon's span X @p xl, @p xr. */
SPAN_INLINE void seg_x_sync(const seg_x *v, raster_poly *rp, int32_t ixl, int32_t ixr, int32_t n,
                            int32_t xl, int32_t xr)
{
    rp->left.dx = (int32_t)v->dx[0];
    rp->right.dx = (int32_t)v->dx[1];
    rp->left.interp.x = ixl + n;
    rp->right.interp.x = ixr + n;
    rp->xl = xl;
    rp->xr = xr;
}

/* slope_acc4's values with t in lane 4 (lanes 5-7: 0 or anything: span_attrs_prepare_lin8's
 * stores of them are overwritten). The accumulators acc[0..3] and acc[4], and attr_base's r, g,
 * b, s and t, each read as one load within what one store wrote (the step stores acc[0..3] as
 * one vector and acc[4] apart: a load across two stores, or across attr_base's end into acc[0],
 * would wait for them, a store-forwarding stall every line). The halves joined by the
 * intrinsic on the cast: the generic shuffle of two 16-byte vectors zeroes the upper half
 * first, a register copy an edge a line (~60 K instructions a frame on g_heavy_1). */
PMAJOR_AVX2_INLINE void slope_acc8(const raster_slope *s, pmajor_u32x8 *v)
{
    const pmajor_u32x8 a = (pmajor_u32x8)(*(const pmajor_u64x4 *)s->attr_acc >> 35);
    const pmajor_u32x4 lo = __builtin_shufflevector(a, a, 0, 2, 4, 6) +
                            *(const pmajor_u32x4 *)(s->attr_base + RASTER_EA_R);
    const pmajor_u32x4 t = {s->attr_base[RASTER_EA_T] +
                            (uint32_t)(s->attr_acc[RASTER_EA_T - 1] >> 35)};
    *v = (pmajor_u32x8)_mm256_inserti128_si256(_mm256_castsi128_si256((__m128i)lo), (__m128i)t, 1);
}

/* span_attrs_prepare_lin4 of the five attributes in lanes 0-4 of @p a0 / @p a1 at once (the
 * same selects, signed compare, lane by lane): a_base and a_d stored as eight lanes, in this
 * order (lanes 5-7 of each land on the first three of the next array, which the next store
 * writes), a_sel as its five. @p base: a_base's r, g, b, s; @return a_d's. */
SPAN_INLINE __m128i span_attrs_prepare_lin8(span_line *c, const pmajor_u32x8 *v0,
                                            const pmajor_u32x8 *v1, __m128i *base)
{
    const pmajor_u32x8 a0 = *v0, a1 = *v1;
    _Static_assert(offsetof(span_line, a_d) == offsetof(span_line, a_base) + 20 &&
                       offsetof(span_line, a_sel) == offsetof(span_line, a_d) + 20,
                   "a_base, a_d and a_sel follow each other");
    const pmajor_u32x8 lt = (pmajor_u32x8)((pmajor_i32x8)a0 < (pmajor_i32x8)a1), diff = a0 - a1;
    const pmajor_u32x8 d = (diff ^ lt) - lt, b = a0 - (diff & ~lt), sel = lt + 1;
    *(pmajor_u32x8 *)c->a_base = b;
    *(pmajor_u32x8 *)c->a_d = d;
    *(pmajor_u32x4 *)c->a_sel = __builtin_shufflevector(sel, sel, 0, 1, 2, 3);
    c->a_sel[4] = sel[4];
    *base = (__m128i)__builtin_shufflevector(b, b, 0, 1, 2, 3);
    return (__m128i)__builtin_shufflevector(d, d, 0, 1, 2, 3);
}

/* seg_step's accumulators (not X: seg_x_step) of an edge, pmajor_poly_avx2's form. */
SPAN_INLINE void seg_acc_step(raster_slope *s, bool zstep)
{
    *(pmajor_u64x4 *)s->attr_acc += *(const pmajor_u64x4 *)s->attr_step;
    s->attr_acc[4] += s->attr_step[4];
    if (zstep) s->zacc += s->zstep;
}

/*
 * pmajor_lin_lines(..., narrow true, wide true, quick true) of a polygon with a linear span
 * function (rp->span_lin), each line's work that is the segment's constant done once for the
 * segment: the span function when @p fixfn (no flat variant, or both edges' r, g, b do not
 * step: the flat test and colour of the first line hold for every line), lin_fast (narrow:
 * always), the runs block stored only where it changes (the top line, the bottom line, after a
 * crossed line), the edges' X as one vector (seg_x), their interpolator positions, the span X
 * and the reciprocal table in the polygon written back at the end. A crossed line takes
 * line_setup as there, with the edges written back before it. The same values as
 * pmajor_lin_lines; unit.test_raster_lines_fast compares the two with line_setup.
 */
PMAJOR_AVX2_INLINE void pmajor_lin_fast(raster_engine *r, raster_poly *rp, int32_t y, int32_t yseg,
                                        span_line *c, raster_timing_line *rec, bool touch,
                                        const line_seg *g, bool zconst, bool fixfn)
{
    raster_slope *L = &rp->left, *R = &rp->right;
    const raster_recip *tab = r->recip;
    const int32_t ybot = rp->ybottom - 1, y0 = y, ixl = L->interp.x, ixr = R->interp.x;
    const line_runs runs[2] = {/* [1]: the polygon's bottom line */
                               {1, 1, g->l_mid, g->r_mid, 0u},
                               {1, 1, g->l_bot, g->r_bot, RASTER_ATTR_EDGE_BOTTOM}};
    /* the first line's block field by field (copied from runs, just stored, its loads would
     * wait for those stores: a store-forwarding stall, once a segment, ~6% of this loop's
     * time under perf) */
    const bool bot = y == ybot;
    c->l_len = c->r_len = 1;
    c->l_fill = bot ? g->l_bot : g->l_mid;
    c->r_fill = bot ? g->r_bot : g->r_mid;
    c->yedge = bot ? RASTER_ATTR_EDGE_BOTTOM : 0u;
    int32_t yput = ybot; /* the next line whose block differs from the line's before it */
    if (y == rp->ytop) {
        c->yedge = RASTER_ATTR_EDGE_TOP;
        yput = y + 1;
    }
    c->lin_fast = true;
    raster_span_fn fn = rp->span_lin;
    uint32_t flat = 0;
    if (fixfn && rp->span_flat) {
        uint32_t lt, rt;
        const __m128i lv = slope_acc4(L, &lt, true), rv = slope_acc4(R, &rt, true);
        if ((_mm_movemask_epi8(_mm_cmpeq_epi32(lv, rv)) & 0xFFF) == 0xFFF) {
            flat = span_flat_rgb(lv) | rp->spk.valpha;
            c->flat_color = flat;
            fn = rp->span_flat;
        }
    }
    seg_x v;
    seg_x_init(&v, L, R);
    int32_t xl = rp->xl, xr = rp->xr;
    /* line_seg_xend's push, the segment's constant: it pushes only a vertical right edge
     * (inc 0: xr the same on every line), and tests xl only if the left edge is vertical too
     * (xl the same on every line) */
    const int32_t xpush = xr - line_seg_xend(g, xl, xr);
    /* and folded into the right lane of v, which then gives the span's right end (xend) on
     * each line, xr - xpush: ((xbase - xpush) + off) ^ xsign on a positive edge (xsign 0),
     * ~(xbase + off) - xpush = ~((xbase + xpush) + off) on a negative one (xsign -1; a
     * horizontal edge, inc 0 too); (xpush ^ xsign) - xsign is xpush, -xpush */
    v.xbase[1] -= ((uint32_t)xpush ^ v.xsign[1]) - v.xsign[1];
    int32_t xend = xr - xpush;
    raster_timing_line *ry = &rec[y]; /* line y's */
    for (; y < yseg; y++, ry++) {
        raster_span_fn f = fn;
        if (__builtin_expect(xl <= xend, 1)) {
            pmajor_u32x8 lv, rv;
            slope_acc8(L, &lv);
            slope_acc8(R, &rv);
            if (!zconst) {
                c->zl = raster_slope_zdepth(L);
                c->zr = raster_slope_zdepth(R);
            }
            c->xstart = xl;
            c->xend = xend;
            c->line = raster_addr(0, y);
            /* line_lin_interp, narrow */
            const int32_t xdiff = xend + 1 - xl;
            c->ix.x0 = xl;
            c->ix.xdiff = xdiff;
            c->ix.xrecip_z = tab->z[xdiff];
            c->ix.lin_recip = tab->lin[xdiff];
            __m128i base;
            const __m128i d = span_attrs_prepare_lin8(c, &lv, &rv, &base);
            if (!zconst) span_prepare_z(c, false);
            if (!fixfn &&
                (_mm_movemask_epi8(_mm_cmpeq_epi32(d, _mm_setzero_si128())) & 0xFFF) == 0xFFF) {
                c->flat_color = span_flat_rgb(base) | rp->spk.valpha;
                f = rp->span_flat;
            }
            if (xl >= 0)
                raster_timing_prec_width(ry, xdiff);
            else
                raster_timing_prec_span(ry, xl, xend);
        } else {
            /* crossed edges: line_setup, from the edges as they are on this line */
            seg_x_sync(&v, rp, ixl, ixr, y - y0, xl, xend + xpush);
            line_setup(r, rp, y, c);
            f = raster_span_choose(rp, c);
            raster_timing_prec_span(ry, c->xstart, c->xend);
            yput = y + 1; /* (its runs, lin_fast and flat colour are line_setup's) */
        }
        pmajor_span_touch(r, y, c, touch);
        /* The next line's accumulators are stepped before the span is drawn (the span functions
         * read no edge's per-line fields): their loads, adds and stores run in the span's
         * shadow, and the next line's slope_acc8 loads what was stored a span earlier instead of
         * just before it, on the chain to its set-up (g_heavy_1 render paired 0.93, the same
         * instructions). The X stays after the call: stepped before it too, it is kept across
         * the call on the stack, +30 K instructions on g_heavy_1 for no more gain and
         * line_polygons (short spans) 1% slower. */
        seg_acc_step(L, !zconst);
        seg_acc_step(R, !zconst);
        f(c, RASTER_TIMING_NO_LIMIT);
        const pmajor_i32x4v x = seg_x_step(&v);
        xl = x[0];
        xend = x[1];
        rp->xl = xl; /* (read by the span functions of curse.c: curse_roles) */
        if (__builtin_expect(y + 1 == yput, 0)) {
            line_runs_put(c, &runs[y + 1 == ybot]); /* (the next line's: not the top) */
            c->lin_fast = true;
            if (fixfn) c->flat_color = flat;
            yput = y + 1 < ybot ? ybot : INT32_MIN;
        }
    }
    seg_x_sync(&v, rp, ixl, ixr, yseg - y0, xl, xend + xpush);
}
#endif

/* The start of pmajor_poly_*'s segment at line y of a lin_line polygon: its end @p *yseg (the
 * lines up to the next edge set-up, line_seg_edges: the edges' tests of line_setup_lin once for
 * all of them), the edges' part @p g, @p zconst, @p quick. @return false where
 * pmajor_lines_ref has drawn the segment (an edge line_lin_edge_ok refuses). */
SPAN_INLINE bool pmajor_lin_seg(raster_engine *r, raster_poly *rp, int32_t y, int32_t ydraw,
                                raster_timing_line *rec, bool touch, int32_t *yseg, line_seg *g,
                                bool *zconst, bool *quick)
{
    const raster_slope *L = &rp->left, *R = &rp->right;
    *yseg = line_seg_edges(r, rp, y, ydraw);
    if (!line_lin_edge_ok(L, *yseg - y) || !line_lin_edge_ok(R, *yseg - y)) {
        pmajor_lines_ref(r, rp, y, *yseg, rec, touch);
        return false;
    }
    line_seg_init(rp, g);
    /* both edges at one depth on every line (zacc_on false: z0; screen-parallel polygons, e.g.
     * 2D sprites and UI): every span's depth fields are the same, set once a segment (a crossed
     * line's line_setup sets the same values) */
    *zconst = !L->zacc_on && !R->zacc_on && L->z0 == R->z0;
    /* both edges Y-major and no line polygon rule: the lines' runs from line_runs */
    *quick = !L->xmajor && !R->xmajor && !g->rule;
    return true;
}

/* pmajor_lin_lines of a segment pmajor_lin_seg began. */
SPAN_INLINE void pmajor_lin_seg_lines(raster_engine *r, raster_poly *rp, int32_t y, int32_t yseg,
                                      span_line *c, raster_timing_line *rec, bool touch,
                                      bool narrow, const line_seg *g, bool zconst, bool quick,
                                      bool avx2)
{
    if (zconst) {
        span_z_const(c, rp->left.z0);
        if (quick)
            pmajor_lin_lines(r, rp, y, yseg, c, rec, touch, narrow, g, true, avx2, true);
        else
            pmajor_lin_lines(r, rp, y, yseg, c, rec, touch, narrow, g, true, avx2, false);
    } else {
        pmajor_lin_lines(r, rp, y, yseg, c, rec, touch, narrow, g, false, avx2, quick);
    }
}

/* pmajor_poly_plain's lines [y, ydraw) of a lin_line polygon, segment by segment. */
SPAN_INLINE void pmajor_lin_poly(raster_engine *r, raster_poly *rp, int32_t y, int32_t ydraw,
                                 raster_timing_line *rec, const raster_list_box *box, bool touch)
{
    span_line c;
    line_lin_begin(r, rp, &c);
    /* (narrow: line_lin_interp also takes it for the reciprocal table there) */
    const bool narrow = line_lin_narrow(box) && r->recip;
    while (y < ydraw) {
        int32_t yseg;
        line_seg g;
        bool zconst, quick;
        if (pmajor_lin_seg(r, rp, y, ydraw, rec, touch, &yseg, &g, &zconst, &quick))
            pmajor_lin_seg_lines(r, rp, y, yseg, &c, rec, touch, narrow, &g, zconst, quick, false);
        y = yseg;
    }
}

/* The lines [y, yend) polygon @p rp draws (ydraw: its bottom line, when not flat, is charged
 * and not drawn, as in draw_scanline), the band's drew flag set when there are any. */
SPAN_INLINE int32_t pmajor_ydraw(raster_band *b, const raster_poly *rp, int32_t y, int32_t yend)
{
    const int32_t ydraw = rp->ytop != rp->ybottom && rp->ybottom < yend ? rp->ybottom : yend;
    if (y < ydraw) b->drew = true;
    return ydraw;
}

/* Lines [y, yend) of one polygon activated at y (yend: one past its last line in the band) on
 * an engine without span_isa AVX2. @p box: its extent (raster_engine.box); @p touch: some line
 * of [y, yend) may need its pixels made valid for the lazy clear (pmajor_touch). */
SPAN_NOINLINE static void pmajor_poly_plain(raster_band *b, raster_poly *rp, int32_t y,
                                            int32_t yend, raster_timing_line *rec,
                                            const raster_list_box *box, bool touch)
{
    raster_engine *r = b->r;
    const int32_t ydraw = pmajor_ydraw(b, rp, y, yend);
    if (rp->lin_line)
        pmajor_lin_poly(r, rp, y, ydraw, rec, box, touch);
    else
        pmajor_lines_plain(r, rp, y, ydraw, rec, touch);
    if (ydraw < yend) raster_timing_prec_bottom(&rec[ydraw]);
}

#if PMAJOR_AVX2
/* pmajor_lin_poly of pmajor_poly_avx2: a segment pmajor_lin_fast can draw goes there (its own
 * copy of the loop: pmajor_lin_fast's intrinsics inline only into AVX2 code). */
PMAJOR_AVX2_INLINE void pmajor_lin_poly_avx2(raster_engine *r, raster_poly *rp, int32_t y,
                                             int32_t ydraw, raster_timing_line *rec,
                                             const raster_list_box *box, bool touch)
{
    span_line c;
    line_lin_begin(r, rp, &c);
    const bool narrow = line_lin_narrow(box) && r->recip;
    const raster_slope *L = &rp->left, *R = &rp->right;
    while (y < ydraw) {
        int32_t yseg;
        line_seg g;
        bool zconst, quick;
        if (!pmajor_lin_seg(r, rp, y, ydraw, rec, touch, &yseg, &g, &zconst, &quick)) {
            y = yseg;
            continue;
        }
        if (quick && narrow && rp->span_lin) {
            /* fixfn: the span function and flat colour are the segment's (no flat variant, or
             * r, g, b step on neither edge) */
            const bool fixfn =
                !rp->span_flat || !(L->attr_step[0] | L->attr_step[1] | L->attr_step[2] |
                                    R->attr_step[0] | R->attr_step[1] | R->attr_step[2]);
            if (zconst) {
                span_z_const(&c, L->z0);
                if (fixfn)
                    pmajor_lin_fast(r, rp, y, yseg, &c, rec, touch, &g, true, true);
                else
                    pmajor_lin_fast(r, rp, y, yseg, &c, rec, touch, &g, true, false);
            } else if (fixfn) {
                pmajor_lin_fast(r, rp, y, yseg, &c, rec, touch, &g, false, true);
            } else {
                pmajor_lin_fast(r, rp, y, yseg, &c, rec, touch, &g, false, false);
            }
        } else {
            pmajor_lin_seg_lines(r, rp, y, yseg, &c, rec, touch, narrow, &g, zconst, quick, true);
        }
        y = yseg;
    }
}

/* pmajor_poly_plain of an engine with span_isa AVX2 (PMAJOR_AVX2), compiled for AVX2. (The
 * lines inline in each copy, each out of line: inlined into the band's loop, g_heavy_1 ran 78 K
 * more instructions.) */
static __attribute__((noinline, target("avx2"))) void
pmajor_poly_avx2(raster_band *b, raster_poly *rp, int32_t y, int32_t yend, raster_timing_line *rec,
                 const raster_list_box *box, bool touch)
{
    raster_engine *r = b->r;
    const int32_t ydraw = pmajor_ydraw(b, rp, y, yend);
    if (rp->lin_line)
        pmajor_lin_poly_avx2(r, rp, y, ydraw, rec, box, touch);
    else
        pmajor_lines_avx2(r, rp, y, ydraw, rec, touch);
    if (ydraw < yend) raster_timing_prec_bottom(&rec[ydraw]);
}
#endif

/* The lazy clear's checks of a band's polygon lines (span_touch, render.c raster_span_begin)
 * change nothing on a line the band's whole-line clear has made valid (pmajor_full: its valid
 * range is then the whole line, and ranges only grow), nor without the lazy clear. So a
 * polygon's lines make that check only when one of its lines is partly valid:
 * partial[y - y0] counts those of [y0, y), and pmajor_touch tells whether [y, yend) holds one
 * (a polygon of 8 lines over cleared lines: 8 checks of ~10 instructions fewer;
 * unit.test_raster_pmajor: random frames of few and many polygons against the scanline order,
 * which checks every line). pmajor_clear also does draw_scanline's whole-line clear of the
 * lines 8 or more polygons cross (one pass over the band's lines). */
static void pmajor_clear(raster_engine *r, int32_t y0, int32_t y1, uint8_t *partial)
{
    const bool lazy = r->lazy_clear;
    uint32_t n = 0;
    partial[0] = 0;
    for (int32_t y = y0; y < y1; y++) {
        if (lazy) {
            if (r->pmajor_full[y])
                raster_span_begin(r, y, 0, 256);
            else
                n++;
        }
        partial[y - y0 + 1] = (uint8_t)n;
    }
}

static inline bool pmajor_touch(const uint8_t *partial, int32_t y0, int32_t y, int32_t yend)
{
    return partial[yend - y0] != partial[y - y0];
}

/* Polygon states a band hands on to the next (raster_band.carry_at): two halves of the state
 * slots after slot 0, one read while the other is written. */
#define PMAJOR_CARRY_MAX ((GX_MAX_POLYGONS - 1u) / 2u)

/* The band's polygons: render-list indices @p order[0, npolys), or (order NULL: one form for
 * each, so the whole list's walk stays as it was) the whole list. */
SPAN_INLINE void band_pmajor(raster_band *b, raster_timing_line *rec, bool carry_on,
                             const uint16_t *order, uint32_t npolys)
{
    raster_engine *r = b->r;
    const int32_t y0 = b->y0, y1 = b->y1;
    for (int32_t y = y0; y < y1; y++) raster_timing_rec_start(&rec[y]);
    /* draw_scanline's whole-line clear of the lines 8 or more polygons cross, and the lines it
     * leaves partly valid counted for pmajor_touch */
    uint8_t partial[RASTER_TIMING_LINES + 1];
    pmajor_clear(r, y0, y1, partial);
    b->drew = false;
    /* the polygons above the band that reach it: as the last band left them (in list order:
     * the same polygons, crossing line y0), or set up at y0 */
    uint32_t in_at = b->carry_at, nin = carry_on && b->carry_ok ? b->ncarry : 0, taken = 0;
    uint32_t out_at = in_at == 1 ? 1 + PMAJOR_CARRY_MAX : 1, nout = 0;
    bool out_ok = true;
#if PMAJOR_AVX2
    const bool avx2 = r->span_isa == RASTER_SPAN_ISA_AVX2;
#endif
    /* one state slot for every other polygon: the last polygon's material state is reused when
     * the next has the same material (setup.c material_reusable) */
    for (uint32_t j = 0; j < npolys; j++) {
        /* (its lines from the list's extents, setup.c: a band of several passes the polygons
         * outside it without reading them; the threads' bands walk their own polygons only) */
        const uint32_t i = order ? order[j] : j;
        const int32_t ytop = r->box[i].ytop, ybottom = r->box[i].ybottom;
        if (ytop >= y1 || ybottom < y0) continue;
        const gx_polygon *p = r->list[i];
        int32_t y = ytop > y0 ? ytop : y0;
        raster_poly *rp = &b->polys[0];
        if (ytop < y0 && taken < nin && b->polys[in_at + taken].poly == p) {
            rp = &b->polys[in_at + taken++];
        } else {
            rp->poly = p;
            raster_poly_activate(r, rp, y);
        }
        const int32_t yend = ybottom < y1 ? ybottom + 1 : y1;
        const bool touch = pmajor_touch(partial, y0, y, yend);
#if PMAJOR_AVX2
        if (avx2)
            pmajor_poly_avx2(b, rp, y, yend, rec, &r->box[i], touch);
        else
#endif
            pmajor_poly_plain(b, rp, y, yend, rec, &r->box[i], touch);
        if (ybottom >= y1 && y1 < RASTER_TIMING_LINES) { /* (its state is line y1's) */
            if (nout < PMAJOR_CARRY_MAX)
                b->polys[out_at + nout++] = *rp;
            else
                out_ok = false;
        }
    }
    for (int32_t y = y0; y < y1; y++) raster_timing_prec_end(&rec[y]);
    b->carry_at = out_at;
    b->ncarry = nout;
    b->carry_ok = out_ok;
    if (b->drew) b->prev_mask = false; /* (no shadow masks: as poly_line leaves it) */
}

void raster_draw_band_pmajor(raster_band *b, raster_timing_line *rec, bool carry_on)
{
    if (b->order)
        band_pmajor(b, rec, carry_on, b->order, b->norder);
    else
        band_pmajor(b, rec, carry_on, NULL, b->r->npolys);
}
