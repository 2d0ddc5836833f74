/*
 * texture.h - texel lookup of the rendering engine (TEXIMAGE_PARAM / PLTT_BASE decoding).
 *
 * Usage: once per polygon call raster_tex_setup(); it decodes the polygon's TEXIMAGE_PARAM and
 * PLTT_BASE and picks a sampler for the texture format, so the per-pixel call
 * raster_tex_sample() does not branch on polygon-constant state (format, size, repeat/flip/
 * clamp, colour-0 transparency).
 *
 * Input units of the sampler: s, t are the texture coordinates interpolated across the
 * polygon, in 1.11.4 texels (the units of gx_vertex.texcoord). Only the low 16 bits are used:
 * melonDS (GPU3D_Soft.cpp RenderPolygonScanline) truncates the interpolated value to s16
 * before TextureLookup, which then takes texel = coordinate >> 4 (arithmetic).
 *
 * Output: the texel colour as BGR555 (bit 15 clear) and its alpha 0..31:
 *   A3I5: a3 * 4 + a3 / 2;  A5I3: a5;  direct colour: bit 15 ? 31 : 0;
 *   4/16/256-colour: index 0 gives 0 when TEXIMAGE_PARAM bit 29 is set, else 31;
 *   4x4-compressed: 31, except index 3 in palette modes 0 and 1 (colour 0, alpha 0).
 */
#ifndef DSGX_RASTER_TEXTURE_H
#define DSGX_RASTER_TEXTURE_H

#include <stdint.h>

#include "gx/fixed.h"
#include "gx/gx_frame.h"

typedef struct raster_tex raster_tex;

/** Per-pixel texel lookup. @p s, @p t: 1.11.4 texture coordinates (low 16 bits used).
 *  @p color receives the BGR555 colour (bit 15 clear), @p alpha5 the alpha 0..31. */
typedef void (*raster_tex_sample_fn)(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                     uint8_t *alpha5);

/** Wrap state for one axis: the texel coordinate is clamped to [lo, hi], masked with mask,
 *  and mirrored (XOR mask) when the clamped value has the bit flip set. Repeat mode: lo/hi
 *  do not limit, flip = size when flipping is on, else 0. Clamp mode: lo 0, hi size-1,
 *  flip 0. */
typedef struct raster_tex_axis {
    int32_t lo, hi;
    uint32_t mask;
    uint32_t flip;
} raster_tex_axis;

struct raster_tex {
    raster_tex_sample_fn sample; /**< sampler for this polygon's format (never NULL) */
    const uint8_t *tex_vram;     /**< GX_TEX_VRAM_SIZE bytes (texture slots 0-3) */
    const uint8_t *pal_vram;     /**< GX_PAL_VRAM_SIZE bytes (palette slots 0-5) */
    uint32_t base;               /**< texture image address in bytes (VRAM offset * 8) */
    uint32_t pal_base;           /**< palette address in bytes (* 8 for 4-colour, else * 16) */
    uint32_t width_log2;         /**< log2 of the width in texels (3..10) */
    raster_tex_axis ax_s, ax_t;
    uint8_t format; /**< TEXFMT_* (0: no texture) */
    uint8_t alpha0; /**< alpha of palette index 0 (0 if colour 0 transparent) */
};

/**
 * Decode one polygon's texture parameters.
 * @param teximage  TEXIMAGE_PARAM latched with the polygon
 * @param pltt_base PLTT_BASE latched with the polygon (13 bits used)
 * @param tex_vram  texture VRAM as the rendering engine sees it (gx_frame.tex_vram)
 * @param pal_vram  palette VRAM (gx_frame.pal_vram)
 */
void raster_tex_setup(raster_tex *tx, uint32_t teximage, uint32_t pltt_base,
                      const uint8_t *tex_vram, const uint8_t *pal_vram);

/** Look up the texel at (s, t), 1.11.4 coordinates. See raster_tex_sample_fn. */
static inline void raster_tex_sample(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                     uint8_t *alpha5)
{
    tx->sample(tx, s, t, color, alpha5);
}

/** Texel coordinate (0..size-1) of a 1.11.4 coordinate on one axis after repeat/flip/clamp
 *  (melonDS GPU3D_Soft.cpp TextureLookup; GBATEK "DS 3D Texture Attributes"). */
static inline uint32_t raster_tex_wrap(const raster_tex_axis *ax, int32_t coord)
{
    int32_t c = dsgx_asr32(dsgx_sext((uint32_t)coord, 16), 4);
    c = c < ax->lo ? ax->lo : (c > ax->hi ? ax->hi : c);
    uint32_t u = (uint32_t)c;
    uint32_t mirror = 0u - (uint32_t)((u & ax->flip) != 0);
    return (u & ax->mask) ^ (ax->mask & mirror);
}

/* ---- texel lookup per format (melonDS TextureLookup; see texture.c for the notes) ---- */

#define RASTER_TEX_ADDR_MASK 0x7FFFFu /* melonDS ReadVRAM_Texture: flat 512 KiB */
#define RASTER_PAL_ADDR_MASK 0x1FFFFu /* melonDS ReadVRAM_TexPal: flat 128 KiB */

static inline uint32_t raster_tex_read8(const raster_tex *tx, uint32_t addr)
{
    return tx->tex_vram[addr & RASTER_TEX_ADDR_MASK];
}

static inline uint32_t raster_tex_read16(const raster_tex *tx, uint32_t addr)
{
    return tx->tex_vram[addr & RASTER_TEX_ADDR_MASK] |
           ((uint32_t)tx->tex_vram[(addr + 1) & RASTER_TEX_ADDR_MASK] << 8);
}

/* Palette entries are halfword aligned (every caller adds even offsets to an even base). */
static inline uint32_t raster_pal_read16(const raster_tex *tx, uint32_t addr)
{
    addr &= RASTER_PAL_ADDR_MASK;
    if (addr >= GX_PAL_VRAM_SIZE) return 0; /* slots 6-7 do not exist */
    return tx->pal_vram[addr] | ((uint32_t)tx->pal_vram[addr + 1] << 8);
}

/* Index of texel (s, t) in a linear texture, after wrapping. */
static inline uint32_t raster_texel_index(const raster_tex *tx, int32_t s, int32_t t, uint32_t *su)
{
    uint32_t ws = raster_tex_wrap(&tx->ax_s, s);
    uint32_t wt = raster_tex_wrap(&tx->ax_t, t);
    *su = ws;
    return (wt << tx->width_log2) + ws;
}

static inline void raster_texel_none(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                     uint8_t *alpha5)
{
    (void)tx, (void)s, (void)t;
    *color = 0;
    *alpha5 = 31;
}

/* A3I5: byte = index (bits 0-4) | alpha (bits 5-7); alpha expanded a*4 + a/2 (GBATEK). */
static inline void raster_texel_a3i5(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                     uint8_t *alpha5)
{
    uint32_t su;
    uint32_t px = raster_tex_read8(tx, tx->base + raster_texel_index(tx, s, t, &su));
    uint32_t a3 = px >> 5;
    *color = (uint16_t)(raster_pal_read16(tx, tx->pal_base + (px & 0x1Fu) * 2) & 0x7FFFu);
    *alpha5 = (uint8_t)(a3 * 4 + a3 / 2);
}

/* 4-colour: 2 bits per texel, leftmost texel in the low bits. */
static inline void raster_texel_pal4(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                     uint8_t *alpha5)
{
    uint32_t su;
    uint32_t i = raster_texel_index(tx, s, t, &su);
    uint32_t px = (raster_tex_read8(tx, tx->base + (i >> 2)) >> ((su & 3u) * 2)) & 3u;
    *color = (uint16_t)(raster_pal_read16(tx, tx->pal_base + px * 2) & 0x7FFFu);
    *alpha5 = px ? 31 : tx->alpha0;
}

/* 16-colour: 4 bits per texel, leftmost texel in the low nibble. */
static inline void raster_texel_pal16(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                      uint8_t *alpha5)
{
    uint32_t su;
    uint32_t i = raster_texel_index(tx, s, t, &su);
    uint32_t px = (raster_tex_read8(tx, tx->base + (i >> 1)) >> ((su & 1u) * 4)) & 0xFu;
    *color = (uint16_t)(raster_pal_read16(tx, tx->pal_base + px * 2) & 0x7FFFu);
    *alpha5 = px ? 31 : tx->alpha0;
}

static inline void raster_texel_pal256(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                       uint8_t *alpha5)
{
    uint32_t su;
    uint32_t px = raster_tex_read8(tx, tx->base + raster_texel_index(tx, s, t, &su));
    *color = (uint16_t)(raster_pal_read16(tx, tx->pal_base + px * 2) & 0x7FFFu);
    *alpha5 = px ? 31 : tx->alpha0;
}

/* A5I3: byte = index (bits 0-2) | alpha (bits 3-7). */
static inline void raster_texel_a5i3(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                     uint8_t *alpha5)
{
    uint32_t su;
    uint32_t px = raster_tex_read8(tx, tx->base + raster_texel_index(tx, s, t, &su));
    *color = (uint16_t)(raster_pal_read16(tx, tx->pal_base + (px & 7u) * 2) & 0x7FFFu);
    *alpha5 = (uint8_t)(px >> 3);
}

/* Direct colour: BGR555 halfword, bit 15 = opaque. */
static inline void raster_texel_direct(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                       uint8_t *alpha5)
{
    uint32_t su;
    uint32_t c = raster_tex_read16(tx, tx->base + raster_texel_index(tx, s, t, &su) * 2);
    *color = (uint16_t)(c & 0x7FFFu);
    *alpha5 = (c & 0x8000u) ? 31 : 0;
}

/* Per-channel mix (c0 * w0 + c1 * w1) >> sh of two BGR555 colours, each channel floored as
 * melonDS does it on the masked, unshifted fields (equivalent to flooring per 5-bit field). */
static inline uint32_t raster_mix555(uint32_t c0, uint32_t c1, uint32_t w0, uint32_t w1,
                                     unsigned sh)
{
    uint32_t r = ((c0 & 0x001Fu) * w0 + (c1 & 0x001Fu) * w1) >> sh;
    uint32_t g = (((c0 & 0x03E0u) * w0 + (c1 & 0x03E0u) * w1) >> sh) & 0x03E0u;
    uint32_t b = (((c0 & 0x7C00u) * w0 + (c1 & 0x7C00u) * w1) >> sh) & 0x7C00u;
    return r | g | b;
}

/* 4x4-compressed (GBATEK "Texture Compression"): per 4x4 block a 32-bit word of 2-bit indices
 * (one byte per row, leftmost texel in the low bits) and a palette-info halfword in slot 1:
 * bits 0-13 palette offset in 4-byte units, bits 14-15 mode.
 *   index: 0      1      2                  3
 *   mode 0 col0   col1   col2               transparent
 *   mode 1 col0   col1   (col0+col1)/2      transparent
 *   mode 2 col0   col1   col2               col3
 *   mode 3 col0   col1   (col0*5+col1*3)/8  (col0*3+col1*5)/8
 * Transparent (alpha 0) texels ignore TEXIMAGE_PARAM bit 29. */
static inline void raster_texel_4x4(const raster_tex *tx, int32_t s, int32_t t, uint16_t *color,
                                    uint8_t *alpha5)
{
    uint32_t ws = raster_tex_wrap(&tx->ax_s, s);
    uint32_t wt = raster_tex_wrap(&tx->ax_t, t);
    uint32_t addr = tx->base + (wt & ~3u) * ((1u << tx->width_log2) >> 2) + (ws & ~3u) + (wt & 3u);
    uint32_t slot1 = 0x20000u + ((addr & 0x1FFFCu) >> 1) + (addr >= 0x40000u ? 0x10000u : 0u);

    uint32_t idx = (raster_tex_read8(tx, addr) >> ((ws & 3u) * 2)) & 3u;
    uint32_t info = raster_tex_read16(tx, slot1);
    uint32_t pal = tx->pal_base + (info & 0x3FFFu) * 4;
    uint32_t mode = info >> 14;

    uint32_t c;
    uint8_t a = 31;
    switch ((mode << 2) | idx) {
    case 0x0:
    case 0x4:
    case 0x8:
    case 0xC: c = raster_pal_read16(tx, pal); break;
    case 0x1:
    case 0x5:
    case 0x9:
    case 0xD: c = raster_pal_read16(tx, pal + 2); break;
    case 0x2:
    case 0xA: c = raster_pal_read16(tx, pal + 4); break;
    case 0x6:
        c = raster_mix555(raster_pal_read16(tx, pal), raster_pal_read16(tx, pal + 2), 1, 1, 1);
        break;
    case 0xE:
        c = raster_mix555(raster_pal_read16(tx, pal), raster_pal_read16(tx, pal + 2), 5, 3, 3);
        break;
    case 0xB: c = raster_pal_read16(tx, pal + 6); break;
    case 0xF:
        c = raster_mix555(raster_pal_read16(tx, pal), raster_pal_read16(tx, pal + 2), 3, 5, 3);
        break;
    default: /* index 3 in modes 0 and 1 */
        c = 0;
        a = 0;
        break;
    }
    *color = (uint16_t)(c & 0x7FFFu);
    *alpha5 = a;
}

#endif
