/*
 * postpass.c - the final pass: edge marking, fog (fog.c), anti-aliasing, and the copy of the
 * colour buffer into the output frame.
 *
 * Hardware notes (facts from melonDS GPU3D_Soft.cpp ScanlineFinalPass; GBATEK "DS 3D Toon,
 * Edge, Fog, Alpha-Blending, Anti-Aliasing"):
 *  - Edge marking (DISP3DCNT bit 5) looks only at top-layer pixels with an edge flag (drawn by
 *    an opaque polygon's edge). Such a pixel is marked when any of its four neighbours has a
 *    different opaque polygon ID AND a greater depth (z < neighbour z). Neighbours outside the
 *    screen are the border pixels, which hold the clear depth and clear polygon ID, so the
 *    clear plane counts as a neighbour everywhere (including at the screen border; the
 *    RDLines branch's timing-dependent screen-edge glitch is not modelled, as upstream melonDS
 *    does not). A marked pixel takes EDGE_COLOR[ID >> 3] (widened to 6 bits) and keeps its
 *    alpha; its anti-aliasing coverage is forced to 0x10 (melonDS "break antialiasing
 *    coverage (checkme)"; kept in raster_engine.edge_marked, read by anti-aliasing).
 *  - Then fog (fog.c), then anti-aliasing (DISP3DCNT bit 4): a top-layer edge pixel with
 *    coverage c < 31 is replaced by the lower-layer pixel when c == 0, else blended with it:
 *    c' = c + 1, rgb = (top * c' + bottom * (32 - c')) >> 5 only when the lower pixel's alpha
 *    is non-zero, alpha = (top_a * c' + bottom_a * (32 - c')) >> 5 always.
 *  - Output: the top-layer colour buffer is already r6 | g6 << 8 | b6 << 16 | a5 << 24, the
 *    dsgx_frame pixel format.
 * melonDS runs these per line, one line behind the rasterizer; each step reads only depth and
 * attributes that no later step or line changes, so whole-frame passes give identical pixels.
 * Verified against the reference frames edge_marking_8, f_edge_fog and antialias.
 *
 * Performance: with SSE2, edge marking tests four pixels (edge flag, four neighbours) at a
 * time and anti-aliasing skips four pixels without edge flags at once; with AVX2 (chosen at
 * run time: raster_engine.span_isa) both passes and the output conversion run eight pixels at a
 * time, anti-aliasing blending lane-wise; the per-pixel passes (raster_edge_mark_pass_ref,
 * raster_antialias_pass_ref) are the references (unit.test_raster_postpass, every form).
 */
#include <string.h>

#include "gx/regs.h"
#include "raster/postpass_internal.h"

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#include <emmintrin.h>
#endif

/* True when neighbour @p n hides pixel (id, z)'s edge from the background: another opaque
 * polygon ID, and farther away. */
static bool edge_against(const raster_engine *r, uint32_t n, uint32_t id, uint32_t z)
{
    return (r->attr[n] >> RASTER_ATTR_OPAQUE_ID_SHIFT) != id && z < r->depth[n];
}

void raster_edge_mark_pass_ref(raster_engine *r, const gx_render_regs *regs, int y0, int y1)
{
    uint32_t edge6[8];
    for (int i = 0; i < 8; i++) edge6[i] = raster_color6_from_rgb15(regs->edge_color[i]);
    const bool aa = disp3dcnt_antialias(regs->disp3dcnt) != 0;

    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            uint32_t i = raster_addr(x, y);
            uint32_t attr = r->attr[i];
            if (!(attr & RASTER_ATTR_EDGE_MASK)) continue;
            uint32_t id = attr >> RASTER_ATTR_OPAQUE_ID_SHIFT;
            uint32_t z = r->depth[i];
            bool mark = edge_against(r, i - 1, id, z) || edge_against(r, i + 1, id, z) ||
                        edge_against(r, i - RASTER_SCANLINE_W, id, z) ||
                        edge_against(r, i + RASTER_SCANLINE_W, id, z);
            if (mark) r->color[i] = edge6[(id >> 3) & 7u] | (r->color[i] & 0xFF000000u);
            /* (the broken coverage goes to edge_marked, not to the attribute word, which
             * other lines' marking reads: lines may be marked at once, threads.c; only
             * anti-aliasing reads it) */
            if (aa) r->edge_marked[i] = mark;
        }
    }
}

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
/* edge_against for four pixels (ID words @p id = attr & 0xFF000000, depths biased by 2^31 for
 * the unsigned compare) against the four neighbours at @p n */
static inline __m128i edge_against4(const raster_engine *r, uint32_t n, __m128i id, __m128i zb)
{
    const __m128i idmask = _mm_set1_epi32((int32_t)0xFF000000u);
    const __m128i bias = _mm_set1_epi32((int32_t)0x80000000u);
    __m128i na = _mm_and_si128(_mm_loadu_si128((const __m128i *)&r->attr[n]), idmask);
    __m128i nz = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&r->depth[n]), bias);
    __m128i same = _mm_cmpeq_epi32(na, id);
    return _mm_andnot_si128(same, _mm_cmpgt_epi32(nz, zb)); /* other ID and z < neighbour */
}

#if !defined(DSGX_NO_AVX2) && (defined(__x86_64__) || defined(__i386__)) &&                        \
    (defined(__GNUC__) || defined(__clang__))
#define EDGE_AVX2 1
#include <immintrin.h>

/* edge_against4 for eight pixels */
static inline __attribute__((always_inline, target("avx2"))) __m256i
edge_against8(const raster_engine *r, uint32_t n, __m256i id, __m256i zb)
{
    const __m256i idmask = _mm256_set1_epi32((int32_t)0xFF000000u);
    const __m256i bias = _mm256_set1_epi32((int32_t)0x80000000u);
    __m256i na = _mm256_and_si256(_mm256_loadu_si256((const __m256i *)&r->attr[n]), idmask);
    __m256i nz = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)&r->depth[n]), bias);
    __m256i same = _mm256_cmpeq_epi32(na, id);
    return _mm256_andnot_si256(same, _mm256_cmpgt_epi32(nz, zb));
}

/* raster_edge_mark_pass eight pixels at a time (engines with span_isa AVX2): the same steps;
 * the edge colours of the eight IDs by one permute of the eight-entry table, edge_marked as a
 * masked 8-byte update (with anti-aliasing, @p aa, its only reader). */
static inline __attribute__((always_inline, target("avx2"))) void
edge_mark_rows_avx2(raster_engine *r, const uint32_t edge6[8], int y0, int y1, const bool aa)
{
    const __m256i table = _mm256_loadu_si256((const __m256i *)edge6);
    const __m256i edgebits = _mm256_set1_epi32((int32_t)RASTER_ATTR_EDGE_MASK);
    const __m256i idmask = _mm256_set1_epi32((int32_t)0xFF000000u);
    const __m256i bias = _mm256_set1_epi32((int32_t)0x80000000u);
    const __m256i zero = _mm256_setzero_si256();
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x += 8) {
            uint32_t i = raster_addr(x, y);
            __m256i a = _mm256_loadu_si256((const __m256i *)&r->attr[i]);
            __m256i edge = _mm256_cmpeq_epi32(_mm256_and_si256(a, edgebits), zero); /* (not) */
            if (_mm256_movemask_epi8(edge) == -1) continue;
            __m256i id = _mm256_and_si256(a, idmask);
            __m256i zb = _mm256_xor_si256(_mm256_loadu_si256((const __m256i *)&r->depth[i]), bias);
            __m256i mark = _mm256_or_si256(
                _mm256_or_si256(edge_against8(r, i - 1, id, zb), edge_against8(r, i + 1, id, zb)),
                _mm256_or_si256(edge_against8(r, i - RASTER_SCANLINE_W, id, zb),
                                edge_against8(r, i + RASTER_SCANLINE_W, id, zb)));
            mark = _mm256_andnot_si256(edge, mark); /* (edge pixels only) */
            if (!_mm256_testz_si256(mark, mark)) {
                /* the edge colour of each lane's ID (bits 27-29), its own alpha kept */
                __m256i ec = _mm256_permutevar8x32_epi32(
                    table, _mm256_and_si256(_mm256_srli_epi32(a, 27), _mm256_set1_epi32(7)));
                __m256i c = _mm256_loadu_si256((const __m256i *)&r->color[i]);
                __m256i mc = _mm256_or_si256(ec, _mm256_and_si256(c, idmask));
                _mm256_storeu_si256((__m256i *)&r->color[i], _mm256_blendv_epi8(c, mc, mark));
            }
            if (!aa) continue;
            /* edge_marked of the edge pixels: 1 where marked, 0 elsewhere; the other bytes
             * keep their values (each 128-bit half packs its four lanes into its low word) */
            __m256i mb = _mm256_packs_epi16(_mm256_packs_epi32(mark, mark), zero);
            __m256i eb = _mm256_packs_epi16(_mm256_packs_epi32(edge, edge), zero);
            uint64_t mw =
                ((uint64_t)(uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(mb)) |
                 (uint64_t)(uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(mb, 1)) << 32) &
                0x0101010101010101u;
            uint64_t keep = (uint64_t)(uint32_t)_mm_cvtsi128_si32(_mm256_castsi256_si128(eb)) |
                            (uint64_t)(uint32_t)_mm_cvtsi128_si32(_mm256_extracti128_si256(eb, 1))
                                << 32;
            uint64_t old;
            memcpy(&old, &r->edge_marked[i], sizeof old);
            old = (old & keep) | mw;
            memcpy(&r->edge_marked[i], &old, sizeof old);
        }
    }
}

/* edge_mark_rows_avx2 with edge_marked (anti-aliasing on) or without: two copies, so the loop
 * does not test the frame's flag per group */
static __attribute__((target("avx2"))) void
edge_mark_pass_avx2(raster_engine *r, const uint32_t edge6[8], int y0, int y1, bool aa)
{
    if (aa)
        edge_mark_rows_avx2(r, edge6, y0, y1, true);
    else
        edge_mark_rows_avx2(r, edge6, y0, y1, false);
}

/* raster_postpass_rows' conversion into the output frame, eight pixels at a time */
static __attribute__((target("avx2"))) void output_rows_avx2(const raster_engine *r,
                                                             dsgx_frame *out, int y0, int y1)
{
    const __m256i mask = _mm256_set1_epi32(0x1F3F3F3F);
    for (int y = y0; y < y1; y++) {
        const uint32_t *line = &r->color[raster_addr(0, y)];
        uint32_t *dst = &out->px[y * DSGX_FRAME_W];
        for (int x = 0; x < DSGX_FRAME_W; x += 8)
            _mm256_storeu_si256(
                (__m256i *)&dst[x],
                _mm256_and_si256(_mm256_loadu_si256((const __m256i *)&line[x]), mask));
    }
}
#endif

/* The same pass four pixels at a time: the edge test, the four neighbours and the marking
 * verdict lane-wise (the ID compare on the attribute word's top byte is the scalar form's
 * attr >> 24 compare); marked pixels take their edge colour (looked up per lane) by a select;
 * edge_marked is written for the edge pixels only, as there (a masked 4-byte update). */
void raster_edge_mark_pass(raster_engine *r, const gx_render_regs *regs, int y0, int y1)
{
    uint32_t edge6[8];
    for (int i = 0; i < 8; i++) edge6[i] = raster_color6_from_rgb15(regs->edge_color[i]);
    const bool aa = disp3dcnt_antialias(regs->disp3dcnt) != 0;
#ifdef EDGE_AVX2
    if (r->span_isa >= RASTER_SPAN_ISA_AVX2) {
        edge_mark_pass_avx2(r, edge6, y0, y1, aa);
        return;
    }
#endif
    const __m128i edgebits = _mm_set1_epi32((int32_t)RASTER_ATTR_EDGE_MASK);
    const __m128i idmask = _mm_set1_epi32((int32_t)0xFF000000u);
    const __m128i bias = _mm_set1_epi32((int32_t)0x80000000u);
    const __m128i zero = _mm_setzero_si128();
    const __m128i amask = _mm_set1_epi32((int32_t)0xFF000000u);
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x += 4) {
            uint32_t i = raster_addr(x, y);
            __m128i a = _mm_loadu_si128((const __m128i *)&r->attr[i]);
            __m128i edge = _mm_cmpeq_epi32(_mm_and_si128(a, edgebits), zero); /* (not edge) */
            int notedge = _mm_movemask_epi8(edge);
            if (notedge == 0xFFFF) continue;
            __m128i id = _mm_and_si128(a, idmask);
            __m128i zb = _mm_xor_si128(_mm_loadu_si128((const __m128i *)&r->depth[i]), bias);
            __m128i mark = _mm_or_si128(
                _mm_or_si128(edge_against4(r, i - 1, id, zb), edge_against4(r, i + 1, id, zb)),
                _mm_or_si128(edge_against4(r, i - RASTER_SCANLINE_W, id, zb),
                             edge_against4(r, i + RASTER_SCANLINE_W, id, zb)));
            mark = _mm_andnot_si128(edge, mark); /* (edge pixels only) */
            if (_mm_movemask_epi8(mark)) {
                /* the edge colour of each lane's ID (bits 27-29), its own alpha kept */
                uint32_t e[4];
                for (unsigned k = 0; k < 4; k++) e[k] = edge6[(r->attr[i + k] >> 27) & 7u];
                __m128i ec =
                    _mm_set_epi32((int32_t)e[3], (int32_t)e[2], (int32_t)e[1], (int32_t)e[0]);
                __m128i c = _mm_loadu_si128((const __m128i *)&r->color[i]);
                __m128i mc = _mm_or_si128(ec, _mm_and_si128(c, amask));
                c = _mm_or_si128(_mm_and_si128(mark, mc), _mm_andnot_si128(mark, c));
                _mm_storeu_si128((__m128i *)&r->color[i], c);
            }
            if (!aa) continue;
            /* edge_marked of the edge pixels: 1 where marked, 0 elsewhere; the other bytes
             * keep their values */
            __m128i mb = _mm_packs_epi16(_mm_packs_epi32(mark, mark), zero);
            __m128i eb = _mm_packs_epi16(_mm_packs_epi32(edge, edge), zero); /* (not edge) */
            uint32_t old, mw = (uint32_t)_mm_cvtsi128_si32(mb) & 0x01010101u;
            uint32_t keep = (uint32_t)_mm_cvtsi128_si32(eb);
            memcpy(&old, &r->edge_marked[i], sizeof old);
            old = (old & keep) | mw;
            memcpy(&r->edge_marked[i], &old, sizeof old);
        }
    }
}
#else
void raster_edge_mark_pass(raster_engine *r, const gx_render_regs *regs, int y0, int y1)
{
    raster_edge_mark_pass_ref(r, regs, y0, y1);
}
#endif

uint32_t raster_aa_blend(uint32_t top, uint32_t bottom, uint32_t coverage)
{
    /* Per channel (top * c' + bottom * (32 - c')) >> 5, two channels per 32-bit word: red and
     * blue (bits 0-5 and 16-21), green and alpha (bits 8-13 and 24-28, shifted down by 8).
     * Each 16-bit lane's sum is below 2^11 (63 * 32), so no lane carries into the next, and
     * after the shift the mask keeps each lane's floor exactly. */
    uint32_t cov = coverage + 1u, ncov = 32u - cov;
    uint32_t trb = top & 0x003F003Fu, tga = (top >> 8) & 0x001F003Fu;
    uint32_t brb = bottom & 0x003F003Fu, bga = (bottom >> 8) & 0x001F003Fu;
    uint32_t ga = ((tga * cov + bga * ncov) >> 5) & 0x001F003Fu;
    if (dsgx_pixel_a(bottom) == 0) /* the colour stays the top pixel's, only alpha blends */
        return trb | ((tga & 0x3Fu) << 8) | (ga & 0x001F0000u) << 8;
    uint32_t rb = ((trb * cov + brb * ncov) >> 5) & 0x003F003Fu;
    return rb | ga << 8;
}

/* Anti-aliasing of one top-layer pixel (raster_antialias_pass) */
static inline void aa_pixel(raster_engine *r, uint32_t i, uint32_t attr, bool marked)
{
    if (!(attr & RASTER_ATTR_EDGE_MASK)) return;
    uint32_t cov = (attr & RASTER_ATTR_COV_MASK) >> RASTER_ATTR_COV_SHIFT;
    if (marked && r->edge_marked[i]) cov = 0x10;
    if (cov == 31) return;
    if (cov == 0)
        r->color[i] = r->color[i + RASTER_BUF_SIZE];
    else
        r->color[i] = raster_aa_blend(r->color[i], r->color[i + RASTER_BUF_SIZE], cov);
}

void raster_antialias_pass_ref(raster_engine *r, int y0, int y1, bool marked)
{
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            uint32_t i = raster_addr(x, y);
            aa_pixel(r, i, r->attr[i], marked);
        }
    }
}

#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#ifdef EDGE_AVX2
/* raster_antialias_pass eight pixels at a time (engines with span_isa AVX2): every lane's
 * coverage (0x10 where edge marking marked it), and for the edge pixels with a coverage below
 * 31 the lower pixel (coverage 0) or raster_aa_blend's result, formed lane-wise as there: the
 * two channels of each 32-bit word as 16-bit lanes (each lane's sum below 2^11, so lane-wise
 * shifts and masks give the word-wise result), the colour-keeping form where the lower pixel's
 * alpha is 0; the other lanes stored back as read (the group's words are this line's). */
static __attribute__((target("avx2"))) void antialias_pass_avx2(raster_engine *r, int y0, int y1,
                                                                bool marked)
{
    const __m256i edgebits = _mm256_set1_epi32((int32_t)RASTER_ATTR_EDGE_MASK);
    const __m256i zero = _mm256_setzero_si256();
    const __m256i mrb = _mm256_set1_epi32(0x003F003F), mga = _mm256_set1_epi32(0x001F003F);
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x += 8) {
            uint32_t i = raster_addr(x, y);
            __m256i a = _mm256_loadu_si256((const __m256i *)&r->attr[i]);
            if (_mm256_testz_si256(a, edgebits)) continue;
            __m256i cov = _mm256_srli_epi32(
                _mm256_and_si256(a, _mm256_set1_epi32((int32_t)RASTER_ATTR_COV_MASK)),
                RASTER_ATTR_COV_SHIFT);
            if (marked) {
                uint64_t em;
                memcpy(&em, &r->edge_marked[i], sizeof em);
                __m256i m = _mm256_cmpgt_epi32(
                    _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)em)), zero);
                cov = _mm256_blendv_epi8(cov, _mm256_set1_epi32(0x10), m);
            }
            __m256i act = _mm256_andnot_si256(
                _mm256_or_si256(_mm256_cmpeq_epi32(_mm256_and_si256(a, edgebits), zero),
                                _mm256_cmpeq_epi32(cov, _mm256_set1_epi32(31))),
                _mm256_set1_epi32(-1));
            if (_mm256_testz_si256(act, act)) continue;
            __m256i top = _mm256_loadu_si256((const __m256i *)&r->color[i]);
            __m256i bot = _mm256_loadu_si256((const __m256i *)&r->color[i + RASTER_BUF_SIZE]);
            __m256i c1 = _mm256_add_epi32(cov, _mm256_set1_epi32(1));
            __m256i c16 = _mm256_or_si256(c1, _mm256_slli_epi32(c1, 16));
            __m256i n16 = _mm256_sub_epi16(_mm256_set1_epi16(32), c16);
            __m256i trb = _mm256_and_si256(top, mrb);
            __m256i tga = _mm256_and_si256(_mm256_srli_epi32(top, 8), mga);
            __m256i brb = _mm256_and_si256(bot, mrb);
            __m256i bga = _mm256_and_si256(_mm256_srli_epi32(bot, 8), mga);
            __m256i ga =
                _mm256_and_si256(_mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(tga, c16),
                                                                    _mm256_mullo_epi16(bga, n16)),
                                                   5),
                                 mga);
            __m256i rb =
                _mm256_and_si256(_mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(trb, c16),
                                                                    _mm256_mullo_epi16(brb, n16)),
                                                   5),
                                 mrb);
            __m256i out = _mm256_or_si256(rb, _mm256_slli_epi32(ga, 8));
            /* the lower pixel's alpha 0: the colour stays the top pixel's, only alpha blends */
            __m256i keep = _mm256_or_si256(
                _mm256_or_si256(
                    trb, _mm256_slli_epi32(_mm256_and_si256(tga, _mm256_set1_epi32(0x3F)), 8)),
                _mm256_slli_epi32(_mm256_and_si256(ga, _mm256_set1_epi32(0x001F0000)), 8));
            __m256i a0 =
                _mm256_cmpeq_epi32(_mm256_and_si256(bot, _mm256_set1_epi32(0x1F000000)), zero);
            out = _mm256_blendv_epi8(out, keep, a0);
            out = _mm256_blendv_epi8(out, bot, _mm256_cmpeq_epi32(cov, zero));
            _mm256_storeu_si256((__m256i *)&r->color[i], _mm256_blendv_epi8(top, out, act));
        }
    }
}
#endif

/* The same, with the edge test four pixels at a time: only pixels with an edge flag are
 * blended (one at a time, as there); most of a frame has none. */
void raster_antialias_pass(raster_engine *r, int y0, int y1, bool marked)
{
#ifdef EDGE_AVX2
    if (r->span_isa >= RASTER_SPAN_ISA_AVX2) {
        antialias_pass_avx2(r, y0, y1, marked);
        return;
    }
#endif
    const __m128i edgebits = _mm_set1_epi32((int32_t)RASTER_ATTR_EDGE_MASK);
    const __m128i zero = _mm_setzero_si128();
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x += 4) {
            uint32_t i = raster_addr(x, y);
            __m128i a = _mm_loadu_si128((const __m128i *)&r->attr[i]);
            int notedge = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(a, edgebits), zero));
            if (notedge == 0xFFFF) continue;
            for (unsigned k = 0; k < 4; k++) aa_pixel(r, i + k, r->attr[i + k], marked);
        }
    }
}
#else
void raster_antialias_pass(raster_engine *r, int y0, int y1, bool marked)
{
    raster_antialias_pass_ref(r, y0, y1, marked);
}
#endif

void raster_postpass_rows(raster_engine *r, const gx_frame *in, dsgx_frame *out, int y0, int y1)
{
    uint32_t cnt = in->regs.disp3dcnt;
    /* Each step reads other lines' depth and attribute words (edge marking: the neighbours'
     * polygon ID and depth), which no step writes, and writes only its own lines' colours and
     * edge_marked: line ranges may run at once once every line is drawn. */
    if (disp3dcnt_edge_marking(cnt)) raster_edge_mark_pass(r, &in->regs, y0, y1);
    if (disp3dcnt_fog(cnt)) {
        raster_fog fog;
        raster_fog_setup(&fog, &in->regs);
        raster_fog_pass(r, &fog, y0, y1);
    }
    if (disp3dcnt_antialias(cnt)) raster_antialias_pass(r, y0, y1, disp3dcnt_edge_marking(cnt));

    if (!out) return;
#ifdef EDGE_AVX2
    if (r->span_isa >= RASTER_SPAN_ISA_AVX2) {
        output_rows_avx2(r, out, y0, y1);
        return;
    }
#endif
    for (int y = y0; y < y1; y++) {
        const uint32_t *line = &r->color[raster_addr(0, y)];
        for (int x = 0; x < DSGX_FRAME_W; x++)
            out->px[y * DSGX_FRAME_W + x] = line[x] & 0x1F3F3F3Fu;
    }
}

void raster_postpass_finish(raster_engine *r, const gx_frame *in, dsgx_frame *out)
{
    raster_postpass_rows(r, in, out, 0, DSGX_FRAME_H);
}
