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

void raster_postpass_clear(raster_engine *r, const gx_frame *in)
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
