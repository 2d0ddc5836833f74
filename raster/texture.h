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

#endif
