/*
 * edge.c - polygon edge slopes: set-up, X-major run lengths and anti-aliasing coverage.
 *
 * Hardware notes:
 *  - Verified against hardware: slope = ((1 << 18) / dy) * dx, X-major bias +0.5, Y-major no
 *    bias, negative slopes mirrored, and (default mode) the X-major run end
 *    (start & ~0x1FF) + slope - 1.0 that leaves 1-pixel gaps (nds-interp captures, all 198,404
 *    slopes; /work/shared/hardware/nds-interp/dataset/README.md, tools/model.py).
 *  - From melonDS GPU3D_Soft.h Slope (reference frames): the 45-degree special case (slope
 *    exactly 1.0 when dx == dy != 1), right edges kept at their far end (bias -0.5 for
 *    positive X-major, +1.0 for negatives), the clamping of the span X to the edge's extent,
 *    the interpolation offset of far-end edges, and the anti-aliasing coverage formulas.
 *  - Guess: the anti-aliasing coverage (melonDS calls it approximate); under the hardware gap
 *    rule we take the coverage from the shortened run's first pixel.
 *
 * The two run-end rules, for the accumulator n = distance from x0 to the run's first pixel
 * (bias included): melonDS's far end is (n + slope) >> 18, the hardware's is
 * ((n & ~0x1FF) + slope) >> 18. Near-end edges (left positive, right negative) keep their X
 * and only their run length changes (near_keep); far-end edges (right positive, left negative)
 * move their X (far_mask). Both masks are fixed at set-up.
 *
 * Performance: the per-line values of an edge that only depend on the interpolator position
 * through a product with it (linear attributes, Z-buffer depth) are kept as accumulators and
 * stepped by one add per line (raster_slope_attrs, raster_slope_depth; exactness argued there
 * and checked against the direct formulas by test_raster_edge_step); the set-up's divisions
 * come from the engine's reciprocal table (raster_slope_setup_tab). With SSE2 the attributes
 * are prepared several at a time (raster_slope_attrs, read straight from the vertices by
 * raster_slope_attrs_vtx); raster_slope_attrs_ref is the reference (test_raster_edge_step).
 * A polygon's activation sets both edges up in one call (raster_slope_setup_pair), with both
 * edges' attributes in one AVX2 pass where the processor has it; raster_slope_setup (dividing)
 * and the per-edge calls are its reference (test_raster_activate).
 */
#include "raster/edge.h"
#include "raster/edge_setup.h"

#include <stddef.h>
#include <string.h>

#include "gx/gx_frame.h"

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#define EDGE_VEC 1
#include <emmintrin.h>
#else
#define EDGE_VEC 0
#endif

/* The reference set-up (raster_slope_setup): the plain form of the formulas, dividing; the
 * engine takes raster_slope_core (edge_setup.h; the same fields, unit.test_raster_activate). */
int32_t raster_slope_setup(raster_slope *s, int side, bool hw_gaps, int32_t x0, int32_t x1,
                           int32_t y0, int32_t y1, int32_t w0, int32_t w1, int32_t y)
{
    s->side = (uint8_t)side;
    s->attr_lin_fast = false; /* until raster_slope_attrs */
    s->zacc_on = false;       /* until raster_slope_depth */
    s->zacc = s->zstep = 0;

    if (x1 > x0) {
        s->xmin = x0;
        s->xmax = x1 - 1;
        s->negative = false;
    } else if (x1 < x0) {
        s->xmin = x1;
        s->xmax = x0 - 1;
        s->negative = true;
    } else {
        s->xmin = x0;
        s->xmax = x0;
        s->negative = false;
    }
    s->xsign = s->negative ? -1 : 0;
    s->xbase = x0 ^ s->xsign;
    const int32_t xlen = s->xmax + 1 - s->xmin, ylen = y1 - y0;

    /* Reciprocal first, then the product (melonDS Slope::Setup; nds-interp README). */
    if (ylen == 0) {
        s->inc = 0;
    } else if (ylen == xlen && xlen != 1) {
        s->inc = RASTER_SLOPE_ONE;
    } else {
        int32_t yrecip = (1 << 18) / ylen;
        int32_t inc = (x1 - x0) * yrecip;
        s->inc = inc < 0 ? -inc : inc;
    }
    s->xmajor = s->inc > RASTER_SLOPE_ONE;
    s->fill_start = s->negative || !s->xmajor;
    s->fill_end = (!s->negative && s->xmajor) || s->inc == 0;

    /* Initial accumulator (melonDS Slope::Setup): left edges sit at the run's start, right
     * edges at its end; X-major runs carry the +0.5 bias. */
    int32_t half = RASTER_SLOPE_ONE / 2;
    if (s->xmajor) {
        if (side == RASTER_SIDE_RIGHT)
            s->dx = s->negative ? half + RASTER_SLOPE_ONE : s->inc - half;
        else
            s->dx = s->negative ? (s->inc - half) + RASTER_SLOPE_ONE : half;
    } else if (s->inc != 0) {
        s->dx = s->negative ? RASTER_SLOPE_ONE : 0;
    } else {
        s->dx = 0;
    }
    s->dx = (int32_t)((uint32_t)s->dx + (uint32_t)(y - y0) * (uint32_t)s->inc);

    /* Gap rule masks (see the file comment). */
    bool far_end = (side == RASTER_SIDE_RIGHT) != s->negative;
    s->far_mask = hw_gaps && s->xmajor && far_end ? 0x1FF : 0;
    s->near_keep = hw_gaps && s->xmajor ? ~0x1FF : ~0;

    /* Far-end edges with slope >= 1 interpolate one line earlier (melonDS "interpoffset"). */
    int32_t ioff = (s->inc >= RASTER_SLOPE_ONE && far_end) ? 1 : 0;
    raster_interp_setup(&s->interp, RASTER_INTERP_Y, y0 - ioff, y1 - ioff, w0, w1);
    /* (at the interpolator's start, the usual case, the factor is 0, as set up: its numerator
     * x * w0n is 0; no division) */
    raster_interp_set_pos(&s->interp, y);
    if (s->interp.x != 0) raster_interp_update_factor(&s->interp);

    return raster_slope_x(s);
}

int32_t raster_slope_setup_tab(raster_slope *s, int side, bool hw_gaps, int32_t x0, int32_t x1,
                               int32_t y0, int32_t y1, int32_t w0, int32_t w1, int32_t y,
                               const raster_recip *tab)
{
    return raster_slope_core(s, side, hw_gaps, x0, x1, y0, y1, w0, w1, y, tab, false, false);
}

int32_t raster_slope_setup_flat(raster_slope *s, int side, int32_t x0)
{
    s->xbase = x0;
    s->xsign = 0;
    s->xmin = x0;
    s->xmax = x0;
    s->dx = 0;
    s->inc = 0;
    s->far_mask = 0;
    s->near_keep = ~0;
    s->negative = false;
    s->xmajor = false;
    s->fill_start = s->fill_end = true; /* (negative false, Y-major, inc 0) */
    s->side = (uint8_t)side;
    s->attr_lin_fast = false; /* until raster_slope_attrs */
    s->zacc_on = false;       /* until raster_slope_depth */
    s->zacc = s->zstep = 0;
    raster_interp_setup(&s->interp, RASTER_INTERP_Y, 0, 0, 0, 0);
    raster_interp_set(&s->interp, 0);
    return x0;
}

/* raster_slope_attrs_ref for a linear (@p lin, with the accumulators) or perspective edge. */
RASTER_HOT void slope_attrs(raster_slope *s, const int32_t a0[], const int32_t a1[], bool lin)
{
    /* Per edge instead of per line: which end is smaller, the difference, and the linear
     * mode's product with the reciprocal (interp.h raster_attr_prepare_on, written out for
     * the six attributes with the interpolator's constants read once: the same values). */
    const raster_interp *ip = &s->interp;
    const bool len0 = ip->xdiff == 0;
    const uint64_t R = lin ? ip->lin_recip : 0u; /* dr = 0: not linear, or no table */
    const uint64_t xd = (uint64_t)(int64_t)ip->xdiff;
    /* Linear edges: the per-line product dr * xs (xs = x or xdiff - x, the distance from the
     * smaller end) as an accumulator stepped by +-dr per line (raster_slope_step). Kept modulo
     * 2^64 also while x is outside [0, xdiff]; inside it, it equals the product itself, which
     * is below 2^61 (d * xdiff < 2^25 and dr = d * lin_recip, lin_recip <= 2^35 + 1), so
     * raster_slope_attr_values reads the same value as multiplying. (Read only with
     * attr_lin_fast.) */
    const uint64_t x = (uint64_t)(int64_t)ip->x, xl = (uint64_t)(int64_t)(ip->xdiff - ip->x);
    unsigned slow = 0; /* some attribute has d != 0 without its product */
    for (int k = 0; k < RASTER_EDGE_ATTRS; k++) {
        int32_t v0 = a0[k], v1 = len0 ? v0 : a1[k];
        bool lt = v0 < v1;
        uint32_t base = (uint32_t)(lt ? v0 : v1);
        uint32_t d = lt ? (uint32_t)v1 - (uint32_t)v0 : (uint32_t)v0 - (uint32_t)v1;
        uint64_t dr = lin && ((uint64_t)d * xd) >> 25 == 0 ? (uint64_t)d * R : 0u;
        s->attr_base[k] = base;
        s->attr_d[k] = d;
        s->attr_sel[k] = lt ? 0u : 1u;
        s->attr_dr[k] = dr;
        slow |= (unsigned)(d != 0) & (unsigned)(dr == 0);
        /* W: equal at both ends of a linear edge (interp.h), so d = 0 and no accumulator */
        if (lin && k > 0) {
            s->attr_acc[k - 1] = dr * (lt ? x : xl);
            s->attr_step[k - 1] = lt ? dr : 0u - dr;
        }
    }
    s->attr_lin_fast = lin && !slow && s->attr_d[RASTER_EA_W] == 0; /* (W: cannot differ) */
}

void raster_slope_attrs_ref(raster_slope *s, const int32_t a0[], const int32_t a1[])
{
    if (s->interp.linear)
        slope_attrs(s, a0, a1, true);
    else
        slope_attrs(s, a0, a1, false);
}

#if EDGE_VEC
/*
 * raster_slope_attrs with the 32-bit part four lanes at a time: @p v0 / @p v1 hold W, r, g, b
 * of the upper / lower vertex, @p u0 / @p u1 s, t in their lanes 0-1 (lanes 2-3 ignored).
 *  - lt = v0 < v1 (signed), base = the smaller, d = |v1 - v0| modulo 2^32 (the scalar form's
 *    unsigned differences), sel = !lt: one vector operation each.
 *  - Linear edges: when (d_or * xdiff) >> 25 == 0 for d_or, the OR of the six differences
 *    (each d <= d_or), every attribute passes the bound of slope_attrs, so dr = d * lin_recip
 *    for each, and no dr is 0 where d is not (lin_recip > 2^25, d * lin_recip < 2^61): slow is
 *    false. The products are then formed two attributes at a time (64-bit lanes).
 *    Otherwise (long edges with large texture-coordinate differences, or no reciprocal)
 *    slope_attrs decides attribute by attribute.
 */
static void slope_attrs_vec(raster_slope *s, __m128i v0, __m128i u0, __m128i v1, __m128i u1)
{
    const raster_interp *ip = &s->interp;
    if (ip->xdiff == 0) v1 = v0, u1 = u0;
    const __m128i ones = _mm_set1_epi32(-1);
    __m128i ltv = _mm_cmpgt_epi32(v1, v0), ltu = _mm_cmpgt_epi32(u1, u0);
    __m128i basev = _mm_xor_si128(v1, _mm_and_si128(_mm_xor_si128(v0, v1), ltv));
    __m128i baseu = _mm_xor_si128(u1, _mm_and_si128(_mm_xor_si128(u0, u1), ltu));
    /* d = lt ? v1 - v0 : v0 - v1 = (diff ^ m) - m with m = ~lt */
    __m128i mv = _mm_xor_si128(ltv, ones), mu = _mm_xor_si128(ltu, ones);
    __m128i dv = _mm_sub_epi32(_mm_xor_si128(_mm_sub_epi32(v1, v0), mv), mv);
    __m128i du = _mm_sub_epi32(_mm_xor_si128(_mm_sub_epi32(u1, u0), mu), mu);
    const __m128i one = _mm_set1_epi32(1);
    _mm_storeu_si128((__m128i *)&s->attr_base[0], basev);
    _mm_storel_epi64((__m128i *)&s->attr_base[4], baseu);
    _mm_storeu_si128((__m128i *)&s->attr_d[0], dv);
    _mm_storel_epi64((__m128i *)&s->attr_d[4], du);
    _mm_storeu_si128((__m128i *)&s->attr_sel[0], _mm_and_si128(mv, one));
    _mm_storel_epi64((__m128i *)&s->attr_sel[4], _mm_and_si128(mu, one));
    if (!ip->linear) {
        const __m128i zero = _mm_setzero_si128();
        _mm_storeu_si128((__m128i *)&s->attr_dr[0], zero);
        _mm_storeu_si128((__m128i *)&s->attr_dr[2], zero);
        _mm_storeu_si128((__m128i *)&s->attr_dr[4], zero);
        s->attr_lin_fast = false;
        return;
    }
    const uint64_t R = ip->lin_recip;
    __m128i dor = _mm_or_si128(dv, _mm_unpacklo_epi64(du, _mm_setzero_si128()));
    dor = _mm_or_si128(dor, _mm_shuffle_epi32(dor, _MM_SHUFFLE(1, 0, 3, 2)));
    dor = _mm_or_si128(dor, _mm_shuffle_epi32(dor, _MM_SHUFFLE(2, 3, 0, 1)));
    uint32_t d_or = (uint32_t)_mm_cvtsi128_si32(dor);
    if (R == 0 || ((uint64_t)d_or * (uint64_t)(int64_t)ip->xdiff) >> 25 != 0) {
        int32_t a0[8], a1[8];
        _mm_storeu_si128((__m128i *)&a0[0], v0);
        _mm_storeu_si128((__m128i *)&a0[4], u0);
        _mm_storeu_si128((__m128i *)&a1[0], v1);
        _mm_storeu_si128((__m128i *)&a1[4], u1);
        slope_attrs(s, a0, a1, true);
        return;
    }
    /* dr = d * R, acc = dr * xs = d * (R * xs) (modulo 2^64 both ways), step = +-dr, on the
     * attribute pairs (W r), (g b), (s t) as 64-bit lanes, straight from the registers (a
     * reload of the differences just stored would wait for the stores: two stores, one load) */
    const uint64_t x = (uint64_t)(int64_t)ip->x, xl = (uint64_t)(int64_t)(ip->xdiff - ip->x);
    const __m128i zero = _mm_setzero_si128();
    const __m128i vr = _mm_set1_epi64x((int64_t)R), vrhi = _mm_srli_epi64(vr, 32);
    const __m128i vrx = _mm_set1_epi64x((int64_t)(R * x)),
                  vrxl = _mm_set1_epi64x((int64_t)(R * xl));
    const __m128i d64[3] = {_mm_unpacklo_epi32(dv, zero), _mm_unpackhi_epi32(dv, zero),
                            _mm_unpacklo_epi32(du, zero)};
    const __m128i lt64[3] = {_mm_unpacklo_epi32(ltv, ltv), _mm_unpackhi_epi32(ltv, ltv),
                             _mm_unpacklo_epi32(ltu, ltu)};
    __m128i dr[3], acc[3], step[3];
    for (int i = 0; i < 3; i++) {
        /* (d < 2^32: two partial products each) */
        dr[i] = _mm_add_epi64(_mm_mul_epu32(d64[i], vr),
                              _mm_slli_epi64(_mm_mul_epu32(d64[i], vrhi), 32));
        __m128i rs = _mm_or_si128(_mm_and_si128(lt64[i], vrx), _mm_andnot_si128(lt64[i], vrxl));
        acc[i] = _mm_add_epi64(_mm_mul_epu32(d64[i], rs),
                               _mm_slli_epi64(_mm_mul_epu32(d64[i], _mm_srli_epi64(rs, 32)), 32));
        __m128i nlt = _mm_xor_si128(lt64[i], ones);
        step[i] = _mm_sub_epi64(_mm_xor_si128(dr[i], nlt), nlt);
    }
    _mm_storeu_si128((__m128i *)&s->attr_dr[0], dr[0]);
    _mm_storeu_si128((__m128i *)&s->attr_dr[2], dr[1]);
    _mm_storeu_si128((__m128i *)&s->attr_dr[4], dr[2]);
    /* attr_acc / attr_step [k - 1] for k = 1..5: r from the high lane of the first pair */
    _mm_storel_epi64((__m128i *)&s->attr_acc[0], _mm_unpackhi_epi64(acc[0], acc[0]));
    _mm_storeu_si128((__m128i *)&s->attr_acc[1], acc[1]);
    _mm_storeu_si128((__m128i *)&s->attr_acc[3], acc[2]);
    _mm_storel_epi64((__m128i *)&s->attr_step[0], _mm_unpackhi_epi64(step[0], step[0]));
    _mm_storeu_si128((__m128i *)&s->attr_step[1], step[1]);
    _mm_storeu_si128((__m128i *)&s->attr_step[3], step[2]);
    s->attr_lin_fast = _mm_cvtsi128_si32(dv) == 0; /* (W: cannot differ) */
}

void raster_slope_attrs(raster_slope *s, const int32_t a0[], const int32_t a1[])
{
    slope_attrs_vec(s, _mm_loadu_si128((const __m128i *)a0),
                    _mm_loadl_epi64((const __m128i *)&a0[4]), _mm_loadu_si128((const __m128i *)a1),
                    _mm_loadl_epi64((const __m128i *)&a1[4]));
}

void raster_slope_attrs_vtx(raster_slope *s, int32_t w0, int32_t w1, const gx_vertex *v0,
                            const gx_vertex *v1)
{
    slope_attrs_vec(s, raster_vtx_wrgb(w0, v0), raster_vtx_st(v0), raster_vtx_wrgb(w1, v1),
                    raster_vtx_st(v1));
}
#else
void raster_slope_attrs(raster_slope *s, const int32_t a0[], const int32_t a1[])
{
    raster_slope_attrs_ref(s, a0, a1);
}

void raster_slope_attrs_vtx(raster_slope *s, int32_t w0, int32_t w1, const gx_vertex *v0,
                            const gx_vertex *v1)
{
    const int32_t a0[RASTER_EDGE_ATTRS] = {w0,           v0->color[0],    v0->color[1],
                                           v0->color[2], v0->texcoord[0], v0->texcoord[1]};
    const int32_t a1[RASTER_EDGE_ATTRS] = {w1,           v1->color[0],    v1->color[1],
                                           v1->color[2], v1->texcoord[0], v1->texcoord[1]};
    raster_slope_attrs_ref(s, a0, a1);
}
#endif

void raster_slope_depth(raster_slope *s, int32_t z0, int32_t z1, bool wbuffer)
{
    raster_slope_depth_in(s, z0, z1, wbuffer);
}

#if RASTER_EDGE_AVX2
/* raster_slope_setup_pair with @p wide, out of line (an AVX2 function) */
static __attribute__((noinline, target("avx2"))) void
setup_pair_avx2(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                const raster_edge_ends *er, bool hw_gaps, bool wbuffer, int32_t y,
                const raster_recip *tab, int32_t x[2])
{
    raster_slope_pair_avx2(sl, sr, el, er, hw_gaps, wbuffer, y, tab, x, false);
}

/* raster_slope_setup_pair_lin with AVX2, out of line */
static __attribute__((noinline, target("avx2"))) void
setup_pair_lin_avx2(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                    const raster_edge_ends *er, bool hw_gaps, int32_t y, const raster_recip *tab,
                    int32_t x[2])
{
    raster_slope_pair_avx2(sl, sr, el, er, hw_gaps, false, y, tab, x, true);
}
#endif

void raster_slope_setup_pair_lin(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                                 const raster_edge_ends *er, bool hw_gaps, int32_t y,
                                 const raster_recip *tab, bool wide, int32_t x[2])
{
#if RASTER_EDGE_AVX2
    if (wide) {
        setup_pair_lin_avx2(sl, sr, el, er, hw_gaps, y, tab, x);
        return;
    }
#else
    (void)wide;
#endif
    raster_slope_pair(sl, sr, el, er, hw_gaps, false, y, tab, x);
}

void raster_slope_setup_pair(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                             const raster_edge_ends *er, bool hw_gaps, bool wbuffer, int32_t y,
                             const raster_recip *tab, bool wide, int32_t x[2])
{
#if RASTER_EDGE_AVX2
    if (wide) {
        setup_pair_avx2(sl, sr, el, er, hw_gaps, wbuffer, y, tab, x);
        return;
    }
#else
    (void)wide;
#endif
    raster_slope_pair(sl, sr, el, er, hw_gaps, wbuffer, y, tab, x);
}

static void edge_params_xmajor(const raster_slope *s, bool swapped, int32_t *length,
                               int32_t *coverage)
{
    bool far_end = (s->side == RASTER_SIDE_RIGHT) != s->negative;
    uint32_t dx = (uint32_t)s->dx;
    uint32_t before = dx - (uint32_t)s->inc;
    /* the far end actually drawn under the selected rule */
    uint32_t dxf = dx - (before & (uint32_t)s->far_mask);
    int32_t len = 0;

    /* melonDS EdgeParams_XMajor: a swapped left edge's length is never computed (its run is
     * forced to 1 pixel below and its coverage does not depend on it). */
    if (!swapped || s->side == RASTER_SIDE_RIGHT) {
        if (far_end)
            len = dsgx_asr32((int32_t)dxf, 18) - dsgx_asr32((int32_t)before, 18);
        else
            len = dsgx_asr32((int32_t)((dx & (uint32_t)s->near_keep) + (uint32_t)s->inc), 18) -
                  dsgx_asr32((int32_t)dx, 18);
    }

    /* Coverage of the run's first pixel and the increment for the next ones. */
    /* the edge's extent in pixels (not stored: raster_slope) */
    const int32_t xlen = s->xmax + 1 - s->xmin, ylen = s->interp.xdiff;
    int32_t startx = dsgx_asr32((int32_t)dxf, 18);
    if (s->negative) startx = xlen - startx;
    if (s->side == RASTER_SIDE_RIGHT) startx = startx - len + 1;
    int32_t startcov = (int32_t)((dsgx_mul64(dsgx_shl32(startx, 10) + 0x1FF, ylen)) / xlen);
    /* the increment (melonDS Slope::Setup computes it with the slope; here, in the only
     * place that reads it, so that edges set up without anti-aliasing skip the division) */
    int32_t incr = dsgx_shl32(ylen, 10) / xlen;
    *coverage = (int32_t)(RASTER_COV_XMAJOR | (((uint32_t)startcov & 0x3FFu) << 12) |
                          ((uint32_t)incr & 0x3FFu));
    *length = swapped ? 1 : len;
}

static void edge_params_ymajor(const raster_slope *s, bool swapped, int32_t *length,
                               int32_t *coverage)
{
    *length = 1;
    if (s->inc == 0) {
        /* vertical edges: full coverage, inverted when the edges are swapped (melonDS) */
        *coverage = swapped ? 0 : 31;
        return;
    }
    int32_t cov = dsgx_asr32(dsgx_asr32(s->dx, 9) + dsgx_asr32(s->inc, 10), 4);
    if (dsgx_asr32(cov, 5) != dsgx_asr32(s->dx, 18)) cov = 31;
    cov &= 0x1F;
    bool flip = (s->side == RASTER_SIDE_RIGHT) != s->negative;
    if (swapped ? flip : !flip) cov = 0x1F - cov;
    *coverage = cov;
}

void raster_slope_edge_params(const raster_slope *s, bool swapped, int32_t *length,
                              int32_t *coverage)
{
    if (s->xmajor)
        edge_params_xmajor(s, swapped, length, coverage);
    else
        edge_params_ymajor(s, swapped, length, coverage);
}
