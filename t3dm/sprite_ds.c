/*
 * sprite_ds.c - converting a parsed libdragon sprite to a DS texture.
 *
 * Hardware notes (GBATEK "DS 3D Texture Attributes" and "DS 3D Texture Formats"):
 * TEXIMAGE_PARAM bits 0-15 VRAM offset / 8, 16/17 repeat S/T, 18/19 flip S/T, 20-22 / 23-25
 * size (8 << n texels), 26-28 format, 29 colour 0 transparent, 30-31 texcoord source.
 * Texels are stored row-major, rows of `width` texels, little-endian: 4-colour 2 bits and
 * 16-colour 4 bits with the first texel in the lowest bits; 256-colour one byte; A3I5 one byte
 * (bits 0-4 index, 5-7 alpha), A5I3 one byte (bits 0-2 index, 3-7 alpha); direct colour one
 * halfword (bits 0-4 R, 5-9 G, 10-14 B, 15 alpha: 0 transparent). Palettes are RGB15 halfwords
 * (R in bits 0-4). PLTT_BASE counts 16 bytes, 8 bytes for 4-colour palettes.
 *
 * The conversion is ours (not a hardware behaviour): the mapping table, the rounding rule and
 * what each path loses are documented in t3dm/sprite.md. Every source texel is first expanded
 * to RGBA8888 the way the RDP widens texels (sprite.c), then quantized with one rule:
 * q(v, from_max, to_max) = (v * to_max + from_max / 2) / from_max (round to nearest; with odd
 * from_max no exact halves occur).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "t3dm/sprite.h"
#include "t3dm/sprite_internal.h"

enum { DS_MAX_SIDE = 1024, DS_MIN_SIDE = 8 };

/* TEXIMAGE_PARAM fields (gx/regs.h DSGX_BITS teximage_*: the same positions) */
#define TEXIMAGE_OFFSET_SHIFT 0
#define TEXIMAGE_REPEAT_S     (1u << 16)
#define TEXIMAGE_REPEAT_T     (1u << 17)
#define TEXIMAGE_FLIP_S       (1u << 18)
#define TEXIMAGE_FLIP_T       (1u << 19)
#define TEXIMAGE_SIZE_S_SHIFT 20
#define TEXIMAGE_SIZE_T_SHIFT 23
#define TEXIMAGE_FORMAT_SHIFT 26
#define TEXIMAGE_COLOR0       (1u << 29)
#define TEXIMAGE_TEXGEN_SHIFT 30

static unsigned q(unsigned v, unsigned from_max, unsigned to_max)
{
    return (v * to_max + from_max / 2u) / from_max;
}

static uint16_t rgb15(const uint8_t *c)
{
    return (uint16_t)(q(c[0], 255, 31) | (q(c[1], 255, 31) << 5) | (q(c[2], 255, 31) << 10));
}

static uint16_t grey15(unsigned g5)
{
    return (uint16_t)(g5 | (g5 << 5) | (g5 << 10));
}

/* RDP RGBA5551 (R bits 15-11) to DS RGB15 (R bits 0-4): the 5-bit channels move unchanged */
static uint16_t rgba5551_to_rgb15(uint16_t c)
{
    return (uint16_t)((c >> 11) | (((c >> 6) & 31u) << 5) | (((c >> 1) & 31u) << 10));
}

/** How texels become DS texels. */
typedef enum { K_INDEX, K_DIRECT, K_ALPHA_PAL } ds_kind;

typedef struct ds_plan {
    ds_kind kind;
    uint8_t map[256];    /* K_INDEX: raw texel value -> DS palette index */
    uint16_t cols[32];   /* K_ALPHA_PAL: palette, ascending RGB15 */
    unsigned ncols;      /* K_ALPHA_PAL */
    unsigned alpha_max;  /* K_ALPHA_PAL: 7 (A3I5) or 31 (A5I3) */
    unsigned index_bits; /* K_ALPHA_PAL: 5 (A3I5) or 3 (A5I3) */
    unsigned threshold;  /* K_DIRECT: alpha >= threshold is opaque */
    unsigned alpha_bits; /* alpha levels kept, for the lossy flag: 0, 1, 3 or 5 */
} ds_plan;

typedef struct ds_scan {
    bool graded;    /* an alpha other than 0 and 255 */
    bool binary;    /* some alpha is 0 (and none graded) */
    unsigned ncols; /* distinct RGB15 of visible texels, counted up to 33 */
    uint16_t cols[33];
} ds_scan;

static void scan_value(const t3dm_sprite *s, unsigned fmt, uint32_t v, ds_scan *sc)
{
    uint8_t c[4];
    t3dm_sprite_texel_rgba8(s, fmt, v, c);
    if (c[3] != 0 && c[3] != 255) sc->graded = true;
    if (c[3] == 0) {
        sc->binary = true;
        return;
    }
    uint16_t k = rgb15(c);
    unsigned i = 0;
    while (i < sc->ncols && sc->cols[i] < k) i++;
    if (i < sc->ncols && sc->cols[i] == k) return;
    if (sc->ncols == 33) return; /* more than 32: the exact count no longer matters */
    memmove(sc->cols + i + 1, sc->cols + i, (sc->ncols - i) * sizeof sc->cols[0]);
    sc->cols[i] = k;
    sc->ncols++;
}

/** Alpha classes and the distinct colours of visible texels (a set: for formats of at most 8
 *  bits each distinct texel value is looked at once). */
static void scan_rgba(const t3dm_sprite *s, const t3dm_sprite_image *img, ds_scan *sc)
{
    memset(sc, 0, sizeof *sc);
    unsigned bits = t3dm_sprite_format_bits(img->format);
    bool seen[256] = {false};
    for (unsigned y = 0; y < img->height; y++) {
        const uint8_t *row = img->pixels + (size_t)y * img->stride;
        uint32_t last = 0;
        for (unsigned x = 0; x < img->width; x++) {
            uint32_t v = t3dm_sprite_row_texel(row, bits, x);
            if (bits <= 8)
                seen[v] = true;
            else if (x == 0 || v != last)
                scan_value(s, img->format, v, sc);
            last = v;
        }
    }
    if (bits <= 8)
        for (uint32_t v = 0; v < 256; v++)
            if (seen[v]) scan_value(s, img->format, v, sc);
    if (sc->graded) sc->binary = false;
}

/** Colour-indexed sprites: keep the indices; make the one transparent colour index 0. */
static void plan_ci(const t3dm_sprite *s, const t3dm_sprite_image *img, ds_plan *p,
                    t3dm_ds_texture *t)
{
    unsigned cap = img->format == T3DM_SPRITE_CI4 ? 16u : 256u;
    bool used[256] = {false};
    unsigned bits = t3dm_sprite_format_bits(img->format);
    for (unsigned y = 0; y < img->height; y++) {
        const uint8_t *row = img->pixels + (size_t)y * img->stride;
        for (unsigned x = 0; x < img->width; x++) used[t3dm_sprite_row_texel(row, bits, x)] = true;
    }
    bool transparent_other = false, any_transparent = false;
    for (unsigned i = 0; i < cap; i++)
        if (used[i] && !(t3dm_sprite_palette_entry(s, i) & 1u)) {
            any_transparent = true;
            if (i != 0) transparent_other = true;
        }
    p->kind = K_INDEX;
    t->format = cap == 16 ? T3DM_DS_PAL16 : T3DM_DS_PAL256;
    t->palette_colors = cap;
    t->color0_transparent = any_transparent;
    p->alpha_bits = any_transparent ? 1 : 0;
    if (!transparent_other) { /* identity */
        for (unsigned i = 0; i < cap; i++) {
            p->map[i] = (uint8_t)i;
            t->palette[i] = rgba5551_to_rgb15(t3dm_sprite_palette_entry(s, i));
        }
        return;
    }
    /* every transparent colour -> 0, the used opaque colours -> 1, 2... in index order; they
     * fit: at least one used entry is transparent, so at most cap - 1 are opaque */
    unsigned next = 1;
    for (unsigned i = 0; i < cap; i++) {
        uint16_t c = t3dm_sprite_palette_entry(s, i);
        if (!used[i] || !(c & 1u)) {
            p->map[i] = 0;
            continue;
        }
        p->map[i] = (uint8_t)next;
        t->palette[next++] = rgba5551_to_rgb15(c);
    }
}

/** I4 / I8 as an opaque grey palette indexed by the intensity itself; IA4 as 8 greys behind
 *  a transparent colour 0. */
static void plan_grey_index(const t3dm_sprite_image *img, ds_plan *p, t3dm_ds_texture *t)
{
    p->kind = K_INDEX;
    p->alpha_bits = 0;
    if (img->format == T3DM_SPRITE_I8) {
        t->format = T3DM_DS_PAL256;
        t->palette_colors = 256;
        for (unsigned i = 0; i < 256; i++) {
            p->map[i] = (uint8_t)i;
            t->palette[i] = grey15(q(i, 255, 31));
        }
        return;
    }
    t->format = T3DM_DS_PAL16;
    t->palette_colors = 16;
    if (img->format == T3DM_SPRITE_I4) {
        for (unsigned i = 0; i < 16; i++) {
            p->map[i] = (uint8_t)i;
            t->palette[i] = grey15(q(i * 17u, 255, 31));
        }
        return;
    }
    /* IA4: IIIA */
    t->color0_transparent = true;
    p->alpha_bits = 1;
    for (unsigned i = 0; i < 8; i++) {
        unsigned g8 = (i << 5) | (i << 2) | (i >> 1); /* widened as the RDP does */
        t->palette[1 + i] = grey15(q(g8, 255, 31));
    }
    for (unsigned v = 0; v < 16; v++) p->map[v] = (v & 1u) ? (uint8_t)(1u + (v >> 1)) : 0;
}

static void plan_direct(ds_plan *p, t3dm_ds_texture *t, unsigned threshold)
{
    p->kind = K_DIRECT;
    p->threshold = threshold;
    p->alpha_bits = 1;
    t->format = T3DM_DS_DIRECT;
    t->palette_colors = 0;
}

static void plan_alpha_pal(const ds_scan *sc, ds_plan *p, t3dm_ds_texture *t)
{
    bool a5 = sc->ncols <= 8;
    p->kind = K_ALPHA_PAL;
    p->ncols = sc->ncols;
    memcpy(p->cols, sc->cols, sc->ncols * sizeof p->cols[0]);
    p->alpha_max = a5 ? 31 : 7;
    p->index_bits = a5 ? 3 : 5;
    p->alpha_bits = a5 ? 5 : 3;
    t->format = a5 ? T3DM_DS_A5I3 : T3DM_DS_A3I5;
    t->palette_colors = a5 ? 8 : 32;
    for (unsigned i = 0; i < sc->ncols; i++) t->palette[i] = sc->cols[i];
}

/** Source colour and alpha precision in bits, for the lossy flag. */
static void source_bits(unsigned fmt, const ds_scan *sc, unsigned *colour, unsigned *alpha)
{
    switch (fmt) {
    case T3DM_SPRITE_RGBA16: *colour = 5, *alpha = 1; break;
    case T3DM_SPRITE_CI4:
    case T3DM_SPRITE_CI8: *colour = 5, *alpha = 1; break;
    case T3DM_SPRITE_IA4: *colour = 3, *alpha = 1; break;
    case T3DM_SPRITE_IA8:
    case T3DM_SPRITE_I4: *colour = 4, *alpha = 4; break;
    default: *colour = 8, *alpha = 8; break; /* RGBA32, IA16, I8 */
    }
    if (sc && !sc->graded) *alpha = sc->binary ? 1 : 0;
}

static uint32_t encode(const t3dm_sprite *s, const t3dm_sprite_image *img, const ds_plan *p,
                       uint32_t v)
{
    if (p->kind == K_INDEX) return p->map[v & 0xFFu];
    if (p->kind == K_DIRECT && img->format == T3DM_SPRITE_RGBA16) /* the same, without widening */
        return rgba5551_to_rgb15((uint16_t)v) | ((v & 1u) ? 0x8000u : 0u);
    uint8_t c[4];
    t3dm_sprite_texel_rgba8(s, img->format, v, c);
    if (p->kind == K_DIRECT) return rgb15(c) | (c[3] >= p->threshold ? 0x8000u : 0u);
    if (c[3] == 0) return 0;
    unsigned a = q(c[3], 255, p->alpha_max);
    if (a == 0) return 0;
    uint16_t k = rgb15(c);
    unsigned i = 0;
    while (i + 1 < p->ncols && p->cols[i] != k) i++;
    return (a << p->index_bits) | i;
}

static unsigned ds_side(unsigned n)
{
    unsigned d = DS_MIN_SIDE;
    while (d < n) d <<= 1;
    return d;
}

static unsigned log2_side(unsigned d)
{
    unsigned n = 0;
    while (((unsigned)DS_MIN_SIDE << n) < d) n++;
    return n;
}

static int ds_fail(t3dm_sprite_error *err, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int ds_fail(t3dm_sprite_error *err, size_t at, const char *fmt, ...)
{
    if (err) {
        err->offset = at;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->reason, sizeof err->reason, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void put_texel(t3dm_ds_texture *t, unsigned bits, size_t i, uint32_t v)
{
    switch (bits) {
    case 4: t->texels[i / 2] |= (uint8_t)((v & 15u) << (4u * (i & 1u))); break;
    case 8: t->texels[i] = (uint8_t)v; break;
    default:
        t->texels[2 * i] = (uint8_t)v;
        t->texels[2 * i + 1] = (uint8_t)(v >> 8);
        break;
    }
}

/** Pick the DS format and fill the palette (mapping table in t3dm/sprite.md); sets t->format,
 *  palette, palette_colors, color0_transparent and lossy. */
static void choose_plan(const t3dm_sprite *s, const t3dm_sprite_image *img,
                        const t3dm_ds_options *o, ds_plan *p, t3dm_ds_texture *t)
{
    ds_scan sc;
    const ds_scan *scp = NULL;
    unsigned fmt = img->format;
    bool ci = fmt == T3DM_SPRITE_CI4 || fmt == T3DM_SPRITE_CI8;
    bool intensity = fmt == T3DM_SPRITE_I4 || fmt == T3DM_SPRITE_I8;
    bool ialpha = o->intensity_alpha && intensity;
    if (ci) {
        plan_ci(s, img, p, t);
    } else if ((intensity || fmt == T3DM_SPRITE_IA4) && !ialpha) {
        plan_grey_index(img, p, t);
    } else if (fmt == T3DM_SPRITE_RGBA16) {
        plan_direct(p, t, 128);
    } else {
        scan_rgba(s, img, &sc);
        scp = &sc;
        unsigned thr = o->alpha_threshold ? o->alpha_threshold : 128u;
        if (fmt == T3DM_SPRITE_RGBA32 && (!sc.graded || sc.ncols > 32))
            plan_direct(p, t, thr);
        else
            plan_alpha_pal(&sc, p, t); /* IA8, IA16, I with alpha: at most 32 greys */
    }
    unsigned cbits, abits;
    source_bits(fmt, scp, &cbits, &abits);
    if (ci) abits = p->alpha_bits;
    if (intensity && !ialpha) abits = 0; /* alpha = intensity not asked for */
    t->lossy = cbits > 5 || abits > p->alpha_bits;
}

/** Write every DS texel (padding stays 0). Formats of at most 8 bits encode each of their
 *  values once; wider ones reuse the previous result for runs of equal texels. */
static void fill_texels(const t3dm_sprite *s, const t3dm_sprite_image *img,
                        const t3dm_ds_options *o, const ds_plan *p, t3dm_ds_texture *t)
{
    unsigned bits = t->format == T3DM_DS_PAL16 ? 4u : t->format == T3DM_DS_DIRECT ? 16u : 8u;
    unsigned sbits = t3dm_sprite_format_bits(img->format);
    uint16_t lut[256];
    if (sbits <= 8)
        for (uint32_t v = 0; v < (1u << sbits); v++) lut[v] = (uint16_t)encode(s, img, p, v);
    bool scale = o->resize == T3DM_DS_SCALE; /* nearest texel centre */
    for (unsigned dy = 0; dy < t->height; dy++) {
        unsigned sy = scale ? (unsigned)(((2u * dy + 1u) * img->height) / (2u * t->height)) : dy;
        if (sy >= img->height) break; /* padding rows */
        const uint8_t *row = img->pixels + (size_t)sy * img->stride;
        unsigned n_dx = scale ? t->width : img->width; /* then padding columns */
        uint32_t last = 0, enc = 0;
        for (unsigned dx = 0; dx < n_dx; dx++) {
            unsigned sx = scale ? (unsigned)(((2u * dx + 1u) * img->width) / (2u * t->width)) : dx;
            uint32_t v = t3dm_sprite_row_texel(row, sbits, sx);
            if (sbits <= 8) {
                enc = lut[v];
            } else if (dx == 0 || v != last) {
                enc = encode(s, img, p, v);
                last = v;
            }
            put_texel(t, bits, (size_t)dy * t->width + dx, enc);
        }
    }
}

int t3dm_sprite_to_ds(const t3dm_sprite *s, const t3dm_ds_options *opt, t3dm_ds_texture *out,
                      t3dm_sprite_error *err)
{
    static const t3dm_ds_options defaults = {T3DM_DS_PAD, 0, false, 0};
    const t3dm_ds_options *o = opt ? opt : &defaults;
    memset(out, 0, sizeof *out);
    if (err) memset(err, 0, sizeof *err);
    const t3dm_sprite_image *img = t3dm_sprite_level(s, o->level);
    if (!img) return ds_fail(err, 0, "image level %u not in the sprite", o->level);
    if (img->width > DS_MAX_SIDE || img->height > DS_MAX_SIDE)
        return ds_fail(err, 0, "image %ux%u larger than the DS's 1024x1024", img->width,
                       img->height);
    if ((img->format == T3DM_SPRITE_CI4 || img->format == T3DM_SPRITE_CI8) && !s->palette)
        return ds_fail(err, img->offset, "colour-indexed level without a palette");

    t3dm_ds_texture t;
    memset(&t, 0, sizeof t);
    t.palette = calloc(256, sizeof t.palette[0]);
    if (!t.palette) return ds_fail(err, 0, "out of memory");
    ds_plan p;
    memset(&p, 0, sizeof p);
    choose_plan(s, img, o, &p, &t);
    if (p.kind == K_DIRECT) {
        free(t.palette);
        t.palette = NULL;
    }
    t.source_format = img->format;
    t.src_width = img->width;
    t.src_height = img->height;
    t.width = (uint16_t)ds_side(img->width);
    t.height = (uint16_t)ds_side(img->height);
    t.size_s = (uint8_t)log2_side(t.width);
    t.size_t_ = (uint8_t)log2_side(t.height);
    unsigned bits = t.format == T3DM_DS_PAL16 ? 4u : t.format == T3DM_DS_DIRECT ? 16u : 8u;
    t.texel_bytes = (size_t)t.width * t.height * bits / 8u;
    t.texels = calloc(t.texel_bytes, 1);
    if (!t.texels) {
        t3dm_ds_texture_free(&t);
        return ds_fail(err, 0, "out of memory");
    }
    fill_texels(s, img, o, &p, &t);
    *out = t;
    return 0;
}

void t3dm_ds_texture_free(t3dm_ds_texture *tex)
{
    free(tex->texels);
    free(tex->palette);
    memset(tex, 0, sizeof *tex);
}

uint32_t t3dm_ds_teximage_param(const t3dm_ds_texture *tex, uint32_t vram_offset, bool repeat_s,
                                bool repeat_t, bool flip_s, bool flip_t, unsigned texgen)
{
    uint32_t v = ((vram_offset >> 3) & 0xFFFFu) << TEXIMAGE_OFFSET_SHIFT;
    v |= repeat_s ? TEXIMAGE_REPEAT_S : 0u;
    v |= repeat_t ? TEXIMAGE_REPEAT_T : 0u;
    v |= flip_s ? TEXIMAGE_FLIP_S : 0u;
    v |= flip_t ? TEXIMAGE_FLIP_T : 0u;
    v |= (uint32_t)(tex->size_s & 7u) << TEXIMAGE_SIZE_S_SHIFT;
    v |= (uint32_t)(tex->size_t_ & 7u) << TEXIMAGE_SIZE_T_SHIFT;
    v |= (uint32_t)(tex->format & 7u) << TEXIMAGE_FORMAT_SHIFT;
    v |= tex->color0_transparent ? TEXIMAGE_COLOR0 : 0u;
    v |= (uint32_t)(texgen & 3u) << TEXIMAGE_TEXGEN_SHIFT;
    return v;
}

uint32_t t3dm_ds_pltt_base(const t3dm_ds_texture *tex, uint32_t pltt_offset)
{
    return tex->format == T3DM_DS_PAL4 ? pltt_offset >> 3 : pltt_offset >> 4;
}
