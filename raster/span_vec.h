/*
 * span_vec.h - the pixel loop four pixels at a time (SSE2, the x86-64 baseline). Internal to
 * raster/, included by span_pixel.h; without SSE2 (other machines), or built with
 * -DDSGX_NO_SIMD, SPAN_VEC is 0 and the scalar loops of span_pixel.h draw every span.
 *
 * Hardware notes: none of its own; it draws exactly what span_pixel.h plot() draws, pixel for
 * pixel (unit.test_raster_span_diff compares both with the reference path on random frames).
 *
 * What it covers: spans of more than SPAN_VEC_MIN (1) pixels of opaque (alpha 31), not wireframe
 * polygons with the fused shading (vertex colour, modulate from a decoded texture; flat or
 * not): linear Z-buffered (SPAN_DDA) spans, and perspective or W-buffered spans where
 * span_pixel.h persp_ok finds the arithmetic below exact; without anti-aliasing, or with it the
 * inside run of a line that is not the polygon's first or last (no edge flag: no coverage).
 * Spans of at most four pixels take one step (draw_vec's @p one: nothing stepped); a linear
 * span of one pixel is drawn by span_pixel.h plot (draw_vec_line). Each step takes pixels
 * x .. x + 3 of [xs, xe):
 *  - perspective: the factor floor(num / den) per lane by a double division (num < 2^32,
 *    0 < den < 2^31: a quotient that is not an integer is at least 1/den from the next one,
 *    more than the rounding error, so the floor is exact), f1 = 256 - f0, each attribute
 *    base + ((d * f) >> 8) by a float product (d <= 2^16, f <= 256: d * f <= 2^24 is exact);
 *    W-buffer depth zbase + ((zk * f) >> 8) by 32x32->64 products;
 *  - linear: the accumulators of span_pixel.h's span_dda (attribute k = acc >> 35, depth = zbase +
 *    (zacc >> 13), the same 64-bit integers) are kept per lane, two 64-bit lanes per register,
 *    and step by 4 * step; only the low 32 bits of each result are used, where a logical shift
 *    of the 64-bit accumulator gives the same bits as the arithmetic one (dsgx_asr64);
 *  - the texture wrap (raster_tex_wrap) runs on four lanes; the four texel loads are scalar
 *    (no gather in SSE2);
 *  - modulate per 16-bit channel: ((t + 1) * m - 1) >> 6 with m = v + 1 for r, g, b and
 *    m = 2 * (polygon alpha + 1) for alpha: ((ta + 1) * 2 * pa1 - 1) >> 6 equals
 *    ((ta + 1) * pa1 - 1) >> 5, because 2 * Y - 1 is odd and cannot be a multiple of 64;
 *    products <= 64 * 64;
 *  - depth test on four lanes (signed compares; the unsigned range test of the equal modes
 *    with the sign bit flipped);
 *  - lanes that are opaque, pass both tests and are inside the span are written with one
 *    masked store per buffer (load, select, store of pixels x .. x + 3 of the same line: the
 *    other lanes get back the value they had; a group reaching past pixel 255 is written lane
 *    by lane, so no other line's words, which another thread may be drawing, are touched);
 *  - lanes that need more (translucent, or a failed test against an edge pixel, which is
 *    retried against the pixel underneath) go through plot_depth / plot_write one by one
 *    with the lane's depth and colour: pixels of one line never interact, so the order of
 *    lanes does not change the result;
 *  - the overlapping-edge rule (SPAN_CURSE, curse.c): each lane's role by its run (the
 *    line's roles), raster_curse_verdict per lane before the depth test (a win passes and is
 *    not retried, a loss fails), the role in the attribute word, as plot.
 */
#ifndef DSGX_RASTER_SPAN_VEC_H
#define DSGX_RASTER_SPAN_VEC_H

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#define SPAN_VEC 1
#ifndef SPAN_VEC_MIN
#define SPAN_VEC_MIN 1
#endif
#include <emmintrin.h>

/* Four 64-bit lanes acc, acc + step, acc + 2 step, acc + 3 step (two registers) and the step
 * of four pixels. */
typedef struct vec_acc {
    __m128i lo, hi, step4;
} vec_acc;

SPAN_INLINE void vec_acc_init(vec_acc *v, uint64_t acc, uint64_t step)
{
    v->lo = _mm_set_epi64x((long long)(acc + step), (long long)acc);
    v->hi = _mm_set_epi64x((long long)(acc + 3 * step), (long long)(acc + 2 * step));
    v->step4 = _mm_set1_epi64x((long long)(4 * step));
}

SPAN_INLINE void vec_acc_step(vec_acc *v)
{
    v->lo = _mm_add_epi64(v->lo, v->step4);
    v->hi = _mm_add_epi64(v->hi, v->step4);
}

/* The low 32 bits of each lane >> sh, as four 32-bit lanes. */
#define VEC_ACC_BITS(v, sh)                                                                        \
    _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(_mm_srli_epi64((v).lo, sh)),                  \
                                    _mm_castsi128_ps(_mm_srli_epi64((v).hi, sh)),                  \
                                    _MM_SHUFFLE(2, 0, 2, 0)))

SPAN_INLINE __m128i vec_select(__m128i m, __m128i a, __m128i b)
{
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}

/* Four lanes of a polygon constant (raster_span_k.v_*, 16-byte aligned). */
#define VEC_K(a) _mm_load_si128((const __m128i *)(a))

/* raster_tex_wrap on four lanes of 1.11.4 coordinates (their low 16 bits). Repeat axes (both
 * axes repeat: k->repeat) skip the clamp, which never limits there; without flip either
 * (k->plain) the wrap is the texel coordinate's bits below log2(size), where sext16(coord) >> 4
 * and coord >> 4 agree (size <= 1024: bits 4-13 of coord). */
SPAN_INLINE __m128i vec_wrap(const int32_t ax[4][4], __m128i coord, bool repeat, bool plain)
{
    if (plain) return _mm_and_si128(_mm_srli_epi32(coord, 4), VEC_K(ax[2]));
    __m128i c = _mm_srai_epi32(_mm_slli_epi32(coord, 16), 20); /* sext16(coord) >> 4 */
    if (!repeat) {
        c = vec_select(_mm_cmplt_epi32(c, VEC_K(ax[0])), VEC_K(ax[0]), c);
        c = vec_select(_mm_cmpgt_epi32(c, VEC_K(ax[1])), VEC_K(ax[1]), c);
    }
    __m128i keep = _mm_cmpeq_epi32(_mm_and_si128(c, VEC_K(ax[3])), _mm_setzero_si128());
    return _mm_xor_si128(_mm_and_si128(c, VEC_K(ax[2])), _mm_andnot_si128(keep, VEC_K(ax[2])));
}

/* depth_pass on four lanes. */
SPAN_INLINE __m128i vec_depth_pass(int dt, __m128i dstz, __m128i z, __m128i dstattr)
{
    const __m128i sign = _mm_set1_epi32(INT32_MIN);
    switch (dt) {
    case RASTER_DEPTH_EQUAL_Z:
    case RASTER_DEPTH_EQUAL_W: {
        /* (uint32)(dstz - z + tol) <= 2 * tol */
        int32_t tol = dt == RASTER_DEPTH_EQUAL_Z ? 0x200 : 0xFF;
        __m128i d = _mm_add_epi32(_mm_sub_epi32(dstz, z), _mm_set1_epi32(tol));
        __m128i out =
            _mm_cmpgt_epi32(_mm_xor_si128(d, sign), _mm_xor_si128(_mm_set1_epi32(2 * tol), sign));
        return _mm_xor_si128(out, _mm_set1_epi32(-1));
    }
    case RASTER_DEPTH_LESS_FRONT: {
        const __m128i tb = _mm_set1_epi32(RASTER_ATTR_TRANSLUCENT | RASTER_ATTR_BACKFACE);
        const __m128i b = _mm_set1_epi32(RASTER_ATTR_BACKFACE);
        __m128i le = _mm_cmpeq_epi32(_mm_and_si128(dstattr, tb), b);
        return _mm_or_si128(_mm_cmpgt_epi32(dstz, z), _mm_and_si128(le, _mm_cmpeq_epi32(dstz, z)));
    }
    default: return _mm_cmpgt_epi32(dstz, z);
    }
}

/* The lanes of one step (draw_vec: four, span_vec8.h draw_vec8: eight; @p n) that the step
 * leaves to the scalar pixel: bit i of @p slow set for lane i, at addr + i, which needs the
 * depth retry under an edge pixel or is not opaque; drawn one at a time through plot_depth /
 * plot_write with the lane's depth @p zl, colour @p cl and attribute word @p al (pixels of
 * one line never interact: the order of the lanes does not matter). With the rule
 * (SPAN_CURSE): the lanes of @p forced (bits as @p slow) won by the rule are not depth-tested,
 * and the attribute word's role bits go with the edge bits, as plot's. */
SPAN_INLINE void vec_slow_lanes(span_line *c, uint32_t addr, int slow, int forced,
                                const uint32_t *zl, const uint32_t *cl, const uint32_t *al, int n,
                                int flags, const span_k *k)
{
    raster_engine *r = c->r;
    const int dt = flags & SPAN_DEPTH_MASK;
    const bool curse = (flags & SPAN_CURSE) != 0;
    const int fm = curse ? forced : 0;
    const uint32_t ebits =
        RASTER_ATTR_EDGE_MASK | (curse ? RASTER_ATTR_ROLE_WIN | RASTER_ATTR_ROLE_LOSE : 0u);
    for (int i = 0; i < n; i++) {
        if (!(slow >> i & 1)) continue;
        uint32_t a = addr + (uint32_t)i, da = r->attr[a];
        if ((fm >> i & 1) || plot_depth(r, dt, &a, &da, (int32_t)zl[i]))
            plot_write(c, a, da, (int32_t)zl[i], cl[i], al[i] & ebits, PART_INSIDE, flags, k);
    }
}

/* Pixels [xs, xe) of a SPAN_DDA line (see the top of this file). lim1 / lim2: the left run
 * ends before lim1, the right run starts at lim2 (edge flags, as draw_line's short loop).
 * @p one: at most four pixels (xe - xs <= 4), one step: nothing is stepped. */
SPAN_INLINE void draw_vec(span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2,
                          int flags, const span_k *k, bool one)
{
    if (xs >= xe) return;
    raster_engine *r = c->r;
    const raster_span_k *p = k->p;
    const int dt = flags & SPAN_DEPTH_MASK;
    const bool tex = (flags & SPAN_SHADE_MODDEC) != 0;
    const bool flat = (flags & SPAN_FLAT) != 0;

    /* linear (SPAN_DDA): the accumulators at xs, as dda_init; perspective: the factor's
     * numerator and denominator per lane (draw_persp_line checked their ranges), the
     * attributes' differences and bases; the Z-buffer depth is linear in either case */
    const bool persp = !(flags & SPAN_DDA);
    const int a0 = flat ? 3 : 0, a1 = tex ? 5 : 3;
    uint64_t xr = (uint32_t)(xs - c->ix.x0), xl = (uint32_t)(c->ix.xdiff - (xs - c->ix.x0));
    vec_acc va[5], vz;
    __m128 vd[5];
    __m128i vb[5];
    bool vsel[5];
    __m128d xd0 = _mm_setzero_pd(), xd1 = _mm_setzero_pd(), wn = _mm_setzero_pd(),
            dstep = _mm_setzero_pd(), dbase = _mm_setzero_pd();
    for (int a = a0; a < a1; a++) {
        if (persp) {
            vd[a] = _mm_set1_ps((float)c->a_d[a]);
            vb[a] = _mm_set1_epi32((int32_t)c->a_base[a]);
            vsel[a] = c->a_sel[a] != 0;
        } else {
            uint64_t dr = (uint64_t)c->a_d[a] * c->ix.lin_recip;
            vec_acc_init(&va[a], dr * (c->a_sel[a] ? xl : xr) + ((uint64_t)c->a_base[a] << 35),
                         c->a_sel[a] ? 0u - dr : dr);
        }
    }
    if (persp) {
        xd0 = _mm_set_pd((double)xr + 1, (double)xr);
        xd1 = _mm_set_pd((double)xr + 3, (double)xr + 2);
        wn = _mm_set1_pd((double)c->ix.w0n * 256.0);
        dstep = _mm_set1_pd((double)c->den_step);
        dbase = _mm_set1_pd((double)c->den_base);
    }
    const bool wbuf = (flags & SPAN_WBUFFER) != 0;
    if (!wbuf) vec_acc_init(&vz, (uint64_t)(c->zacc0 + c->zstep * (int64_t)xr), (uint64_t)c->zstep);
    const __m128i wzk = _mm_set1_epi32((int32_t)(uint32_t)c->zk); /* W-buffer: 0 <= zk < 2^32 */
    const __m128i zbase = _mm_set1_epi32((int32_t)(uint32_t)(uint64_t)c->zbase);

    /* colour constants: modulate factors of a flat span (16-bit channels r, g, b, alpha of two
     * pixels), the alpha factor byte of a varying one, the untextured colour's alpha */
    const uint32_t am = 2 * p->pa1 - 1; /* m - 1 of the alpha channel */
    const bool ident = flat && k->ident;
    __m128i mflat = _mm_setzero_si128();
    if (tex && flat && !ident) {
        /* the flat colour's channels + 1 and am + 1 as bytes, then 16-bit lanes, two pixels */
        int32_t m8 = (int32_t)(((k->flat & 0x3F3F3Fu) | am << 24) + 0x01010101u);
        mflat = _mm_unpacklo_epi8(_mm_set1_epi32(m8), _mm_setzero_si128());
    }
    const __m128i one16 = _mm_set1_epi16(1);
    const __m128i a31 = _mm_set1_epi32(31);
    const __m128i polyattr = _mm_set1_epi32((int32_t)(p->polyattr | c->yedge));
    const __m128i eleft = _mm_set1_epi32(RASTER_ATTR_EDGE_LEFT);
    const __m128i eright = _mm_set1_epi32(RASTER_ATTR_EDGE_RIGHT);
    const __m128i emask = _mm_set1_epi32(RASTER_ATTR_EDGE_MASK);
    const __m128i vlim1 = _mm_set1_epi32(lim1), vlim2 = _mm_set1_epi32(lim2);
    const __m128i vxe = _mm_set1_epi32(xe);
    /* the overlapping-edge rule (SPAN_CURSE, curse.c): the roles of the line's runs */
    const bool curse = (flags & SPAN_CURSE) != 0;
    __m128i role0 = _mm_setzero_si128(), role1 = role0, role2 = role0;
    const bool role0_any = curse && c->roles[0] != 0;
    if (curse) {
        role0 = _mm_set1_epi32((int32_t)c->roles[0]);
        role1 = _mm_set1_epi32((int32_t)c->roles[RASTER_ATTR_EDGE_LEFT]);
        role2 = _mm_set1_epi32((int32_t)c->roles[RASTER_ATTR_EDGE_RIGHT]);
    }
    /* texture constants in locals (the pixel stores may alias the polygon's fields) */
    const bool repeat = p->repeat, plain = p->plain;
    const __m128i wlog2 = _mm_cvtsi32_si128((int)p->wlog2);
    const uint32_t *const tx = p->texels;
    const int32_t line = (int32_t)c->line;
    __m128i xv = _mm_add_epi32(_mm_set1_epi32(xs), _mm_set_epi32(3, 2, 1, 0));

    for (int32_t x = xs; x < xe; x += 4) {
        uint32_t addr = (uint32_t)(line + x);
        __m128i valid = _mm_cmpgt_epi32(vxe, xv);
        /* perspective: the factor f0 = floor(num / den) per lane, f1 = 256 - f0 (exact: see
         * draw_persp_line), and each attribute base + ((d * f) >> 8) with d * f <= 2^24, exact
         * in single precision */
        __m128i f0 = _mm_setzero_si128(), f1 = _mm_setzero_si128();
        __m128 ff0 = _mm_setzero_ps(), ff1 = _mm_setzero_ps();
        __m128i av[5];
        if (persp) {
            __m128i q0 = _mm_cvttpd_epi32(
                _mm_div_pd(_mm_mul_pd(xd0, wn), _mm_add_pd(_mm_mul_pd(xd0, dstep), dbase)));
            __m128i q1 = _mm_cvttpd_epi32(
                _mm_div_pd(_mm_mul_pd(xd1, wn), _mm_add_pd(_mm_mul_pd(xd1, dstep), dbase)));
            f0 = _mm_unpacklo_epi64(q0, q1);
            f1 = _mm_sub_epi32(_mm_set1_epi32(256), f0);
            ff0 = _mm_cvtepi32_ps(f0);
            ff1 = _mm_cvtepi32_ps(f1);
            for (int a = a0; a < a1; a++)
                av[a] = _mm_add_epi32(
                    vb[a],
                    _mm_srli_epi32(_mm_cvttps_epi32(_mm_mul_ps(vd[a], vsel[a] ? ff1 : ff0)), 8));
        } else {
            for (int a = a0; a < a1; a++) av[a] = VEC_ACC_BITS(va[a], 35);
        }
        __m128i z;
        if (wbuf) {
            /* zbase + (zk * f[zsel]) >> 8, the products as 64-bit lanes (even, then odd) */
            __m128i f = c->zsel ? f1 : f0;
            __m128i pe = _mm_srli_epi64(_mm_mul_epu32(f, wzk), 8);
            __m128i po = _mm_srli_epi64(_mm_mul_epu32(_mm_srli_epi64(f, 32), wzk), 8);
            z = _mm_add_epi32(_mm_unpacklo_epi32(_mm_shuffle_epi32(pe, _MM_SHUFFLE(3, 1, 2, 0)),
                                                 _mm_shuffle_epi32(po, _MM_SHUFFLE(3, 1, 2, 0))),
                              zbase);
        } else {
            z = _mm_add_epi32(VEC_ACC_BITS(vz, 13), zbase);
        }
        __m128i dstz, dsta;
        if (x <= 252) {
            dstz = _mm_loadu_si128((const __m128i *)&r->depth[addr]);
            dsta = _mm_loadu_si128((const __m128i *)&r->attr[addr]);
        } else {
            /* (only this line's words: the next line may be another thread's) */
            uint32_t zl[4] = {0, 0, 0, 0}, al[4] = {0, 0, 0, 0};
            for (int32_t i = 0; i < 256 - x; i++) {
                zl[i] = r->depth[addr + (uint32_t)i];
                al[i] = r->attr[addr + (uint32_t)i];
            }
            dstz = _mm_loadu_si128((const __m128i *)zl);
            dsta = _mm_loadu_si128((const __m128i *)al);
        }
        /* edge flags: left run before lim1, right run from lim2 */
        __m128i lt1 = _mm_cmpgt_epi32(vlim1, xv), lt2 = _mm_cmpgt_epi32(vlim2, xv);
        __m128i attr =
            _mm_or_si128(polyattr, _mm_or_si128(_mm_and_si128(lt1, eleft),
                                                _mm_andnot_si128(_mm_or_si128(lt1, lt2), eright)));

        __m128i pass = vec_depth_pass(dt, dstz, z, dsta);
        /* failed against an edge pixel: retried underneath (lane by lane) */
        __m128i noretry =
            _mm_or_si128(pass, _mm_cmpeq_epi32(_mm_and_si128(dsta, emask), _mm_setzero_si128()));
        __m128i forced = _mm_setzero_si128();
        /* (lanes of the inside run of a line that is not the polygon's first or last have no
         * role: nothing to do when every lane is such a lane) */
        if (curse && (role0_any || _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(
                                       lt1, _mm_cmpeq_epi32(lt2, _mm_setzero_si128())))))) {
            /* raster_curse_verdict per lane, before the depth test: the lane's role by its
             * run; same opaque ID: a win over the pixel's role passes whatever the depths
             * (forced), a loss fails whatever the depths; else the depth test (retry too) */
            __m128i role =
                _mm_or_si128(_mm_or_si128(_mm_and_si128(lt1, role1),
                                          _mm_and_si128(_mm_andnot_si128(lt1, lt2), role0)),
                             _mm_andnot_si128(_mm_or_si128(lt1, lt2), role2));
            const __m128i zero = _mm_setzero_si128();
            __m128i same =
                _mm_cmpeq_epi32(_mm_and_si128(_mm_xor_si128(dsta, polyattr),
                                              _mm_set1_epi32((int32_t)RASTER_ATTR_OPAQUE_ID_MASK)),
                                zero);
            __m128i win = _mm_andnot_si128(
                _mm_cmpeq_epi32(_mm_and_si128(_mm_and_si128(dsta, _mm_slli_epi32(role, 1)),
                                              _mm_set1_epi32(RASTER_ATTR_ROLE_LOSE)),
                                zero),
                same);
            __m128i lose = _mm_andnot_si128(
                _mm_cmpeq_epi32(_mm_and_si128(_mm_and_si128(dsta, _mm_srli_epi32(role, 1)),
                                              _mm_set1_epi32(RASTER_ATTR_ROLE_WIN)),
                                zero),
                same);
            lose = _mm_andnot_si128(win, lose);
            pass = _mm_or_si128(win, _mm_andnot_si128(lose, pass));
            noretry = _mm_or_si128(noretry, lose);
            forced = win;
            attr = _mm_or_si128(attr, role);
        }
        __m128i retry = _mm_andnot_si128(noretry, valid);

        __m128i color;
        if (tex) {
            __m128i ws = vec_wrap(p->v_wrap[0], av[3], repeat, plain);
            __m128i wt = vec_wrap(p->v_wrap[1], av[4], repeat, plain);
            __m128i idx = _mm_add_epi32(_mm_sll_epi32(wt, wlog2), ws);
            color = _mm_set_epi32((int)tx[(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(idx, 3))],
                                  (int)tx[(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(idx, 2))],
                                  (int)tx[(uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(idx, 1))],
                                  (int)tx[(uint32_t)_mm_cvtsi128_si32(idx)]);
            if (!ident) {
                __m128i mlo = mflat, mhi = mflat;
                if (!flat) {
                    /* (v >> 3) + 1 per channel, 2 * pa1 for alpha, as bytes, then 16 bits */
                    __m128i v6 =
                        _mm_or_si128(_mm_or_si128(_mm_srli_epi32(av[0], 3),
                                                  _mm_slli_epi32(_mm_srli_epi32(av[1], 3), 8)),
                                     _mm_or_si128(_mm_slli_epi32(_mm_srli_epi32(av[2], 3), 16),
                                                  _mm_set1_epi32((int32_t)(am << 24))));
                    v6 = _mm_add_epi32(v6, _mm_set1_epi32(0x01010101));
                    mlo = _mm_unpacklo_epi8(v6, _mm_setzero_si128());
                    mhi = _mm_unpackhi_epi8(v6, _mm_setzero_si128());
                }
                __m128i tlo = _mm_add_epi16(_mm_unpacklo_epi8(color, _mm_setzero_si128()), one16);
                __m128i thi = _mm_add_epi16(_mm_unpackhi_epi8(color, _mm_setzero_si128()), one16);
                tlo = _mm_srli_epi16(_mm_sub_epi16(_mm_mullo_epi16(tlo, mlo), one16), 6);
                thi = _mm_srli_epi16(_mm_sub_epi16(_mm_mullo_epi16(thi, mhi), one16), 6);
                color = _mm_or_si128(_mm_packus_epi16(tlo, thi), VEC_K(p->v_aor));
            }
        } else if (flat) {
            color = _mm_set1_epi32((int32_t)k->flat);
        } else {
            color = _mm_or_si128(
                _mm_or_si128(_mm_srli_epi32(av[0], 3), _mm_slli_epi32(_mm_srli_epi32(av[1], 3), 8)),
                _mm_or_si128(_mm_slli_epi32(_mm_srli_epi32(av[2], 3), 16),
                             _mm_set1_epi32((int32_t)p->valpha)));
        }
        __m128i alpha = _mm_srli_epi32(color, 24);
        __m128i shown =
            _mm_and_si128(_mm_and_si128(pass, valid), _mm_cmpgt_epi32(alpha, VEC_K(p->v_aref)));
        __m128i opaque = _mm_cmpeq_epi32(alpha, a31);
        __m128i draw = _mm_and_si128(shown, opaque);
        int slow =
            _mm_movemask_ps(_mm_castsi128_ps(_mm_or_si128(retry, _mm_andnot_si128(opaque, shown))));

        int m = _mm_movemask_ps(_mm_castsi128_ps(draw));
        if (m == 0xF) {
            _mm_storeu_si128((__m128i *)&r->depth[addr], z);
            _mm_storeu_si128((__m128i *)&r->color[addr], color);
            _mm_storeu_si128((__m128i *)&r->attr[addr], attr);
        } else if (m && x + 4 <= 256) {
            __m128i dstc = _mm_loadu_si128((const __m128i *)&r->color[addr]);
            _mm_storeu_si128((__m128i *)&r->depth[addr], vec_select(draw, z, dstz));
            _mm_storeu_si128((__m128i *)&r->color[addr], vec_select(draw, color, dstc));
            _mm_storeu_si128((__m128i *)&r->attr[addr], vec_select(draw, attr, dsta));
        } else if (m) {
            uint32_t zl[4], cl[4], al[4];
            _mm_storeu_si128((__m128i *)zl, z);
            _mm_storeu_si128((__m128i *)cl, color);
            _mm_storeu_si128((__m128i *)al, attr);
            for (int i = 0; i < 4; i++) {
                if (!(m >> i & 1)) continue;
                r->depth[addr + (uint32_t)i] = zl[i];
                r->color[addr + (uint32_t)i] = cl[i];
                r->attr[addr + (uint32_t)i] = al[i];
            }
        }
        if (slow) {
            uint32_t zl[4], cl[4], al[4];
            _mm_storeu_si128((__m128i *)zl, z);
            _mm_storeu_si128((__m128i *)cl, color);
            _mm_storeu_si128((__m128i *)al, attr);
            vec_slow_lanes(c, addr, slow, curse ? _mm_movemask_ps(_mm_castsi128_ps(forced)) : 0, zl,
                           cl, al, 4, flags, k);
        }

        if (one) break;
        xv = _mm_add_epi32(xv, _mm_set1_epi32(4));
        if (persp) {
            xd0 = _mm_add_pd(xd0, _mm_set1_pd(4.0));
            xd1 = _mm_add_pd(xd1, _mm_set1_pd(4.0));
        } else {
            for (int a = a0; a < a1; a++) vec_acc_step(&va[a]);
        }
        if (!wbuf) vec_acc_step(&vz);
    }
}
#else
#define SPAN_VEC 0
#endif

#endif
