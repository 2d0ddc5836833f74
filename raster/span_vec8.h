/*
 * span_vec8.h - the pixel loop eight pixels at a time (AVX2), chosen at run time. Internal to
 * raster/, included by span_fns.c after span_pixel.h. The default build stays portable
 * x86-64: only the functions marked SPAN_AVX2_FN are compiled for AVX2 (a function-level
 * target attribute, GCC and Clang), and span_fns.c calls them only on an engine whose
 * raster_engine.span_isa is RASTER_SPAN_ISA_AVX2 (raster_create: the processor has AVX2,
 * __builtin_cpu_supports, which also checks that the OS saves the YMM state). Without SSE2
 * (SPAN_VEC 0), with -DDSGX_NO_SIMD, or on another compiler or machine, SPAN_VEC8 is 0.
 *
 * Hardware notes: none of its own; it draws exactly what span_vec.h draw_vec (and so
 * span_pixel.h plot) draws, pixel for pixel (unit.test_raster_span_diff compares every form
 * with the reference path on random frames).
 *
 * What it covers: linear Z-buffered spans (SPAN_DDA, draw_vec8_line) of opaque (alpha 31), not
 * wireframe polygons with the fused shading (vertex colour, modulate from a decoded texture;
 * flat or not), without anti-aliasing (span_fns.c span_fn_w*, and curse.c's textured ones with
 * the overlapping-edge rule, curse_fn_w*): span_vec.h's first case, with eight lanes instead of
 * four; and perspective Z-buffered spans of the same polygons
 * (draw_persp8_line: span_fns.c span_fn_q*, and curse.c's textured ones with the
 * overlapping-edge rule, curse_fn_q*), with draw_vec's perspective arithmetic (the factor by
 * double divisions, pixels 0-3 and 4-7, the attributes by vpmulld) and its rule lanes
 * (SPAN_CURSE). W-buffered spans keep the four-lane step.
 * A span of 2-8 pixels (most of g_heavy_1's) is one step
 * whatever its length: no branch on the length among them, no loop; longer spans loop by
 * eight; a span of one pixel is drawn by span_pixel.h plot, as draw_vec_line does (through
 * the eight-lane step, line_polygons ran +8% instructions and +12% wall time, g_heavy_1
 * +0.34 M instructions). What differs from draw_vec:
 *  - the 64-bit accumulators are held as lanes {0, 1, 4, 5} and {2, 3, 6, 7}, so that one
 *    in-lane shuffle of their low 32 bits gives pixels 0-7 in order;
 *  - the destination words are read with masked loads, and the drawn lanes written by vec8_store:
 *    the step's eight words read, blended and written whole where they lie in the line, a
 *    masked store (vpmaskmovd: lanes outside the mask are neither read nor written) where the
 *    step reaches past the line's end, so no other line's word (which another thread may be
 *    drawing) is touched, and no lane-by-lane path is needed at the line's end;
 *  - the modulate's 16-bit products are formed per 128-bit half (unpack and pack in-lane are
 *    each other's inverse: the pixels stay in order);
 *  - the opaque lanes that failed the depth test against an edge pixel are retried underneath
 *    eight at a time (draw_vec takes them lane by lane): only translucent lanes go to the
 *    scalar pixel (vec8_slow).
 */
#ifndef DSGX_RASTER_SPAN_VEC8_H
#define DSGX_RASTER_SPAN_VEC8_H

#if SPAN_VEC && (defined(__x86_64__) || defined(__i386__)) &&                                      \
    (defined(__GNUC__) || defined(__clang__)) && !defined(DSGX_NO_AVX2)
#define SPAN_VEC8 1
#include <immintrin.h>

#define SPAN_AVX2_FN static inline __attribute__((always_inline, target("avx2")))

/* _mm256_set1_epi32 written as a broadcast: gcc then takes a constant from a 4-byte
 * memory operand (one vpbroadcastd) instead of movabs, vmovq and vpbroadcastq (three
 * instructions; ~6 constants a step). */
SPAN_AVX2_FN __m256i vec8_set1(int32_t v)
{
    return _mm256_broadcastd_epi32(_mm_cvtsi32_si128(v));
}

/* _mm256_set1_epi64x of a register as vmovq and vpbroadcastq from that XMM register: gcc's own
 * _mm256_set1_epi64x went through a stack slot (a store, a broadcast load), and a stack slot
 * made it realign the frame of the function to 32 bytes (see draw_vec8_line). (vpermq
 * before 2026-11-27: the broadcast from the register, the same instruction count and no stack
 * slot either, ran g_heavy_1's render ~1-3% faster paired on Zen 4, and gcc then formed a few
 * sums fewer: -26 K instructions a frame; bench/README.md "one10") */
SPAN_AVX2_FN __m256i vec8_set1q(uint64_t v)
{
    return _mm256_broadcastq_epi64(_mm_cvtsi64_si128((long long)v));
}

/* Eight 64-bit lanes acc + i * step in the order {0, 1, 4, 5}, {2, 3, 6, 7}, and 8 * step. */
typedef struct vec8_acc {
    __m256i a, b, step8;
} vec8_acc;

/* (step * {0, 1, 4, 5} from one broadcast of step, all mod 2^64 as the scalar sums were: a
 * variable shift by {64, 0, 2, 2} (vpsllvq: a count over 63 gives 0) and step in the last
 * lane; every span sets up four to six accumulators, and the scalar sums inserted into lanes
 * one by one ran 129 K more instructions a frame on g_heavy_1, ~11 a draw_vec8 call,
 * callgrind. Both halves are sums on the broadcast of acc, not b on a: draw_vec8's one step
 * reads them at once, its texel index waits on them.) */
SPAN_AVX2_FN void vec8_acc_init(vec8_acc *v, uint64_t acc, uint64_t step)
{
    const __m256i s = vec8_set1q(step);
    const __m256i s14 = _mm256_add_epi64(_mm256_sllv_epi64(s, _mm256_set_epi64x(2, 2, 0, 64)),
                                         _mm256_and_si256(s, _mm256_set_epi64x(-1, 0, 0, 0)));
    const __m256i a = vec8_set1q(acc);
    v->a = _mm256_add_epi64(a, s14);
    v->b = _mm256_add_epi64(a, _mm256_add_epi64(s14, _mm256_add_epi64(s, s)));
    v->step8 = _mm256_slli_epi64(s, 3);
}

SPAN_AVX2_FN void vec8_acc_step(vec8_acc *v)
{
    v->a = _mm256_add_epi64(v->a, v->step8);
    v->b = _mm256_add_epi64(v->b, v->step8);
}

/* The low 32 bits of each lane >> sh, as eight 32-bit lanes in pixel order. (sh >= 32: the
 * high halves picked by the shuffle, then one 32-bit shift; the same bits, one shift fewer,
 * for each of up to five attributes a call) */
SPAN_AVX2_FN __m256i vec8_acc_bits(const vec8_acc *v, int sh)
{
    if (sh >= 32)
        return _mm256_srli_epi32(_mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(v->a),
                                                                       _mm256_castsi256_ps(v->b),
                                                                       _MM_SHUFFLE(3, 1, 3, 1))),
                                 sh - 32);
    return _mm256_castps_si256(_mm256_shuffle_ps(_mm256_castsi256_ps(_mm256_srli_epi64(v->a, sh)),
                                                 _mm256_castsi256_ps(_mm256_srli_epi64(v->b, sh)),
                                                 _MM_SHUFFLE(2, 0, 2, 0)));
}

/* Eight lanes of a four-lane polygon constant (raster_span_k.v_*, 16-byte aligned). */
#define VEC8_K(a) _mm256_broadcastsi128_si256(_mm_load_si128((const __m128i *)(a)))

/* vec_wrap (span_vec.h) on eight lanes. */
SPAN_AVX2_FN __m256i vec8_wrap(const int32_t ax[4][4], __m256i coord, bool repeat, bool plain)
{
    if (plain) return _mm256_and_si256(_mm256_srli_epi32(coord, 4), VEC8_K(ax[2]));
    __m256i c = _mm256_srai_epi32(_mm256_slli_epi32(coord, 16), 20); /* sext16(coord) >> 4 */
    if (!repeat) {
        c = _mm256_max_epi32(c, VEC8_K(ax[0]));
        c = _mm256_min_epi32(c, VEC8_K(ax[1]));
    }
    __m256i keep = _mm256_cmpeq_epi32(_mm256_and_si256(c, VEC8_K(ax[3])), _mm256_setzero_si256());
    return _mm256_xor_si256(_mm256_and_si256(c, VEC8_K(ax[2])),
                            _mm256_andnot_si256(keep, VEC8_K(ax[2])));
}

/* vec_depth_pass (span_vec.h) on eight lanes. */
SPAN_AVX2_FN __m256i vec8_depth_pass(int dt, __m256i dstz, __m256i z, __m256i dstattr)
{
    switch (dt) {
    case RASTER_DEPTH_EQUAL_Z:
    case RASTER_DEPTH_EQUAL_W: {
        /* (uint32)(dstz - z + tol) <= 2 * tol: min(d, 2 tol) == d */
        int32_t tol = dt == RASTER_DEPTH_EQUAL_Z ? 0x200 : 0xFF;
        __m256i d = _mm256_add_epi32(_mm256_sub_epi32(dstz, z), vec8_set1(tol));
        return _mm256_cmpeq_epi32(_mm256_min_epu32(d, vec8_set1(2 * tol)), d);
    }
    case RASTER_DEPTH_LESS_FRONT: {
        const __m256i tb = vec8_set1(RASTER_ATTR_TRANSLUCENT | RASTER_ATTR_BACKFACE);
        const __m256i b = vec8_set1(RASTER_ATTR_BACKFACE);
        __m256i le = _mm256_cmpeq_epi32(_mm256_and_si256(dstattr, tb), b);
        return _mm256_or_si256(_mm256_cmpgt_epi32(dstz, z),
                               _mm256_and_si256(le, _mm256_cmpeq_epi32(dstz, z)));
    }
    default: return _mm256_cmpgt_epi32(dstz, z);
    }
}

/* The word of buffer @p buf (color, depth, attr: arrays of raster_engine) of layer @p layer
 * (0, 1) at the pixel whose layer-0 word is @p pa bytes past the engine's start. */
#define VEC8_AT(pa, buf, layer)                                                                    \
    ((int *)((pa) + offsetof(raster_engine, buf) +                                                 \
             (size_t)(layer)*RASTER_BUF_SIZE * sizeof(uint32_t)))

/* A step's drawn lanes (@p mask) of @p v into the eight words at @p p. Where the eight words lie
 * in the line (@p inrow: the step starts at x <= 248) they are read, blended and written whole:
 * on AMD Zen 4 (this project's benchmark machine since 2026-11-27) a 256-bit vpmaskmovd store
 * costs far more than a load, a blend and a store (g_heavy_1's render ran ~31% longer, and
 * scene_terrain's ~23%, with masked stores at every step: bench/README.md "Lead, 2026-11-27
 * (tenth session)"). The lanes outside the mask are written back as read: the thread that
 * draws a line is the only one that writes its words, and nothing writes them between this
 * read and this write. Past the line's end (x > 248) the words are the next line's, which
 * another thread may be drawing (threads.c): there the masked store, which neither reads nor
 * writes the lanes outside the mask. */
SPAN_AVX2_FN void vec8_store(int *p, __m256i mask, __m256i v, bool inrow)
{
    if (inrow)
        _mm256_storeu_si256((__m256i *)p,
                            _mm256_blendv_epi8(_mm256_loadu_si256((const __m256i *)p), v, mask));
    else
        _mm256_maskstore_epi32(p, mask, v);
}

/* draw_vec8's perspective factor terms at relative position @p xr: the lanes' positions (pixels
 * 0-3, 4-7) and the numerator's and denominator's factors, as doubles. */
SPAN_AVX2_FN void vec8_factor_init(const span_line *c, uint64_t xr, __m256d *xd0, __m256d *xd1,
                                   __m256d *wn, __m256d *dstep, __m256d *dbase)
{
    *xd0 = _mm256_add_pd(_mm256_set1_pd((double)xr), _mm256_set_pd(3, 2, 1, 0));
    *xd1 = _mm256_add_pd(*xd0, _mm256_set1_pd(4.0));
    *wn = _mm256_set1_pd((double)c->ix.w0n * 256.0);
    *dstep = _mm256_set1_pd((double)c->den_step);
    *dbase = _mm256_set1_pd((double)c->den_base);
}

/* draw_vec8's factor f0 = floor(num / den) of the eight lanes at positions @p xd0 (pixels
 * 0-3) and @p xd1 (4-7): num = x * w0n * 256, den = x * den_step + den_base, exact doubles in
 * persp_ok's ranges, so the truncated quotient is draw_persp_line's integer one. */
SPAN_AVX2_FN __m256i vec8_factor(__m256d xd0, __m256d xd1, __m256d wn, __m256d dstep, __m256d dbase)
{
    const __m256d n0 = _mm256_mul_pd(xd0, wn), n1 = _mm256_mul_pd(xd1, wn);
    const __m256d d0 = _mm256_add_pd(_mm256_mul_pd(xd0, dstep), dbase);
    const __m256d d1 = _mm256_add_pd(_mm256_mul_pd(xd1, dstep), dbase);
    return _mm256_set_m128i(_mm256_cvttpd_epi32(_mm256_div_pd(n1, d1)),
                            _mm256_cvttpd_epi32(_mm256_div_pd(n0, d0)));
}

/* span_k_init's ident for draw_vec8 (SPAN_FLAT with SPAN_SHADE_MODDEC): the flat modulate
 * by white with polygon alpha 31 returns the texel as it is. */
SPAN_AVX2_FN bool vec8_ident(const span_line *c, const raster_span_k *p)
{
    return (c->flat_color & 0x3F3F3Fu) == 0x3F3F3Fu && p->a31;
}

/* The flat modulate's factors (v >> 3) + 1 per channel and 2 * pa1 for alpha, as 16-bit lanes
 * (draw_vec8's mlo / mhi of a flat span). */
SPAN_AVX2_FN __m256i vec8_mflat(const span_line *c, const raster_span_k *p)
{
    const uint32_t am = 2 * p->pa1 - 1; /* m - 1 of the alpha channel */
    int32_t m8 = (int32_t)(((c->flat_color & 0x3F3F3Fu) | am << 24) + 0x01010101u);
    return _mm256_unpacklo_epi8(vec8_set1(m8), _mm256_setzero_si256());
}

/* The compact form's lookup (SPAN_TEX_CTAB) exists only where the translation unit is compiled
 * for AVX-512 VBMI (span_fns_ctab.c, CMakeLists.txt), whose functions run only where
 * raster_tex_ctab_best found it. */
#if defined(__AVX512VBMI__) && defined(__AVX512VL__) && defined(__AVX512BW__)
#define VEC8_CTAB 1
#include "raster/pixel.h"
/* The decoded texels of indices @p idx (each < RASTER_TEX_CTAB_TEXELS) from the texture's
 * compact form (raster_tex_ctab): the byte of each lane's nibble, from the 128 bytes of nib in
 * two registers (vpermi2b: each lane's low byte selects; its other bytes select byte 0, cleared
 * below), the nibble shifted down, then its value from val's 16 words (vpermd). The same word
 * the gather loads from the decoded texels (pixel.c build_ctab). On the Zen 4 build machine a
 * dependent chain of these runs ~15 cycles a step against ~23 for vpgatherdd, and independent
 * ones ~4.6 cycles against ~11 (bench/README.md, fourteenth session). */
SPAN_AVX2_FN __m256i vec8_ctab(const raster_tex_ctab *t, __m256i idx)
{
    const __m512i lo = _mm512_loadu_si512(t->nib), hi = _mm512_loadu_si512(t->nib + 64);
    const __m512i val = _mm512_loadu_si512(t->val);
    const __m512i b =
        _mm512_permutex2var_epi8(lo, _mm512_zextsi256_si512(_mm256_srli_epi32(idx, 1)), hi);
    const __m256i sh = _mm256_slli_epi32(_mm256_and_si256(idx, vec8_set1(1)), 2);
    const __m256i nib =
        _mm256_and_si256(_mm256_srlv_epi32(_mm512_castsi512_si256(b), sh), vec8_set1(15));
    return _mm512_castsi512_si256(_mm512_permutexvar_epi32(_mm512_zextsi256_si512(nib), val));
}
#else
#define VEC8_CTAB 0
#endif

/* The lanes of one draw_vec8 step that it leaves to the scalar pixel (span_vec.h
 * vec_slow_lanes: translucent ones; draw_vec8 retries the opaque ones under edge pixels
 * itself), out of line: g_heavy_1's opaque spans never have them, and inline they took three
 * lane buffers in every span function's frame. What they read of the span's flags is
 * the depth test and the overlapping-edge rule (draw_vec8's spans never have SPAN_AA or
 * SPAN_SHADOW, the only other flags plot_write reads): one copy per combination, so the pixel
 * still branches on no polygon constant. */
#define VEC8_SLOW_FN(n)                                                                            \
    static __attribute__((noinline, unused, target("avx2"))) void vec8_slow_##n(                   \
        span_line *c, uint32_t addr, int slow, int forced)                                         \
    {                                                                                              \
        span_k k;                                                                                  \
        span_k_init(c, &k, (n));                                                                   \
        vec_slow_lanes(c, addr, slow, forced, c->lanes[0], c->lanes[1], c->lanes[2], 8, (n), &k);  \
    }
VEC8_SLOW_FN(0)
VEC8_SLOW_FN(1)
VEC8_SLOW_FN(2)
VEC8_SLOW_FN(3)
VEC8_SLOW_FN(512) /* SPAN_CURSE | depth */
VEC8_SLOW_FN(513)
VEC8_SLOW_FN(514)
VEC8_SLOW_FN(515)
_Static_assert(SPAN_CURSE == 512, "vec8_slow_* are named by their flags");

/* vec8_slow_* of the span's depth test and rule (@p flags: constant in each span function),
 * the lanes' depth, colour and attribute word passed in span_line.lanes (not in the caller's
 * frame, nor as 32-byte arguments: either made gcc align the caller's frame to 32 bytes). */
SPAN_AVX2_FN void vec8_slow(span_line *c, uint32_t addr, int slow, int forced, __m256i z,
                            __m256i color, __m256i attr, int flags)
{
    _mm256_storeu_si256((__m256i *)c->lanes[0], z);
    _mm256_storeu_si256((__m256i *)c->lanes[1], color);
    _mm256_storeu_si256((__m256i *)c->lanes[2], attr);
    switch (flags & (SPAN_DEPTH_MASK | SPAN_CURSE)) {
    case 0: vec8_slow_0(c, addr, slow, forced); break;
    case 1: vec8_slow_1(c, addr, slow, forced); break;
    case 2: vec8_slow_2(c, addr, slow, forced); break;
    case 3: vec8_slow_3(c, addr, slow, forced); break;
    case 512: vec8_slow_512(c, addr, slow, forced); break;
    case 513: vec8_slow_513(c, addr, slow, forced); break;
    case 514: vec8_slow_514(c, addr, slow, forced); break;
    default: vec8_slow_515(c, addr, slow, forced); break;
    }
}

/* span_pixel.h span_attr_persp on eight lanes: base @p b + ((@p pd + @p ps * @p f0) >> 8), all
 * mod 2^32 (vpmulld: the product's low 32 bits; vpsrld: the unsigned shift), so the same
 * integers for any a_ps, a_pd (unit.test_raster_persp_ok). */
SPAN_AVX2_FN __m256i vec8_attr_persp(__m256i b, __m256i pd, __m256i ps, __m256i f0)
{
    return _mm256_add_epi32(b,
                            _mm256_srli_epi32(_mm256_add_epi32(pd, _mm256_mullo_epi32(ps, f0)), 8));
}

/* Whether the factor's numerator and denominator (exact doubles) of the one step's lanes, the
 * lanes past the span's last pixel moved onto it (@p n0 / @p d0: pixels 0-3, @p n1 / @p d1:
 * 4-7), leave span_pixel.h persp_ok's ranges: num in [0, 2^32), den in [1, 2^31), num < 257 *
 * den (see persp8_ok). Checked at the ends, as persp_ok: every term is linear in x, so its
 * extremes are the first pixel (lane 0 of n0 / d0) and the last (lane 3 of n1 / d1, xr + 7
 * moved onto it). */
SPAN_AVX2_FN bool vec8_persp_bad(__m256d n0, __m256d d0, __m256d n1, __m256d d1)
{
    const __m256d zero = _mm256_setzero_pd(), nmax = _mm256_set1_pd(4294967295.0),
                  dmax = _mm256_set1_pd(2147483647.0), k257 = _mm256_set1_pd(257.0);
    const __m256d n = _mm256_blend_pd(n1, n0, 1), d = _mm256_blend_pd(d1, d0, 1);
    __m256d bad = _mm256_or_pd(
        _mm256_or_pd(_mm256_cmp_pd(n, zero, _CMP_LT_OQ), _mm256_cmp_pd(n, nmax, _CMP_GT_OQ)),
        _mm256_or_pd(_mm256_cmp_pd(d, zero, _CMP_LE_OQ), _mm256_cmp_pd(d, dmax, _CMP_GT_OQ)));
    bad = _mm256_or_pd(bad, _mm256_cmp_pd(n, _mm256_mul_pd(d, k257), _CMP_GE_OQ));
    return _mm256_movemask_pd(bad) != 0;
}

/* The right shift of draw_vec8's attribute @p a (0-4: r, g, b, s, t) from the accumulator's bit
 * 35 (span_dda: attribute = acc >> 35) to the lanes the step reads: a colour channel's v >> 3
 * (the modulate's and the vertex colour's six bits), with SPAN_TEX_PLAIN (@p plain) a texture
 * coordinate's coord >> 4 (the wrap is then its bits below the axis' size); else the
 * coordinate itself. From the accumulator the shifted bits are one shift of its high halves
 * (vec8_acc_bits), not a shift more a lane. */
#define VEC8_ATTR_SH(a, plain) ((a) < 3 ? 38 : (plain) ? 39 : 35)

/* Pixels [xs, xe) of a line (see the top of this file), xe <= 256: linear (SPAN_DDA) or
 * perspective Z-buffered (draw_persp8_line checked the ranges, span_pixel.h persp_ok), with or
 * without the overlapping-edge rule (SPAN_CURSE). lim1 / lim2: the left run ends before lim1,
 * the right run starts at lim2 (edge flags, as draw_line's short loop). @p one: at most eight
 * pixels (xe - xs <= 8), one step: nothing is stepped. */
SPAN_AVX2_FN bool draw_vec8(span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2,
                            int flags, bool one, bool check)
{
    const int dt = flags & SPAN_DEPTH_MASK;
    const bool tex = (flags & SPAN_SHADE_MODDEC) != 0;
    const bool flat = (flags & SPAN_FLAT) != 0;
    const int a0 = flat ? 3 : 0, a1 = tex ? 5 : 3;
    const bool plain_k = tex && (flags & SPAN_TEX_PLAIN) != 0;

    /* (the span's ends as vectors first: fewer general registers live through the set-up) */
    const __m256i vlim1 = vec8_set1(lim1), vlim2 = vec8_set1(lim2);
    const __m256i vxe = vec8_set1(xe);
    __m256i xv = _mm256_add_epi32(vec8_set1(xs), _mm256_set_epi32(7, 6, 5, 4, 3, 2, 1, 0));
    /* linear: the accumulators at xs, as dda_init; perspective: as draw_vec (the factor's
     * numerator and denominator per lane, pixels 0-3 and 4-7; the attributes' differences and
     * bases); the Z-buffer depth is linear in either case */
    const bool persp = !(flags & SPAN_DDA);
    uint64_t xr = (uint32_t)(xs - c->ix.x0), xl = (uint32_t)(c->ix.xdiff - (xs - c->ix.x0));
    vec8_acc va[5], vz;
    /* the attributes at the step's pixels as the step reads them (VEC8_ATTR_SH: a colour
     * channel >> 3, with SPAN_TEX_PLAIN a texture coordinate >> 4); @p one: linear ones
     * formed here, at the set-up, so that only their eight 32-bit lanes stay live into the
     * step, not two 64-bit vectors */
    __m256i av[5];
    __m256i vd[5], vb[5], vp[5];
    __m256d xd0 = _mm256_setzero_pd(), xd1 = _mm256_setzero_pd(), wn = _mm256_setzero_pd(),
            dstep = _mm256_setzero_pd(), dbase = _mm256_setzero_pd();
    if (persp) {
        /* base + ((pd + ps * f0) >> 8), span_pixel.h span_attr_persp's 32-bit arithmetic
         * itself (vpmulld: the product's low 32 bits), the same integers for any d, where the
         * float product it replaced needed |d| <= 2^16 (without the two conversions an
         * attribute a step, nor the one of ps a call); no second factor. (The
         * one step broadcasts them at the step (its factor: below, at the set-up): 15 vectors
         * and 5 more live through the depth test did not fit in 16 registers.) */
        for (int a = a0; a < a1 && !one; a++) {
            vd[a] = vec8_set1((int32_t)c->a_ps[a]);
            vb[a] = vec8_set1((int32_t)c->a_base[a]);
            vp[a] = vec8_set1((int32_t)c->a_pd[a]);
        }
    } else {
        /* (d * lin_recip * xs as d * (lin_recip * xs), the same product mod 2^64: the two
         * shared products are off each attribute's chain, which heads the one step's texel
         * index, one multiply shorter) */
        const uint64_t lxr = c->ix.lin_recip * xr, lxl = c->ix.lin_recip * xl;
        for (int a = a0; a < a1; a++) {
            uint64_t dr = (uint64_t)c->a_d[a] * c->ix.lin_recip;
            vec8_acc_init(&va[a],
                          (uint64_t)c->a_d[a] * (c->a_sel[a] ? lxl : lxr) +
                              ((uint64_t)c->a_base[a] << 35),
                          c->a_sel[a] ? 0u - dr : dr);
            if (one) av[a] = vec8_acc_bits(&va[a], VEC8_ATTR_SH(a, plain_k));
        }
    }
    /* the loop's factor one step ahead (f0n: the step's; xd0 / xd1: the next step's lanes):
     * each step starts the next one's divisions before its own depth test, gather and stores,
     * so that the divider's latency is not on the step's chain */
    __m256i f0n = _mm256_setzero_si256();
    if (persp && !one) {
        vec8_factor_init(c, xr, &xd0, &xd1, &wn, &dstep, &dbase);
        f0n = vec8_factor(xd0, xd1, wn, dstep, dbase);
        xd0 = _mm256_add_pd(xd0, _mm256_set1_pd(8.0));
        xd1 = _mm256_add_pd(xd1, _mm256_set1_pd(8.0));
    }
    if (persp && one) {
        /* the one step's factor first, so that its divisions' latency overlaps the set-up
         * and the depth test */
        vec8_factor_init(c, xr, &xd0, &xd1, &wn, &dstep, &dbase);
        if (check) {
            /* persp8_ok's ranges on the step's own lanes, the lanes past the span's last
             * pixel moved onto it (every term is monotone in x: the check of the lanes is
             * that of the ends), before any store */
            const __m256d xlast = _mm256_set1_pd((double)(xr + (uint32_t)(xe - xs - 1)));
            xd0 = _mm256_min_pd(xd0, xlast);
            xd1 = _mm256_min_pd(xd1, xlast);
            /* (the terms vec8_factor forms: the compiler shares them) */
            const __m256d n0 = _mm256_mul_pd(xd0, wn), n1 = _mm256_mul_pd(xd1, wn);
            const __m256d d0 = _mm256_add_pd(_mm256_mul_pd(xd0, dstep), dbase);
            const __m256d d1 = _mm256_add_pd(_mm256_mul_pd(xd1, dstep), dbase);
            if (vec8_persp_bad(n0, d0, n1, d1)) return false;
        }
        f0n = vec8_factor(xd0, xd1, wn, dstep, dbase);
    }
    vec8_acc_init(&vz, (uint64_t)(c->zacc0 + c->zstep * (int64_t)xr), (uint64_t)c->zstep);
    const __m256i zbase = vec8_set1((int32_t)(uint32_t)(uint64_t)c->zbase);
    const __m256i z0 = one ? _mm256_add_epi32(vec8_acc_bits(&vz, 13), zbase) : zbase;

    /* (the polygon's constants from here on: read after the accumulators' set-up, they are not
     * live through it; the one step had spilled general registers) */
    raster_engine *r = c->r;
    const raster_span_k *p = &c->rp->spk;

    /* colour constants, as draw_vec; the one step's at the step, where they are used */
    const bool ident_l = !one && flat && vec8_ident(c, p);
    const __m256i mflat_l =
        !one && tex && flat && !ident_l ? vec8_mflat(c, p) : _mm256_setzero_si256();
    const __m256i one16 = _mm256_broadcastw_epi16(_mm_cvtsi32_si128(1));
    const __m256i polyattr = vec8_set1((int32_t)(p->polyattr | c->yedge));
    /* the overlapping-edge rule (SPAN_CURSE, curse.c): the roles of the line's runs */
    const bool curse = (flags & SPAN_CURSE) != 0;
    __m256i role0 = _mm256_setzero_si256(), role1 = role0, role2 = role0;
    const bool role0_any = curse && c->roles[0] != 0;
    if (curse) {
        role0 = vec8_set1((int32_t)c->roles[0]);
        role1 = vec8_set1((int32_t)c->roles[RASTER_ATTR_EDGE_LEFT]);
        role2 = vec8_set1((int32_t)c->roles[RASTER_ATTR_EDGE_RIGHT]);
    }
    /* (the texture's: read at the step by the one step, whose frame had no room for them;
     * here by the loop) */
    const bool repeat = p->repeat, plain = p->plain;
    const uint32_t wlog2_l = one ? 0u : p->wlog2;
    const uint32_t *const tx_l = one ? NULL : p->texels;
    const int32_t line = (int32_t)c->line;

    /* (xs < xe: one step at least) */
    int32_t x = xs;
    do {
        uint32_t addr = (uint32_t)(line + x);
        __m256i f0 = f0n;
        if (persp && !one && x + 8 < xe) {
            /* (the next step's factor, when there is a next step: its lanes are those the
             * step would form, the ones past the span's end included, as before) */
            f0n = vec8_factor(xd0, xd1, wn, dstep, dbase);
            xd0 = _mm256_add_pd(xd0, _mm256_set1_pd(8.0));
            xd1 = _mm256_add_pd(xd1, _mm256_set1_pd(8.0));
        }
        __m256i valid = _mm256_cmpgt_epi32(vxe, xv);
        __m256i z = one ? z0 : _mm256_add_epi32(vec8_acc_bits(&vz, 13), zbase);
        /* (the six buffers' words as offsets from one address: gcc had formed a pointer a
         * buffer, one general register each) */
        char *const pa = (char *)r + (size_t)addr * sizeof(uint32_t);
        __m256i dstz = _mm256_maskload_epi32(VEC8_AT(pa, depth, 0), valid);
        __m256i dsta = _mm256_maskload_epi32(VEC8_AT(pa, attr, 0), valid);
        /* edge flags: left run before lim1, right run from lim2 */
        __m256i lt1 = _mm256_cmpgt_epi32(vlim1, xv), lt2 = _mm256_cmpgt_epi32(vlim2, xv);
        __m256i attr = _mm256_or_si256(
            polyattr, _mm256_or_si256(_mm256_and_si256(lt1, vec8_set1(RASTER_ATTR_EDGE_LEFT)),
                                      _mm256_andnot_si256(_mm256_or_si256(lt1, lt2),
                                                          vec8_set1(RASTER_ATTR_EDGE_RIGHT))));
        __m256i pass = vec8_depth_pass(dt, dstz, z, dsta);
        /* failed against an edge pixel: retried underneath (lane by lane) */
        __m256i noretry = _mm256_or_si256(
            pass, _mm256_cmpeq_epi32(_mm256_and_si256(dsta, vec8_set1(RASTER_ATTR_EDGE_MASK)),
                                     _mm256_setzero_si256()));
        __m256i forced = _mm256_setzero_si256();
        /* (as draw_vec: nothing to do when every lane is in the inside run of a line without
         * a role) */
        if (curse && (role0_any || _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_or_si256(
                                       lt1, _mm256_cmpeq_epi32(lt2, _mm256_setzero_si256())))))) {
            /* raster_curse_verdict per lane, before the depth test, as draw_vec */
            __m256i role = _mm256_or_si256(
                _mm256_or_si256(_mm256_and_si256(lt1, role1),
                                _mm256_and_si256(_mm256_andnot_si256(lt1, lt2), role0)),
                _mm256_andnot_si256(_mm256_or_si256(lt1, lt2), role2));
            const __m256i zero = _mm256_setzero_si256();
            __m256i same =
                _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_xor_si256(dsta, polyattr),
                                                    vec8_set1((int32_t)RASTER_ATTR_OPAQUE_ID_MASK)),
                                   zero);
            __m256i win = _mm256_andnot_si256(
                _mm256_cmpeq_epi32(
                    _mm256_and_si256(_mm256_and_si256(dsta, _mm256_slli_epi32(role, 1)),
                                     vec8_set1(RASTER_ATTR_ROLE_LOSE)),
                    zero),
                same);
            __m256i lose = _mm256_andnot_si256(
                _mm256_cmpeq_epi32(
                    _mm256_and_si256(_mm256_and_si256(dsta, _mm256_srli_epi32(role, 1)),
                                     vec8_set1(RASTER_ATTR_ROLE_WIN)),
                    zero),
                same);
            lose = _mm256_andnot_si256(win, lose);
            pass = _mm256_or_si256(win, _mm256_andnot_si256(lose, pass));
            noretry = _mm256_or_si256(noretry, lose);
            forced = win;
            attr = _mm256_or_si256(attr, role);
        }
        __m256i retry = _mm256_andnot_si256(noretry, valid);

        __m256i color;
        if (persp) {
            /* f0 = floor(num / den) per lane (the loop's formed a step ahead, the one step's at
             * the set-up), each attribute base + ((pd + ps * f0) >> 8): draw_vec's arithmetic
             * (exact: see draw_persp_line), eight lanes */
            for (int a = a0; a < a1; a++) {
                const __m256i d = one ? vec8_set1((int32_t)c->a_ps[a]) : vd[a];
                const __m256i b = one ? vec8_set1((int32_t)c->a_base[a]) : vb[a];
                const __m256i pd = one ? vec8_set1((int32_t)c->a_pd[a]) : vp[a];
                av[a] = vec8_attr_persp(b, pd, d, f0);
                if (VEC8_ATTR_SH(a, plain_k) != 35)
                    av[a] = _mm256_srli_epi32(av[a], VEC8_ATTR_SH(a, plain_k) - 35);
            }
        } else if (!one) {
            for (int a = a0; a < a1; a++) av[a] = vec8_acc_bits(&va[a], VEC8_ATTR_SH(a, plain_k));
        }
        if (tex) {
            __m256i ws, wt;
            if (plain_k) {
                ws = _mm256_and_si256(av[3], VEC8_K(p->v_wrap[0][2]));
                wt = _mm256_and_si256(av[4], VEC8_K(p->v_wrap[1][2]));
            } else {
                ws = vec8_wrap(p->v_wrap[0], av[3], repeat, plain);
                wt = vec8_wrap(p->v_wrap[1], av[4], repeat, plain);
            }
            const __m128i wlog2 = _mm_cvtsi32_si128((int)(one ? p->wlog2 : wlog2_l));
            const uint32_t *const tx = one ? p->texels : tx_l;
            __m256i idx = _mm256_add_epi32(_mm256_sll_epi32(wt, wlog2), ws);
            /* (every lane's index is inside the texture: the wrap keeps both axes in range) */
            /* (a gather: eight scalar loads measured slower, g_heavy_1 +4%, c_textured_quad
             * +19% in wall time) */
#if VEC8_CTAB
            if (flags & SPAN_TEX_CTAB)
                color = vec8_ctab(p->ctab, idx);
            else
#endif
                color = _mm256_i32gather_epi32((const int *)tx, idx, 4);
            const bool ident = one ? flat && vec8_ident(c, p) : ident_l;
            if (!ident) {
                const __m256i mflat = one && flat ? vec8_mflat(c, p) : mflat_l;
                __m256i mlo = mflat, mhi = mflat;
                if (!flat) {
                    /* (v >> 3) + 1 per channel, 2 * pa1 for alpha, as bytes, then 16 bits */
                    __m256i v6 = _mm256_or_si256(
                        _mm256_or_si256(av[0], _mm256_slli_epi32(av[1], 8)),
                        _mm256_or_si256(_mm256_slli_epi32(av[2], 16),
                                        vec8_set1((int32_t)((2 * p->pa1 - 1) << 24))));
                    v6 = _mm256_add_epi32(v6, vec8_set1(0x01010101));
                    mlo = _mm256_unpacklo_epi8(v6, _mm256_setzero_si256());
                    mhi = _mm256_unpackhi_epi8(v6, _mm256_setzero_si256());
                }
                __m256i tlo =
                    _mm256_add_epi16(_mm256_unpacklo_epi8(color, _mm256_setzero_si256()), one16);
                __m256i thi =
                    _mm256_add_epi16(_mm256_unpackhi_epi8(color, _mm256_setzero_si256()), one16);
                tlo = _mm256_srli_epi16(_mm256_sub_epi16(_mm256_mullo_epi16(tlo, mlo), one16), 6);
                thi = _mm256_srli_epi16(_mm256_sub_epi16(_mm256_mullo_epi16(thi, mhi), one16), 6);
                color = _mm256_or_si256(_mm256_packus_epi16(tlo, thi), VEC8_K(p->v_aor));
            }
        } else if (flat) {
            color = vec8_set1((int32_t)c->flat_color);
        } else {
            color = _mm256_or_si256(
                _mm256_or_si256(av[0], _mm256_slli_epi32(av[1], 8)),
                _mm256_or_si256(_mm256_slli_epi32(av[2], 16), vec8_set1((int32_t)p->valpha)));
        }
        __m256i alpha = _mm256_srli_epi32(color, 24);
        __m256i vis = _mm256_cmpgt_epi32(alpha, VEC8_K(p->v_aref));
        __m256i shown = _mm256_and_si256(_mm256_and_si256(pass, valid), vis);
        __m256i opaque = _mm256_cmpeq_epi32(alpha, vec8_set1(31));
        __m256i draw = _mm256_and_si256(shown, opaque);
        /* the retry underneath of the lanes that would be written opaque (plot_depth: the
         * pixel under an edge pixel, at addr + RASTER_BUF_SIZE: this line's layer-0 addresses
         * are below it; then plot_write's opaque write there, without anti-aliasing), eight at
         * a time: common on g_heavy_1 (small polygons: edge pixels everywhere), where the
         * scalar pixel took them one by one. A lane that is not opaque goes to the scalar
         * pixel whole (depth test and retry again); one that is opaque but fails the alpha
         * test writes nothing in either layer. */
        __m256i under = _mm256_and_si256(retry, _mm256_and_si256(opaque, vis));
        int slow = _mm256_movemask_ps(
            _mm256_castsi256_ps(_mm256_andnot_si256(opaque, _mm256_or_si256(retry, shown))));

        /* (the lower layer read before the layer-0 stores: its words are 4 KiB-aliased with
         * theirs, RASTER_BUF_SIZE * 4 bytes apart) */
        __m256i draw1 = _mm256_setzero_si256();
        if (_mm256_movemask_ps(_mm256_castsi256_ps(under))) {
            __m256i dstz1 = _mm256_maskload_epi32(VEC8_AT(pa, depth, 1), under);
            __m256i dsta1 = _mm256_maskload_epi32(VEC8_AT(pa, attr, 1), under);
            draw1 = _mm256_and_si256(under, vec8_depth_pass(dt, dstz1, z, dsta1));
        }
        const bool inrow = x <= 256 - 8;
        vec8_store(VEC8_AT(pa, depth, 0), draw, z, inrow);
        vec8_store(VEC8_AT(pa, color, 0), draw, color, inrow);
        vec8_store(VEC8_AT(pa, attr, 0), draw, attr, inrow);
        if (_mm256_movemask_ps(_mm256_castsi256_ps(draw1))) {
            vec8_store(VEC8_AT(pa, depth, 1), draw1, z, inrow);
            vec8_store(VEC8_AT(pa, color, 1), draw1, color, inrow);
            vec8_store(VEC8_AT(pa, attr, 1), draw1, attr, inrow);
        }
        if (slow)
            vec8_slow(c, addr, slow, curse ? _mm256_movemask_ps(_mm256_castsi256_ps(forced)) : 0, z,
                      color, attr, flags);

        if (one) break;
        x += 8;
        xv = _mm256_add_epi32(xv, vec8_set1(8));
        if (!persp) {
            for (int a = a0; a < a1; a++) vec8_acc_step(&va[a]);
        }
        vec8_acc_step(&vz);
    } while (x < xe);
    return true;
}

/* Pixels [xs, xe) of a line with its runs' limits: draw_vec8_line's spans of two pixels or
 * more, out of line. */
typedef void (*vec8_part_fn)(span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2);

/* The two such functions of a span function (span_fns_vec8.c span_*_one / span_*_long, curse.c
 * curse_*_one / curse_*_long) with its flags @p fl: draw_vec8's one step (two to eight pixels)
 * and its loop (more). */
#define VEC8_PART_FNS(name, fl)                                                                    \
    static __attribute__((noinline, target("avx2"))) void name##_long(                             \
        span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2)                          \
    {                                                                                              \
        draw_vec8(c, xs, xe, lim1, lim2, (fl), false, false);                                      \
    }                                                                                              \
    static __attribute__((noinline, target("avx2"))) void name##_one(                              \
        span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2)                          \
    {                                                                                              \
        draw_vec8(c, xs, xe, lim1, lim2, (fl), true, false);                                       \
    }

/* draw_vec_line (span_pixel.h) eight pixels at a time: the runs of draw_line's short loop, then
 * one pixel by plot_lin1 (the scalar pixel, as draw_vec_line), two to eight pixels by @p one
 * (draw_vec8's one step), more by @p lf (its loop), both reached by a jump (a tail call).
 * Inline in a span function that is not compiled for AVX2 (gcc made the runs' minima SSE4.1
 * vectors there), and which holds no 256-bit value: gcc gives every function that holds one
 * a frame realigned to 32 bytes (a frame pointer, the realignment, its undoing) unless it is a
 * leaf (tail calls allowed) without a stack slot. The one step's function is such a leaf (no
 * spill: draw_vec8's set-up is ordered for it), and the one pixel's six pushes are only on its
 * path (gcc's shrink-wrapping). With all three in the span function every call paid six pushes
 * and pops, the realignment and a few spills (~20 instructions). */
SPAN_INLINE void draw_vec8_line(span_line *c, int32_t xcut, int flags, vec8_part_fn one,
                                vec8_part_fn lf)
{
    const span_runs u = span_line_runs(c, xcut);
    const int32_t n = u.xe - u.xs;
    if (n == 1) {
        uint32_t edge = u.xs < u.lim1   ? RASTER_ATTR_EDGE_LEFT
                        : u.xs < u.lim2 ? 0u
                                        : RASTER_ATTR_EDGE_RIGHT;
        plot_lin1(c, u.xs, c->yedge | edge, flags & ~SPAN_DDA);
    } else if (n > 8) {
        lf(c, u.xs, u.xe, u.lim1, u.lim2);
    } else if (n > 0) {
        one(c, u.xs, u.xe, u.lim1, u.lim2);
    }
}

/* span_pixel.h persp_ok for draw_persp8_line (no W-buffer), its two ends' terms as two lanes
 * of doubles: xr * w0n * 256 and xr * den_step + den_base (int32 factors) with 0 <= xr <=
 * 2^13 are below 2^53 in magnitude, and so is 257 * den, so every product, sum and comparison
 * is exact and decides as persp_ok's 64-bit integers do; an xr outside [0, 2^13] only sends
 * the line to draw_line (the same pixels). */
/* persp8_ok's parts that are not the factor's terms: not linear, 0 <= xr <= 2^13 at both ends
 * (xs < xe). Not persp_ok's bound on the attributes' differences (d <= 2^16): draw_vec8's
 * attribute is span_pixel.h span_attr_persp's own 32-bit arithmetic, a_base + ((a_pd + a_ps *
 * f0) >> 8) mod 2^32 (vpmulld keeps the low 32 bits of the product, vpsrld is the unsigned
 * shift), the same integers whatever d once f0 is span_factor's; the bound is draw_vec's (SSE2,
 * its products in floats). (Five loads, the ORs and a branch a call: scene_terrain -0.6%
 * instructions.) */
SPAN_AVX2_FN bool persp8_pre(const span_line *c, int32_t xs, int32_t xe)
{
    const raster_interp *ix = &c->ix;
    if (ix->linear) return false;
    uint32_t r0 = (uint32_t)(xs - ix->x0), r1 = (uint32_t)(xe - 1 - ix->x0);
    return (r0 | r1) <= 8192u;
}

SPAN_AVX2_FN bool persp8_ok(const span_line *c, int32_t xs, int32_t xe, int flags)
{
    if (flags & SPAN_WBUFFER) return persp_ok(c, xs, xe, flags); /* (not drawn here) */
    const raster_interp *ix = &c->ix;
    if (xs >= xe || !persp8_pre(c, xs, xe)) return false;
    uint32_t r0 = (uint32_t)(xs - ix->x0), r1 = (uint32_t)(xe - 1 - ix->x0);
    __m128d x = _mm_set_pd((double)r1, (double)r0);
    __m128d num = _mm_mul_pd(x, _mm_set1_pd((double)ix->w0n * 256.0));
    __m128d den = _mm_add_pd(_mm_mul_pd(x, _mm_set1_pd((double)c->den_step)),
                             _mm_set1_pd((double)c->den_base));
    /* num in [0, 2^32), den in [1, 2^31), num < 257 * den */
    __m128d bad = _mm_or_pd(_mm_or_pd(_mm_cmplt_pd(num, _mm_setzero_pd()),
                                      _mm_cmpgt_pd(num, _mm_set1_pd(4294967295.0))),
                            _mm_or_pd(_mm_or_pd(_mm_cmple_pd(den, _mm_setzero_pd()),
                                                _mm_cmpgt_pd(den, _mm_set1_pd(2147483647.0))),
                                      _mm_cmpge_pd(num, _mm_mul_pd(den, _mm_set1_pd(257.0)))));
    return _mm_movemask_pd(bad) == 0;
}

/* A perspective span function's draw of pixels [xs, xe) of a line with its runs' limits, out
 * of line (VEC8_PERSP_FNS): draw_vec8 where persp8_ok (the one step: persp8_pre and its own
 * lanes) finds its arithmetic exact, else the line by draw_line (a tail call with @p xcut). */
typedef void (*vec8_ppart_fn)(span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2,
                              int32_t xcut);

/* The three such functions of a perspective span function (span_fns_vec8.c span_q*, curse.c
 * curse_fn_q*) with its flags @p fl (Z-buffered: no SPAN_WBUFFER): name_pline, the line as
 * draw_line (out of line: inline it took more than half of a span function's ~23 KB, and most
 * lines never run it); name_pone, draw_vec8's one step (two to eight pixels, the factor's
 * ranges checked on the lanes it forms anyway); name_plong, its loop (more). The two steps are
 * leaves without a frame, as VEC8_PART_FNS's: with both inline in the span function (AVX2, a
 * frame realigned to 32 bytes, 0x400 bytes of it, six pushes) the loop spilled ~35 of its
 * ~150 instructions a step to that frame. */
#define VEC8_PERSP_FNS(name, fl)                                                                   \
    static __attribute__((noinline)) void name##_pline(span_line *c, int32_t xcut)                 \
    {                                                                                              \
        draw_line(c, xcut, (fl));                                                                  \
    }                                                                                              \
    static __attribute__((noinline, target("avx2"))) void name##_plong(                            \
        span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2, int32_t xcut)            \
    {                                                                                              \
        if (!persp8_ok(c, xs, xe, (fl))) {                                                         \
            name##_pline(c, xcut);                                                                 \
            return;                                                                                \
        }                                                                                          \
        draw_vec8(c, xs, xe, lim1, lim2, (fl), false, false);                                      \
    }                                                                                              \
    static __attribute__((noinline, target("avx2"))) void name##_pone(                             \
        span_line *c, int32_t xs, int32_t xe, int32_t lim1, int32_t lim2, int32_t xcut)            \
    {                                                                                              \
        if (!persp8_pre(c, xs, xe) || !draw_vec8(c, xs, xe, lim1, lim2, (fl), true, true))         \
            name##_pline(c, xcut);                                                                 \
    }

/* draw_persp_line (span_pixel.h) eight pixels at a time, for Z-buffered perspective lines
 * (not SPAN_WBUFFER), as draw_vec8_line: the runs, then one pixel by plot_persp1 (draw_line's
 * three runs cost it ~245 instructions), two to eight by @p one, more by @p lf (draw_vec8
 * where the span's factor stays in the ranges where its arithmetic is exact, persp_ok's: see
 * persp8_pre; else the line by @p fb, as draw_line), each reached by a jump (a tail call).
 * Inline in a span function that is not compiled for AVX2 and holds no 256-bit value (see
 * draw_vec8_line). */
SPAN_INLINE void draw_persp8_line(span_line *c, int32_t xcut, int flags, vec8_ppart_fn one,
                                  vec8_ppart_fn lf, void (*fb)(span_line *, int32_t))
{
    const span_runs u = span_line_runs(c, xcut);
    const int32_t n = u.xe - u.xs;
    if (n > 8) {
        lf(c, u.xs, u.xe, u.lim1, u.lim2, xcut);
    } else if (n > 1) {
        one(c, u.xs, u.xe, u.lim1, u.lim2, xcut);
    } else if (n == 1 && !(flags & SPAN_WBUFFER) && !c->ix.linear) {
        uint32_t edge = u.xs < u.lim1   ? RASTER_ATTR_EDGE_LEFT
                        : u.xs < u.lim2 ? 0u
                                        : RASTER_ATTR_EDGE_RIGHT;
        plot_persp1(c, u.xs, c->yedge | edge, flags);
    } else {
        fb(c, xcut);
    }
}
#else
#define SPAN_VEC8 0
#endif

#endif
