/*
 * pixel.c - colour combination of one pixel: vertex colour, texel, polygon mode.
 *
 * Hardware notes
 * - Follows melonDS's software renderer (GPU3D_Soft.cpp SoftRenderer::RenderPixel), the
 *   reference our frames are checked against; the formulas agree with GBATEK "DS 3D Polygon
 *   Attributes" / "DS 3D Texture Blending":
 *   - colours are combined at 6 bits per channel; a 5-bit colour c (texel, toon table) is
 *     widened to c ? c * 2 + 1 : 0; the interpolated 9-bit vertex colour is taken >> 3;
 *   - modulate: ((t + 1) * (v + 1) - 1) >> 6 per channel, alpha ((ta + 1) * (pa + 1) - 1) >> 5;
 *   - decal: texel alpha 0 -> vertex colour, 31 -> texel colour, else
 *     (t * ta + v * (31 - ta)) >> 5; alpha = polygon alpha;
 *   - toon (mode 2, DISP3DCNT bit 1 = 0): the vertex colour is replaced by
 *     TOON_TABLE[r6 >> 1] before texturing (then modulate);
 *   - highlight (mode 2, DISP3DCNT bit 1 = 1): the vertex colour becomes (r, r, r), texturing
 *     as modulate, then TOON_TABLE[r6 >> 1] is added with saturation at 63;
 *   - shadow (mode 3): melonDS tests only bit 0 of the mode, so shadows shade as decal;
 *   - wireframe polygons (polygon alpha 0) get alpha 31 whatever the texel alpha.
 * - Verified: unit tests on worked values; the reference traces blend_modes, highlight_mode,
 *   alpha_test, alpha_blend_onoff, shadow_polys and wireframe hash-match melonDS through the
 *   full pipeline. Guesses: melonDS's own ("checkme: can wireframe polygons use texture
 *   alpha?"); GBATEK does not give the rounding, melonDS's is taken.
 */
#include "raster/pixel.h"

#include <stddef.h>
#include <string.h>

#include "gx/regs.h"

/* 5-bit colour field to 6 bits: 0 -> 0, c -> 2c + 1 (melonDS RenderPixel). */
static inline uint32_t widen5(uint32_t c5)
{
    return c5 ? c5 * 2 + 1 : 0;
}

static inline uint32_t widen555(uint32_t c)
{
    return widen5(rgb15_r((rgb15)c)) | (widen5(rgb15_g((rgb15)c)) << 8) |
           (widen5(rgb15_b((rgb15)c)) << 16);
}

static inline uint32_t pack6(uint32_t r, uint32_t g, uint32_t b, uint32_t a)
{
    return r | (g << 8) | (b << 16) | (a << 24);
}

static inline uint32_t ch(uint32_t c6, unsigned i)
{
    return (c6 >> (8 * i)) & 0x3Fu;
}

/* Texel colour in 6-bit packed form, texel alpha in *ta (through the polygon's sampler). */
static inline uint32_t texel6(const raster_shader *sh, int32_t s, int32_t t, uint32_t *ta)
{
    if (sh->decoded) {
        uint32_t ws = raster_tex_wrap(&sh->tex.ax_s, s), wt = raster_tex_wrap(&sh->tex.ax_t, t);
        uint32_t px = sh->decoded[(wt << sh->tex.width_log2) + ws];
        *ta = px >> 24;
        return px & 0x003F3F3Fu;
    }
    uint16_t c;
    uint8_t a;
    raster_tex_sample(&sh->tex, s, t, &c, &a);
    *ta = a;
    return widen555(c);
}

/* Modulate the 6-bit colour v by the texel tc (alpha ta); alpha with the polygon alpha. */
static inline uint32_t modulate_texel(const raster_shader *sh, uint32_t v, uint32_t tc, uint32_t ta)
{
    return raster_modulate6(sh, v, tc, ta);
}

static inline uint32_t modulate(const raster_shader *sh, uint32_t v, int32_t s, int32_t t)
{
    uint32_t ta;
    uint32_t tc = texel6(sh, s, t, &ta);
    return modulate_texel(sh, v, tc, ta);
}

/* Decal: the texel over the vertex colour by texel alpha; alpha = polygon alpha. */
static inline uint32_t decal_texel(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                                   uint32_t tc, uint32_t ta)
{
    uint32_t a = (sh->poly_alpha | sh->alpha_or) << 24;
    uint32_t vr = r9 >> 3, vg = g9 >> 3, vb = b9 >> 3;
    if (ta == 0) return pack6(vr, vg, vb, 0) | a;
    if (ta == 31) return tc | a;
    uint32_t r = (ch(tc, 0) * ta + vr * (31 - ta)) >> 5;
    uint32_t g = (ch(tc, 1) * ta + vg * (31 - ta)) >> 5;
    uint32_t b = (ch(tc, 2) * ta + vb * (31 - ta)) >> 5;
    return pack6(r, g, b, 0) | a;
}

/* Highlight: add the toon colour, saturating each channel at 63. */
static inline uint32_t add_sat(uint32_t c, uint32_t toon)
{
    uint32_t r = ch(c, 0) + ch(toon, 0), g = ch(c, 1) + ch(toon, 1), b = ch(c, 2) + ch(toon, 2);
    return (r > 63 ? 63 : r) | ((g > 63 ? 63 : g) << 8) | ((b > 63 ? 63 : b) << 16) |
           (c & 0xFF000000u);
}

static uint32_t shade_vertex(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                             int32_t s, int32_t t)
{
    (void)s, (void)t;
    return raster_shade_vertex(sh, r9, g9, b9);
}

static uint32_t shade_toon(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                           int32_t s, int32_t t)
{
    (void)g9, (void)b9, (void)s, (void)t;
    return sh->toon6[(r9 >> 4) & 31u] | ((sh->poly_alpha | sh->alpha_or) << 24);
}

static uint32_t shade_highlight(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                                int32_t s, int32_t t)
{
    (void)g9, (void)b9, (void)s, (void)t;
    uint32_t v = r9 >> 3;
    return add_sat(pack6(v, v, v, sh->poly_alpha | sh->alpha_or), sh->toon6[(r9 >> 4) & 31u]);
}

/* Modulate and decal, one function per texture format with the format's texel lookup inlined
 * (texture.h): one indirect call per pixel instead of a shader call plus a sampler call. */
#define SHADE_TEX_FORMAT(fmt)                                                                      \
    static uint32_t shade_modulate_##fmt(const raster_shader *sh, uint32_t r9, uint32_t g9,        \
                                         uint32_t b9, int32_t s, int32_t t)                        \
    {                                                                                              \
        uint16_t c;                                                                                \
        uint8_t a;                                                                                 \
        raster_texel_##fmt(&sh->tex, s, t, &c, &a);                                                \
        return modulate_texel(sh, pack6(r9 >> 3, g9 >> 3, b9 >> 3, 0), widen555(c), a);            \
    }                                                                                              \
    static uint32_t shade_decal_##fmt(const raster_shader *sh, uint32_t r9, uint32_t g9,           \
                                      uint32_t b9, int32_t s, int32_t t)                           \
    {                                                                                              \
        uint16_t c;                                                                                \
        uint8_t a;                                                                                 \
        raster_texel_##fmt(&sh->tex, s, t, &c, &a);                                                \
        return decal_texel(sh, r9, g9, b9, widen555(c), a);                                        \
    }
SHADE_TEX_FORMAT(none)
SHADE_TEX_FORMAT(a3i5)
SHADE_TEX_FORMAT(pal4)
SHADE_TEX_FORMAT(pal16)
SHADE_TEX_FORMAT(pal256)
SHADE_TEX_FORMAT(4x4)
SHADE_TEX_FORMAT(a5i3)
SHADE_TEX_FORMAT(direct)

/* Modulate and decal from a decoded texture (raster_tex_cache): wrap, one load. */
static inline uint32_t decoded_texel(const raster_shader *sh, int32_t s, int32_t t)
{
    uint32_t ws = raster_tex_wrap(&sh->tex.ax_s, s), wt = raster_tex_wrap(&sh->tex.ax_t, t);
    return sh->decoded[(wt << sh->tex.width_log2) + ws];
}

static uint32_t shade_modulate_decoded(const raster_shader *sh, uint32_t r9, uint32_t g9,
                                       uint32_t b9, int32_t s, int32_t t)
{
    return raster_shade_modulate_decoded(sh, r9, g9, b9, s, t);
}

static uint32_t shade_decal_decoded(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                                    int32_t s, int32_t t)
{
    uint32_t px = decoded_texel(sh, s, t);
    return decal_texel(sh, r9, g9, b9, px & 0x003F3F3Fu, px >> 24);
}

static const raster_shade_fn shade_modulate_fns[8] = {
    [TEXFMT_NONE] = shade_modulate_none,     [TEXFMT_A3I5] = shade_modulate_a3i5,
    [TEXFMT_PAL4] = shade_modulate_pal4,     [TEXFMT_PAL16] = shade_modulate_pal16,
    [TEXFMT_PAL256] = shade_modulate_pal256, [TEXFMT_COMPRESSED] = shade_modulate_4x4,
    [TEXFMT_A5I3] = shade_modulate_a5i3,     [TEXFMT_DIRECT] = shade_modulate_direct,
};
static const raster_shade_fn shade_decal_fns[8] = {
    [TEXFMT_NONE] = shade_decal_none,     [TEXFMT_A3I5] = shade_decal_a3i5,
    [TEXFMT_PAL4] = shade_decal_pal4,     [TEXFMT_PAL16] = shade_decal_pal16,
    [TEXFMT_PAL256] = shade_decal_pal256, [TEXFMT_COMPRESSED] = shade_decal_4x4,
    [TEXFMT_A5I3] = shade_decal_a5i3,     [TEXFMT_DIRECT] = shade_decal_direct,
};

static uint32_t shade_toon_tex(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                               int32_t s, int32_t t)
{
    (void)g9, (void)b9;
    return modulate(sh, sh->toon6[(r9 >> 4) & 31u], s, t);
}

static uint32_t shade_highlight_tex(const raster_shader *sh, uint32_t r9, uint32_t g9, uint32_t b9,
                                    int32_t s, int32_t t)
{
    (void)g9, (void)b9;
    uint32_t v = r9 >> 3;
    return add_sat(modulate(sh, pack6(v, v, v, 0), s, t), sh->toon6[(r9 >> 4) & 31u]);
}

static const raster_shade_fn shade_fns[RASTER_SHADE_KINDS] = {
    [RASTER_SHADE_VERTEX] = shade_vertex,
    [RASTER_SHADE_TOON] = shade_toon,
    [RASTER_SHADE_HIGHLIGHT] = shade_highlight,
    [RASTER_SHADE_MODULATE] = shade_modulate_none, /* replaced per format below */
    [RASTER_SHADE_DECAL] = shade_decal_none,
    [RASTER_SHADE_TOON_TEX] = shade_toon_tex,
    [RASTER_SHADE_HIGHLIGHT_TEX] = shade_highlight_tex,
};

void raster_pixel_frame_setup(raster_pixel_frame *pf, const gx_render_regs *regs)
{
    for (unsigned i = 0; i < 32; i++) pf->toon6[i] = widen555(regs->toon_table[i]);
    pf->texturing = disp3dcnt_texture(regs->disp3dcnt) != 0;
    pf->highlight = disp3dcnt_highlight(regs->disp3dcnt) != 0;
    pf->blending = disp3dcnt_alpha_blend(regs->disp3dcnt) != 0;
}

void raster_shader_setup(raster_shader *sh, const raster_pixel_frame *pf, uint32_t attr,
                         uint32_t teximage, uint32_t pltt_base, const uint8_t *tex_vram,
                         const uint8_t *pal_vram)
{
    uint32_t mode = polyattr_mode(attr);
    /* melonDS RenderPixel: texturing needs DISP3DCNT bit 0 and a format other than 0. */
    bool textured = pf->texturing && teximage_format(teximage) != TEXFMT_NONE;
    raster_shade_kind kind;

    if (mode == POLYMODE_TOON)
        kind = pf->highlight ? (textured ? RASTER_SHADE_HIGHLIGHT_TEX : RASTER_SHADE_HIGHLIGHT)
                             : (textured ? RASTER_SHADE_TOON_TEX : RASTER_SHADE_TOON);
    else if (!textured)
        kind = RASTER_SHADE_VERTEX;
    else if (mode & 1u) /* decal and shadow */
        kind = RASTER_SHADE_DECAL;
    else
        kind = RASTER_SHADE_MODULATE;

    raster_tex_setup(&sh->tex, teximage, pltt_base, tex_vram, pal_vram);
    sh->decoded = NULL;
    sh->ctab = NULL;
    sh->kind = kind;
    sh->shade = shade_fns[kind];
    if (kind == RASTER_SHADE_MODULATE) sh->shade = shade_modulate_fns[sh->tex.format & 7u];
    if (kind == RASTER_SHADE_DECAL) sh->shade = shade_decal_fns[sh->tex.format & 7u];
    sh->toon6 = pf->toon6;
    sh->poly_alpha = polyattr_alpha(attr);
    sh->alpha_or = sh->poly_alpha == 0 ? 31u : 0u; /* wireframe: alpha 31 */
}

void raster_tex_cache_reset(raster_tex_cache *c)
{
    c->used = 0;
    c->n = 0;
}

/* Decode every texel of the shader's texture into out (row-major, width << log2): the
 * polygon's own lookup with clamping axes, at each texel's 1.11.4 coordinate. */
static void decode_texture(const raster_shader *sh, uint32_t w, uint32_t h, uint32_t *out)
{
    raster_tex tx = sh->tex;
    tx.ax_s = (raster_tex_axis){0, (int32_t)w - 1, w - 1, 0};
    tx.ax_t = (raster_tex_axis){0, (int32_t)h - 1, h - 1, 0};
    for (uint32_t y = 0; y < h; y++) {
        for (uint32_t x = 0; x < w; x++) {
            uint16_t c;
            uint8_t a;
            raster_tex_sample(&tx, (int32_t)(x << 4), (int32_t)(y << 4), &c, &a);
            out[y * w + x] = widen555(c) | ((uint32_t)a << 24);
        }
    }
}

/* The compact form of @p n decoded texels (n <= RASTER_TEX_CTAB_TEXELS), if they hold at most 16
 * distinct values (raster_tex_ctab). */
static bool build_ctab(const uint32_t *texels, uint32_t n, raster_tex_ctab *t)
{
    uint32_t nval = 0;
    memset(t, 0, sizeof *t);
    for (uint32_t i = 0; i < n; i++) {
        uint32_t v = 0;
        while (v < nval && t->val[v] != texels[i]) v++;
        if (v == nval) {
            if (nval == 16) return false;
            t->val[nval++] = texels[i];
        }
        t->nib[i >> 1] |= (uint8_t)(v << 4 * (i & 1));
    }
    return true;
}

/* The entry of a texture (TEXIMAGE_PARAM without repeat/flip, bits 16-19, and the coordinate
 * mode, bits 30-31; the palette base), or c->n when it has none. */
static uint32_t cache_find(const raster_tex_cache *c, uint32_t teximage, uint32_t pltt_base)
{
    uint32_t key = teximage & 0x3FF0FFFFu, pal = pltt_base & 0x1FFFu;
    uint32_t i = 0;
    while (i < c->n && (c->entry[i].key != key || c->entry[i].pal != pal)) i++;
    return i;
}

void raster_tex_cache_plan(raster_tex_cache *c, const raster_pixel_frame *pf, uint32_t attr,
                           uint32_t teximage, uint32_t pltt_base, const uint8_t *tex_vram,
                           const uint8_t *pal_vram, uint32_t area)
{
    /* textured polygons only (raster_shader_setup: the kinds >= RASTER_SHADE_MODULATE) */
    if (!c->texels || !pf->texturing || teximage_format(teximage) == TEXFMT_NONE || !tex_vram ||
        !pal_vram)
        return;
    uint32_t w = 8u << teximage_size_s(teximage), h = 8u << teximage_size_t(teximage);
    if (w * h > RASTER_TEX_CACHE_MAX) return;
    uint32_t i = cache_find(c, teximage, pltt_base);
    if (i == c->n) {
        if (c->n == RASTER_TEX_CACHE_ENTRIES) return;
        c->entry[i].key = teximage & 0x3FF0FFFFu;
        c->entry[i].pal = pltt_base & 0x1FFFu;
        c->entry[i].offset = UINT32_MAX;
        c->entry[i].area = 0;
        c->entry[i].has_ctab = false;
        c->n++;
    }
    if (c->entry[i].offset != UINT32_MAX) return;
    c->entry[i].area = c->entry[i].area + area < area ? UINT32_MAX : c->entry[i].area + area;
    if (c->entry[i].area < w * h || c->used + w * h > RASTER_TEX_CACHE_TEXELS) return;
    raster_shader sh;
    raster_shader_setup(&sh, pf, attr, teximage, pltt_base, tex_vram, pal_vram);
    decode_texture(&sh, w, h, &c->texels[c->used]);
    c->entry[i].has_ctab =
        w * h <= RASTER_TEX_CTAB_TEXELS && build_ctab(&c->texels[c->used], w * h, &c->ctab[i]);
    c->entry[i].offset = c->used;
    c->used += w * h;
}

void raster_shader_use_cache(raster_shader *sh, const raster_tex_cache *c, uint32_t teximage,
                             uint32_t pltt_base)
{
    if (!c->texels || sh->kind < RASTER_SHADE_MODULATE || !sh->tex.tex_vram || !sh->tex.pal_vram)
        return;
    uint32_t i = cache_find(c, teximage, pltt_base);
    if (i == c->n || c->entry[i].offset == UINT32_MAX) return;
    sh->decoded = &c->texels[c->entry[i].offset];
    sh->ctab = c->entry[i].has_ctab ? &c->ctab[i] : NULL;
    if (sh->kind == RASTER_SHADE_MODULATE) sh->shade = shade_modulate_decoded;
    if (sh->kind == RASTER_SHADE_DECAL) sh->shade = shade_decal_decoded;
}
