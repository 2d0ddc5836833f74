/*
 * clearplane.c - the rear plane: what every pixel holds before the first polygon is drawn.
 *
 * Hardware notes (facts from melonDS GPU3D_Soft.cpp ClearBuffers and GBATEK "DS 3D Rear-Plane"):
 *  - Plain mode: colour = CLEAR_COLOR rgb widened to 6 bits, alpha = CLEAR_COLOR bits 16-20,
 *    depth = CLEAR_DEPTH * 0x200 + 0x1FF, opaque polygon ID = CLEAR_COLOR bits 24-29, fog bit =
 *    CLEAR_COLOR bit 15. No edge flags, no translucent ID.
 *  - Bitmap mode (DISP3DCNT bit 14): texture slot 2 holds a 256x256 colour image (BGR555, bit
 *    15 = opaque: alpha 31, else 0), slot 3 a 256x256 depth image (bits 0-14 depth as above, bit
 *    15 fog). CLEAR_IMAGE_OFFSET bits 0-7 / 8-15 give the first column / row; both wrap at 256
 *    (melonDS keeps them in 8-bit counters). The polygon ID still comes from CLEAR_COLOR.
 *  - The 1-pixel border around the screen that edge marking reads (raster_internal.h) gets
 *    colour 0, the CLEAR_DEPTH depth and the clear polygon ID, without fog, in both modes.
 * Verified against the reference frames clear_plane and rear_plane_bitmap (melonDS output).
 * melonDS clears only the upper buffer layer (the lower one keeps older contents, which are
 * never visible: the lower layer is only read under edge pixels, and with anti-aliasing on the
 * drawn edge pixel has pushed this frame's pixel there). We clear both layers so that a frame
 * never depends on the previous one.
 */
#include <string.h>

#include "gx/regs.h"
#include "raster/postpass_internal.h"

void raster_clear_plain_pixel(const gx_render_regs *regs, uint32_t *color, uint32_t *depth,
                              uint32_t *attr)
{
    uint32_t cc = regs->clear_color;
    *color = raster_color6_from_rgb15(clearcolor_rgb(cc)) | (clearcolor_alpha(cc) << 24);
    *depth = raster_clear_depth(cleardepth_depth(regs->clear_depth));
    *attr = (clearcolor_id(cc) << RASTER_ATTR_OPAQUE_ID_SHIFT) |
            (clearcolor_fog(cc) ? RASTER_ATTR_FOG : 0u);
}

static uint32_t read16(const uint8_t *vram, uint32_t addr)
{
    if (!vram || addr + 1u >= GX_TEX_VRAM_SIZE) return 0;
    return (uint32_t)vram[addr] | ((uint32_t)vram[addr + 1u] << 8);
}

enum {
    CLEAR_IMAGE_SLOT = 0x40000u, /* texture slot 2: colour image */
    CLEAR_DEPTH_SLOT = 0x60000u, /* texture slot 3: depth image */
    CLEAR_IMAGE_PITCH = 512u,    /* 256 halfwords per row */
};

void raster_clear_bitmap_pixel(const gx_render_regs *regs, const uint8_t *tex_vram, int x, int y,
                               uint32_t *color, uint32_t *depth, uint32_t *attr)
{
    uint32_t bx = (clearoffset_x(regs->clear_offset) + (uint32_t)x) & 0xFFu;
    uint32_t by = (clearoffset_y(regs->clear_offset) + (uint32_t)y) & 0xFFu;
    uint32_t off = by * CLEAR_IMAGE_PITCH + bx * 2u;
    uint32_t img = read16(tex_vram, CLEAR_IMAGE_SLOT + off);
    uint32_t dep = read16(tex_vram, CLEAR_DEPTH_SLOT + off);

    *color =
        raster_color6_from_rgb15(clearimage_rgb(img)) | (clearimage_alpha(img) ? 31u << 24 : 0u);
    *depth = raster_clear_depth(cleardepthimage_depth(dep));
    *attr = (clearcolor_id(regs->clear_color) << RASTER_ATTR_OPAQUE_ID_SHIFT) |
            (cleardepthimage_fog(dep) ? RASTER_ATTR_FOG : 0u);
}

void raster_postpass_clear_ref(raster_engine *r, const gx_frame *in)
{
    const gx_render_regs *regs = &in->regs;
    uint32_t border_depth = raster_clear_depth(cleardepth_depth(regs->clear_depth));
    uint32_t border_attr = clearcolor_id(regs->clear_color) << RASTER_ATTR_OPAQUE_ID_SHIFT;
    bool bitmap = disp3dcnt_rear_bitmap(regs->disp3dcnt) != 0;
    uint32_t c, d, a;

    /* border first: the whole top layer, screen pixels are overwritten below */
    for (uint32_t i = 0; i < RASTER_BUF_SIZE; i++) {
        r->color[i] = 0;
        r->depth[i] = border_depth;
        r->attr[i] = border_attr;
    }
    if (!bitmap) raster_clear_plain_pixel(regs, &c, &d, &a);
    for (int y = 0; y < DSGX_FRAME_H; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            uint32_t i = raster_addr(x, y);
            if (bitmap) raster_clear_bitmap_pixel(regs, in->tex_vram, x, y, &c, &d, &a);
            r->color[i] = c;
            r->depth[i] = d;
            r->attr[i] = a;
        }
    }
    memcpy(&r->color[RASTER_BUF_SIZE], r->color, RASTER_BUF_SIZE * sizeof r->color[0]);
    memcpy(&r->depth[RASTER_BUF_SIZE], r->depth, RASTER_BUF_SIZE * sizeof r->depth[0]);
    memcpy(&r->attr[RASTER_BUF_SIZE], r->attr, RASTER_BUF_SIZE * sizeof r->attr[0]);
}

/* Fill @p n words of each layer of the three buffers from @p a with one pixel. */
static void fill_both(raster_engine *r, uint32_t a, uint32_t n, uint32_t c, uint32_t d, uint32_t at)
{
    for (uint32_t k = 0; k < 2; k++, a += RASTER_BUF_SIZE) {
        for (uint32_t i = 0; i < n; i++) r->color[a + i] = c;
        for (uint32_t i = 0; i < n; i++) r->depth[a + i] = d;
        for (uint32_t i = 0; i < n; i++) r->attr[a + i] = at;
    }
}

/* The rear-plane bitmap's row of screen line y: 256 colour and depth halfwords, the row of
 * slots 2 and 3 at (CLEAR_IMAGE_OFFSET y + y) & 255 starting at column x offset (wrapping
 * at 256), as raster_clear_bitmap_pixel reads them one at a time. */
static void bitmap_row(const gx_render_regs *regs, const uint8_t *tex_vram, int y, uint16_t *img,
                       uint16_t *dep)
{
    uint32_t bx = clearoffset_x(regs->clear_offset) & 0xFFu;
    uint32_t by = (clearoffset_y(regs->clear_offset) + (uint32_t)y) & 0xFFu;
    const uint8_t *ri = tex_vram + CLEAR_IMAGE_SLOT + by * CLEAR_IMAGE_PITCH;
    const uint8_t *rd = tex_vram + CLEAR_DEPTH_SLOT + by * CLEAR_IMAGE_PITCH;
#if defined(__x86_64__) || defined(__i386__)
    /* (little-endian: the halfwords as they lie, the row's two runs either side of the wrap) */
    memcpy(img, ri + bx * 2u, (256u - bx) * 2u);
    memcpy(img + (256u - bx), ri, bx * 2u);
    memcpy(dep, rd + bx * 2u, (256u - bx) * 2u);
    memcpy(dep + (256u - bx), rd, bx * 2u);
#else
    for (uint32_t x = 0; x < 256; x++) {
        uint32_t o = ((bx + x) & 0xFFu) * 2u; /* (within the slots: GX_TEX_VRAM_SIZE) */
        img[x] = (uint16_t)(ri[o] | ri[o + 1] << 8);
        dep[x] = (uint16_t)(rd[o] | rd[o + 1] << 8);
    }
#endif
}
_Static_assert(CLEAR_DEPTH_SLOT + 256u * CLEAR_IMAGE_PITCH <= GX_TEX_VRAM_SIZE,
               "the bitmap rows lie in texture VRAM");

/* Screen pixels [x, x + 8) of a bitmap row, both layers: the same pixels as
 * raster_clear_bitmap_pixel, eight at a time in 16-bit lanes (SSE2): each 5-bit channel c
 * widens to 2c + 1, or 0 for 0 (raster_expand5), alpha 31 with bit 15; depth
 * (d & 0x7FFF) * 0x200 + 0x1FF, fog = bit 15, which is RASTER_ATTR_FOG's bit. */
#if defined(__SSE2__) && !defined(DSGX_NO_SIMD)
#include <emmintrin.h>
#define CLEAR_VEC 1
_Static_assert(RASTER_ATTR_FOG == 0x8000u, "the depth bitmap's fog bit is the attribute's");

static inline __m128i expand5x8(__m128i c)
{
    c = _mm_and_si128(c, _mm_set1_epi16(0x1F));
    __m128i e = _mm_add_epi16(_mm_slli_epi16(c, 1), _mm_set1_epi16(1));
    return _mm_andnot_si128(_mm_cmpeq_epi16(c, _mm_setzero_si128()), e);
}

static void bitmap_pixels8(raster_engine *r, uint32_t a, const uint16_t *img, const uint16_t *dep,
                           uint32_t id_attr)
{
    __m128i im = _mm_loadu_si128((const __m128i *)img);
    __m128i dp = _mm_loadu_si128((const __m128i *)dep);
    __m128i r6 = expand5x8(im), g6 = expand5x8(_mm_srli_epi16(im, 5));
    __m128i b6 = expand5x8(_mm_srli_epi16(im, 10));
    __m128i a5 = _mm_and_si128(_mm_srai_epi16(im, 15), _mm_set1_epi16(31));
    __m128i lo = _mm_or_si128(r6, _mm_slli_epi16(g6, 8)),
            hi = _mm_or_si128(b6, _mm_slli_epi16(a5, 8));
    __m128i c0 = _mm_unpacklo_epi16(lo, hi), c1 = _mm_unpackhi_epi16(lo, hi);
    __m128i zero = _mm_setzero_si128();
    __m128i d0 = _mm_unpacklo_epi16(dp, zero), d1 = _mm_unpackhi_epi16(dp, zero);
    const __m128i dmask = _mm_set1_epi32(0x7FFF), low = _mm_set1_epi32(0x1FF);
    __m128i z0 = _mm_or_si128(_mm_slli_epi32(_mm_and_si128(d0, dmask), 9), low);
    __m128i z1 = _mm_or_si128(_mm_slli_epi32(_mm_and_si128(d1, dmask), 9), low);
    const __m128i fog = _mm_set1_epi32((int32_t)RASTER_ATTR_FOG),
                  id = _mm_set1_epi32((int32_t)id_attr);
    __m128i a0 = _mm_or_si128(_mm_and_si128(d0, fog), id),
            a1 = _mm_or_si128(_mm_and_si128(d1, fog), id);
    for (uint32_t k = 0; k < 2; k++, a += RASTER_BUF_SIZE) {
        _mm_storeu_si128((__m128i *)&r->color[a], c0);
        _mm_storeu_si128((__m128i *)&r->color[a + 4], c1);
        _mm_storeu_si128((__m128i *)&r->depth[a], z0);
        _mm_storeu_si128((__m128i *)&r->depth[a + 4], z1);
        _mm_storeu_si128((__m128i *)&r->attr[a], a0);
        _mm_storeu_si128((__m128i *)&r->attr[a + 4], a1);
    }
}
#else
#define CLEAR_VEC 0
#endif

/*
 * The same buffers as raster_postpass_clear_ref (the reference, checked by
 * unit.test_raster_postpass), written once each: the border rows and columns, then each screen
 * line in both layers (the plain pixel, or the bitmap's row, read as one wrapped row and
 * converted eight pixels at a time with SSE2), instead of the whole layer with the border
 * pixel, the screen over it and a copy into the lower layer.
 */
void raster_postpass_clear(raster_engine *r, const gx_frame *in)
{
    const gx_render_regs *regs = &in->regs;
    uint32_t border_depth = raster_clear_depth(cleardepth_depth(regs->clear_depth));
    uint32_t border_attr = clearcolor_id(regs->clear_color) << RASTER_ATTR_OPAQUE_ID_SHIFT;
    bool bitmap = disp3dcnt_rear_bitmap(regs->disp3dcnt) != 0;

    fill_both(r, 0, RASTER_SCANLINE_W, 0, border_depth, border_attr);
    fill_both(r, (RASTER_NUM_LINES - 1) * RASTER_SCANLINE_W, RASTER_SCANLINE_W, 0, border_depth,
              border_attr);
    uint32_t c, d, a;
    raster_clear_plain_pixel(regs, &c, &d, &a);
    uint16_t img[256], dep[256];
    for (int y = 0; y < DSGX_FRAME_H; y++) {
        fill_both(r, raster_addr(-1, y), 1, 0, border_depth, border_attr);
        fill_both(r, raster_addr(DSGX_FRAME_W, y), 1, 0, border_depth, border_attr);
        uint32_t row = raster_addr(0, y);
        if (!bitmap || !in->tex_vram) {
            /* (without texture VRAM the bitmap reads 0: colour 0, depth 0x1FF, no fog) */
            if (bitmap) c = 0, d = raster_clear_depth(0), a = border_attr;
            fill_both(r, row, DSGX_FRAME_W, c, d, a);
            continue;
        }
        bitmap_row(regs, in->tex_vram, y, img, dep);
#if CLEAR_VEC
        for (uint32_t x = 0; x < DSGX_FRAME_W; x += 8)
            bitmap_pixels8(r, row + x, &img[x], &dep[x], border_attr);
#else
        for (uint32_t x = 0; x < DSGX_FRAME_W; x++) {
            uint32_t ci = img[x], di = dep[x];
            uint32_t pc = raster_color6_from_rgb15(clearimage_rgb(ci)) |
                          (clearimage_alpha(ci) ? 31u << 24 : 0u);
            uint32_t pd = raster_clear_depth(cleardepthimage_depth(di));
            uint32_t pa = border_attr | (cleardepthimage_fog(di) ? RASTER_ATTR_FOG : 0u);
            fill_both(r, row + x, 1, pc, pd, pa);
        }
#endif
    }
}
