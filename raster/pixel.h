/*
 * pixel.h - per-pixel colour combination (vertex colour x texel, polygon modes) and the
 * translucent blend of the rendering engine.
 *
 * Usage:
 *   once per frame:    raster_pixel_frame_setup(&pf, &frame->regs);
 *   once per polygon:  raster_shader_setup(&sh, &pf, poly->attr, poly->teximage,
 *                                          poly->pltt_base, frame->tex_vram, frame->pal_vram);
 *   per pixel:         px = raster_shade(&sh, r9, g9, b9, s, t);
 *                      alpha test on dsgx_pixel_a(px); opaque (a == 31) pixels are written as
 *                      is, translucent ones through raster_pixel_blend(px, dst, pf.blending).
 *
 * Input units of raster_shade: r9, g9, b9 are the vertex colour channels as the span
 * interpolator yields them (9 bits, 0..511; gx_vertex.color interpolated); the shader takes
 * them >> 3 to 6 bits as melonDS does before RenderPixel. s, t are the 1.11.4 texture
 * coordinates (low 16 bits used, see texture.h).
 *
 * Output format (the colour-buffer format, = dsgx_frame pixel): r6 | g6 << 8 | b6 << 16 |
 * a5 << 24. Alpha is the polygon alpha (decal, untextured), texel alpha x polygon alpha
 * (modulate), or 31 for wireframe polygons (polygon alpha 0).
 *
 * Shadow polygons (mode 3) are shaded like decal polygons (melonDS RenderPixel tests only
 * bit 0 of the mode); the stencil logic belongs to the span loop.
 */
#ifndef DSGX_RASTER_PIXEL_H
#define DSGX_RASTER_PIXEL_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx_frame.h"
#include "raster/texture.h"

/** Frame-constant state of the pixel stage, derived from the latched registers. */
typedef struct raster_pixel_frame {
    uint32_t toon6[32]; /**< TOON_TABLE expanded to r6 | g6 << 8 | b6 << 16 */
    bool texturing;     /**< DISP3DCNT bit 0 */
    bool highlight;     /**< DISP3DCNT bit 1: mode 2 is highlight (else toon) */
    bool blending;      /**< DISP3DCNT bit 3: alpha blending */
} raster_pixel_frame;

void raster_pixel_frame_setup(raster_pixel_frame *pf, const gx_render_regs *regs);

/** How a polygon's pixels are shaded (chosen once per polygon). */
typedef enum raster_shade_kind {
    RASTER_SHADE_VERTEX = 0,    /**< untextured modulate/decal/shadow: vertex colour */
    RASTER_SHADE_TOON,          /**< untextured toon: toon colour */
    RASTER_SHADE_HIGHLIGHT,     /**< untextured highlight: (r,r,r) + toon colour */
    RASTER_SHADE_MODULATE,      /**< textured modulate */
    RASTER_SHADE_DECAL,         /**< textured decal and textured shadow */
    RASTER_SHADE_TOON_TEX,      /**< textured toon: toon colour modulated by the texel */
    RASTER_SHADE_HIGHLIGHT_TEX, /**< textured highlight */
    RASTER_SHADE_KINDS
} raster_shade_kind;

typedef struct raster_shader raster_shader;

/** Per-pixel shading function; arguments as raster_shade(). */
typedef uint32_t (*raster_shade_fn)(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                                    int32_t s, int32_t t);

struct raster_shader {
    raster_shade_fn shade;   /**< chosen for kind */
    raster_tex tex;          /**< texture state (used by the textured kinds) */
    const uint32_t *decoded; /**< the texture decoded by raster_tex_cache (or NULL) */
    /** its compact form (raster_tex_ctab), when it has one (or NULL) */
    const struct raster_tex_ctab *ctab;
    const uint32_t *toon6; /**< raster_pixel_frame.toon6 (must outlive the shader) */
    uint32_t poly_alpha;   /**< POLYGON_ATTR alpha 0..31 */
    uint32_t alpha_or;     /**< 31 for wireframe polygons (alpha 0), else 0: ORed into a5 */
    raster_shade_kind kind;
};

/**
 * Choose the shading for one polygon.
 * @param attr       POLYGON_ATTR of the polygon
 * @param teximage   TEXIMAGE_PARAM of the polygon (format 0: untextured)
 * @param pltt_base  PLTT_BASE of the polygon
 */
void raster_shader_setup(raster_shader *sh, const raster_pixel_frame *pf, uint32_t attr,
                         uint32_t teximage, uint32_t pltt_base, const uint8_t *tex_vram,
                         const uint8_t *pal_vram);

/**
 * Decoded textures of one frame (the per-frame texel cache). A texture used by many pixels is
 * decoded once per frame into packed texels r6 | g6 << 8 | b6 << 16 | a5 << 24 (the values
 * the per-format lookup and the 5-to-6-bit widening give), so the per-pixel lookup is one load
 * after the wrap. Keyed by everything the texel values depend on: format, size, VRAM offset,
 * colour-0 transparency (TEXIMAGE_PARAM bits 0-15, 20-29) and the palette base; repeat and
 * flip only change the wrap, which stays per pixel. Texture VRAM does not change during a
 * frame's render, and the cache is emptied at every frame.
 */
#define RASTER_TEX_CACHE_TEXELS  (256u * 1024u) /**< texel budget per frame (1 MiB) */
#define RASTER_TEX_CACHE_MAX     (128u * 128u)  /**< largest texture cached */
#define RASTER_TEX_CACHE_ENTRIES 64u

/**
 * The compact form of a decoded texture of at most RASTER_TEX_CTAB_TEXELS texels holding at most
 * 16 distinct decoded values (a 16-colour texture of up to 16x16, a 4-colour one of up to 16x16,
 * ...): for texel i, nib[i >> 1] >> 4 * (i & 1) & 15 is the index of its decoded value in val.
 * Where the machine has AVX-512 VBMI the eight-pixel spans look a texel up in registers from it
 * (two byte permutes over the 128 bytes of nib, a dword permute over val: span_vec8.h
 * vec8_ctab) instead of gathering it from the decoded texels, the same words; on Zen 4 the
 * gather is the costly step of a short span (bench/README.md, "Lead, 2026-11-28 (fourteenth
 * session)").
 */
#define RASTER_TEX_CTAB_TEXELS 256u
typedef struct raster_tex_ctab {
    uint8_t nib[RASTER_TEX_CTAB_TEXELS / 2];
    uint32_t val[16];
} raster_tex_ctab;

typedef struct raster_tex_cache {
    uint32_t *texels; /**< RASTER_TEX_CACHE_TEXELS words, or NULL (no caching) */
    uint32_t used, n;
    struct {
        uint32_t key, pal;
        uint32_t offset; /**< decoded texels at texels[offset], UINT32_MAX: not decoded yet */
        uint32_t area;   /**< screen area (bounding boxes) of the polygons using it so far */
        bool has_ctab;   /**< ctab[i] holds its compact form */
    } entry[RASTER_TEX_CACHE_ENTRIES];
    raster_tex_ctab ctab[RASTER_TEX_CACHE_ENTRIES];
} raster_tex_cache;

/** Start a frame: forget every decoded texture. */
void raster_tex_cache_reset(raster_tex_cache *c);

/** Plan the cache for one polygon of the frame (every polygon, before any is drawn): a
 *  textured polygon's texture is decoded once the polygons using it this frame cover (by
 *  bounding box, @p area pixels for this one) at least as many pixels as the texture has
 *  texels: decoding costs about as much per texel as a lookup per pixel. Nothing happens when
 *  the texture is too big, the budget is spent, or the polygon is untextured. */
void raster_tex_cache_plan(raster_tex_cache *c, const raster_pixel_frame *pf, uint32_t attr,
                           uint32_t teximage, uint32_t pltt_base, const uint8_t *tex_vram,
                           const uint8_t *pal_vram, uint32_t area);

/** Let a textured shader (after raster_shader_setup) read its texture from the cache when the
 *  plan decoded it (same pixels either way). Only reads the cache: polygons of different
 *  bands of lines are set up at once (raster/README.md "Threads"). */
void raster_shader_use_cache(raster_shader *sh, const raster_tex_cache *c, uint32_t teximage,
                             uint32_t pltt_base);

/** Shade one pixel. @p r9, @p g9, @p b9: interpolated 9-bit vertex colour; @p s, @p t: 1.11.4
 *  texture coordinates. @return r6 | g6 << 8 | b6 << 16 | a5 << 24. */
static inline uint32_t raster_shade(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                                    int32_t s, int32_t t)
{
    return sh->shade(sh, r9, g9, b9, s, t);
}

/** Modulate (melonDS RenderPixel): the 6-bit vertex colour @p v6 (r | g << 8 | b << 16) by
 *  the 6-bit texel @p tc6 with alpha @p ta; per channel ((t + 1) * (v + 1) - 1) >> 6, alpha
 *  ((ta + 1) * (pa + 1) - 1) >> 5 (ORed with the shader's wireframe alpha). Inline for the span
 *  loop's fused modulate path (span.c). */
static inline uint32_t raster_modulate6(const raster_shader *sh, uint32_t v6, uint32_t tc6,
                                        uint32_t ta)
{
    uint32_t r = (((tc6 & 0x3Fu) + 1) * ((v6 & 0x3Fu) + 1) - 1) >> 6;
    uint32_t g = ((((tc6 >> 8) & 0x3Fu) + 1) * (((v6 >> 8) & 0x3Fu) + 1) - 1) >> 6;
    uint32_t b = ((((tc6 >> 16) & 0x3Fu) + 1) * (((v6 >> 16) & 0x3Fu) + 1) - 1) >> 6;
    uint32_t a = ((ta + 1) * (sh->poly_alpha + 1) - 1) >> 5;
    return r | (g << 8) | (b << 16) | ((a | sh->alpha_or) << 24);
}

/** Textured modulate from the decoded texture (sh->decoded != NULL): = raster_shade(). */
static inline uint32_t raster_shade_modulate_decoded(const raster_shader *sh, uint32_t r9,
                                                     uint32_t g9, uint32_t b9, int32_t s, int32_t t)
{
    uint32_t ws = raster_tex_wrap(&sh->tex.ax_s, s), wt = raster_tex_wrap(&sh->tex.ax_t, t);
    uint32_t px = sh->decoded[(wt << sh->tex.width_log2) + ws];
    return raster_modulate6(sh, (r9 >> 3) | ((g9 >> 3) << 8) | ((b9 >> 3) << 16), px & 0x003F3F3Fu,
                            px >> 24);
}

/** Untextured vertex colour (RASTER_SHADE_VERTEX): = raster_shade(). */
static inline uint32_t raster_shade_vertex(const raster_shader *sh, uint32_t r9, uint32_t g9,
                                           uint32_t b9)
{
    return (r9 >> 3) | ((g9 >> 3) << 8) | ((b9 >> 3) << 16) |
           ((sh->poly_alpha | sh->alpha_or) << 24);
}

/**
 * Blend a translucent pixel @p src (alpha = its a5) over @p dst, both in colour-buffer format
 * (melonDS GPU3D_Soft.cpp AlphaBlend). A destination with alpha 0 is replaced by src as is.
 * Otherwise, with blending on, each channel is (src * (a+1) + dst * (31-a)) >> 5; the result's
 * alpha is max(src alpha, dst alpha) whether blending is on or off.
 */
static inline uint32_t raster_pixel_blend(uint32_t src, uint32_t dst, bool blending)
{
    uint32_t dsta = dst >> 24;
    if (dsta == 0) return src;
    uint32_t a = src >> 24;
    uint32_t rgb = src & 0x003F3F3Fu;
    if (blending) {
        uint32_t f = a + 1, g = 32 - f;
        uint32_t r = ((src & 0x3Fu) * f + (dst & 0x3Fu) * g) >> 5;
        uint32_t gg = (((src >> 8) & 0x3Fu) * f + ((dst >> 8) & 0x3Fu) * g) >> 5;
        uint32_t b = (((src >> 16) & 0x3Fu) * f + ((dst >> 16) & 0x3Fu) * g) >> 5;
        rgb = r | (gg << 8) | (b << 16);
    }
    return rgb | ((a > dsta ? a : dsta) << 24);
}

#endif
