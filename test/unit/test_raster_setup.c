/*
 * test_raster_setup.c - per-polygon set-up through the scanline loop (raster/setup.c): a
 * polygon's state slot is reused by the next polygon (raster_engine.slot), which keeps the
 * slot's material state (attribute word, depth test, shader, span functions and their
 * constants) only when the new polygon has the same POLYGON_ATTR, TEXIMAGE_PARAM, PLTT_BASE,
 * facing and buffer mode in the same frame (setup.c material_reusable). Each test draws
 * polygons that one after the other take the same slot (each ends above the next one's top
 * line) and differ in one of those inputs, and checks that each polygon's pixels carry its
 * own material: a slot that kept the previous polygon's state would fail them.
 * Expected words from melonDS GPU3D_Soft.cpp's attribute buffer (raster_internal.h layout).
 * Also the frame's render list (which polygons are drawn, in which order, their screen
 * extent) against a plain filter and insertion sort on random frames, and the texture cache's
 * plan (setup.c plan_runs: one call per run of a texture, the run's area summed up to the
 * texel count) against a call per polygon, on random frames and every golden/ref frame.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "raster_scene.h"
#include "tools/core/system.h"
#include "tools/core/trace.h"

/* An 8x8 square from row y to row y + 8 (drawn on rows y..y+7). */
static gx_polygon *square(scene *s, int y, uint32_t attr, int32_t z, bool front, unsigned r5,
                          unsigned g5, unsigned b5)
{
    const int cw[] = {10, y, 10, y + 8, 18, y + 8, 18, y};
    const int ccw[] = {10, y, 18, y, 18, y + 8, 10, y + 8};
    return scene_poly(s, 4, front ? cw : ccw, attr, z, front, r5, g5, b5);
}

/* Polygon ID and facing: the opaque attribute word (ID << 24, back-facing bit 4) and the
 * colour are the new polygon's, also where only one of them changes. */
static void test_slot_reuse_attr_and_facing(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    square(&s, 10, attr_make(31, 5, 0), 0x1000, true, 31, 0, 0);  /* red, ID 5 */
    square(&s, 30, attr_make(31, 9, 0), 0x1000, true, 31, 0, 0);  /* ID 9 */
    square(&s, 50, attr_make(31, 9, 0), 0x1000, false, 31, 0, 0); /* ID 9, back-facing */
    square(&s, 70, attr_make(31, 9, 0), 0x1000, false, 0, 31, 0); /* same material, green */
    scene_draw(&s, false, 0x7FFFFF);

    assert_int_equal(scene_attr(&s, 14, 14) >> 24, 5);
    assert_int_equal(scene_attr(&s, 14, 14) & RASTER_ATTR_BACKFACE, 0);
    assert_int_equal(scene_attr(&s, 14, 34) >> 24, 9);
    assert_int_equal(scene_attr(&s, 14, 34) & RASTER_ATTR_BACKFACE, 0);
    assert_int_equal(scene_attr(&s, 14, 54) >> 24, 9);
    assert_int_equal(scene_attr(&s, 14, 54) & RASTER_ATTR_BACKFACE, RASTER_ATTR_BACKFACE);
    assert_int_equal(scene_attr(&s, 14, 74) >> 24, 9);
    assert_int_equal(scene_attr(&s, 14, 74) & RASTER_ATTR_BACKFACE, RASTER_ATTR_BACKFACE);
    /* colour 31 -> 9-bit 0x1FF -> 6-bit 63 (vertex colour shading) */
    assert_int_equal(scene_color(&s, 14, 54), dsgx_pixel(63, 0, 0, 31));
    assert_int_equal(scene_color(&s, 14, 74), dsgx_pixel(0, 63, 0, 31));
    scene_free(&s);
}

/* Polygon alpha (POLYGON_ATTR bits 16-20): an opaque polygon after a translucent one of the
 * same ID is written as opaque (alpha 31, no translucent flag), and the translucent one after
 * it as translucent again. */
static void test_slot_reuse_alpha(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    square(&s, 10, attr_make(15, 3, 0), 0x1000, true, 0, 0, 31); /* translucent */
    square(&s, 30, attr_make(31, 3, 0), 0x1000, true, 0, 0, 31); /* opaque */
    square(&s, 50, attr_make(15, 3, 0), 0x1000, true, 0, 0, 31); /* translucent */
    scene_draw(&s, false, 0x7FFFFF);
    /* translucent over the clear colour (alpha 0): the source itself, alpha 15 */
    assert_int_equal(scene_color(&s, 14, 14), dsgx_pixel(0, 0, 63, 15));
    assert_true(scene_attr(&s, 14, 14) & RASTER_ATTR_TRANSLUCENT);
    assert_int_equal(scene_color(&s, 14, 34), dsgx_pixel(0, 0, 63, 31));
    assert_false(scene_attr(&s, 14, 34) & RASTER_ATTR_TRANSLUCENT);
    assert_int_equal(scene_color(&s, 14, 54), dsgx_pixel(0, 0, 63, 15));
    assert_true(scene_attr(&s, 14, 54) & RASTER_ATTR_TRANSLUCENT);
    scene_free(&s);
}

/* A square whose depth goes from 0x1000 on its left edge to 0x9000 on its right one. */
static gx_polygon *deep_square(scene *s, int y, bool wbuffer)
{
    gx_polygon *p = square(s, y, attr_make(31, 1, 0), 0, true, 31, 31, 31);
    for (unsigned i = 0; i < p->nverts; i++)
        p->z[i] = s->f->verts[p->vtx[i]].sx == 10 ? 0x1000 : 0x9000;
    p->wbuffer = wbuffer;
    return p;
}

/* Buffer mode: W-buffered and Z-buffered polygons of the same attributes in turn; the span
 * function, chosen by it, must be the polygon's own. Pixel x = 14 of a span from x = 10 to
 * 17 (the right vertical edge at 18 is drawn at 17: xdiff 8), xr = 4:
 *  - Z-buffer (interp.h raster_interp_z along X): 0x1000 + (((0x8000 >> 9) * 4 * xrecip_z)
 *    >> 13) with xrecip_z = 2^22 / 8 = 0x80000: 0x1000 + (2^27 >> 13) = 0x5000;
 *  - W-buffer: the depth takes the perspective factor, which is 0 on a linear span (equal
 *    W, scene_poly's 0x1000): the left edge's 0x1000. */
static void test_slot_reuse_wbuffer(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    deep_square(&s, 10, false);
    deep_square(&s, 30, true);
    deep_square(&s, 50, false);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_depth(&s, 14, 14), 0x5000);
    assert_int_equal(scene_depth(&s, 14, 34), 0x1000);
    assert_int_equal(scene_depth(&s, 14, 54), 0x5000);
    scene_free(&s);
}

/* Frames: the same polygon in the same slot in the next frame is set up again, with that
 * frame's engine state. Alpha test on (DISP3DCNT bit 2) with ALPHA_TEST_REF 20 drops the
 * second frame's alpha-15 pixels (alpha <= ref), which the first frame drew. */
static void test_slot_reuse_next_frame(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    square(&s, 10, attr_make(15, 2, 0), 0x1000, true, 31, 31, 31);
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 14, 14), dsgx_pixel(63, 63, 63, 15));

    s.f->regs.disp3dcnt = 0x0004;
    s.f->regs.alpha_ref = 20;
    scene_draw(&s, false, 0x7FFFFF);
    assert_int_equal(scene_color(&s, 14, 14), 0);
    scene_free(&s);
}

/* ---- the render list (setup.c raster_setup_frame) against a plain reference ---- */

static uint32_t rnd(uint64_t *st)
{
    *st = *st * 6364136223846793005u + 1442695040888963407u;
    return (uint32_t)(*st >> 33);
}

/* Drawn at all: 1..GX_MAX_POLY_VERTS vertices, each index in vertex RAM with W != 0, bottom Y
 * at most 192 (melonDS's Degenerate flag). */
static bool ref_drawable(const gx_frame *f, const gx_polygon *p)
{
    if (p->nverts == 0 || p->nverts > GX_MAX_POLY_VERTS || p->ybottom > 192) return false;
    for (unsigned k = 0; k < p->nverts; k++)
        if (p->vtx[k] >= GX_MAX_VERTICES || f->verts[p->vtx[k]].clip[3] == 0) return false;
    return true;
}

/* The drawing-order key: translucent after opaque; then bottom Y, top Y (low bytes), except
 * translucent polygons under manual sort, which keep their submission order. */
static uint32_t ref_key(const gx_polygon *p, bool manual)
{
    uint32_t key = ((uint32_t)p->ybottom & 0xFFu) << 8 | ((uint32_t)p->ytop & 0xFFu);
    if (p->translucent && manual) key = 0;
    return (p->translucent ? 0x10000u : 0u) | key;
}

/* Random frames, some submitted in drawing order already (the set-up then skips its sort),
 * some not, some in order up to a point, some with polygons that are not drawn: the list (insertion
 * sort, stable, of the drawn polygons), each polygon's extent (min/max vertex X, top and bottom
 * line), the shadow flag and the top-line check equal the reference's. */
static void test_render_list_matches_ref(void **state)
{
    (void)state;
    gx_frame *f = calloc(1, sizeof *f);
    raster_engine *r = raster_create();
    assert_non_null(f);
    assert_non_null(r);
    raster_pixel_frame_setup(&r->pixel, &f->regs);
    static const gx_polygon *ref[GX_MAX_POLYGONS];
    uint64_t st = 11;
    for (int frame = 0; frame < 300; frame++) {
        uint32_t n = frame % 7 == 0 ? rnd(&st) % 4 : 1 + rnd(&st) % GX_MAX_POLYGONS;
        bool manual = rnd(&st) & 1, in_order = frame % 3 == 0, some_undrawn = frame % 4 == 1;
        /* (a prefix in drawing order, then not: the set-up writes the list in place until its
         * first entry out of order, then moves it aside and sorts) */
        uint32_t ordered = in_order ? n : frame % 5 == 2 ? (uint32_t)(rnd(&st) % (n + 1u)) : 0u;
        f->regs.swap_param = manual ? 1u : 0u;
        f->npolys = n;
        f->nverts = GX_MAX_VERTICES;
        for (uint32_t v = 0; v < GX_MAX_VERTICES; v++) {
            f->verts[v].sx = (int32_t)(rnd(&st) % 540) - 10;
            f->verts[v].sy = (int32_t)(rnd(&st) % 200);
            f->verts[v].clip[3] = some_undrawn && rnd(&st) % 64 == 0 ? 0 : 0x1000;
        }
        uint32_t y = 0;
        for (uint32_t i = 0; i < n; i++) {
            gx_polygon *p = &f->polys[i];
            memset(p, 0, sizeof *p);
            p->nverts = (uint8_t)(3 + rnd(&st) % 2);
            if (some_undrawn && rnd(&st) % 50 == 0) p->nverts = 0;
            int32_t top = 1000, bottom = -1000;
            for (unsigned k = 0; k < p->nverts; k++) {
                p->vtx[k] = (uint16_t)(rnd(&st) % GX_MAX_VERTICES);
                if (some_undrawn && rnd(&st) % 200 == 0)
                    p->vtx[k] = GX_MAX_VERTICES + 3;
                else {
                    int32_t sy = f->verts[p->vtx[k]].sy;
                    top = sy < top ? sy : top;
                    bottom = sy > bottom ? sy : bottom;
                }
            }
            p->translucent = rnd(&st) % 4 == 0;
            p->attr = rnd(&st) % 16 == 0 ? 3u << 4 : 0u; /* (mode 3: shadow) */
            p->ytop = top;
            p->ybottom = bottom;
            if (i < ordered) { /* keys ascending: bottom Y never decreasing, top 2 above it;
                                * the translucent ones last */
                y += rnd(&st) % 3 == 0;
                p->ybottom = (int32_t)(y > 192 ? 192 : y);
                p->ytop = p->ybottom < 2 ? 0 : p->ybottom - 2;
                p->translucent = i >= n / 2 && frame % 2 == 0;
            }
            if (rnd(&st) % 100 == 0) p->ytop = -(int32_t)(rnd(&st) % 5); /* (above the screen) */
        }
        raster_setup_frame(r, f, f);

        uint32_t m = 0;
        bool shadows = false, ytop_ok = true;
        for (uint32_t i = 0; i < n; i++) {
            const gx_polygon *p = &f->polys[i];
            if (!ref_drawable(f, p)) continue;
            shadows |= polyattr_mode(p->attr) == POLYMODE_SHADOW;
            ytop_ok &= p->ytop >= 0 && p->ytop <= p->ybottom;
            uint32_t j = m++;
            for (; j > 0 && ref_key(ref[j - 1], manual) > ref_key(p, manual); j--)
                ref[j] = ref[j - 1];
            ref[j] = p;
        }
        assert_int_equal(r->npolys, m);
        assert_int_equal(r->has_shadows, shadows);
        assert_int_equal(r->list_ytop_ok, ytop_ok);
        for (uint32_t k = 0; k < m; k++) {
            const gx_polygon *p = ref[k];
            assert_ptr_equal(r->list[k], p);
            int32_t x0 = INT32_MAX, x1 = INT32_MIN;
            for (unsigned v = 0; v < p->nverts; v++) {
                int32_t x = f->verts[p->vtx[v]].sx;
                x0 = x < x0 ? x : x0;
                x1 = x > x1 ? x : x1;
            }
            assert_int_equal(r->box[k].x0, x0);
            assert_int_equal(r->box[k].x1, x1);
            assert_int_equal(r->box[k].ytop, p->ytop);
            assert_int_equal(r->box[k].ybottom, p->ybottom);
        }
    }
    raster_destroy(r);
    free(f);
}

/* ---- the texture cache's plan (setup.c plan_runs) against a call per polygon ---- */

/* The reference: raster_tex_cache_plan for every polygon of the list in order, each with its
 * own bounding box's area (pixel.h: "every polygon, before any is drawn"). */
static void plan_ref(raster_engine *r, const gx_frame *f)
{
    raster_tex_cache_reset(&r->texcache);
    for (uint32_t i = 0; i < r->npolys; i++) {
        const gx_polygon *p = r->list[i];
        const raster_list_box *bx = &r->box[i];
        uint32_t a = (uint32_t)(bx->x1 - bx->x0 + 1) * (uint32_t)(bx->ybottom - bx->ytop + 1);
        raster_tex_cache_plan(&r->texcache, &r->pixel, p->attr, p->teximage, p->pltt_base,
                              f->tex_vram, f->pal_vram, a);
    }
}

/* What the cache's plan left that the frame's pixels can depend on: its entries (texture,
 * palette, where decoded), the decoded texels, and each entry's area up to its texel count
 * (an entry whose area reached it is decoded or never will be: beyond, the area is not read;
 * plan_runs stops summing there). */
typedef struct plan_state {
    uint32_t used, n;
    uint32_t key[RASTER_TEX_CACHE_ENTRIES], pal[RASTER_TEX_CACHE_ENTRIES];
    uint32_t offset[RASTER_TEX_CACHE_ENTRIES], area[RASTER_TEX_CACHE_ENTRIES];
    uint32_t *texels; /* RASTER_TEX_CACHE_TEXELS */
} plan_state;

static void plan_take(const raster_tex_cache *c, plan_state *st)
{
    st->used = c->used;
    st->n = c->n;
    for (uint32_t i = 0; i < c->n; i++) {
        uint32_t key = c->entry[i].key;
        uint32_t texels = (64u << teximage_size_s(key)) << teximage_size_t(key);
        st->key[i] = key;
        st->pal[i] = c->entry[i].pal;
        st->offset[i] = c->entry[i].offset;
        st->area[i] = c->entry[i].area < texels ? c->entry[i].area : texels;
    }
    memcpy(st->texels, c->texels, c->used * sizeof c->texels[0]);
}

/* The cache as raster_setup_frame planned it against plan_ref's, on the engine's last frame
 * @p f (its list and boxes). @p decoded, @p partial: counts the frame's decoded entries and
 * its entries with an area short of their texel count. */
static void plan_check(raster_engine *r, const gx_frame *f, plan_state *a, plan_state *b,
                       const char *what, unsigned frame, unsigned *decoded, unsigned *partial)
{
    assert_non_null(r->texcache.texels);
    plan_take(&r->texcache, a);
    plan_ref(r, f);
    plan_take(&r->texcache, b);
    if (a->n != b->n || a->used != b->used)
        fail_msg("%s frame %u: %u entries, %u texels; reference %u, %u", what, frame, a->n, a->used,
                 b->n, b->used);
    for (uint32_t i = 0; i < a->n; i++) {
        if (a->key[i] != b->key[i] || a->pal[i] != b->pal[i] || a->offset[i] != b->offset[i] ||
            a->area[i] != b->area[i])
            fail_msg("%s frame %u entry %u: %08x %04x at %u area %u; reference %08x %04x at %u "
                     "area %u",
                     what, frame, i, a->key[i], a->pal[i], a->offset[i], a->area[i], b->key[i],
                     b->pal[i], b->offset[i], b->area[i]);
        *decoded += a->offset[i] != UINT32_MAX;
        *partial += a->offset[i] == UINT32_MAX && a->area[i] > 0 &&
                    a->area[i] < (64u << teximage_size_s(a->key[i])) << teximage_size_t(a->key[i]);
    }
    if (memcmp(a->texels, b->texels, a->used * sizeof a->texels[0]) != 0)
        fail_msg("%s frame %u: decoded texels differ", what, frame);
}

static void plan_state_init(plan_state *st)
{
    st->texels = malloc(RASTER_TEX_CACHE_TEXELS * sizeof st->texels[0]);
    assert_non_null(st->texels);
}

/* Random frames with texturing on: runs of polygons of one texture (of a small set, so that a
 * texture comes back after others; untextured ones, ones too big for the cache, more than its
 * entries, more texels than its budget in some frames), boxes small and large, the list in
 * polygon-RAM order (runs found in the set-up's pass) or not (found in the sorted list). */
static void test_texture_plan_matches_ref(void **state)
{
    (void)state;
    gx_frame *f = calloc(1, sizeof *f);
    uint8_t *tex = malloc(GX_TEX_VRAM_SIZE), *pal = malloc(GX_PAL_VRAM_SIZE);
    raster_engine *r = raster_create();
    assert_non_null(f);
    assert_non_null(tex);
    assert_non_null(pal);
    assert_non_null(r);
    plan_state a, b;
    plan_state_init(&a);
    plan_state_init(&b);
    uint64_t st = 23;
    for (uint32_t k = 0; k < GX_TEX_VRAM_SIZE; k++) tex[k] = (uint8_t)rnd(&st);
    for (uint32_t k = 0; k < GX_PAL_VRAM_SIZE; k++) pal[k] = (uint8_t)rnd(&st);
    f->tex_vram = tex;
    f->pal_vram = pal;
    f->regs.disp3dcnt = 0x0001; /* (texturing) */
    raster_pixel_frame_setup(&r->pixel, &f->regs);
    unsigned decoded = 0, partial = 0, full = 0;
    for (unsigned frame = 0; frame < 200; frame++) {
        /* (every fifth frame: many large textures, more than the cache's entries or texels) */
        bool many = frame % 5 == 0, in_order = frame % 2 == 0;
        uint32_t n = many             ? GX_MAX_POLYGONS - rnd(&st) % 200
                     : frame % 9 == 1 ? rnd(&st) % 4
                                      : 1 + rnd(&st) % GX_MAX_POLYGONS;
        uint32_t ntex = many ? 70 + rnd(&st) % 30 : 1 + rnd(&st) % 12, texs[100], pltts[100];
        uint32_t small = many ? 3 : 0, big = many || frame % 7 == 3 ? 4 : 2;
        for (uint32_t t = 0; t < ntex; t++) {
            uint32_t fmt = rnd(&st) % 8, ss = small + rnd(&st) % (big - small + 1),
                     tt = small + rnd(&st) % (big - small + 1);
            if (rnd(&st) % 20 == 0) ss = 5 + rnd(&st) % 3; /* (too big for the cache) */
            texs[t] = (rnd(&st) & 0xFFFFu) | (rnd(&st) & 0xFu) << 16 | ss << 20 | tt << 23 |
                      fmt << 26 | (rnd(&st) & 1u) << 29 | (rnd(&st) & 3u) << 30;
            pltts[t] = rnd(&st) % 3 == 0 ? rnd(&st) & 0x1FFFu : 0;
            if (t > 0 && rnd(&st) % 4 == 0) { /* (the one before with another palette) */
                texs[t] = texs[t - 1];
                pltts[t] = (pltts[t - 1] + 1u + rnd(&st) % 0x1FFEu) & 0x1FFFu;
            }
        }
        uint32_t span = many || frame % 3 == 2 ? 400 : frame % 3 == 0 ? 8 : 40; /* (box sizes) */
        uint32_t tall = many ? 60 : 12;
        f->npolys = n;
        f->nverts = GX_MAX_VERTICES;
        for (uint32_t v = 0; v < GX_MAX_VERTICES; v++) {
            f->verts[v].sx = (int32_t)(rnd(&st) % 400);
            f->verts[v].sy = (int32_t)(rnd(&st) % 192);
            f->verts[v].clip[3] = 0x1000;
        }
        uint32_t t = 0, left = 0;
        for (uint32_t i = 0; i < n; i++) {
            gx_polygon *p = &f->polys[i];
            memset(p, 0, sizeof *p);
            if (left == 0) { /* (the next run) */
                t = rnd(&st) % ntex;
                left = 1 + rnd(&st) % (rnd(&st) % 4 == 0 ? 300 : 20);
            }
            left--;
            p->teximage = texs[t];
            p->pltt_base = pltts[t];
            p->attr = rnd(&st) % 4 == 0 ? rnd(&st) : 0;
            p->nverts = 3;
            uint32_t v0 = rnd(&st) % (GX_MAX_VERTICES - 2);
            int32_t x = (int32_t)(rnd(&st) % 256), y = (int32_t)(rnd(&st) % 180);
            for (unsigned k = 0; k < 3; k++) { /* (vertices near (x, y): the box's size) */
                p->vtx[k] = (uint16_t)(v0 + k);
                f->verts[v0 + k].sx = x + (int32_t)(rnd(&st) % span);
                f->verts[v0 + k].sy = y + (int32_t)(rnd(&st) % tall);
            }
            p->ytop = y;
            p->ybottom = y + (int32_t)(rnd(&st) % tall);
            if (p->ybottom > 192) p->ybottom = 192;
            if (in_order) { /* (keys ascending: one line, going down) */
                p->ytop = p->ybottom = (int32_t)(i * 192 / (n ? n : 1));
            }
        }
        raster_tex_cache_reset(&r->texcache);
        raster_setup_frame(r, f, f);
        plan_check(r, f, &a, &b, "random", frame, &decoded, &partial);
        full += a.used + 128u * 128u > RASTER_TEX_CACHE_TEXELS || a.n == RASTER_TEX_CACHE_ENTRIES;
    }
    /* (the cases are met: textures decoded, short of their texel count, the budget or the
     * entries spent) */
    assert_true(decoded > 100);
    assert_true(partial > 100);
    assert_true(full > 10);
    free(a.texels);
    free(b.texels);
    raster_destroy(r);
    free(tex);
    free(pal);
    free(f);
}

typedef struct plan_golden {
    plan_state a, b;
    const char *name;
    unsigned frames, decoded, partial;
} plan_golden;

static void plan_on_frame(void *user, unsigned index, dsgx_system *s)
{
    plan_golden *g = user;
    raster_engine *r = s->raster;
    plan_check(r, r->frame, &g->a, &g->b, g->name, index, &g->decoded, &g->partial);
    g->frames++;
}

/* Every frame of every golden/ref trace: its cache as the render planned it (the system
 * renders on the replay's thread: the engine's list, boxes and frame are the last frame's in
 * the callback) against plan_ref's. */
static void test_texture_plan_golden(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/ref", DSGX_GOLDEN_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    static plan_golden g;
    plan_state_init(&g.a);
    plan_state_init(&g.b);
    unsigned traces = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len < 7 || strcmp(e->d_name + len - 6, ".trace") != 0) continue;
        char path[1024], err[512];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        dsgx_trace t = {0};
        if (dsgx_trace_load(&t, path, err, sizeof err) != 0) fail_msg("%s", err);
        dsgx_system *s = dsgx_system_create();
        assert_non_null(s);
        g.name = e->d_name;
        dsgx_system_replay(s, &t, plan_on_frame, &g);
        dsgx_system_destroy(s);
        dsgx_trace_free(&t);
        traces++;
    }
    closedir(d);
    assert_true(traces >= 40);
    assert_true(g.frames >= traces);
    assert_true(g.decoded > 0);
    free(g.a.texels);
    free(g.b.texels);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slot_reuse_attr_and_facing),
        cmocka_unit_test(test_slot_reuse_alpha),
        cmocka_unit_test(test_slot_reuse_wbuffer),
        cmocka_unit_test(test_slot_reuse_next_frame),
        cmocka_unit_test(test_render_list_matches_ref),
        cmocka_unit_test(test_texture_plan_matches_ref),
        cmocka_unit_test(test_texture_plan_golden),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
