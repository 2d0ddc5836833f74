/*
 * postpass_internal.h - the rendering engine's clear plane and final pass (edge marking, fog,
 * anti-aliasing, output), split into testable steps. Not part of the public API.
 *
 * Buffers are raster_engine's (raster_internal.h). The steps run in melonDS's order
 * (GPU3D_Soft.cpp ScanlineFinalPass: edge marking, then fog, then anti-aliasing); melonDS runs
 * them per line one line behind the rasterizer, which gives the same pixels as running each
 * step over the whole frame here (no step reads what a later line's drawing writes, and each
 * step writes only colours/coverage that the earlier steps of other lines do not read).
 */
#ifndef DSGX_RASTER_POSTPASS_INTERNAL_H
#define DSGX_RASTER_POSTPASS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx_frame.h"
#include "raster/raster_internal.h"

/** A 5-bit colour channel as the rendering engine widens it to 6 bits: 0 stays 0, c becomes
 *  2c + 1 (melonDS GPU3D_Soft.cpp: "(c << 1) & 0x3E; if (c) c++"). */
static inline uint32_t raster_expand5(uint32_t c5)
{
    c5 &= 0x1Fu;
    return c5 ? (c5 << 1) + 1u : 0u;
}

/** BGR555 to the colour-buffer layout r6 | g6 << 8 | b6 << 16 (alpha 0). */
static inline uint32_t raster_color6_from_rgb15(uint32_t bgr)
{
    return raster_expand5(bgr) | (raster_expand5(bgr >> 5) << 8) |
           (raster_expand5(bgr >> 10) << 16);
}

/** A 15-bit CLEAR_DEPTH (or depth-bitmap) value as the depth buffer holds it:
 *  depth * 0x200 + 0x1FF (melonDS ClearBuffers; GBATEK: the 15 bits are the upper bits of the
 *  24-bit depth). */
static inline uint32_t raster_clear_depth(uint32_t depth15)
{
    return (depth15 & 0x7FFFu) * 0x200u + 0x1FFu;
}

/* ---- clear plane (clearplane.c) ---- */
/** raster_postpass_clear (raster_internal.h) written pixel by pixel: the whole top layer with
 *  the border pixel, the screen over it, then a copy into the lower layer. The reference the
 *  clear is checked against (unit.test_raster_postpass). */
void raster_postpass_clear_ref(raster_engine *r, const gx_frame *in);
/** Clear pixel (colour, depth, attribute) of the plain clear plane. */
void raster_clear_plain_pixel(const gx_render_regs *regs, uint32_t *color, uint32_t *depth,
                              uint32_t *attr);
/** Clear pixel of the rear-plane bitmap at screen (x, y), read from texture slots 2 (colour)
 *  and 3 (depth, fog) with CLEAR_IMAGE_OFFSET applied; @p tex_vram may be NULL (reads 0). */
void raster_clear_bitmap_pixel(const gx_render_regs *regs, const uint8_t *tex_vram, int x, int y,
                               uint32_t *color, uint32_t *depth, uint32_t *attr);

/* ---- fog (fog.c) ---- */
typedef struct raster_fog {
    uint8_t table[34]; /**< FOG_TABLE with table[0] repeated in front, table[31] behind */
    uint32_t offset;   /**< FOG_OFFSET * 0x200 (depth-buffer units) */
    uint32_t shift;    /**< DISP3DCNT bits 8-11 */
    uint32_t color6;   /**< FOG_COLOR rgb as r6 | g6 << 8 | b6 << 16 */
    uint32_t alpha;    /**< FOG_COLOR alpha, 5 bits */
    bool alpha_only;   /**< DISP3DCNT bit 6: fog only the alpha */
    /** DISP3DCNT bit 4 (anti-aliasing): fog the lower layer under edge pixels too. Only the
     *  anti-aliasing pass reads the lower layer's colour after the final pass's fog, so without
     *  it that work changes no output pixel (render.c's file comment: the lower layer never
     *  flows into the top one or the output without anti-aliasing). */
    bool lower;
    /** the fog colour's red | blue << 16 and green | alpha << 16 (raster_fog_blend) */
    uint32_t fog_rb, fog_ga;
    /** table[i] | table[i + 1] << 16: the two entries a density interpolates between (the
     *  four-pixel pass looks up both with one load) */
    uint32_t pair[33];
    /** FOG_TABLE's 32 densities (table[1..32]: the eight-lane pass's byte shuffles) */
    uint8_t dens[32];
    /** the eight-lane kernels' constants (raster_fog_density8, raster_fog_blend8), read from
     *  here as memory operands: as immediate vectors the compiler rebuilds most of them in the
     *  loop (register pressure), two shuffle-port instructions each (perf, scene_terrain) */
    uint32_t k_umax, k_frac, k_sub, k_min, k_lo, k_hi, k_t1, k_one, k_mrb, k_mga, k_rgb, k_a;
} raster_fog;

void raster_fog_setup(raster_fog *f, const gx_render_regs *regs);
/** Fog density 0..128 of a depth-buffer value (128 = full fog colour). */
uint32_t raster_fog_density(const raster_fog *f, uint32_t z);
/** Blend colour-buffer pixel @p color towards the fog colour by @p density (0..128). */
uint32_t raster_fog_blend(const raster_fog *f, uint32_t color, uint32_t density);
/** Fog every pixel of lines [y0, y1) with the fog bit (and, when @p f->lower, the lower layer
 *  under edge pixels). Four pixels at a time with SSE2, else raster_fog_pass_ref. */
void raster_fog_pass(raster_engine *r, const raster_fog *f, int y0, int y1);
/** raster_fog_pass one pixel at a time through raster_fog_density / raster_fog_blend: the
 *  reference the four-pixel pass is checked against (unit.test_raster_postpass). */
void raster_fog_pass_ref(raster_engine *r, const raster_fog *f, int y0, int y1);

/* ---- the eight-lane fog kernels (fog.c's pass; here so that unit.test_raster_postpass can
 * check them lane by lane) ---- */
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD) && !defined(DSGX_NO_AVX2) &&                       \
    (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RASTER_POSTPASS_AVX2 1
#include <immintrin.h>

#define RASTER_AVX2_INLINE static inline __attribute__((always_inline, target("avx2")))

/* a raster_fog constant in every lane, read from the struct (raster_fog.k_*) */
#define RASTER_FOG_K(f, field) _mm256_set1_epi32((int32_t)(f)->field)

/* raster_fog_density of eight depths. As fog.c fog_density4 (for any 32-bit depth: the offset
 * compare unsigned; W-buffer depths are not bounded by 2^24), and:
 *  - the index and fraction from u = min(v, 32 << 17), v from z - offset, 0 where z <= offset
 *    (z == offset gives 0 either way): u = 0 below the offset, and index 32 with fraction 0
 *    beyond the table, as there (u >> 17 and u & 0x1FFFF).
 *  - the two entries table[index] and table[index + 1] are FOG_TABLE[max(index - 1, 0)] and
 *    FOG_TABLE[min(index, 31)] (table[] is FOG_TABLE with its first and last entries repeated):
 *    both looked up at once from the 32-byte FOG_TABLE (raster_fog.dens) by two byte shuffles,
 *    one for each 16-byte half, each index byte pushed by 0x70 so that bit 7 (the shuffle's
 *    zero) is set exactly for the other half's indices; the other bytes select zero.
 *  - the interpolation as d0 + ((d1 - d0) * frac >> 17) (arithmetic shift): d0 * (0x20000 -
 *    frac) + d1 * frac is d0 * 2^17 + (d1 - d0) * frac, and adding a multiple of 2^17 commutes
 *    with the floor of the division by 2^17; (d1 - d0) * frac lies within +-127 * 2^17, one
 *    32-bit product.
 *  - 127 or more becomes 128 as d + ((d + 1) >> 7): entries are 7 bits, so d <= 127. */
RASTER_AVX2_INLINE __m256i raster_fog_density8(const raster_fog *f, __m256i z)
{
    const __m256i off = RASTER_FOG_K(f, offset);
    __m256i below = _mm256_cmpeq_epi32(_mm256_max_epu32(z, off), off); /* z <= offset */
    __m256i t = _mm256_andnot_si256(below, _mm256_sub_epi32(z, off));
    __m256i v = _mm256_sllv_epi32(_mm256_srli_epi32(t, 2), RASTER_FOG_K(f, shift));
    __m256i u = _mm256_min_epu32(v, RASTER_FOG_K(f, k_umax));
    __m256i frac = _mm256_and_si256(u, RASTER_FOG_K(f, k_frac));
    __m256i index = _mm256_srli_epi32(u, 17);
    /* the entries' FOG_TABLE indices: min(index, 31) in the low 16 bits, max(index - 1, 0) in
     * the high 16 */
    __m256i w = _mm256_subs_epu16(_mm256_or_si256(index, _mm256_slli_epi32(index, 16)),
                                  RASTER_FOG_K(f, k_sub));
    w = _mm256_min_epu16(w, RASTER_FOG_K(f, k_min));
    __m256i lo = _mm256_add_epi8(w, RASTER_FOG_K(f, k_lo));
    __m256i hi = _mm256_xor_si256(lo, RASTER_FOG_K(f, k_hi));
    const __m256i dlo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)f->dens));
    const __m256i dhi =
        _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(f->dens + 16)));
    __m256i pr = _mm256_or_si256(_mm256_shuffle_epi8(dlo, lo), _mm256_shuffle_epi8(dhi, hi));
    __m256i t1 = _mm256_and_si256(pr, RASTER_FOG_K(f, k_t1)), t0 = _mm256_srli_epi32(pr, 16);
    __m256i d = _mm256_add_epi32(
        t0, _mm256_srai_epi32(_mm256_mullo_epi32(_mm256_sub_epi32(t1, t0), frac), 17));
    return _mm256_add_epi32(d, _mm256_srli_epi32(_mm256_add_epi32(d, RASTER_FOG_K(f, k_one)), 7));
}

/* raster_fog_blend of eight colours by eight densities: the same two channels per 32-bit word,
 * here as 16-bit lanes, each (fog * d + c * (128 - d)) >> 7 as c + ((fog - c) * d >> 7)
 * (arithmetic shift): the sum is c * 128 + (fog - c) * d, and adding a multiple of 128 commutes
 * with the floor; |fog - c| * d <= 63 * 128 fits a signed lane, and the result lies between c
 * and fog, so each lane stays within its channel's bits. */
RASTER_AVX2_INLINE __m256i raster_fog_blend8(const raster_fog *f, __m256i c, __m256i d)
{
    __m256i d16 = _mm256_or_si256(d, _mm256_slli_epi32(d, 16));
    __m256i rb = _mm256_and_si256(c, RASTER_FOG_K(f, k_mrb));
    __m256i ga = _mm256_and_si256(_mm256_srli_epi32(c, 8), RASTER_FOG_K(f, k_mga));
    rb = _mm256_add_epi16(
        rb, _mm256_srai_epi16(
                _mm256_mullo_epi16(_mm256_sub_epi16(RASTER_FOG_K(f, fog_rb), rb), d16), 7));
    ga = _mm256_add_epi16(
        ga, _mm256_srai_epi16(
                _mm256_mullo_epi16(_mm256_sub_epi16(RASTER_FOG_K(f, fog_ga), ga), d16), 7));
    __m256i out = _mm256_or_si256(rb, _mm256_slli_epi32(ga, 8));
    if (f->alpha_only) /* the colour channels keep their values */
        out = _mm256_or_si256(_mm256_and_si256(c, RASTER_FOG_K(f, k_rgb)),
                              _mm256_and_si256(out, RASTER_FOG_K(f, k_a)));
    return out;
}
#endif

/* ---- edge marking and anti-aliasing (postpass.c) ---- */
/** Edge marking of lines [y0, y1) (DISP3DCNT bit 5): marked pixels take the edge colour and,
 *  with anti-aliasing on (DISP3DCNT bit 4: the only reader), raster_engine.edge_marked[] = 1
 *  (every other edge pixel of the lines: 0; without anti-aliasing it is left as it is). */
void raster_edge_mark_pass(raster_engine *r, const gx_render_regs *regs, int y0, int y1);
/** raster_edge_mark_pass one pixel at a time: the reference the four-pixel form (SSE2) is
 *  checked against (unit.test_raster_postpass). */
void raster_edge_mark_pass_ref(raster_engine *r, const gx_render_regs *regs, int y0, int y1);
/** Blend an edge pixel with the pixel behind it by coverage 1..30 (anti-aliasing). */
uint32_t raster_aa_blend(uint32_t top, uint32_t bottom, uint32_t coverage);
/** Anti-aliasing of lines [y0, y1) (DISP3DCNT bit 4); @p marked: edge marking ran (its
 *  marked pixels have coverage 0x10). */
void raster_antialias_pass(raster_engine *r, int y0, int y1, bool marked);
/** raster_antialias_pass one pixel at a time: the reference of the form that tests four
 *  pixels' edge flags at once (SSE2; unit.test_raster_postpass). */
void raster_antialias_pass_ref(raster_engine *r, int y0, int y1, bool marked);

#endif
