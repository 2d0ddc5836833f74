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
    f->fog_rb = (f->color6 & 0x003F003Fu);
    f->fog_ga = ((f->color6 >> 8) & 0x3Fu) | (f->alpha << 16);
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

void raster_fog_pass(raster_engine *r, const raster_fog *f, int y0, int y1)
{
    fog_memo m = {0, 0, 0, 0, false, false};
    for (int y = y0; y < y1; y++) {
        for (int x = 0; x < DSGX_FRAME_W; x++) {
            uint32_t i = raster_addr(x, y);
            uint32_t attr = r->attr[i];
            if (attr & RASTER_ATTR_FOG) fog_pixel(r, f, i, &m);
            /* the pixel behind an edge pixel is fogged too, for anti-aliasing */
            if ((attr & RASTER_ATTR_EDGE_MASK) && (r->attr[i + RASTER_BUF_SIZE] & RASTER_ATTR_FOG))
                fog_pixel(r, f, i + RASTER_BUF_SIZE, &m);
        }
    }
}
