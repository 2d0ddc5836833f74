/*
 * render.c - the rendering engine's frame: latch the frame state, clear, draw every polygon
 * (with the timing model; polygon by polygon or scanline by scanline, span.c and
 * raster/README.md "Drawing order"), then the final pass.
 *
 * Hardware notes: the order clear -> polygons (opaque, then translucent, per scanline) -> edge
 * marking / fog / anti-aliasing follows melonDS GPU3D_Soft.cpp RenderFrame/RenderPolygons. melonDS
 * runs the final pass of line y-1 after drawing line y; drawing line y+1 never touches lines
 * <= y, so running the final pass after all lines gives the same pixels. The alpha-test
 * reference is 0 when DISP3DCNT bit 2 is off (melonDS GPU3D.cpp: AlphaRef = bit 2 ? value : 0).
 * State kept across frames as melonDS keeps it: the shadow stencil and its "previous polygon
 * was a shadow mask" flag; the timing model's registers.
 *
 * Performance: the clear is lazy with a plain clear plane (DISP3DCNT bit 14 off). Clearing all
 * six buffer layers costs more than drawing a small scene, so each line only records which
 * pixels [valid_lo, valid_hi) already hold this frame's values; a polygon line extends that
 * range before it touches pixels (raster_span_begin), and the output conversion writes the
 * clear colour directly for pixels outside it. Frames that run edge marking, fog or
 * anti-aliasing complete the clear of every line before the final pass, which then sees the
 * same buffers as after a full clear in the top layer. The lower layer is not cleared at all:
 * every read of it (the depth test's retry, a translucent pixel's second blend, the shadow
 * mask's bit 1, fog's second layer, the anti-aliasing blend) is of a pixel whose top is an
 * edge pixel, and only an opaque pixel drawn as an edge pixel makes the top one, which with
 * anti-aliasing first pushes the old top pixel (this frame's clear or drawing) down into the
 * lower layer whole (span_pixel.h plot_write), and without anti-aliasing the lower layer never
 * flows back into the top one or the output. So what an earlier frame left there changes no
 * output pixel (unit.test_raster_pmajor test_lower_layer_unread: random frames over garbage in
 * the lower layer).
 */
#include <stdlib.h>

#include "gx/regs.h"
#include "raster/postpass_internal.h"
#include "raster/raster_internal.h"
#include "raster/threads.h"

raster_engine *raster_create(void)
{
    raster_engine *r = calloc(1, sizeof *r);
    if (!r) return NULL;
    if (!raster_threads_init(r)) {
        free(r);
        return NULL;
    }
    /* the texel cache's buffer; without it textures are looked up per pixel (same pixels) */
    r->texcache.texels = malloc(RASTER_TEX_CACHE_TEXELS * sizeof r->texcache.texels[0]);
    r->recip = malloc(sizeof *r->recip);
    if (r->recip) raster_recip_init(r->recip);
    raster_timing_init(&r->timing);
    r->span_isa = raster_span_isa_best();
    r->tex_ctab = raster_tex_ctab_best();
    for (uint32_t size = 8; size <= 1024; size *= 2) {
        for (uint32_t u = 0; u < 2 * size; u++) {
            r->wrap_tab[0][2 * size + u] = (uint16_t)(u & (size - 1));
            r->wrap_tab[1][2 * size + u] = (uint16_t)(u < size ? u : 2 * size - 1 - u);
        }
    }
    return r;
}

size_t raster_memory_bytes(const raster_engine *r)
{
    size_t n = sizeof *r + raster_threads_memory(r);
    if (r->texcache.texels) n += RASTER_TEX_CACHE_TEXELS * sizeof r->texcache.texels[0];
    if (r->recip) n += sizeof *r->recip;
    return n;
}

void raster_power_on(raster_engine *r)
{
    raster_timing_power_on(&r->timing);
}

void raster_destroy(raster_engine *r)
{
    if (r) raster_threads_free(r);
    if (r) free(r->texcache.texels);
    if (r) free(r->recip);
    free(r);
}

void raster_set_melonds_gaps(raster_engine *r, bool on)
{
    r->melonds_gaps = on;
}

static void latch_frame_state(raster_engine *r, const gx_frame *in)
{
    uint32_t cnt = in->regs.disp3dcnt;
    r->disp3dcnt = (uint16_t)cnt;
    r->alpha_ref = disp3dcnt_alpha_test(cnt) ? (uint8_t)(in->regs.alpha_ref & 0x1Fu) : 0;
    r->fill_all_edges = disp3dcnt_antialias(cnt) || disp3dcnt_edge_marking(cnt);
    raster_pixel_frame_setup(&r->pixel, &in->regs);
    raster_tex_cache_reset(&r->texcache);
}

static void fill32(uint32_t *p, uint32_t v, int32_t n)
{
    for (int32_t i = 0; i < n; i++) p[i] = v;
}

#if !defined(DSGX_NO_SIMD) && !defined(DSGX_NO_AVX2) && defined(__SSE2__) &&                       \
    (defined(__x86_64__) || defined(__i386__)) && (defined(__GNUC__) || defined(__clang__))
#define RENDER_AVX2 1
#include <immintrin.h>

/* n >= 8 words at p set to v eight a store, the stores 32-byte aligned but the first and the
 * last (unaligned ones that overlap the aligned run). A line's pixels start at no fixed
 * alignment (RASTER_SCANLINE_W = 258 words), so unaligned stores of a whole line cross a
 * 32-byte boundary each and a cache line every other one; the aligned run splits none. */
static __attribute__((target("avx2"))) void fill_avx2(uint32_t *p, __m256i v, int32_t n)
{
    _mm256_storeu_si256((__m256i *)p, v);
    uint32_t *q = (uint32_t *)(((uintptr_t)p + 32u) & ~(uintptr_t)31u), *end = p + n;
    for (; q + 16 <= end; q += 16) {
        _mm256_store_si256((__m256i *)q, v);
        _mm256_store_si256((__m256i *)(q + 8), v);
    }
    if (q + 8 <= end) _mm256_store_si256((__m256i *)q, v);
    _mm256_storeu_si256((__m256i *)(end - 8), v);
}

/* clear_run's three rows eight words a store (engines with span_isa AVX2): the lazy clear is
 * bound by its stores (576 KB a frame when every line is cleared whole, as in g_heavy_1); one
 * row after the other, each one stream of aligned stores */
static __attribute__((target("avx2"))) void clear_run_avx2(raster_engine *r, uint32_t a, int32_t n)
{
    if (n < 8) {
        fill32(&r->color[a], r->clear_px[0], n);
        fill32(&r->depth[a], r->clear_px[1], n);
        fill32(&r->attr[a], r->clear_px[2], n);
        return;
    }
    fill_avx2(&r->color[a], _mm256_set1_epi32((int32_t)r->clear_px[0]), n);
    fill_avx2(&r->depth[a], _mm256_set1_epi32((int32_t)r->clear_px[1]), n);
    fill_avx2(&r->attr[a], _mm256_set1_epi32((int32_t)r->clear_px[2]), n);
}

/* raster_output_line's copy of pixels [lo, hi) eight at a time */
static __attribute__((target("avx2"))) void copy_masked_avx2(uint32_t *dst, const uint32_t *src,
                                                             int32_t lo, int32_t hi, uint32_t mask)
{
    const __m256i m = _mm256_set1_epi32((int32_t)mask);
    int32_t x = lo;
    for (; x + 8 <= hi; x += 8)
        _mm256_storeu_si256((__m256i *)&dst[x],
                            _mm256_and_si256(_mm256_loadu_si256((const __m256i *)&src[x]), m));
    for (; x < hi; x++) dst[x] = src[x] & mask;
}
#endif

/* Clear pixels [x0, x1) of line y (the top layer: see the file comment for the lower one). */
static void clear_run(raster_engine *r, int32_t y, int32_t x0, int32_t x1)
{
    uint32_t a = raster_addr(x0, y);
    int32_t n = x1 - x0;
#ifdef RENDER_AVX2
    if (r->span_isa >= RASTER_SPAN_ISA_AVX2) {
        clear_run_avx2(r, a, n);
        return;
    }
#endif
    fill32(&r->color[a], r->clear_px[0], n);
    fill32(&r->depth[a], r->clear_px[1], n);
    fill32(&r->attr[a], r->clear_px[2], n);
}

void raster_lazy_clear(raster_engine *r, int32_t y, int32_t x0, int32_t x1)
{
    int32_t lo = r->valid_lo[y], hi = r->valid_hi[y];
    if (lo >= hi) {
        clear_run(r, y, x0, x1);
        lo = x0, hi = x1;
    } else {
        /* the valid range stays one run: clear the gap between it and the new pixels too */
        if (x0 < lo) clear_run(r, y, x0, lo), lo = x0;
        if (x1 > hi) clear_run(r, y, hi, x1), hi = x1;
    }
    r->valid_lo[y] = (int16_t)lo;
    r->valid_hi[y] = (int16_t)hi;
}

/* What raster_postpass_clear would have written that the final pass reads, for lines
 * [y0, y1): their pixels and their left and right border pixels (edge marking reads them;
 * colour 0, clear depth, clear polygon ID without fog). */
void raster_complete_clear_rows(raster_engine *r, int32_t y0, int32_t y1)
{
    uint32_t bd = r->clear_px[1], ba = r->clear_px[2] & RASTER_ATTR_OPAQUE_ID_MASK;
    for (int32_t y = y0; y < y1; y++) {
        raster_lazy_clear(r, y, 0, 256);
        uint32_t left = raster_addr(-1, y), right = raster_addr(256, y);
        r->color[left] = r->color[right] = 0;
        r->depth[left] = r->depth[right] = bd;
        r->attr[left] = r->attr[right] = ba;
    }
}

/* The same for the border lines above and below the screen. */
void raster_complete_clear_border(raster_engine *r)
{
    uint32_t bd = r->clear_px[1], ba = r->clear_px[2] & RASTER_ATTR_OPAQUE_ID_MASK;
    for (uint32_t i = 0; i < RASTER_SCANLINE_W; i++) {
        uint32_t top = i, bottom = (RASTER_NUM_LINES - 1) * RASTER_SCANLINE_W + i;
        r->color[top] = r->color[bottom] = 0;
        r->depth[top] = r->depth[bottom] = bd;
        r->attr[top] = r->attr[bottom] = ba;
    }
}

void raster_output_line(const raster_engine *r, int32_t y, uint32_t *dst)
{
    /* A lazily cleared frame: drawn pixels are copied, the rest is the clear colour (without
     * touching the rest of the buffers). */
    const uint32_t mask = 0x1F3F3F3Fu;
    uint32_t clear = r->clear_px[0] & mask;
    const uint32_t *line = &r->color[raster_addr(0, y)];
    int32_t lo = r->lazy_clear ? r->valid_lo[y] : 0, hi = r->lazy_clear ? r->valid_hi[y] : 256;
    if (lo >= hi) lo = hi = 256;
    fill32(dst, clear, lo);
#ifdef RENDER_AVX2
    if (r->span_isa >= RASTER_SPAN_ISA_AVX2)
        copy_masked_avx2(dst, line, lo, hi, mask);
    else
#endif
        for (int32_t x = lo; x < hi; x++) dst[x] = line[x] & mask;
    fill32(dst + hi, clear, 256 - hi);
}

void raster_output_rows(const raster_engine *r, dsgx_frame *out, int32_t y0, int32_t y1)
{
    for (int32_t y = y0; y < y1; y++) raster_output_line(r, y, &out->px[y * DSGX_FRAME_W]);
}

void raster_lines_done(raster_engine *r, int32_t y0, int32_t y1)
{
    if (r->final_pass) {
        if (r->lazy_clear) raster_complete_clear_rows(r, y0, y1);
    } else if (r->out) {
        raster_output_rows(r, r->out, y0, y1);
    }
}

/* The clear before the lines: lazily (nothing valid yet) or the whole clear plane. */
static void start_clear(raster_engine *r, const gx_frame *in)
{
    if (r->lazy_clear) {
        for (int32_t y = 0; y < 192; y++) r->valid_lo[y] = 256, r->valid_hi[y] = 0;
    } else {
        raster_postpass_clear(r, in);
    }
}

void raster_frame_prepare(raster_engine *r, const gx_frame *in, const gx_frame *ram,
                          dsgx_frame *out)
{
    uint32_t cnt = in->regs.disp3dcnt;

    latch_frame_state(r, in);
    r->final_pass = disp3dcnt_edge_marking(cnt) || disp3dcnt_fog(cnt) || disp3dcnt_antialias(cnt);
    r->out = out;
    r->lazy_clear = !disp3dcnt_rear_bitmap(cnt);
    if (r->lazy_clear)
        raster_clear_plain_pixel(&in->regs, &r->clear_px[0], &r->clear_px[1], &r->clear_px[2]);
    start_clear(r, in);
    raster_setup_frame(r, in, ram);
}

void raster_render(raster_engine *r, const gx_frame *in, dsgx_frame *out, raster_result *res)
{
    raster_render_ram(r, in, in, out, res);
}

void raster_render_ram(raster_engine *r, const gx_frame *in, const gx_frame *ram, dsgx_frame *out,
                       raster_result *res)
{
    if (r->lines.active) raster_lines_end(r, NULL); /* (a line-at-a-time frame left open) */
    raster_frame_prepare(r, in, ram, out);

    /* The lines: in bands on several threads when possible (threads.c; each band also
     * completes the clear of its lines for the final pass, or writes them out), or polygon by
     * polygon on this thread (RASTER_LINES_DRAWN; the timing replayed after), else, or when the
     * timing model would have cut a line, scanline by scanline on this thread against the live
     * timing model. */
    raster_timing before = r->timing;
    raster_timing_frame_begin_ram(&r->timing, in, ram);
    raster_lines_result lines = raster_draw_lines_split(r);
    r->last_lines = (uint8_t)lines;
    if (lines == RASTER_LINES_CUT) {
        r->timing = before;
        raster_timing_frame_begin_ram(&r->timing, in, ram);
        start_clear(r, in);
    }
    if (lines == RASTER_LINES_NOT_SPLIT || lines == RASTER_LINES_CUT) {
        raster_draw_lines(r, 0, 192);
        raster_lines_done(r, 0, 192);
    }
    raster_timing_frame_end(&r->timing, res);

    /* the final pass, once every line is drawn (in bands too) */
    if (r->final_pass) {
        if (r->lazy_clear) raster_complete_clear_border(r);
        raster_postpass_split(r, in, out);
    }
    r->out = NULL;
    r->lazy_clear = false; /* the buffers are not valid for later direct use otherwise */
}
