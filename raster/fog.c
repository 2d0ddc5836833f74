/*
 * fog.c - the final pass's fog: pixels with the fog bit are blended towards FOG_COLOR by a
 * density looked up from their depth.
 *
 * Hardware notes (facts from melonDS GPU3D_Soft.cpp CalculateFogDensity/ScanlineFinalPass and
 * GPU3D.cpp's VBlank latch; GBATEK "DS 3D Fog"):
 *  - FOG_OFFSET is compared in depth-buffer units (FOG_OFFSET * 0x200). Below it the density
 *    is table entry 0. Above it, (z - offset) >> 2 << FOG_SHIFT (32-bit, wrapping: a large
 *    shift makes fog wrap round, as melonDS notes hardware does) splits into a table index
 *    (bits 17 and up) and a 17-bit fraction; index >= 32 uses the last entry with no
 *    fraction. The density interpolates linearly between the entry and the next one
 *    ((d0 * (0x20000 - f) + d1 * f) >> 17), and 127 or more becomes 128 (full fog).
 *  - The table used has 34 entries: FOG_TABLE[0] in front, FOG_TABLE[0..31], FOG_TABLE[31]
 *    behind (melonDS RenderFogDensityTable), so index 0 interpolates between entry 0 and
 *    itself.
 *  - Blend: c = (fog_c * d + c * (128 - d)) >> 7 for r, g, b (6-bit, FOG_COLOR widened like
 *    every 5-bit colour) and alpha (5-bit); DISP3DCNT bit 6 blends alpha only.
 *  - Applied to the top pixel when it has the fog bit, and to the lower layer under edge pixels
 *    when that one has the fog bit (needed for anti-aliasing to blend fogged colours).
 * Verified against the reference frames fog_table_shift, fog_alpha_only and f_edge_fog (melonDS
 * output). melonDS marks the interpolation precision "checkme", and GBATEK's "fog alpha glitch
 * with small Z" is not modelled (melonDS TODO).
 *
 * Performance: with SSE2 the pass runs four pixels at a time (raster_fog_pass: density and
 * blend lane-wise, exact as argued there), with AVX2 eight (fog_pass_avx2, on engines whose
 * span_isa is AVX2: chosen at run time, the default build stays portable x86-64);
 * raster_fog_pass_ref, one pixel at a time through raster_fog_density / raster_fog_blend, is
 * the reference (unit.test_raster_postpass, every form). The lower layer is fogged only with
 * anti-aliasing on (raster_fog.lower): its colour is read by nothing else after this pass, so
 * without anti-aliasing that fog changes no output pixel (on scene_terrain, fog and edge marking
 * without anti-aliasing, it was about half of the pass's instructions).
 */
#include "gx/regs.h"
#include "raster/postpass_internal.h"

void raster_fog_setup(raster_fog *f, const gx_render_regs *regs)
{
    for (int i = 0; i < 32; i++) f->table[i + 1] = (uint8_t)fogtable_density(regs->fog_table[i]);
    f->table[0] = f->table[1];
    f->table[33] = f->table[32];
    f->offset = fogoffset_value(regs->fog_offset) * 0x200u;
    f->shift = disp3dcnt_fog_shift(regs->disp3dcnt);
    f->color6 = raster_color6_from_rgb15(fogcolor_rgb(regs->fog_color));
    f->alpha = fogcolor_alpha(regs->fog_color);
    f->alpha_only = disp3dcnt_fog_alpha_only(regs->disp3dcnt) != 0;
    f->lower = disp3dcnt_antialias(regs->disp3dcnt) != 0;
    f->fog_rb = (f->color6 & 0x003F003Fu);
    f->fog_ga = ((f->color6 >> 8) & 0x3Fu) | (f->alpha << 16);
    for (int i = 0; i < 33; i++) f->pair[i] = f->table[i] | (uint32_t)f->table[i + 1] << 16;
    for (int i = 0; i < 32; i++) f->dens[i] = f->table[i + 1];
    f->k_umax = 32u << 17, f->k_frac = 0x1FFFFu, f->k_sub = 0x00010000u, f->k_min = 0x001F001Fu;
    f->k_lo = 0xF070F070u, f->k_hi = 0x00800080u, f->k_t1 = 0xFFFFu, f->k_one = 1;
    f->k_mrb = 0x003F003Fu, f->k_mga = 0x001F003Fu, f->k_rgb = 0x003F3F3Fu, f->k_a = 0x1F000000u;
}

uint32_t raster_fog_density(const raster_fog *f, uint32_t z)
{
    uint32_t index = 0, frac = 0;
    if (z >= f->offset) {
        uint32_t v = ((z - f->offset) >> 2) << f->shift; /* wraps at 32 bits like hardware */
        index = v >> 17;
        if (index >= 32) {
            index = 32;
            frac = 0;
        } else {
            frac = v & 0x1FFFFu;
        }
    }
    uint32_t d = (f->table[index] * (0x20000u - frac) + f->table[index + 1] * frac) >> 17;
    return d >= 127 ? 128 : d;
}

uint32_t raster_fog_blend(const raster_fog *f, uint32_t color, uint32_t density)
{
    /* Per channel (fog * d + c * (128 - d)) >> 7, two channels per 32-bit word: red and blue
     * (bits 0-5 and 16-21 of the colour), green and alpha (bits 8-13 and 24-28, shifted down
     * by 8). Each 16-bit lane's sum is below 2^13 (63 * 128), so no lane carries into the
     * next; after the shift the upper lane's bits land at bit 9 and up of the lower lane,
     * which the mask 0x7F clears, so each channel gets its floor exactly as separate
     * arithmetic would. */
    uint32_t rb = color & 0x003F003Fu, ga = (color >> 8) & 0x001F003Fu;
    uint32_t nd = 128u - density;
    rb = ((f->fog_rb * density + rb * nd) >> 7) & 0x003F003Fu;
    ga = ((f->fog_ga * density + ga * nd) >> 7) & 0x001F003Fu;
    uint32_t out = rb | (ga << 8);
    /* alpha only: the colour channels keep their values (only the alpha lane is fogged) */
    if (f->alpha_only) out = (color & 0x003F3F3Fu) | (out & 0x1F000000u);
    return out;
}

/* The last pixel fogged: neighbouring pixels often have the same depth and colour (the clear
 * plane, flat surfaces), and the result is a pure function of (depth, colour), so it is
 * reused instead of recomputed (performance only; same pixels). */
typedef struct fog_memo {
    uint32_t z, density;
    uint32_t in, out;
    bool valid_z, valid_c;
} fog_memo;

static void fog_pixel(raster_engine *r, const raster_fog *f, uint32_t i, fog_memo *m)
{
    uint32_t z = r->depth[i], c = r->color[i];
    if (!m->valid_z || z != m->z) {
        m->z = z;
        m->density = raster_fog_density(f, z);
        m->valid_z = true;
        m->valid_c = false;
    }
    if (!m->valid_c || c != m->in) {
        m->in = c;
        m->out = raster_fog_blend(f, c, m->density);
        m->valid_c = true;
    }
    r->color[i] = m->out;
}

void raster_fog_pass_ref(raster_engine *r, const raster_fog *f, int y0, int y1)
{
    fog_memo m = {0, 0, 0, 0, false, false};
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            uint32_t i = raster_addr(x, y);
            uint32_t attr = r->attr[i];
            if (attr & RASTER_ATTR_FOG) fog_pixel(r, f, i, &m);
            /* the pixel behind an edge pixel is fogged too, for anti-aliasing */
            if (f->lower && (attr & RASTER_ATTR_EDGE_MASK) &&
                (r->attr[i + RASTER_BUF_SIZE] & RASTER_ATTR_FOG))
                fog_pixel(r, f, i + RASTER_BUF_SIZE, &m);
        }
    }
}

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#include <emmintrin.h>

/* a * b per 32-bit lane for products below 2^32 (SSE2 has no 32-bit multiply: the even and
 * odd lanes' 64-bit products, low halves interleaved back) */
static inline __m128i mul32(__m128i a, __m128i b)
{
    __m128i e = _mm_mul_epu32(a, b);
    __m128i o = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(e, _MM_SHUFFLE(0, 0, 2, 0)),
                              _mm_shuffle_epi32(o, _MM_SHUFFLE(0, 0, 2, 0)));
}

/* raster_fog_density of four depths, lane by lane with the same integer steps: depths and
 * the offset are below 2^24, so the signed compare orders them as unsigned; the shifted
 * value wraps at 32 bits as there; the two products are below 2^24. */
static inline __m128i fog_density4(const raster_fog *f, __m128i z)
{
    const __m128i off = _mm_set1_epi32((int32_t)f->offset);
    __m128i ge = _mm_xor_si128(_mm_cmpgt_epi32(off, z), _mm_set1_epi32(-1)); /* z >= offset */
    __m128i v = _mm_sll_epi32(_mm_srli_epi32(_mm_sub_epi32(z, off), 2),
                              _mm_cvtsi32_si128((int32_t)f->shift));
    __m128i index = _mm_srli_epi32(v, 17);
    __m128i big = _mm_cmpgt_epi32(index, _mm_set1_epi32(31)); /* (index < 2^15) */
    index = _mm_or_si128(_mm_andnot_si128(big, index), _mm_and_si128(big, _mm_set1_epi32(32)));
    index = _mm_and_si128(index, ge);
    __m128i frac = _mm_and_si128(_mm_andnot_si128(big, v), _mm_set1_epi32(0x1FFFF));
    frac = _mm_and_si128(frac, ge);
    int32_t ix[4];
    _mm_storeu_si128((__m128i *)ix, index);
    __m128i pr = _mm_set_epi32((int32_t)f->pair[ix[3]], (int32_t)f->pair[ix[2]],
                               (int32_t)f->pair[ix[1]], (int32_t)f->pair[ix[0]]);
    __m128i t0 = _mm_and_si128(pr, _mm_set1_epi32(0xFFFF)), t1 = _mm_srli_epi32(pr, 16);
    __m128i d =
        _mm_add_epi32(mul32(t0, _mm_sub_epi32(_mm_set1_epi32(0x20000), frac)), mul32(t1, frac));
    d = _mm_srli_epi32(d, 17);
    __m128i full = _mm_cmpgt_epi32(d, _mm_set1_epi32(126));
    return _mm_or_si128(_mm_andnot_si128(full, d), _mm_and_si128(full, _mm_set1_epi32(128)));
}

/* raster_fog_blend of four colours by four densities: the same two channels per 32-bit word,
 * here as 16-bit lanes (each lane's sum is below 2^14, so lane-wise shifts and masks give the
 * word-wise result) */
static inline __m128i fog_blend4(const raster_fog *f, __m128i c, __m128i d)
{
    __m128i d16 = _mm_or_si128(d, _mm_slli_epi32(d, 16));
    __m128i nd16 = _mm_sub_epi16(_mm_set1_epi16(128), d16);
    const __m128i mrb = _mm_set1_epi32(0x003F003F), mga = _mm_set1_epi32(0x001F003F);
    __m128i rb = _mm_and_si128(c, mrb), ga = _mm_and_si128(_mm_srli_epi32(c, 8), mga);
    rb = _mm_add_epi16(_mm_mullo_epi16(_mm_set1_epi32((int32_t)f->fog_rb), d16),
                       _mm_mullo_epi16(rb, nd16));
    ga = _mm_add_epi16(_mm_mullo_epi16(_mm_set1_epi32((int32_t)f->fog_ga), d16),
                       _mm_mullo_epi16(ga, nd16));
    rb = _mm_and_si128(_mm_srli_epi16(rb, 7), mrb);
    ga = _mm_and_si128(_mm_srli_epi16(ga, 7), mga);
    __m128i out = _mm_or_si128(rb, _mm_slli_epi32(ga, 8));
    if (f->alpha_only)
        out = _mm_or_si128(_mm_and_si128(c, _mm_set1_epi32(0x003F3F3F)),
                           _mm_and_si128(out, _mm_set1_epi32(0x1F000000)));
    return out;
}

#ifdef RASTER_POSTPASS_AVX2 /* (raster_fog_density8, raster_fog_blend8: postpass_internal.h) */
#define FOG_AVX2 1

/* raster_fog_pass eight pixels at a time (engines with span_isa AVX2): the same steps, the
 * same reuse of the last group's results; the lower layer's pixels under edge pixels eight at
 * a time too (those with the fog bit written, the others stored back unchanged: the group's
 * words are this line's). */
static inline __attribute__((always_inline, target("avx2"))) void
fog_rows_avx2(raster_engine *r, const raster_fog *f, int y0, int y1, const bool lower)
{
    const __m256i fogbit = _mm256_set1_epi32((int32_t)RASTER_ATTR_FOG);
    const __m256i edgebits = _mm256_set1_epi32((int32_t)RASTER_ATTR_EDGE_MASK);
    const __m256i zero = _mm256_setzero_si256();
    __m256i zlast = _mm256_set1_epi32(-1), clast = zero, dlast = zero, olast = zero;
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x += 8) {
            uint32_t i = raster_addr(x, y);
            __m256i a = _mm256_loadu_si256((const __m256i *)&r->attr[i]);
            __m256i fog = _mm256_cmpeq_epi32(_mm256_and_si256(a, fogbit), fogbit);
            if (!_mm256_testz_si256(fog, fog)) {
                __m256i z = _mm256_loadu_si256((const __m256i *)&r->depth[i]);
                __m256i c = _mm256_loadu_si256((const __m256i *)&r->color[i]);
                if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(z, zlast)) != -1) {
                    zlast = z;
                    dlast = raster_fog_density8(f, z);
                    clast = _mm256_xor_si256(c, _mm256_set1_epi32(-1)); /* (not c: recompute) */
                }
                if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(c, clast)) != -1) {
                    clast = c;
                    olast = raster_fog_blend8(f, c, dlast);
                }
                _mm256_storeu_si256((__m256i *)&r->color[i], _mm256_blendv_epi8(c, olast, fog));
            }
            /* the pixel behind an edge pixel is fogged too, for anti-aliasing */
            if (!lower || _mm256_testz_si256(a, edgebits)) continue;
            uint32_t lo = i + RASTER_BUF_SIZE;
            __m256i la = _mm256_loadu_si256((const __m256i *)&r->attr[lo]);
            __m256i lfog =
                _mm256_andnot_si256(_mm256_cmpeq_epi32(_mm256_and_si256(a, edgebits), zero),
                                    _mm256_cmpeq_epi32(_mm256_and_si256(la, fogbit), fogbit));
            if (_mm256_testz_si256(lfog, lfog)) continue;
            __m256i z = _mm256_loadu_si256((const __m256i *)&r->depth[lo]);
            __m256i c = _mm256_loadu_si256((const __m256i *)&r->color[lo]);
            __m256i out = raster_fog_blend8(f, c, raster_fog_density8(f, z));
            _mm256_storeu_si256((__m256i *)&r->color[lo], _mm256_blendv_epi8(c, out, lfog));
        }
    }
}

/* fog_rows_avx2 with the lower layer (anti-aliasing on) or without: two copies, so the loop
 * does not test the frame's flag per group */
static __attribute__((target("avx2"))) void fog_pass_avx2(raster_engine *r, const raster_fog *f,
                                                          int y0, int y1)
{
    if (f->lower)
        fog_rows_avx2(r, f, y0, y1, true);
    else
        fog_rows_avx2(r, f, y0, y1, false);
}
#endif

void raster_fog_pass(raster_engine *r, const raster_fog *f, int y0, int y1)
{
#ifdef FOG_AVX2
    if (r->span_isa >= RASTER_SPAN_ISA_AVX2) {
        fog_pass_avx2(r, f, y0, y1);
        return;
    }
#endif
    const __m128i fogbit = _mm_set1_epi32((int32_t)RASTER_ATTR_FOG);
    const __m128i edgebits = _mm_set1_epi32((int32_t)RASTER_ATTR_EDGE_MASK);
    const __m128i zero = _mm_setzero_si128();
    fog_memo m = {0, 0, 0, 0, false, false}; /* (the lower layer's pixels, one at a time) */
    /* The last four depths and colours fogged, and their densities and results: runs of equal
     * pixels (the clear plane, flat surfaces) reuse them (a pure function of depth and
     * colour; performance only). The depths start as an impossible value (above 24 bits). */
    __m128i zlast = _mm_set1_epi32(-1), clast = zero, dlast = zero, olast = zero;
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x += 4) {
            uint32_t i = raster_addr(x, y);
            __m128i a = _mm_loadu_si128((const __m128i *)&r->attr[i]);
            __m128i fog = _mm_cmpeq_epi32(_mm_and_si128(a, fogbit), fogbit);
            if (_mm_movemask_epi8(fog)) {
                __m128i z = _mm_loadu_si128((const __m128i *)&r->depth[i]);
                __m128i c = _mm_loadu_si128((const __m128i *)&r->color[i]);
                if (_mm_movemask_epi8(_mm_cmpeq_epi32(z, zlast)) != 0xFFFF) {
                    zlast = z;
                    dlast = fog_density4(f, z);
                    clast = _mm_xor_si128(c, _mm_set1_epi32(-1)); /* (not c: recompute) */
                }
                if (_mm_movemask_epi8(_mm_cmpeq_epi32(c, clast)) != 0xFFFF) {
                    clast = c;
                    olast = fog_blend4(f, c, dlast);
                }
                c = _mm_or_si128(_mm_and_si128(fog, olast), _mm_andnot_si128(fog, c));
                _mm_storeu_si128((__m128i *)&r->color[i], c);
            }
            /* the pixel behind an edge pixel is fogged too, for anti-aliasing */
            if (!f->lower) continue;
            int edge = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(a, edgebits), zero));
            if (edge == 0xFFFF) continue;
            for (unsigned k = 0; k < 4; k++) {
                uint32_t lo = i + k + RASTER_BUF_SIZE;
                if (!(edge & (1 << (4 * k))) && (r->attr[lo] & RASTER_ATTR_FOG))
                    fog_pixel(r, f, lo, &m);
            }
        }
    }
}
#else
void raster_fog_pass(raster_engine *r, const raster_fog *f, int y0, int y1)
{
    raster_fog_pass_ref(r, f, y0, y1);
}
#endif
