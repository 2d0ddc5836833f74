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
