/*
 * edge_setup.h - the edge set-up of a polygon's activation, inline (internal to the rendering
 * engine): the slope (raster_slope_core), the depth (raster_slope_depth_in) and both edges at
 * once (raster_slope_pair), for edge.c's exported forms (raster_slope_setup_tab,
 * raster_slope_depth, raster_slope_setup_pair) and for setup.c, whose activation takes
 * raster_slope_pair inline (no call with ten arguments, no edge ends staged through memory).
 * The same fields as the exported forms (unit.test_raster_activate).
 */
#ifndef DSGX_RASTER_EDGE_SETUP_H
#define DSGX_RASTER_EDGE_SETUP_H

#include "gx/gx_frame.h"
#include "raster/edge.h"

/* Branch hints of the activation's rare cases (gcc lays the likely side out straight, and its
 * register allocation follows: setup.c walk_edges) */
#if defined(__GNUC__)
#define RASTER_LIKELY(x)   __builtin_expect(!!(x), 1)
#define RASTER_UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define RASTER_LIKELY(x)   (x)
#define RASTER_UNLIKELY(x) (x)
#endif

/* raster_interp_setup_tab along Y and raster_interp_set_pos to line @p y: the interpolator of
 * an edge from line @p y0 to @p y1. With the table and a length up to RASTER_RECIP_MAX (every
 * edge of a frame) without a branch: its reciprocals at 0 are 0, the values
 * raster_interp_setup_tab gives a zero length, and lin_recip is lin[0] off the linear case.
 * @p lin (a constant): @p w0 == @p w1 with bits 0-6 clear is known (a lin_line polygon's edge,
 * raster_slope_pair_avx2), so the edge is linear and its W terms are w0 without a test. */
RASTER_HOT void raster_slope_interp(raster_interp *ip, int32_t y0, int32_t y1, int32_t w0,
                                    int32_t w1, int32_t y, const raster_recip *tab, bool lin)
{
    const int32_t xdiff = y1 - y0;
    if (RASTER_UNLIKELY(!tab || (uint32_t)xdiff > RASTER_RECIP_MAX)) {
        raster_interp_setup_tab(ip, RASTER_INTERP_Y, y0, y1, w0, w1, tab);
        raster_interp_set_pos(ip, y);
        return;
    }
    const bool linear = lin || (w0 == w1 && !(w0 & 0x7E));
    ip->x0 = y0;
    ip->xdiff = xdiff;
    ip->x = y - y0;
    ip->factor = 0;
    ip->dir = RASTER_INTERP_Y;
    ip->xrecip_z = tab->z[xdiff];
    ip->linear = linear;
    ip->lin_recip = tab->lin[linear ? xdiff : 0];
    if (lin) { /* (raster_interp_w_y of an even w0 == w1: w0 & 0xFFFE each) */
        ip->w0n = ip->w0d = ip->w1d = w0;
        ip->shift = 9;
    } else {
        raster_interp_w_y(ip, w0, w1); /* (raster_interp_setup_tab's W along Y) */
    }
}

/* The set-up the engine uses (raster_slope_setup_tab, raster_slope_setup_pair): the same
 * fields as raster_slope_setup, with the slope's cases folded into a few selects (the extent
 * from |x1 - x0|; the initial accumulator as (far end ? inc - 0.5 : 0.5) + (negative ? 1.0 :
 * 0) for X-major edges, see raster_slope_setup's cases) and the reciprocals from @p tab.
 * @p lin: raster_slope_interp's (a linear edge known). */
RASTER_HOT int32_t raster_slope_core(raster_slope *s, int side, bool hw_gaps, int32_t x0,
                                     int32_t x1, int32_t y0, int32_t y1, int32_t w0, int32_t w1,
                                     int32_t y, const raster_recip *tab, bool then_all, bool lin)
{
    const int32_t one = RASTER_SLOPE_ONE, half = RASTER_SLOPE_ONE / 2;
    int32_t ddx = x1 - x0;
    bool negative = ddx < 0;
    int32_t xlen = negative ? -ddx : (ddx == 0 ? 1 : ddx);
    int32_t xmin = negative ? x1 : x0;
    int32_t ylen = y1 - y0;
    s->xsign = negative ? -1 : 0;
    s->xbase = x0 ^ s->xsign;
    s->side = (uint8_t)side;
    if (!then_all) {              /* (@p then_all: the attributes and the depth are set up next) */
        s->attr_lin_fast = false; /* until raster_slope_attrs */
        s->zacc_on = false;       /* until raster_slope_depth */
        s->zacc = s->zstep = 0;
    }
    s->xmin = xmin;
    s->xmax = xmin + xlen - 1;
    s->negative = negative;

    /* reciprocal first, then the product (raster_slope_setup); ylen == xlen implies ylen != 0
     * (xlen >= 1), so the 45-degree test may come first */
    int32_t inc;
    if (RASTER_LIKELY(tab && (uint32_t)ylen <= RASTER_RECIP_MAX)) {
        /* (every edge of a frame: ylen < 256) the product without a branch: y18[0] is 0, so a
         * horizontal edge's is 0 as below; the 45-degree case as a select */
        int32_t prod = ddx * tab->y18[ylen];
        inc = prod < 0 ? -prod : prod;
        inc = ylen == xlen && xlen != 1 ? one : inc;
    } else if (ylen == xlen && xlen != 1) {
        inc = one;
    } else if (ylen == 0) {
        inc = 0;
    } else {
        int32_t yrecip =
            tab && (uint32_t)(ylen - 1) < RASTER_RECIP_MAX ? tab->y18[ylen] : (1 << 18) / ylen;
        int32_t prod = ddx * yrecip;
        inc = prod < 0 ? -prod : prod;
    }
    s->inc = inc;
    bool xmajor = inc > one;
    s->xmajor = xmajor;
    s->fill_start = negative || !xmajor;
    s->fill_end = (!negative && xmajor) || inc == 0;

    bool far_end = (side == RASTER_SIDE_RIGHT) != negative;
    int32_t dx;
    if (xmajor)
        dx = (far_end ? inc - half : half) + (negative ? one : 0);
    else
        dx = negative && inc != 0 ? one : 0;
    s->dx = (int32_t)((uint32_t)dx + (uint32_t)(y - y0) * (uint32_t)inc);
    s->far_mask = hw_gaps && xmajor && far_end ? 0x1FF : 0;
    s->near_keep = hw_gaps && xmajor ? ~0x1FF : ~0;

    /* far-end edges with slope >= 1 interpolate one line earlier (melonDS "interpoffset") */
    int32_t ioff = (inc >= one && far_end) ? 1 : 0;
    raster_slope_interp(&s->interp, y0 - ioff, y1 - ioff, w0, w1, y, tab, lin);
    /* (at the interpolator's start, the usual case, the factor is 0, as set up: its numerator
     * x * w0n is 0; no division; a linear edge's factor stays 0) */
    if (!lin && s->interp.x != 0) raster_interp_update_factor(&s->interp);
    return raster_slope_x(s);
}

/* raster_slope_depth, inline. */
RASTER_HOT void raster_slope_depth_in(raster_slope *s, int32_t z0, int32_t z1, bool wbuffer)
{
    const raster_interp *ip = &s->interp;
    s->z0 = z0;
    s->z1 = z1;
    /* raster_interp_z along Y (Z-buffer): base + ((disp' * factor * xrecip_z) >> 22) << sh,
     * disp' = |z1 - z0| reduced to 10 bits by sh, factor = x (z0 < z1) or xdiff - x. Only
     * factor changes from line to line, by +-1, so the product is kept as an accumulator
     * stepped by +-disp' * xrecip_z: the same 64-bit integer (|disp'| < 2^10, xrecip_z <= 2^22,
     * |factor| < 2^12, no overflow), hence the same depth. */
    s->zacc_on = !wbuffer && ip->xdiff != 0 && z0 != z1;
    s->zacc = s->zstep = 0;
    if (!s->zacc_on) return;
    int32_t disp = z0 < z1 ? z1 - z0 : z0 - z1;
    int32_t factor = z0 < z1 ? ip->x : ip->xdiff - ip->x;
    unsigned sh = 0;
    if (disp > 0x3FF) {
        sh = 22u - (unsigned)__builtin_clz((uint32_t)disp);
        disp >>= sh;
    }
    int64_t k = (int64_t)disp * ip->xrecip_z;
    s->zbase = z0 < z1 ? z0 : z1;
    s->zsh = (uint8_t)sh;
    s->zacc = k * factor;
    s->zstep = z0 < z1 ? k : -k;
}

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#include <emmintrin.h>
#include <stddef.h>
#include <string.h>

/* W, r, g, b of a vertex (colour: three uint16_t, read as 8 bytes: the struct continues
 * after them) and its s, t (two int16_t) as 32-bit lanes */
_Static_assert(offsetof(gx_vertex, color) + 8 <= sizeof(gx_vertex), "colour read as 8 bytes");
static inline __m128i raster_vtx_wrgb(int32_t w, const gx_vertex *v)
{
    __m128i c = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)v->color), _mm_setzero_si128());
    return _mm_or_si128(_mm_slli_si128(c, 4), _mm_cvtsi32_si128(w));
}

static inline __m128i raster_vtx_st(const gx_vertex *v)
{
    int32_t st;
    memcpy(&st, v->texcoord, sizeof st);
    __m128i t = _mm_cvtsi32_si128(st);
    return _mm_srai_epi32(_mm_unpacklo_epi16(t, t), 16);
}

#endif

/* The two-edge attribute pass with AVX2 (chosen at run time: raster_engine.span_isa), inline
 * in functions compiled for AVX2 (edge.c's raster_slope_setup_pair, setup.c's activation). */
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD) && (defined(__GNUC__) || defined(__clang__)) &&    \
    !defined(DSGX_NO_AVX2)
#define RASTER_EDGE_AVX2 1
#include <immintrin.h>
#define RASTER_EDGE_AVX2_FN static inline __attribute__((always_inline, target("avx2")))

/* a * b modulo 2^64 in each 64-bit lane, for a < 2^32 (two partial products) */
RASTER_EDGE_AVX2_FN __m256i mul64_avx2(__m256i a, __m256i b)
{
    return _mm256_add_epi64(_mm256_mul_epu32(a, b),
                            _mm256_slli_epi64(_mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)), 32));
}

/* One edge's part of raster_slope_attrs_pair_avx2: @p bv, @p dv, @p sv, @p ltv its W, r, g, b lanes
 * (base, d, sel, lt), @p bu, @p du, @p su, @p ltu its s, t in lanes 0-1, @p d_or the OR of its
 * six differences. @return false: a linear edge that fails the products' bound, left to
 * raster_slope_attrs_vtx (no call here: the pass stays a leaf function, without a frame). */
RASTER_EDGE_AVX2_FN bool edge_attrs_avx2(raster_slope *s, __m128i bv, __m128i dv, __m128i sv,
                                         __m128i ltv, __m128i bu, __m128i du, __m128i su,
                                         __m128i ltu, uint32_t d_or, bool lin)
{
    const raster_interp *ip = &s->interp;
    _mm_storeu_si128((__m128i *)&s->attr_base[0], bv);
    _mm_storel_epi64((__m128i *)&s->attr_base[4], bu);
    if (!lin) { /* (a lin edge that returns true is attr_lin_fast: raster_slope_attr_prep) */
        _mm_storeu_si128((__m128i *)&s->attr_d[0], dv);
        _mm_storel_epi64((__m128i *)&s->attr_d[4], du);
        _mm_storeu_si128((__m128i *)&s->attr_sel[0], sv);
        _mm_storel_epi64((__m128i *)&s->attr_sel[4], su);
    }
    if (!lin && !ip->linear) {
        _mm256_storeu_si256((__m256i *)&s->attr_dr[0], _mm256_setzero_si256());
        _mm_storeu_si128((__m128i *)&s->attr_dr[4], _mm_setzero_si128());
        s->attr_lin_fast = false;
        return true;
    }
    const uint64_t R = ip->lin_recip;
    if (R == 0 || ((uint64_t)d_or * (uint64_t)(int64_t)ip->xdiff) >> 25 != 0) {
        /* (rare: long edges with large differences) one attribute at a time */
        return false; /* (the caller sets this edge up by raster_slope_attrs_vtx) */
    }
    const uint64_t x = (uint64_t)(int64_t)ip->x, xl = (uint64_t)(int64_t)(ip->xdiff - ip->x);
    const uint64_t rx = R * x, rxl = R * xl;
    /* r, g, b, s: lanes 1-3 of the W, r, g, b lanes and lane 0 of the s, t ones */
    const __m256i d4 = _mm256_cvtepu32_epi64(_mm_alignr_epi8(du, dv, 4));
    const __m256i lt4 = _mm256_cvtepi32_epi64(_mm_alignr_epi8(ltu, ltv, 4));
    const __m256i dr = mul64_avx2(d4, _mm256_set1_epi64x((int64_t)R));
    const __m256i rs =
        _mm256_blendv_epi8(_mm256_set1_epi64x((int64_t)rxl), _mm256_set1_epi64x((int64_t)rx), lt4);
    const __m256i acc = mul64_avx2(d4, rs);
    const __m256i step = _mm256_blendv_epi8(_mm256_sub_epi64(_mm256_setzero_si256(), dr), dr, lt4);
    if (!lin) _mm256_storeu_si256((__m256i *)&s->attr_dr[RASTER_EA_R], dr);
    _mm256_storeu_si256((__m256i *)&s->attr_acc[0], acc);
    _mm256_storeu_si256((__m256i *)&s->attr_step[0], step);
    /* W and t as scalars (W's d is 0: equal W ends; with @p lin known) */
    const uint32_t dw = lin ? 0u : (uint32_t)_mm_cvtsi128_si32(dv);
    const uint64_t dt = (uint32_t)_mm_extract_epi32(du, 1);
    const bool ltt = _mm_extract_epi32(ltu, 1) != 0;
    const uint64_t drt = dt * R;
    if (!lin) {
        s->attr_dr[RASTER_EA_W] = (uint64_t)dw * R;
        s->attr_dr[RASTER_EA_T] = drt;
    }
    s->attr_acc[RASTER_EA_T - 1] = dt * (ltt ? rx : rxl);
    s->attr_step[RASTER_EA_T - 1] = ltt ? drt : 0u - drt;
    s->attr_lin_fast = dw == 0; /* (W: cannot differ) */
    return true;
}

/* An edge's W, r, g, b (@p wrgb) and s, t (@p st) at its upper and lower vertex (the upper
 * one's twice for a zero-length edge, as slope_attrs_vec). */
RASTER_EDGE_AVX2_FN void edge_ends_avx2(const raster_slope *s, const raster_edge_ends *e,
                                        __m128i wrgb[2], __m128i st[2])
{
    wrgb[0] = raster_vtx_wrgb(e->wa, e->a);
    st[0] = raster_vtx_st(e->a);
    const gx_vertex *b = s->interp.xdiff == 0 ? e->a : e->b;
    wrgb[1] = raster_vtx_wrgb(s->interp.xdiff == 0 ? e->wa : e->wb, b);
    st[1] = raster_vtx_st(b);
}

/*
 * slope_attrs_vec for the two edges of raster_slope_setup_pair at once, with AVX2 (chosen at run
 * time: raster_engine.span_isa): the same fields (unit.test_raster_activate).
 *  - The 32-bit part (base, d, sel) on eight lanes: W, r, g, b of the left edge, then of the
 *    right one; s, t of both on four lanes.
 *  - A linear edge that passes slope_attrs_vec's bound (d_or * xdiff < 2^25) takes its products
 *    for r, g, b, s on four 64-bit lanes (dr, acc and step as slope_attrs_vec forms them: dr =
 *    d * R, acc = d * (R * xs), step = +-dr) and W, t as scalars (W's d is 0 on a linear
 *    edge: equal W ends). Perspective edges store dr = 0 (as slope_attrs_vec); the other linear
 *    edges are left to the caller (raster_slope_attrs_vtx), whose bit of the result is 0.
 */
RASTER_EDGE_AVX2_FN unsigned raster_slope_attrs_pair_avx2(raster_slope *sl, raster_slope *sr,
                                                          const raster_edge_ends *el,
                                                          const raster_edge_ends *er, bool lin)
{
    __m128i vl[2], ul[2], vr[2], ur[2];
    edge_ends_avx2(sl, el, vl, ul);
    edge_ends_avx2(sr, er, vr, ur);
    const __m256i V0 = _mm256_set_m128i(vr[0], vl[0]), V1 = _mm256_set_m128i(vr[1], vl[1]);
    const __m128i U0 = _mm_unpacklo_epi64(ul[0], ur[0]), U1 = _mm_unpacklo_epi64(ul[1], ur[1]);
    const __m256i ltv = _mm256_cmpgt_epi32(V1, V0);
    const __m128i ltu = _mm_cmpgt_epi32(U1, U0);
    const __m256i basev = _mm256_xor_si256(V1, _mm256_and_si256(_mm256_xor_si256(V0, V1), ltv));
    const __m128i baseu = _mm_xor_si128(U1, _mm_and_si128(_mm_xor_si128(U0, U1), ltu));
    /* d = lt ? v1 - v0 : v0 - v1 = (diff ^ m) - m with m = ~lt; sel = m & 1 */
    const __m256i mv = _mm256_xor_si256(ltv, _mm256_set1_epi32(-1));
    const __m128i mu = _mm_xor_si128(ltu, _mm_set1_epi32(-1));
    const __m256i dv = _mm256_sub_epi32(_mm256_xor_si256(_mm256_sub_epi32(V1, V0), mv), mv);
    const __m128i du = _mm_sub_epi32(_mm_xor_si128(_mm_sub_epi32(U1, U0), mu), mu);
    const __m256i selv = _mm256_and_si256(mv, _mm256_set1_epi32(1));
    const __m128i selu = _mm_and_si128(mu, _mm_set1_epi32(1));
    /* each edge's OR of its six differences in its half's lane 0 (s, t zero-extended to 64-bit
     * lanes: s, t of the left edge in the low half, of the right one in the high half) */
    __m256i dor = _mm256_or_si256(dv, _mm256_cvtepu32_epi64(du));
    dor = _mm256_or_si256(dor, _mm256_shuffle_epi32(dor, _MM_SHUFFLE(1, 0, 3, 2)));
    dor = _mm256_or_si256(dor, _mm256_shuffle_epi32(dor, _MM_SHUFFLE(2, 3, 0, 1)));
    unsigned done =
        (unsigned)edge_attrs_avx2(sl, _mm256_castsi256_si128(basev), _mm256_castsi256_si128(dv),
                                  _mm256_castsi256_si128(selv), _mm256_castsi256_si128(ltv), baseu,
                                  du, selu, ltu, (uint32_t)_mm256_cvtsi256_si32(dor), lin);
    done |= (unsigned)edge_attrs_avx2(
                sr, _mm256_extracti128_si256(basev, 1), _mm256_extracti128_si256(dv, 1),
                _mm256_extracti128_si256(selv, 1), _mm256_extracti128_si256(ltv, 1),
                _mm_srli_si128(baseu, 8), _mm_srli_si128(du, 8), _mm_srli_si128(selu, 8),
                _mm_srli_si128(ltu, 8), (uint32_t)_mm256_extract_epi32(dor, 4), lin)
            << 1;
    return done; /* (bit 0: the left edge is set up, bit 1: the right one) */
}

#else
#define RASTER_EDGE_AVX2 0
#endif

/** One edge set up at line @p y from its ends @p e (setup.c raster_poly_setup_left / _right:
 *  an edge that starts at a vertex below the polygon's top), inline: raster_slope_core,
 *  raster_slope_attrs_vtx, the lower vertex's X and raster_slope_depth_in, as raster_slope_pair
 *  sets up each of its edges (one call, not three out of line that each store the fields the
 *  next overwrites; unit.test_raster_activate against the reference). @return its span X. */
RASTER_HOT int32_t raster_slope_one(raster_slope *s, int side, const raster_edge_ends *e,
                                    bool hw_gaps, bool wbuffer, int32_t y, const raster_recip *tab)
{
    const int32_t x = raster_slope_core(s, side, hw_gaps, e->a->sx, e->b->sx, e->a->sy, e->b->sy,
                                        e->wa, e->wb, y, tab, true, false);
    raster_slope_attrs_vtx(s, e->wa, e->wb, e->a, e->b);
    s->x1 = e->b->sx;
    raster_slope_depth_in(s, e->za, e->zb, wbuffer);
    return x;
}

/** raster_slope_setup_pair without AVX2 (its @p wide false), inline: each edge's attributes by
 *  raster_slope_attrs_vtx. */
RASTER_HOT void raster_slope_pair(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                                  const raster_edge_ends *er, bool hw_gaps, bool wbuffer, int32_t y,
                                  const raster_recip *tab, int32_t x[2])
{
    x[0] = raster_slope_core(sl, RASTER_SIDE_LEFT, hw_gaps, el->a->sx, el->b->sx, el->a->sy,
                             el->b->sy, el->wa, el->wb, y, tab, true, false);
    x[1] = raster_slope_core(sr, RASTER_SIDE_RIGHT, hw_gaps, er->a->sx, er->b->sx, er->a->sy,
                             er->b->sy, er->wa, er->wb, y, tab, true, false);
    raster_slope_attrs_vtx(sl, el->wa, el->wb, el->a, el->b);
    raster_slope_attrs_vtx(sr, er->wa, er->wb, er->a, er->b);
    sl->x1 = el->b->sx;
    sr->x1 = er->b->sx;
    raster_slope_depth_in(sl, el->za, el->zb, wbuffer);
    raster_slope_depth_in(sr, er->za, er->zb, wbuffer);
}

#if RASTER_EDGE_AVX2
/** raster_slope_setup_pair with @p wide (both edges' attributes by the AVX2 pass; an edge it
 *  leaves, a linear one beyond the products' bound, by raster_slope_attrs_vtx), inline in
 *  functions compiled for AVX2. @p lin (a constant; raster_slope_setup_pair_lin): the four W of
 *  both edges are equal with bits 0-6 clear and @p wbuffer is false (a lin_line polygon,
 *  setup.c): both edges linear, known without their tests. */
RASTER_EDGE_AVX2_FN void raster_slope_pair_avx2(raster_slope *sl, raster_slope *sr,
                                                const raster_edge_ends *el,
                                                const raster_edge_ends *er, bool hw_gaps,
                                                bool wbuffer, int32_t y, const raster_recip *tab,
                                                int32_t x[2], bool lin)
{
    if (lin) wbuffer = false;
    x[0] = raster_slope_core(sl, RASTER_SIDE_LEFT, hw_gaps, el->a->sx, el->b->sx, el->a->sy,
                             el->b->sy, el->wa, el->wb, y, tab, true, lin);
    x[1] = raster_slope_core(sr, RASTER_SIDE_RIGHT, hw_gaps, er->a->sx, er->b->sx, er->a->sy,
                             er->b->sy, er->wa, er->wb, y, tab, true, lin);
    unsigned done = raster_slope_attrs_pair_avx2(sl, sr, el, er, lin);
    if (!(done & 1u)) raster_slope_attrs_vtx(sl, el->wa, el->wb, el->a, el->b);
    if (!(done & 2u)) raster_slope_attrs_vtx(sr, er->wa, er->wb, er->a, er->b);
    sl->x1 = el->b->sx;
    sr->x1 = er->b->sx;
    raster_slope_depth_in(sl, el->za, el->zb, wbuffer);
    raster_slope_depth_in(sr, er->za, er->zb, wbuffer);
}
#endif

#endif
