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
 * drawn edge pixel has pushed this frame's pixel there). A frame clears the lower layer too when
 * anti-aliasing is on (raster_clear_plane's lower; the lazy clear of render.c does the same), so
 * that a frame never depends on the previous one; with it off, the lower layer's colour is never
 * output (fog may blend it, unread).
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

/* The border around the screen (colour 0, clear depth, clear polygon ID, no fog) in the top
 * layer: the lines above and below the screen and the column on each side. */
static void clear_border(raster_engine *r, uint32_t depth, uint32_t attr)
{
    for (uint32_t i = 0; i < RASTER_SCANLINE_W; i++) {
        uint32_t top = i, bottom = (RASTER_NUM_LINES - 1u) * RASTER_SCANLINE_W + i;
        r->color[top] = r->color[bottom] = 0;
        r->depth[top] = r->depth[bottom] = depth;
        r->attr[top] = r->attr[bottom] = attr;
    }
    for (int y = 0; y < DSGX_FRAME_H; y++) {
        uint32_t left = raster_addr(-1, y), right = raster_addr(DSGX_FRAME_W, y);
        r->color[left] = r->color[right] = 0;
        r->depth[left] = r->depth[right] = depth;
        r->attr[left] = r->attr[right] = attr;
    }
}

/* One screen line of the bitmap: screen pixels [x0, x1) from bitmap columns bx0 + (0 ..
 * x1 - x0), which do not wrap (the caller splits the line where they would); img / dep are the
 * bitmap row's colour and depth halfwords (little-endian bytes). Same values as
 * raster_clear_bitmap_pixel, which stays the reference (unit.test_raster_postpass). */
static void bitmap_run(uint32_t *color, uint32_t *depth, uint32_t *attr, const uint8_t *img,
                       const uint8_t *dep, uint32_t bx0, int x0, int x1, uint32_t id_attr)
{
    for (int x = x0; x < x1; x++) {
        uint32_t b = (bx0 + (uint32_t)(x - x0)) * 2u;
        uint32_t c = (uint32_t)img[b] | ((uint32_t)img[b + 1u] << 8);
        uint32_t d = (uint32_t)dep[b] | ((uint32_t)dep[b + 1u] << 8);
        color[x] =
            raster_color6_from_rgb15(clearimage_rgb(c)) | (clearimage_alpha(c) ? 31u << 24 : 0u);
        depth[x] = raster_clear_depth(cleardepthimage_depth(d));
        attr[x] = id_attr | (cleardepthimage_fog(d) ? RASTER_ATTR_FOG : 0u);
    }
}

/* Words [i, i + n) of the top layer copied into the lower layer. */
static void copy_lower(raster_engine *r, uint32_t i, uint32_t n)
{
    memcpy(&r->color[i + RASTER_BUF_SIZE], &r->color[i], n * sizeof r->color[0]);
    memcpy(&r->depth[i + RASTER_BUF_SIZE], &r->depth[i], n * sizeof r->depth[0]);
    memcpy(&r->attr[i + RASTER_BUF_SIZE], &r->attr[i], n * sizeof r->attr[0]);
}

void raster_clear_plane(raster_engine *r, const gx_frame *in, bool lower)
{
    const gx_render_regs *regs = &in->regs;
    uint32_t id_attr = clearcolor_id(regs->clear_color) << RASTER_ATTR_OPAQUE_ID_SHIFT;
    bool bitmap = disp3dcnt_rear_bitmap(regs->disp3dcnt) != 0;
    uint32_t c, d, a;

    clear_border(r, raster_clear_depth(cleardepth_depth(regs->clear_depth)), id_attr);
    /* without VRAM the bitmap reads 0 (raster_clear_bitmap_pixel): colour 0, alpha 0, depth 0,
     * no fog, which is the plain fill of those values */
    if (bitmap && !in->tex_vram)
        bitmap = false, c = 0, d = raster_clear_depth(0), a = id_attr;
    else if (!bitmap)
        raster_clear_plain_pixel(regs, &c, &d, &a);
    uint32_t ox = clearoffset_x(regs->clear_offset), oy = clearoffset_y(regs->clear_offset);
    for (int y = 0; y < DSGX_FRAME_H; y++) {
        uint32_t i = raster_addr(0, y);
        uint32_t *cl = &r->color[i], *dl = &r->depth[i], *al = &r->attr[i];
        if (bitmap) {
            /* the bitmap's columns wrap at 256 (raster_clear_bitmap_pixel): the line is the
             * run from column ox to 255, then the run from column 0 */
            uint32_t row = ((oy + (uint32_t)y) & 0xFFu) * CLEAR_IMAGE_PITCH;
            const uint8_t *img = in->tex_vram + CLEAR_IMAGE_SLOT + row;
            const uint8_t *dep = in->tex_vram + CLEAR_DEPTH_SLOT + row;
            int split = (int)(256u - ox);
            bitmap_run(cl, dl, al, img, dep, ox, 0, split, id_attr);
            bitmap_run(cl, dl, al, img, dep, 0, split, DSGX_FRAME_W, id_attr);
        } else {
            for (int x = 0; x < DSGX_FRAME_W; x++) cl[x] = c, dl[x] = d, al[x] = a;
        }
        if (lower) copy_lower(r, i - 1u, RASTER_SCANLINE_W); /* with its border columns */
    }
    if (lower) {
        copy_lower(r, 0, RASTER_SCANLINE_W);
        copy_lower(r, (RASTER_NUM_LINES - 1u) * RASTER_SCANLINE_W, RASTER_SCANLINE_W);
    }
}

void raster_postpass_clear(raster_engine *r, const gx_frame *in)
{
    raster_clear_plane(r, in, true);
}
