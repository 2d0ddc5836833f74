/*
 * edge.h - polygon edge slopes of the rendering engine: where each scanline's span starts and
 * ends, how long an edge's run of pixels is on that line, and its anti-aliasing coverage.
 *
 * Hardware notes:
 *  - Slopes have 18 fraction bits and are computed reciprocal first: (1 << 18) / dy, then
 *    multiplied by dx (melonDS GPU3D_Soft.h Slope::Setup; StrikerX3/nds-interp README; verified
 *    against all 198,404 captured hardware slopes, /work/shared/hardware/nds-interp).
 *  - X-major edges (slope > 1) start with a +0.5 bias; their run on a line ends at
 *    (start with its 9 low fraction bits cleared) + slope - 1.0 on hardware, which leaves the
 *    known 1-pixel gaps (e.g. 69x49). melonDS ends the run at start + slope - 1.0 (no gaps).
 *    Both are implemented; the choice is made at edge setup (raster_slope.far_mask/near_keep),
 *    never per pixel. Negative slopes mirror this (their low bits are rounded up instead).
 *  - Y-major edges have no bias; a 45-degree edge has the bias but a slope of exactly 1.0.
 *  - Right edges are stored at their far end (the run's last pixel), left edges at their start;
 *    an X-major edge's run length is derived from the accumulator (EdgeParams in melonDS).
 *  - Anti-aliasing coverage per edge pixel (melonDS EdgeParams_XMajor/_YMajor, known to be an
 *    approximation of the hardware in some slope cases).
 */
#ifndef DSGX_RASTER_EDGE_H
#define DSGX_RASTER_EDGE_H

#include <stdbool.h>
#include <stdint.h>

#include "raster/interp.h"

enum { RASTER_SIDE_LEFT = 0, RASTER_SIDE_RIGHT = 1 };

/** 1.0 in the 18-bit-fraction slope units. */
#define RASTER_SLOPE_ONE 0x40000
/** Flag in a coverage word: X-major coverage (start << 12 | per-pixel increment). */
#define RASTER_COV_XMAJOR 0x80000000u

/** Attributes interpolated along edges: W, then colour r, g, b, then texcoord s, t. */
enum {
    RASTER_EA_W,
    RASTER_EA_R,
    RASTER_EA_G,
    RASTER_EA_B,
    RASTER_EA_S,
    RASTER_EA_T,
    RASTER_EDGE_ATTRS
};

/* Field order: what the scanline loop reads and writes on every line first (stepping, span
 * X, edge runs, depth and the linear attribute accumulators: about four cache lines), the
 * per-edge set-up data after it. A line visits every polygon on it (about 80 on g_heavy_1):
 * their per-line state has to stay in the L1 cache for the loop to stay fast. */
typedef struct raster_slope {
    /* ---- per line ---- */
    int32_t dx;  /**< accumulator, 18 fraction bits, relative to x0 */
    int32_t inc; /**< |slope|, 18 fraction bits */
    /** X of the edge's upper vertex, x0, as x0 ^ xsign, xsign = negative ? -1 : 0: the span
     *  X is then ((xbase + offset) ^ xsign), x0 - offset for a negative edge (~(~x0 + off)),
     *  without a branch on the direction (raster_slope_x) */
    int32_t xbase, xsign;
    int32_t xmin, xmax; /**< the span position is clamped to this range */
    int32_t far_mask;   /**< 0x1FF: hardware far end (gap rule) for a far-end edge, else 0 */
    int32_t near_keep;  /**< ~0x1FF: hardware run length of a near-end edge, else ~0 */
    bool negative;      /**< X decreases going down */
    bool xmajor;        /**< inc > 1.0 */
    uint8_t side;       /**< RASTER_SIDE_LEFT / RASTER_SIDE_RIGHT */
    bool attr_lin_fast; /**< linear edge: every attribute takes the d * lin_recip product */
    /** the slope's part of the opaque fill rules (span.c line_setup), set with the slope:
     *  as a span's start edge (negative or Y-major) / end edge (positive X-major or vertical) */
    bool fill_start, fill_end;
    /** Z-buffer depth along the edge (raster_slope_depth): zbase + ((zacc >> 22) << zsh),
     *  zacc = the product raster_interp_z forms, stepped per line by zstep; zacc_on false:
     *  the depth is z0 on every line (or the W-buffer, which raster_interp_z computes) */
    bool zacc_on;
    uint8_t zsh;
    int32_t zbase;
    int32_t z0; /**< depth at the upper vertex */
    int64_t zacc, zstep;
    /** each attribute's smaller end (raster_attr_prep.base), next to the accumulators
     *  (attr_lin_fast reads only these) */
    uint32_t attr_base[RASTER_EDGE_ATTRS];
    /** attr_lin_fast edges: attr_dr[k] * (attribute k's distance from its smaller end), for
     *  k = 1..5 at [k - 1] (W is constant on a linear edge), stepped per line by
     *  attr_step = +-attr_dr[k] (raster_slope_step) */
    uint64_t attr_acc[RASTER_EDGE_ATTRS - 1], attr_step[RASTER_EDGE_ATTRS - 1];
    /** perspective interpolation along the edge (Y); last, so that the per-line part ends
     *  with its per-line fields (interp.h) */
    raster_interp interp;
    /* ---- per edge ---- */
    int32_t z1; /**< depth at the lower vertex */
    /** X of the edge's lower vertex (read on a polygon's last line). (The edge's extent in
     *  pixels is not stored: X xmax + 1 - xmin, Y interp.xdiff = y1 - y0; only the
     *  anti-aliasing coverage reads it, edge.c) */
    int32_t x1;
    /** W, r, g, b, s, t along the edge, prepared once per edge (raster_slope_attrs): with
     *  attr_base, the raster_attr_prep of each attribute (the absolute difference, and which
     *  end is the smaller: 0 the upper vertex, 1 the lower), one array per field so that the
     *  set-up stores them as vectors, and the linear product dr (interp.h
     *  raster_attr_prepare_on; always 0 for W, whose ends are equal on a linear edge). Not
     *  stored for every attr_lin_fast edge: read through raster_slope_attr_prep */
    uint32_t attr_d[RASTER_EDGE_ATTRS];
    uint32_t attr_sel[RASTER_EDGE_ATTRS];
    uint64_t attr_dr[RASTER_EDGE_ATTRS];
} raster_slope;

/** Prepare the edge's attributes (RASTER_EDGE_ATTRS values at its upper and lower vertex)
 *  after raster_slope_setup / raster_slope_setup_flat: attr_base, attr_d, attr_sel, attr_dr,
 *  and for a linear edge the accumulators attr_acc / attr_step and attr_lin_fast. Four
 *  attributes at a time with SSE2 (edge.c), else raster_slope_attrs_ref. */
void raster_slope_attrs(raster_slope *s, const int32_t a0[], const int32_t a1[]);

/** raster_slope_attrs one attribute at a time: the reference the vector form is checked
 *  against (unit.test_raster_edge_step), and the form used without SSE2. Same fields. */
void raster_slope_attrs_ref(raster_slope *s, const int32_t a0[], const int32_t a1[]);

/** raster_slope_attrs with the values read straight from the vertices (W @p w0 / @p w1, then
 *  colour and texcoords of @p v0 / @p v1: struct gx_vertex, gx/gx_frame.h), without staging
 *  them in arrays: what the polygon set-up calls (setup.c). */
struct gx_vertex;
void raster_slope_attrs_vtx(raster_slope *s, int32_t w0, int32_t w1, const struct gx_vertex *v0,
                            const struct gx_vertex *v1);

/** Set the edge's depth at its upper and lower vertex (after raster_slope_setup and at the
 *  line the slope is positioned on); @p wbuffer: W-buffered polygon. */
void raster_slope_depth(raster_slope *s, int32_t z0, int32_t z1, bool wbuffer);

/** Z-buffer depth of a non-W-buffered edge on its current line (= raster_interp_z(&s->interp,
 *  s->z0, s->z1, false)). */
static inline int32_t raster_slope_zdepth(const raster_slope *s)
{
    if (!s->zacc_on) return s->z0;
    return dsgx_wrap32(s->zbase + dsgx_shl64(dsgx_asr64(s->zacc, 22), s->zsh));
}

/** Attribute @p k's raster_attr_prep (in @p ap) and its linear product dr (@return). An
 *  attr_lin_fast edge's attr_d, attr_sel and attr_dr need not be stored (a lin_line polygon's
 *  first edges: edge_setup.h edge_attrs_avx2; read only here, when the interpolator is off
 *  the edge): W's d is 0, and for k >= 1 its step is +-dr (+ when the upper end is the
 *  smaller, sel 0), dr = d * lin_recip exactly (below 2^61: slope_attrs), so d = dr /
 *  lin_recip (lin_recip != 0 on such an edge). */
static inline uint64_t raster_slope_attr_prep(const raster_slope *s, int k, raster_attr_prep *ap)
{
    ap->base = s->attr_base[k];
    if (!s->attr_lin_fast) {
        ap->d = s->attr_d[k];
        ap->sel = s->attr_sel[k];
        return s->attr_dr[k];
    }
    const uint64_t step = k > 0 ? s->attr_step[k - 1] : 0u;
    const bool neg = (int64_t)step < 0;
    const uint64_t dr = neg ? 0u - step : step;
    ap->sel = neg ? 1u : 0u;
    ap->d = dr == 0 ? 0u : (uint32_t)(dr / s->interp.lin_recip);
    return dr;
}

/** The edge's attributes on its current line (= raster_interp_attr of each). */
static inline void raster_slope_attr_values(const raster_slope *s, int32_t out[])
{
    /* The interpolator's mode is the same for every attribute: decide once, then one
     * branch-free formula per attribute (d = 0 gives the base in both). */
    const raster_interp *ip = &s->interp;
    if (!ip->linear) {
        /* (an edge's interpolator runs along Y: 9 fraction bits, a constant shift) */
        const uint32_t f[2] = {ip->factor, (1u << 9) - ip->factor};
        for (int k = 0; k < RASTER_EDGE_ATTRS; k++)
            out[k] = (int32_t)(s->attr_base[k] + ((s->attr_d[k] * f[s->attr_sel[k]]) >> 9));
    } else if (s->attr_lin_fast && (uint32_t)ip->x <= (uint32_t)ip->xdiff) {
        /* base + (dr * xs) >> 35 with the product kept up to date per line (attr_acc); W is
         * constant (linear: equal W at both ends, d = 0) */
        out[RASTER_EA_W] = (int32_t)s->attr_base[RASTER_EA_W];
        for (int k = 1; k < RASTER_EDGE_ATTRS; k++)
            out[k] = (int32_t)(s->attr_base[k] + (uint32_t)(s->attr_acc[k - 1] >> 35));
    } else {
        for (int k = 0; k < RASTER_EDGE_ATTRS; k++) {
            raster_attr_prep ap;
            const uint64_t dr = raster_slope_attr_prep(s, k, &ap);
            out[k] = raster_attr_at(ip, &ap, dr);
        }
    }
}

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#define RASTER_SLOPE_VEC 1
#include <emmintrin.h>

/* Four lanes of a * b mod 2^32 (SSE2 has no 32-bit low multiply). */
static inline __m128i raster_mullo32(__m128i a, __m128i b)
{
    __m128i even = _mm_mul_epu32(a, b);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(odd, _MM_SHUFFLE(0, 0, 2, 0)));
}

/**
 * raster_slope_attr_values' accumulator case (attr_lin_fast, the interpolator within the edge)
 * in registers: @p v[0] holds attributes 1-4 (r, g, b, s), @p v[1] attributes 2-5 (g, b, s, t),
 * each base + (acc >> 35) (W is attr_base[RASTER_EA_W]). The accumulators are read as the edge
 * step stores them (two four-lane halves and a scalar): a load across two stores would wait
 * for both (store forwarding).
 */
static inline void raster_slope_acc_vec(const raster_slope *s, __m128i v[2])
{
    const __m128i *acc = (const __m128i *)s->attr_acc;
    __m128 lo = _mm_castsi128_ps(_mm_srli_epi64(_mm_loadu_si128(acc), 35));
    __m128 hi = _mm_castsi128_ps(_mm_srli_epi64(_mm_loadu_si128(acc + 1), 35));
    v[0] = _mm_add_epi32(_mm_castps_si128(_mm_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0))),
                         _mm_loadu_si128((const __m128i *)(s->attr_base + RASTER_EA_R)));
    uint32_t t = s->attr_base[RASTER_EA_T] + (uint32_t)(s->attr_acc[RASTER_EA_T - 1] >> 35);
    v[1] = _mm_or_si128(_mm_srli_si128(v[0], 4), _mm_slli_si128(_mm_cvtsi32_si128((int32_t)t), 12));
}

/**
 * raster_slope_attr_values for the span set-up (span.c line_setup), in registers: @p v[0]
 * holds attributes 1-4 (r, g, b, s), @p v[1] attributes 2-5 (g, b, s, t); @return attribute
 * 0 (W). The same values (unit.test_raster_edge_step). The perspective and accumulator cases
 * four lanes at a time; the rest through raster_slope_attr_values. (Read from an array, the
 * lanes 1-4 and 2-5 would each wait for two stores: store-forwarding stalls.)
 */
static inline int32_t raster_slope_attr_vec(const raster_slope *s, __m128i v[2])
{
    const raster_interp *ip = &s->interp;
    uint32_t t, w;
    if (!ip->linear) {
        /* base + ((d * f[sel]) >> 9), f = {factor, 512 - factor}, mod 2^32 */
        const uint32_t f[2] = {ip->factor, (1u << 9) - ip->factor};
        __m128i f0 = _mm_set1_epi32((int32_t)f[0]), fx = _mm_set1_epi32((int32_t)(f[0] ^ f[1]));
        __m128i sel = _mm_loadu_si128((const __m128i *)(s->attr_sel + RASTER_EA_R));
        __m128i fs = _mm_xor_si128(f0, _mm_and_si128(fx, _mm_sub_epi32(_mm_setzero_si128(), sel)));
        __m128i d = _mm_loadu_si128((const __m128i *)(s->attr_d + RASTER_EA_R));
        v[0] = _mm_add_epi32(_mm_loadu_si128((const __m128i *)(s->attr_base + RASTER_EA_R)),
                             _mm_srli_epi32(raster_mullo32(d, fs), 9));
        t = s->attr_base[RASTER_EA_T] +
            ((s->attr_d[RASTER_EA_T] * f[s->attr_sel[RASTER_EA_T]]) >> 9);
        w = s->attr_base[RASTER_EA_W] +
            ((s->attr_d[RASTER_EA_W] * f[s->attr_sel[RASTER_EA_W]]) >> 9);
    } else if (s->attr_lin_fast && (uint32_t)ip->x <= (uint32_t)ip->xdiff) {
        raster_slope_acc_vec(s, v);
        return (int32_t)s->attr_base[RASTER_EA_W];
    } else {
        int32_t out[RASTER_EDGE_ATTRS];
        raster_slope_attr_values(s, out);
        v[0] = _mm_loadu_si128((const __m128i *)(out + RASTER_EA_R));
        t = (uint32_t)out[RASTER_EA_T];
        w = (uint32_t)out[RASTER_EA_W];
    }
    v[1] = _mm_or_si128(_mm_srli_si128(v[0], 4), _mm_slli_si128(_mm_cvtsi32_si128((int32_t)t), 12));
    return (int32_t)w;
}
#else
#define RASTER_SLOPE_VEC 0
#endif

/**
 * Set up an edge from (x0, y0) to (x1, y1) (y1 >= y0) with normalized W values, positioned at
 * scanline @p y. @p hw_gaps selects the hardware X-major run end (true) or melonDS's (false).
 * @return the span X of this edge on line y. The plain form (dividing): the reference of
 * raster_slope_setup_tab and raster_slope_setup_pair (unit.test_raster_activate).
 */
int32_t raster_slope_setup(raster_slope *s, int side, bool hw_gaps, int32_t x0, int32_t x1,
                           int32_t y0, int32_t y1, int32_t w0, int32_t w1, int32_t y);

/** raster_slope_setup with the reciprocals from @p tab (interp.h; NULL: divide). Same
 *  result. */
int32_t raster_slope_setup_tab(raster_slope *s, int side, bool hw_gaps, int32_t x0, int32_t x1,
                               int32_t y0, int32_t y1, int32_t w0, int32_t w1, int32_t y,
                               const raster_recip *tab);

/** A zero-height edge at @p x0 (flat polygons: every vertex on one line). @return x0. */
int32_t raster_slope_setup_flat(raster_slope *s, int side, int32_t x0);

/** An edge's ends for raster_slope_setup_pair: upper vertex @p a, lower vertex @p b (position,
 *  colour, texcoords), their normalized W and their depth. */
typedef struct raster_edge_ends {
    const struct gx_vertex *a, *b;
    int32_t wa, wb, za, zb;
} raster_edge_ends;

/** A polygon's left and right edge set up at once, positioned at line @p y: the same fields as
 *  raster_slope_setup_tab, raster_slope_attrs_vtx, x1 = the lower vertex's X and
 *  raster_slope_depth on each (setup.c's activation takes the same set-up inline:
 *  edge_setup.h). @p wide: AVX2 may be used (raster_engine.span_isa). @p x receives both span
 *  X on line y. */
void raster_slope_setup_pair(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                             const raster_edge_ends *er, bool hw_gaps, bool wbuffer, int32_t y,
                             const raster_recip *tab, bool wide, int32_t x[2]);

/** raster_slope_setup_pair of a polygon whose edges' four W (wa, wb of @p el and @p er) are
 *  equal with bits 0-6 clear and that is not W-buffered (raster_poly.lin_line): both edges are
 *  linear, which the AVX2 form (@p wide) knows without testing it (setup.c's activation of a
 *  lin_line polygon inlines it). The same fields as raster_slope_setup_pair with @p wbuffer
 *  false (unit.test_raster_activate). */
void raster_slope_setup_pair_lin(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                                 const raster_edge_ends *er, bool hw_gaps, int32_t y,
                                 const raster_recip *tab, bool wide, int32_t x[2]);

/** The span X of this edge on the current line, clamped to the edge's extent. */
static inline int32_t raster_slope_x(const raster_slope *s)
{
    /* Far-end edges (right positive, left negative) subtract the low bits of the run's start
     * under the hardware rule; far_mask is 0 otherwise. */
    uint32_t d = (uint32_t)s->dx;
    d -= (d - (uint32_t)s->inc) & (uint32_t)s->far_mask;
    int32_t off = dsgx_asr32((int32_t)d, 18);
    /* x0 + off, or x0 - off for a negative edge: ~(~x0 + off) (xbase); two selects for the
     * clamp (xmin <= xmax always), no branch (left edges go either way from polygon to
     * polygon, so a branch on the direction is hard to predict; g_heavy_1 -7 instructions a
     * polygon line) */
    int32_t x = (int32_t)(((uint32_t)s->xbase + (uint32_t)off) ^ (uint32_t)s->xsign);
    x = x < s->xmin ? s->xmin : x;
    return x > s->xmax ? s->xmax : x;
}

/**
 * raster_slope_x of a Y-major edge (!xmajor) on one of its lines y0 <= y < y1: the same value
 * without the far-end correction and the clamps, which do nothing there:
 * - far_mask is 0 on a Y-major edge (edge_setup.h, edge.c set it only on X-major ones);
 * - its X unclamped lies in [xmin, xmax]: with xlen = |x1 - x0| (1 if 0), dx = k * inc +
 *   (negative ? one : 0) on line y0 + k, and X = x0 + (dx >> 18) or x0 - (dx >> 18);
 *   [xmin, xmax] is [x0, x0 + xlen - 1] or [x1, x0 - 1]. inc is 0 (x1 = x0), one (45 degrees:
 *   xlen = ylen, so k <= xlen - 1) or |x1 - x0| * floor(2^18 / ylen), so k * inc < xlen * 2^18
 *   for k <= ylen - 1.
 * (On the line y1 the X may lie outside: a caller reads it there only where the edge is set up
 * again or the line is not drawn.) unit.test_raster_activate checks both on the set-ups' edges.
 */
static inline int32_t raster_slope_x_ymajor(const raster_slope *s)
{
    const int32_t off = dsgx_asr32(s->dx, 18);
    return (int32_t)(((uint32_t)s->xbase + (uint32_t)off) ^ (uint32_t)s->xsign);
}

/** raster_slope_step without the span X (raster_slope_x after it). */
static inline void raster_slope_advance(raster_slope *s)
{
    s->dx = (int32_t)((uint32_t)s->dx + (uint32_t)s->inc);
    s->interp.x++; /* (the interpolator's position is the edge's line, less its start) */
    raster_interp_update_factor(&s->interp);
    /* the interpolator's position moved by one: each product dr * xs moves by +-dr (exact in
     * 64 bits, see raster_slope_attrs) */
    if (s->attr_lin_fast) {
        for (int k = 0; k < RASTER_EDGE_ATTRS - 1; k++) s->attr_acc[k] += s->attr_step[k];
    }
    s->zacc += s->zstep; /* (0 unless zacc_on) */
}

/** Advance to the next scanline. @return the new span X. */
static inline int32_t raster_slope_step(raster_slope *s)
{
    raster_slope_advance(s);
    return raster_slope_x(s);
}

/** raster_slope_step_lin with the edge's attr_lin_fast given as @p acc (a caller that knows
 *  it, span.c's segment loop, passes true: no test per line). */
static inline int32_t raster_slope_step_acc(raster_slope *s, bool acc)
{
    s->dx = (int32_t)((uint32_t)s->dx + (uint32_t)s->inc);
    s->interp.x++;
    if (acc) {
        for (int k = 0; k < RASTER_EDGE_ATTRS - 1; k++) s->attr_acc[k] += s->attr_step[k];
    }
    s->zacc += s->zstep;
    return raster_slope_x(s);
}

/** raster_slope_step for an edge whose interpolator is linear (equal W at both ends, bits
 *  1-6 clear): its perspective factor is never computed, so only the position moves. */
static inline int32_t raster_slope_step_lin(raster_slope *s)
{
    return raster_slope_step_acc(s, s->attr_lin_fast);
}

/**
 * Run length and anti-aliasing coverage of this edge on the current line.
 * @param swapped the polygon's left and right edges are crossed on this line
 * @param length  pixels of the edge's run (1 for Y-major edges; forced to 1 when swapped)
 * @param coverage Y-major: coverage 0..31; X-major: RASTER_COV_XMAJOR | start << 12 | increment
 */
void raster_slope_edge_params(const raster_slope *s, bool swapped, int32_t *length,
                              int32_t *coverage);

/** The run length alone (raster_slope_edge_params without the coverage, which only
 *  anti-aliasing reads; so no division). Inline: asked twice per polygon line. */
static inline int32_t raster_slope_edge_length(const raster_slope *s, bool swapped)
{
    if (!s->xmajor || swapped) return 1;
    bool far_end = (s->side == RASTER_SIDE_RIGHT) != s->negative;
    uint32_t dx = (uint32_t)s->dx;
    uint32_t before = dx - (uint32_t)s->inc;
    if (far_end) {
        uint32_t dxf = dx - (before & (uint32_t)s->far_mask);
        return dsgx_asr32((int32_t)dxf, 18) - dsgx_asr32((int32_t)before, 18);
    }
    return dsgx_asr32((int32_t)((dx & (uint32_t)s->near_keep) + (uint32_t)s->inc), 18) -
           dsgx_asr32((int32_t)dx, 18);
}

#endif
