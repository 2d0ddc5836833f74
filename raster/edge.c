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
 * engine takes slope_core (the same fields, unit.test_raster_activate). */
int32_t raster_slope_setup(raster_slope *s, int side, bool hw_gaps, int32_t x0, int32_t x1,
                           int32_t y0, int32_t y1, int32_t w0, int32_t w1, int32_t y)
{
    s->x0 = x0;
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
    s->xlen = s->xmax + 1 - s->xmin;
    s->ylen = y1 - y0;

    /* Reciprocal first, then the product (melonDS Slope::Setup; nds-interp README). */
    if (s->ylen == 0) {
        s->inc = 0;
    } else if (s->ylen == s->xlen && s->xlen != 1) {
        s->inc = RASTER_SLOPE_ONE;
    } else {
        int32_t yrecip = (1 << 18) / s->ylen;
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

/* The set-up the engine uses (raster_slope_setup_tab, raster_slope_setup_pair): the same
 * fields as raster_slope_setup, with the slope's cases folded into a few selects (the extent
 * from |x1 - x0|; the initial accumulator as (far end ? inc - 0.5 : 0.5) + (negative ? 1.0 :
 * 0) for X-major edges, see raster_slope_setup's cases) and the reciprocals from @p tab. */
RASTER_HOT int32_t slope_core(raster_slope *s, int side, bool hw_gaps, int32_t x0, int32_t x1,
                              int32_t y0, int32_t y1, int32_t w0, int32_t w1, int32_t y,
                              const raster_recip *tab, bool then_all)
{
    const int32_t one = RASTER_SLOPE_ONE, half = RASTER_SLOPE_ONE / 2;
    int32_t ddx = x1 - x0;
    bool negative = ddx < 0;
    int32_t xlen = negative ? -ddx : (ddx == 0 ? 1 : ddx);
    int32_t xmin = negative ? x1 : x0;
    int32_t ylen = y1 - y0;
    s->x0 = x0;
    s->side = (uint8_t)side;
    if (!then_all) {              /* (@p then_all: the attributes and the depth are set up next) */
        s->attr_lin_fast = false; /* until raster_slope_attrs */
        s->zacc_on = false;       /* until raster_slope_depth */
        s->zacc = s->zstep = 0;
    }
    s->xmin = xmin;
    s->xmax = xmin + xlen - 1;
    s->negative = negative;
    s->xlen = xlen;
    s->ylen = ylen;

    /* reciprocal first, then the product (raster_slope_setup); ylen == xlen implies ylen != 0
     * (xlen >= 1), so the 45-degree test may come first */
    int32_t inc;
    if (ylen == xlen && xlen != 1) {
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
    raster_interp_setup_tab(&s->interp, RASTER_INTERP_Y, y0 - ioff, y1 - ioff, w0, w1, tab);
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
    return slope_core(s, side, hw_gaps, x0, x1, y0, y1, w0, w1, y, tab, false);
}

int32_t raster_slope_setup_flat(raster_slope *s, int side, int32_t x0)
{
    s->x0 = x0;
    s->xmin = x0;
    s->xmax = x0;
    s->xlen = 1;
    s->ylen = 0;
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

/* W, r, g, b of a vertex (colour: three uint16_t, read as 8 bytes: the struct continues
 * after them) and its s, t (two int16_t) as 32-bit lanes */
_Static_assert(offsetof(gx_vertex, color) + 8 <= sizeof(gx_vertex), "colour read as 8 bytes");
static __m128i vtx_wrgb(int32_t w, const gx_vertex *v)
{
    __m128i c = _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)v->color), _mm_setzero_si128());
    return _mm_or_si128(_mm_slli_si128(c, 4), _mm_cvtsi32_si128(w));
}

static __m128i vtx_st(const gx_vertex *v)
{
    int32_t st;
    memcpy(&st, v->texcoord, sizeof st);
    __m128i t = _mm_cvtsi32_si128(st);
    return _mm_srai_epi32(_mm_unpacklo_epi16(t, t), 16);
}

void raster_slope_attrs_vtx(raster_slope *s, int32_t w0, int32_t w1, const gx_vertex *v0,
                            const gx_vertex *v1)
{
    slope_attrs_vec(s, vtx_wrgb(w0, v0), vtx_st(v0), vtx_wrgb(w1, v1), vtx_st(v1));
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

RASTER_HOT void slope_depth(raster_slope *s, int32_t z0, int32_t z1, bool wbuffer)
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

void raster_slope_depth(raster_slope *s, int32_t z0, int32_t z1, bool wbuffer)
{
    slope_depth(s, z0, z1, wbuffer);
}

#if EDGE_VEC && (defined(__GNUC__) || defined(__clang__)) && !defined(DSGX_NO_AVX2)
#define EDGE_AVX2 1
#include <immintrin.h>
#define EDGE_AVX2_FN static inline __attribute__((always_inline, target("avx2")))

/* a * b modulo 2^64 in each 64-bit lane, for a < 2^32 (two partial products) */
EDGE_AVX2_FN __m256i mul64_avx2(__m256i a, __m256i b)
{
    return _mm256_add_epi64(_mm256_mul_epu32(a, b),
                            _mm256_slli_epi64(_mm256_mul_epu32(a, _mm256_srli_epi64(b, 32)), 32));
}

/* One edge's part of slope_attrs_pair_avx2: @p bv, @p dv, @p sv, @p ltv its W, r, g, b lanes
 * (base, d, sel, lt), @p bu, @p du, @p su, @p ltu its s, t in lanes 0-1, @p d_or the OR of its
 * six differences. @return false: a linear edge that fails the products' bound, left to
 * raster_slope_attrs_vtx (no call here: the pass stays a leaf function, without a frame). */
EDGE_AVX2_FN bool edge_attrs_avx2(raster_slope *s, __m128i bv, __m128i dv, __m128i sv, __m128i ltv,
                                  __m128i bu, __m128i du, __m128i su, __m128i ltu, uint32_t d_or)
{
    const raster_interp *ip = &s->interp;
    _mm_storeu_si128((__m128i *)&s->attr_base[0], bv);
    _mm_storel_epi64((__m128i *)&s->attr_base[4], bu);
    _mm_storeu_si128((__m128i *)&s->attr_d[0], dv);
    _mm_storel_epi64((__m128i *)&s->attr_d[4], du);
    _mm_storeu_si128((__m128i *)&s->attr_sel[0], sv);
    _mm_storel_epi64((__m128i *)&s->attr_sel[4], su);
    if (!ip->linear) {
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
    _mm256_storeu_si256((__m256i *)&s->attr_dr[RASTER_EA_R], dr);
    _mm256_storeu_si256((__m256i *)&s->attr_acc[0], acc);
    _mm256_storeu_si256((__m256i *)&s->attr_step[0], step);
    /* W and t as scalars (W's d is 0: equal W ends) */
    const uint32_t dw = (uint32_t)_mm_cvtsi128_si32(dv);
    const uint64_t dt = (uint32_t)_mm_extract_epi32(du, 1);
    const bool ltt = _mm_extract_epi32(ltu, 1) != 0;
    const uint64_t drt = dt * R;
    s->attr_dr[RASTER_EA_W] = (uint64_t)dw * R;
    s->attr_dr[RASTER_EA_T] = drt;
    s->attr_acc[RASTER_EA_T - 1] = dt * (ltt ? rx : rxl);
    s->attr_step[RASTER_EA_T - 1] = ltt ? drt : 0u - drt;
    s->attr_lin_fast = dw == 0; /* (W: cannot differ) */
    return true;
}

/* An edge's W, r, g, b (@p wrgb) and s, t (@p st) at its upper and lower vertex (the upper
 * one's twice for a zero-length edge, as slope_attrs_vec). */
EDGE_AVX2_FN void edge_ends_avx2(const raster_slope *s, const raster_edge_ends *e, __m128i wrgb[2],
                                 __m128i st[2])
{
    wrgb[0] = vtx_wrgb(e->wa, e->a);
    st[0] = vtx_st(e->a);
    const gx_vertex *b = s->interp.xdiff == 0 ? e->a : e->b;
    wrgb[1] = vtx_wrgb(s->interp.xdiff == 0 ? e->wa : e->wb, b);
    st[1] = vtx_st(b);
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
static __attribute__((noinline, target("avx2"))) unsigned
slope_attrs_pair_avx2(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                      const raster_edge_ends *er)
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
    unsigned done = (unsigned)edge_attrs_avx2(
        sl, _mm256_castsi256_si128(basev), _mm256_castsi256_si128(dv), _mm256_castsi256_si128(selv),
        _mm256_castsi256_si128(ltv), baseu, du, selu, ltu, (uint32_t)_mm256_cvtsi256_si32(dor));
    done |= (unsigned)edge_attrs_avx2(
                sr, _mm256_extracti128_si256(basev, 1), _mm256_extracti128_si256(dv, 1),
                _mm256_extracti128_si256(selv, 1), _mm256_extracti128_si256(ltv, 1),
                _mm_srli_si128(baseu, 8), _mm_srli_si128(du, 8), _mm_srli_si128(selu, 8),
                _mm_srli_si128(ltu, 8), (uint32_t)_mm256_extract_epi32(dor, 4))
            << 1;
    return done; /* (bit 0: the left edge is set up, bit 1: the right one) */
}
#else
#define EDGE_AVX2 0
#endif

/* Both edges' attributes (raster_slope_setup_pair): the two-edge AVX2 pass when @p wide, else
 * one edge at a time. */
static void slope_attrs_pair(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                             const raster_edge_ends *er, bool wide)
{
#if EDGE_AVX2
    if (wide) {
        unsigned done = slope_attrs_pair_avx2(sl, sr, el, er);
        if (!(done & 1u)) raster_slope_attrs_vtx(sl, el->wa, el->wb, el->a, el->b);
        if (!(done & 2u)) raster_slope_attrs_vtx(sr, er->wa, er->wb, er->a, er->b);
        return;
    }
#else
    (void)wide;
#endif
    raster_slope_attrs_vtx(sl, el->wa, el->wb, el->a, el->b);
    raster_slope_attrs_vtx(sr, er->wa, er->wb, er->a, er->b);
}

void raster_slope_setup_pair(raster_slope *sl, raster_slope *sr, const raster_edge_ends *el,
                             const raster_edge_ends *er, bool hw_gaps, bool wbuffer, int32_t y,
                             const raster_recip *tab, bool wide, int32_t x[2])
{
    x[0] = slope_core(sl, RASTER_SIDE_LEFT, hw_gaps, el->a->sx, el->b->sx, el->a->sy, el->b->sy,
                      el->wa, el->wb, y, tab, true);
    x[1] = slope_core(sr, RASTER_SIDE_RIGHT, hw_gaps, er->a->sx, er->b->sx, er->a->sy, er->b->sy,
                      er->wa, er->wb, y, tab, true);
    slope_attrs_pair(sl, sr, el, er, wide);
    sl->x1 = el->b->sx;
    sr->x1 = er->b->sx;
    slope_depth(sl, el->za, el->zb, wbuffer);
    slope_depth(sr, er->za, er->zb, wbuffer);
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
    int32_t startx = dsgx_asr32((int32_t)dxf, 18);
    if (s->negative) startx = s->xlen - startx;
    if (s->side == RASTER_SIDE_RIGHT) startx = startx - len + 1;
    int32_t startcov = (int32_t)((dsgx_mul64(dsgx_shl32(startx, 10) + 0x1FF, s->ylen)) / s->xlen);
    /* the increment (melonDS Slope::Setup computes it with the slope; here, in the only
     * place that reads it, so that edges set up without anti-aliasing skip the division) */
    int32_t incr = dsgx_shl32(s->ylen, 10) / s->xlen;
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
