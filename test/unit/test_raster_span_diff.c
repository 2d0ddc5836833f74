/*
 * test_raster_span_diff.c - the fast pixel loops (raster/span_fns.c, span_pixel.h: fused
 * shading, per-pixel accumulators, the texture cache, vector steps) against the reference path
 * on random frames, frame for frame.
 *
 * The reference engine draws every polygon line with the generic span function of its flags
 * (raster_engine.span_reference), which shades through raster_shade and the per-format texel
 * samplers of texture.h, with the texture cache off (no decoded textures). The fast engine is
 * a default engine, one per form of the pixel loops that this build and this processor have
 * (raster_engine.span_isa: scalar, SSE2 four pixels at a time, AVX2 eight at a time; and AVX2
 * with small textures looked up in registers from their compact form, raster_engine.tex_ctab,
 * where the processor has AVX-512 VBMI), each compared with the reference. They render the same
 * random frames (random polygons of every size, shape, colour, depth, W, texture format, size, wrap
 * mode, polygon mode, alpha, ID, depth test and the frame's DISP3DCNT modes); the output frames,
 * the timing results and both layers of the colour, depth and attribute buffers must be identical.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raster_compare.h"
#include "raster_scene.h"
#include "test_rand.h"

/* A 9-bit vertex colour channel: often white or black (the modulate shortcuts), else any. */
static uint16_t rnd_color(uint32_t *s)
{
    switch (rnd(s) % 4) {
    case 0: return 0x1FF;
    case 1: return 0;
    default: return (uint16_t)rnd_in(s, 0, 511);
    }
}

/* TEXIMAGE_PARAM: any format (untextured a quarter of the time), mostly small sizes (which
 * the texture cache decodes), any wrap mode, offset and colour-0 transparency. */
static uint32_t rnd_teximage(uint32_t *s)
{
    if (one_in(s, 4)) return 0;
    uint32_t fmt = (uint32_t)rnd_in(s, 1, 7);
    uint32_t ss = one_in(s, 4) ? (uint32_t)rnd_in(s, 0, 7) : (uint32_t)rnd_in(s, 0, 3);
    uint32_t st = one_in(s, 4) ? (uint32_t)rnd_in(s, 0, 7) : (uint32_t)rnd_in(s, 0, 3);
    return (rnd(s) & 0xFFFFu) | (rnd(s) & 0xFu) << 16 | ss << 20 | st << 23 | fmt << 26 |
           (rnd(s) & 1u) << 29;
}

/* One random polygon (3..6 vertices, convex or not, on or a little off the screen). */
static void random_poly(scene *s, uint32_t *seed)
{
    int nv = one_in(seed, 3) ? 4 : rnd_in(seed, 3, 6);
    int size;
    switch (rnd(seed) % 4) {
    case 0: size = 3; break;  /* a few pixels (g_heavy_1's polygons) */
    case 1: size = 12; break; /* short spans */
    case 2: size = 40; break; /* longer spans */
    default: size = 140; break;
    }
    int xy[12];
    int cx = rnd_in(seed, -20, 275), cy = rnd_in(seed, -10, 200);
    for (int i = 0; i < nv; i++) {
        xy[2 * i] = dsgx_clamp(cx + rnd_in(seed, -size, size), 0, 256);
        xy[2 * i + 1] = dsgx_clamp(cy + rnd_in(seed, -size, size), 0, 192);
    }
    uint32_t alpha = one_in(seed, 3) ? (uint32_t)rnd_in(seed, 0, 30) : 31u;
    uint32_t mode = one_in(seed, 12) ? POLYMODE_SHADOW : (uint32_t)rnd_in(seed, 0, 2);
    uint32_t id = one_in(seed, 4) ? 0u : (uint32_t)rnd_in(seed, 0, 63);
    uint32_t attr = attr_make(alpha, id, mode) | (rnd(seed) & 1u) << 11 |
                    (one_in(seed, 8) ? 1u << 14 : 0u) | (rnd(seed) & 1u) << 15;
    gx_polygon *p = scene_poly(s, nv, xy, attr, 0, rnd(seed) % 2 != 0, 31, 31, 31);
    p->teximage = rnd_teximage(seed);
    p->pltt_base = rnd(seed) & 0x1FFFu;
    p->wbuffer = one_in(seed, 4);
    uint32_t fmt = teximage_format(p->teximage);
    p->translucent =
        ((fmt == TEXFMT_A3I5 || fmt == TEXFMT_A5I3) && !(mode & 1u)) || (alpha > 0 && alpha < 31);
    p->sort_key = (uint32_t)(p->ybottom << 8 | p->ytop) | (p->translucent ? 0x10000u : 0);

    /* one colour (flat spans), or one per vertex; one W (linear spans) or several; one
     * depth (equal tests), close depths or any */
    bool flat = one_in(seed, 2), linear = !one_in(seed, 3);
    uint16_t col[3] = {rnd_color(seed), rnd_color(seed), rnd_color(seed)};
    int32_t w0 = rnd_in(seed, 0x100, 0xFFFF), z0 = rnd_in(seed, 0, 0xFFFFFF);
    int zmode = (int)(rnd(seed) % 3);
    int32_t t0 = rnd_in(seed, -4096, 4096), tr = one_in(seed, 2) ? 64 : 8192;
    for (int i = 0; i < nv; i++) {
        gx_vertex *v = &s->f->verts[p->vtx[i]];
        for (int c = 0; c < 3; c++) v->color[c] = flat ? col[c] : rnd_color(seed);
        for (int c = 0; c < 2; c++)
            v->texcoord[c] = (int16_t)dsgx_clamp(t0 + rnd_in(seed, -tr, tr), -32768, 32767);
        p->w[i] = linear ? w0 : rnd_in(seed, 0x100, 0xFFFF);
        p->z[i] = zmode == 0   ? z0
                  : zmode == 1 ? dsgx_clamp(z0 + rnd_in(seed, -0x400, 0x400), 0, 0xFFFFFF)
                               : rnd_in(seed, 0, 0xFFFFFF);
    }
    uint32_t pmode = polyattr_mode(attr);
    p->shadow_mask = pmode == POLYMODE_SHADOW && id == 0;
    p->shadow = pmode == POLYMODE_SHADOW && id != 0;
}

/* A random frame of @p n polygons with random rendering registers (no rear-plane bitmap). */
static void random_frame(gx_frame *f, uint32_t *seed, unsigned n)
{
    scene s = {.f = f, .r = NULL};
    const uint8_t *tex = f->tex_vram, *pal = f->pal_vram;
    memset(f, 0, sizeof *f);
    f->tex_vram = tex;
    f->pal_vram = pal;
    gx_render_regs *g = &f->regs;
    /* texturing mostly on; highlight, alpha test, blending, anti-aliasing, edge marking, fog */
    g->disp3dcnt =
        (uint16_t)((one_in(seed, 8) ? 0u : 1u) | (rnd(seed) & 0xEu) |
                   (one_in(seed, 3) ? 0x10u : 0u) | (one_in(seed, 3) ? 0x20u : 0u) |
                   (one_in(seed, 3) ? 0x80u : 0u) | (rnd(seed) & 0x40u) | (rnd(seed) & 0xF00u));
    g->alpha_ref = (uint8_t)(rnd(seed) & 0x1Fu);
    g->clear_color = rnd(seed) & 0x3F1FFFFFu;
    g->clear_depth = (uint16_t)(one_in(seed, 2) ? 0x7FFF : rnd(seed) & 0x7FFF);
    g->fog_color = rnd(seed);
    g->fog_offset = (uint16_t)(rnd(seed) & 0x7FFF);
    for (int i = 0; i < 8; i++) g->edge_color[i] = (uint16_t)rnd(seed);
    for (int i = 0; i < 32; i++) g->fog_table[i] = (uint8_t)(rnd(seed) & 0x7Fu);
    for (int i = 0; i < 32; i++) g->toon_table[i] = (uint16_t)rnd(seed);
    g->swap_param = rnd(seed) & 1u;
    for (unsigned k = 0; k < n; k++) random_poly(&s, seed);
}

/* The forms of the pixel loops compared with the reference: every one up to the widest this
 * build and processor have (raster_span_isa_best), without the compact textures; then, where
 * raster_tex_ctab_best, AVX2 with them. */
#define FORMS (RASTER_SPAN_ISA_AVX2 + 2)

typedef struct pair {
    gx_frame *f;
    uint8_t *tex, *pal;
    raster_engine *fast[FORMS], *ref;
    unsigned nforms;
    bool ctab_form;        /* the last form is AVX2 with the compact textures */
    unsigned ctab_entries; /* textures with a compact form in that form's frames */
    uint32_t *ref_texels;  /* the reference engine's texture cache, off during its renders */
    dsgx_frame out_fast, out_ref;
} pair;

static void pair_init(pair *p, uint32_t seed)
{
    p->f = calloc(1, sizeof *p->f);
    p->tex = malloc(GX_TEX_VRAM_SIZE);
    p->pal = malloc(GX_PAL_VRAM_SIZE);
    assert_non_null(p->f);
    assert_non_null(p->tex);
    assert_non_null(p->pal);
    for (uint32_t i = 0; i < GX_TEX_VRAM_SIZE; i++) p->tex[i] = (uint8_t)rnd(&seed);
    for (uint32_t i = 0; i < GX_PAL_VRAM_SIZE; i++) p->pal[i] = (uint8_t)rnd(&seed);
    p->f->tex_vram = p->tex;
    p->f->pal_vram = p->pal;
    const unsigned isas = raster_span_isa_best() + 1u;
    p->ctab_form = raster_tex_ctab_best();
    p->ctab_entries = 0;
    p->nforms = isas + (p->ctab_form ? 1u : 0u);
    for (unsigned i = 0; i < p->nforms; i++) {
        p->fast[i] = raster_create();
        assert_non_null(p->fast[i]);
        assert_int_equal(p->fast[i]->span_isa, isas - 1);
        assert_int_equal(p->fast[i]->tex_ctab, p->ctab_form);
        p->fast[i]->span_isa = (uint8_t)(i < isas ? i : RASTER_SPAN_ISA_AVX2);
        p->fast[i]->tex_ctab = i >= isas;
    }
    p->ref = raster_create();
    assert_non_null(p->ref);
    p->ref->span_reference = true;
    p->ref_texels = p->ref->texcache.texels;
    p->ref->texcache.texels = NULL; /* no decoded textures: the per-format samplers */
}

static void pair_free(pair *p)
{
    /* (the compact form was drawn with: the random textures include 16- and 4-colour ones of
     * up to 256 texels, which have one) */
    if (p->ctab_form) assert_true(p->ctab_entries > 0);
    p->ref->texcache.texels = p->ref_texels;
    for (unsigned i = 0; i < p->nforms; i++) raster_destroy(p->fast[i]);
    raster_destroy(p->ref);
    free(p->f);
    free(p->tex);
    free(p->pal);
}

/* Render the pair's frame on the reference engine and on the fast engine of every form, and
 * compare everything they produced. */
static void render_compare(pair *p, unsigned frame)
{
    static const char *const names[FORMS] = {"scalar/reference", "SSE2/reference", "AVX2/reference",
                                             "AVX2 compact textures/reference"};
    raster_result rf, rr;
    raster_render(p->ref, p->f, &p->out_ref, &rr);
    for (unsigned i = 0; i < p->nforms; i++) {
        raster_render(p->fast[i], p->f, &p->out_fast, &rf);
        if (p->ctab_form && i + 1 == p->nforms) {
            const raster_tex_cache *tc = &p->fast[i]->texcache;
            for (uint32_t e = 0; e < tc->n; e++) p->ctab_entries += tc->entry[e].has_ctab;
        }
        same_frame(p->fast[i], p->ref, &p->out_fast, &p->out_ref, frame, names[i],
                   "the fast path differs from the reference path");
        assert_int_equal(rf.rdlines, rr.rdlines);
        assert_int_equal(rf.underflow, rr.underflow);
        assert_int_equal(rf.lines_cut, rr.lines_cut);
    }
}

/* Many random frames: few to many polygons per frame, every mode. */
static void test_random_frames(void **state)
{
    (void)state;
    uint32_t seed = 0x5EED1234u;
    pair p;
    pair_init(&p, 0xC0FFEEu);
    for (unsigned frame = 0; frame < 160; frame++) {
        unsigned n = (unsigned)(frame % 4 == 0 ? rnd_in(&seed, 200, 900) : rnd_in(&seed, 1, 80));
        random_frame(p.f, &seed, n);
        render_compare(&p, frame);
    }
    pair_free(&p);
}

/* Makes @p q an opaque (alpha 31, modulate), Z-buffered, non-shadow polygon, translucent only
 * through its texture format, and sets its sort key to match. */
static void make_opaque_zbuffered(gx_polygon *q)
{
    q->attr = (q->attr & ~(0x1Fu << 16) & ~(3u << 4)) | 31u << 16;
    q->wbuffer = false;
    q->shadow = q->shadow_mask = false;
    uint32_t fmt = teximage_format(q->teximage);
    q->translucent = fmt == TEXFMT_A3I5 || fmt == TEXFMT_A5I3;
    q->sort_key = (uint32_t)(q->ybottom << 8 | q->ytop) | (q->translucent ? 0x10000u : 0);
}

/* The common case of heavy scenes on its own: opaque, Z-buffered, linear (one W) textured
 * and untextured triangles of a few pixels, white or flat or per-vertex colours, no
 * anti-aliasing, over each other (depth test both ways, edge pixels underneath). */
/* 60 random frames without anti-aliasing, rendered by both engines of the pair and compared:
 * n_lo to n_hi random polygons each, every one reshaped by @p shape (drawing from @p seed). */
static void no_aa_frames(uint32_t seed, uint32_t pair_seed, unsigned n_lo, unsigned n_hi,
                         void (*shape)(gx_polygon *q, uint32_t *seed))
{
    pair p;
    pair_init(&p, pair_seed);
    for (unsigned frame = 0; frame < 60; frame++) {
        random_frame(p.f, &seed, 0);
        p.f->regs.disp3dcnt &= (uint16_t)~0x10u; /* no anti-aliasing */
        scene s = {.f = p.f, .r = NULL};
        unsigned n = (unsigned)rnd_in(&seed, n_lo, n_hi);
        for (unsigned k = 0; k < n; k++) {
            random_poly(&s, &seed);
            shape(&p.f->polys[p.f->npolys - 1], &seed);
        }
        render_compare(&p, frame);
    }
    pair_free(&p);
}

/* Seven polygons in eight: opaque, Z-buffered, one W. */
static void shape_small_linear(gx_polygon *q, uint32_t *seed)
{
    if (!one_in(seed, 8)) {
        for (int i = 1; i < q->nverts; i++) q->w[i] = q->w[0];
        make_opaque_zbuffered(q);
    }
}

static void test_small_linear_polygons(void **state)
{
    (void)state;
    no_aa_frames(0xABCDEF01u, 0x1234567u, 100, 1200, shape_small_linear);
}

/* As shape_small_linear, and a textured polygon's texture repeats on both axes without flip
 * three times in four (raster_span_k.plain: span_vec8.h's SPAN_TEX_PLAIN span functions, the
 * wrap from the accumulator's bits), with texture coordinates far apart (many wraps a line). */
static void shape_small_linear_plain(gx_polygon *q, uint32_t *seed)
{
    shape_small_linear(q, seed);
    if (q->teximage && !one_in(seed, 4)) q->teximage = (q->teximage & ~(0xFu << 16)) | 3u << 16;
}

static void test_small_linear_plain(void **state)
{
    (void)state;
    no_aa_frames(0x9A1B2C3Du, 0x7654321u, 100, 1200, shape_small_linear_plain);
}

/* The overlapping-edge rule of edge marking (raster/curse.c) on its own: edge marking on,
 * anti-aliasing off, opaque polygons of a few IDs over each other (most pixels meet an edge of
 * the same ID), linear (half of them: one W) and perspective, flat and per-vertex colours: the
 * rule's vector variants (roles per lane; four and eight lanes) against the generic ones.
 * @p plain: a textured polygon's texture repeats on both axes without flip three times in four
 * (raster_span_k.plain: curse.c's SPAN_TEX_PLAIN variants). */
static void edge_marking_frames(uint32_t seed, uint32_t pair_seed, bool plain)
{
    pair p;
    pair_init(&p, pair_seed);
    for (unsigned frame = 0; frame < 60; frame++) {
        random_frame(p.f, &seed, 0);
        p.f->regs.disp3dcnt = (uint16_t)((p.f->regs.disp3dcnt & ~0x10u) | 0x20u);
        scene s = {.f = p.f, .r = NULL};
        unsigned n = (unsigned)rnd_in(&seed, 20, 600);
        for (unsigned k = 0; k < n; k++) {
            random_poly(&s, &seed);
            gx_polygon *q = &p.f->polys[p.f->npolys - 1];
            if (!one_in(&seed, 8)) {
                uint32_t id = (uint32_t)rnd_in(&seed, 0, 2);
                q->attr =
                    (q->attr & ~(0x1Fu << 16) & ~(0x3Fu << 24) & ~(3u << 4)) | 31u << 16 | id << 24;
                if (one_in(&seed, 2)) {
                    /* linear (one W), Z-buffered: the rule's linear spans */
                    q->wbuffer = false;
                    for (int i = 1; i < q->nverts; i++) q->w[i] = q->w[0];
                }
                if (plain && q->teximage && !one_in(&seed, 4))
                    q->teximage = (q->teximage & ~(0xFu << 16)) | 3u << 16;
                uint32_t fmt = teximage_format(q->teximage);
                q->translucent = fmt == TEXFMT_A3I5 || fmt == TEXFMT_A5I3;
                q->shadow = q->shadow_mask = false;
                q->sort_key =
                    (uint32_t)(q->ybottom << 8 | q->ytop) | (q->translucent ? 0x10000u : 0);
            }
        }
        render_compare(&p, frame);
    }
    pair_free(&p);
}

static void test_edge_marking_rule(void **state)
{
    (void)state;
    edge_marking_frames(0x0DDBA11u, 0x7654321u, false);
}

static void test_edge_marking_rule_plain(void **state)
{
    (void)state;
    edge_marking_frames(0x0B5E55EDu, 0x3141593u, true);
}

/* One opaque polygon of ID @p id for test_edge_marking_rule_strips: @p n vertices @p xy
 * (clockwise on screen; X clamped to 0-256, as the geometry engine's are, unless @p past:
 * then up to 270, which the rasterizer cuts at 256 itself, as the timing model's cut does at
 * its own limit), depth @p z, linear (one W), modulated (mode 0) by texture @p tex with
 * palette @p pal. */
static void strip_poly(scene *s, int n, const int *xy, uint32_t id, int32_t z, uint32_t tex,
                       uint32_t pal, bool past, uint32_t *seed)
{
    int rev[8]; /* (given clockwise on screen: counter-clockwise, as scene_poly's front) */
    for (int i = 0; i < n; i++)
        rev[2 * i] = dsgx_clamp(xy[2 * (n - 1 - i)], 0, past ? 270 : 256),
                rev[2 * i + 1] = xy[2 * (n - 1 - i) + 1];
    gx_polygon *q = scene_poly(s, n, rev, attr_make(31, id, 0), z, true, 31, 31, 31);
    q->teximage = tex;
    q->pltt_base = pal;
    for (int i = 0; i < n; i++) {
        gx_vertex *v = &s->f->verts[q->vtx[i]];
        for (int c = 0; c < 3; c++) v->color[c] = (uint16_t)rnd_in(seed, 0, 511);
        for (int c = 0; c < 2; c++) v->texcoord[c] = (int16_t)rnd_in(seed, -2048, 2048);
        q->w[i] = 0x1000;
    }
}

/* The rule on one-pixel spans (span_pixel.h plot_lin1: the one-pixel spans of the vector
 * forms' linear lines, which carry the left run's role, or the right run's): polygons whose
 * edges meet one pixel wide, opaque, two IDs, modulated by a decoded texture (four small
 * textures a frame, drawn over more pixels than they have texels, so that the texture cache
 * decodes them: curse.c's textured variants), linear and Z-buffered, at random depths:
 * "walls" whose right edge is vertical (role right), "strips" one pixel wide on a wall's last
 * column (role left: wins over the wall's pixel, whatever the depths), "ramps" whose left edge
 * is X-major going right (a bottom run, filled with edge marking), "lids" whose top line has
 * role top, and lids with a slant on their top line cut to one pixel by the screen's right
 * end (a bottom run: loses to the lid's top line, whatever the depths; vertices past the
 * screen: strip_poly). Without the slants no
 * one-pixel span of these tests lost to the rule (a one-pixel span is its left run's pixel,
 * role left or top, unless the screen cuts it); with them ~10 do, ~1,000 win (counted with a
 * temporary counter in plot_lin1). */
static void test_edge_marking_rule_strips(void **state)
{
    (void)state;
    static const uint32_t fmts[] = {TEXFMT_PAL4, TEXFMT_PAL16, TEXFMT_PAL256, TEXFMT_COMPRESSED,
                                    TEXFMT_DIRECT};
    uint32_t seed = 0x71A7Eu;
    pair p;
    pair_init(&p, 0x5151u);
    for (unsigned frame = 0; frame < 40; frame++) {
        random_frame(p.f, &seed, 0);
        p.f->regs.disp3dcnt = (uint16_t)((p.f->regs.disp3dcnt & ~0x10u) | 0x21u);
        uint32_t tex[4], pal[4];
        for (int i = 0; i < 4; i++) {
            tex[i] = (rnd(&seed) & 0xFFFFu) | (rnd(&seed) & 0xFu) << 16 |
                     (uint32_t)rnd_in(&seed, 0, 1) << 20 | (uint32_t)rnd_in(&seed, 0, 1) << 23 |
                     fmts[rnd(&seed) % 5] << 26 | (rnd(&seed) & 1u) << 29;
            pal[i] = rnd(&seed) & 0x1FFFu;
        }
        scene s = {.f = p.f, .r = NULL};
        unsigned n = (unsigned)rnd_in(&seed, 100, 400);
        int cols[8];
        for (int i = 0; i < 8; i++) cols[i] = rnd_in(&seed, 20, 235);
        for (unsigned k = 0; k < n; k++) {
            int x = cols[rnd(&seed) % 8], y = rnd_in(&seed, 10, 170), h = rnd_in(&seed, 1, 12);
            int w = rnd_in(&seed, 2, 12);
            uint32_t id = (uint32_t)rnd_in(&seed, 0, 1), t = rnd(&seed) % 4;
            int32_t z = rnd_in(&seed, 0, 0xFFFFFF);
            int xy[8];
            int nv = 4;
            bool past = false;
            switch (rnd(&seed) % 5) {
            case 0: /* wall: right edge vertical at x + 1 (its last column x) */
                xy[0] = x - w, xy[1] = y, xy[2] = x + 1, xy[3] = y, xy[4] = x + 1, xy[5] = y + h;
                xy[6] = x - w, xy[7] = y + h;
                break;
            case 1: /* strip: column x only */
                xy[0] = x, xy[1] = y, xy[2] = x + 1, xy[3] = y, xy[4] = x + 1, xy[5] = y + h;
                xy[6] = x, xy[7] = y + h;
                break;
            case 2: /* ramp: left edge X-major going right down to column x */
                nv = 3;
                h = rnd_in(&seed, 1, 3);
                xy[0] = x - w - h, xy[1] = y, xy[2] = x + 1, xy[3] = y, xy[4] = x + 1;
                xy[5] = y + h;
                break;
            case 3: /* a lid (below), then a slant on its top line: one or two pixels wide,
                     * both edges X-major going right (the left one a bottom run, the right
                     * one a top run), at the screen's right end (clipped there: one pixel
                     * of its bottom run, which loses to the lid's top line whatever the
                     * depths) */
                x = rnd_in(&seed, 248, 258);
                past = true;
                xy[0] = x - 12, xy[1] = y, xy[2] = x + 12, xy[3] = y, xy[4] = x + 12;
                xy[5] = y + h, xy[6] = x - 12, xy[7] = y + h;
                strip_poly(&s, 4, xy, id, rnd_in(&seed, 0, 0xFFFFFF), tex[t], pal[t], true, &seed);
                h = rnd_in(&seed, 1, 4);
                w = rnd_in(&seed, 0, 1);
                xy[0] = x - h * 2, xy[1] = y, xy[2] = x - h * 2 + 1 + w, xy[3] = y;
                xy[4] = x + h * 2 + 1 + w, xy[5] = y + h, xy[6] = x + h * 2, xy[7] = y + h;
                break;
            default: /* lid: a flat top line over column x */
                xy[0] = x - w, xy[1] = y, xy[2] = x + w, xy[3] = y, xy[4] = x + w, xy[5] = y + h;
                xy[6] = x - w, xy[7] = y + h;
                break;
            }
            strip_poly(&s, nv, xy, id, z, tex[t], pal[t], past, &seed);
        }
        render_compare(&p, frame);
    }
    pair_free(&p);
}

/* The ranges where the perspective vector steps' arithmetic is exact (span_pixel.h persp_ok,
 * span_vec8.h persp8_ok and its fold into the one step of eight pixels): opaque Z-buffered
 * perspective polygons, mostly of a few pixels, some of whose vertices have W 0-3 (a factor
 * denominator of 0 or below at one end of a span: the check decides at the first or the last
 * pixel) or very different W. A check that let such a span through would draw it with the
 * vector arithmetic where the reference's wraps. */
/* Opaque, Z-buffered; each vertex's W 0-3, near 0xFFFF, or anywhere from 0x100. */
static void shape_persp_ranges(gx_polygon *q, uint32_t *seed)
{
    make_opaque_zbuffered(q);
    for (int i = 0; i < q->nverts; i++) {
        switch (rnd(seed) % 4) {
        case 0: q->w[i] = rnd_in(seed, 0, 3); break;
        case 1: q->w[i] = rnd_in(seed, 0xF000, 0xFFFF); break;
        default: q->w[i] = rnd_in(seed, 0x100, 0xFFFF); break;
        }
    }
}

static void test_persp_ranges(void **state)
{
    (void)state;
    no_aa_frames(0xFAC7025u, 0x2468ACEu, 50, 400, shape_persp_ranges);
}

/* Perspective polygons whose texture repeats on both axes without flip (raster_span_k.plain:
 * span_fns_vec8.c's span_fn_q*p_*, the wrap from the attribute's one shift): opaque,
 * Z-buffered, seven in eight, each vertex's W anywhere from 0x100; the texture plain three
 * times in four, with texture coordinates far apart (many wraps a line). */
static void shape_persp_plain(gx_polygon *q, uint32_t *seed)
{
    if (one_in(seed, 8)) return;
    make_opaque_zbuffered(q);
    for (int i = 0; i < q->nverts; i++) q->w[i] = rnd_in(seed, 0x100, 0xFFFF);
    if (q->teximage && !one_in(seed, 4)) q->teximage = (q->teximage & ~(0xFu << 16)) | 3u << 16;
}

static void test_persp_plain(void **state)
{
    (void)state;
    no_aa_frames(0x9E75F1A7u, 0x1357BDFu, 50, 600, shape_persp_plain);
}

int main(void)
{
    print_message("AVX2 with compact textures (AVX-512 VBMI): %s\n",
                  raster_tex_ctab_best() ? "compared"
                                         : "not in this build or on this processor, not compared");
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_frames),
        cmocka_unit_test(test_small_linear_polygons),
        cmocka_unit_test(test_edge_marking_rule),
        cmocka_unit_test(test_edge_marking_rule_strips),
        cmocka_unit_test(test_persp_ranges),
        cmocka_unit_test(test_small_linear_plain),
        cmocka_unit_test(test_edge_marking_rule_plain),
        cmocka_unit_test(test_persp_plain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
