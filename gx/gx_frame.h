/*
 * gx_frame.h - what the geometry engine hands the rendering engine at VBlank.
 *
 * This is the hardware boundary (STYLE.md 2): polygon RAM, vertex RAM, the rendering registers
 * latched at the swap, and a view of texture/palette VRAM as the rendering engine sees it.
 * Nothing in here points back into the geometry engine. An emulator can fill one of these
 * itself and hand it to raster_render().
 *
 * Field semantics follow the DS hardware as modelled by melonDS's software renderer (the
 * reference our frames are checked against): vertex colours are kept as 5-bit values while
 * clipping and expanded to 9 bits for the rasterizer ("(c << 4) | 0xF" for c > 0); W is
 * normalized per polygon to 16 bits; the depth value per vertex is either the Z-buffer value
 * (24 bits) or the W value, chosen per polygon by the W-buffer bit of the SWAP_BUFFERS that
 * preceded its submission.
 */
#ifndef DSGX_GX_FRAME_H
#define DSGX_GX_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#define GX_MAX_POLYGONS   2048
#define GX_MAX_VERTICES   6144
#define GX_MAX_POLY_VERTS 10 /* a quad clipped against six planes has at most 10 vertices */

#define GX_TEX_VRAM_SIZE 0x80000u /* texture image slots 0-3, 128 KiB each */
#define GX_PAL_VRAM_SIZE 0x18000u /* texture palette slots 0-5, 16 KiB each */

/** One vertex RAM entry. */
typedef struct gx_vertex {
    int32_t clip[4];     /**< clip-space x, y, z, w (1.19.12 units), after clipping */
    int32_t color5[3];   /**< r, g, b as the clipper keeps them: (c5 << 12) | 0xFFF */
    int16_t texcoord[2]; /**< s, t in 1.11.4 texels, after texture-coordinate generation */
    bool clipped;        /**< made by the clipper (not a submitted vertex) */
    int32_t sx, sy;      /**< screen position after the viewport transform: x 0..511, y 0..255 */
    uint16_t color[3];   /**< rasterizer colour, 9 bits: 0, or (c5 << 4) | 0xF */
} gx_vertex;

/** One polygon RAM entry. */
typedef struct gx_polygon {
    uint16_t vtx[GX_MAX_POLY_VERTS]; /**< indices into gx_frame.verts, in winding order */
    uint8_t nverts;                  /**< 3..10 */
    uint8_t prim;                    /**< BEGIN_VTXS primitive type 0..3 it came from */
    uint32_t attr;                   /**< POLYGON_ATTR latched at BEGIN_VTXS */
    uint32_t teximage;               /**< TEXIMAGE_PARAM at polygon submission */
    uint32_t pltt_base;              /**< PLTT_BASE at polygon submission */
    int32_t z[GX_MAX_POLY_VERTS];    /**< per-vertex depth value (Z-buffer value, or W) */
    int32_t w[GX_MAX_POLY_VERTS];    /**< per-vertex W normalized to 16 bits */
    uint8_t wshift;                  /**< shift applied to normalize W (for explain/debug) */
    bool wbuffer;                    /**< W-buffering for this polygon */
    bool facing_front;               /**< front-facing (the winding test) */
    bool translucent;                /**< drawn in the translucent pass */
    bool shadow_mask;                /**< shadow polygon (mode 3) with polygon ID 0 */
    bool shadow;                     /**< shadow polygon (mode 3) with polygon ID != 0 */
    bool degenerate;                 /**< not drawable: a vertex with W = 0 or bottom Y > 192 (the
                                          rasterizer skips it; line polygons are drawn) */
    uint8_t vtop, vbottom;           /**< index (0..nverts-1) of the top and bottom vertex */
    int32_t ytop, ybottom;           /**< screen Y of the top and bottom vertex */
    int32_t xtop, xbottom;           /**< screen X of those vertices */
    uint32_t sort_key;               /**< Y-sort key (bottom Y, then top Y) */
} gx_polygon;

/** Rendering registers, latched at VBlank after SWAP_BUFFERS (raw register values). */
typedef struct gx_render_regs {
    uint16_t disp3dcnt;      /**< DISP3DCNT 04000060 */
    uint32_t clear_color;    /**< CLEAR_COLOR 04000350: rgb15, bit 15 fog, alpha 16-20, ID 24-29 */
    uint16_t clear_depth;    /**< CLEAR_DEPTH 04000354 (15 bits) */
    uint16_t clear_offset;   /**< CLEAR_IMAGE_OFFSET 04000356 */
    uint16_t edge_color[8];  /**< EDGE_COLOR 04000330..0400033F */
    uint8_t alpha_ref;       /**< ALPHA_TEST_REF 04000340 (5 bits) */
    uint32_t fog_color;      /**< FOG_COLOR 04000358 */
    uint16_t fog_offset;     /**< FOG_OFFSET 0400035C (15 bits) */
    uint8_t fog_table[32];   /**< FOG_TABLE 04000360..0400037F (7 bits each) */
    uint16_t toon_table[32]; /**< TOON_TABLE 04000380..040003BF */
    uint32_t swap_param;     /**< this frame's SWAP_BUFFERS parameter (bit 0: manual sort) */
} gx_render_regs;

/** Everything the rendering engine consumes for one frame. */
typedef struct gx_frame {
    gx_render_regs regs;
    uint32_t npolys; /**< polygons in polygon RAM (what RAM_COUNT reports) */
    uint32_t nverts; /**< vertices in vertex RAM */
    /* Entries at and beyond the counts are not part of the frame: they hold whatever an
     * earlier frame, a reset or a restore left there (gx_reset does not clear them). */
    gx_polygon polys[GX_MAX_POLYGONS];
    gx_vertex verts[GX_MAX_VERTICES];
    /** Texture image VRAM as seen by the rendering engine: 4 slots of 128 KiB, reads of an
     *  unmapped slot give 0, several banks in one slot are ORed. GX_TEX_VRAM_SIZE bytes. */
    const uint8_t *tex_vram;
    /** Texture palette VRAM, 6 slots of 16 KiB. GX_PAL_VRAM_SIZE bytes. */
    const uint8_t *pal_vram;
} gx_frame;

#endif
