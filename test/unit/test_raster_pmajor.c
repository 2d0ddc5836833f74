/*
 * test_raster_pmajor.c - frames drawn polygon by polygon (raster/span.c raster_draw_band_pmajor:
 * each polygon over all its lines, in render-list order, the timing recorded per line and
 * replayed) against the same frames drawn scanline by scanline (raster_draw_band, the
 * reference: raster_engine.scanline_order), frame for frame.
 *
 * Random frames of every kind of polygon (size and shape, one or several W, W bits 0-6 clear or
 * not, Z or W-buffer, colours, textures of every format, alpha, ID, depth tests, modes with
 * shadow polygons and masks in some frames, which are drawn scanline by scanline) and every
 * DISP3DCNT mode (alpha test, blending, anti-aliasing, edge marking, fog, the rear-plane
 * bitmap), light and overloaded (the timing model cuts lines: the polygon-major frame then
 * goes back to the scanline order), on one thread and on two; the engines render sequences of
 * frames, so that every frame after the first is timed; half the frames are also drawn polygon
 * by polygon when the timing model may cut it (raster_engine.pmajor_unchecked), so that the
 * redraw after a cut is tested too. Both layers of the colour, depth and attribute buffers, the
 * output frame and the timing results must be identical.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raster/threads.h"
#include "raster_compare.h"
#include "raster_scene.h"
#include "test_rand.h"

/* TEXIMAGE_PARAM: untextured half of the time, else any format, size, wrap mode, offset. */
static uint32_t rnd_teximage(uint32_t *s)
{
    if (one_in(s, 2)) return 0;
    uint32_t fmt = (uint32_t)rnd_in(s, 1, 7);
    uint32_t ss = (uint32_t)rnd_in(s, 0, 4), st = (uint32_t)rnd_in(s, 0, 4);
    return (rnd(s) & 0xFFFFu) | (rnd(s) & 0xFu) << 16 | ss << 20 | st << 23 | fmt << 26 |
           (rnd(s) & 1u) << 29;
}

/* One random polygon; @p shadows: shadow polygons and masks may be among them; @p size_max:
 * the largest polygons' half extent. */
static void random_poly(scene *s, uint32_t *seed, bool shadows, int size_max)
{
    int nv = rnd_in(seed, 3, 6);
    static const int sizes[] = {0, 1, 3, 12, 40};
    int size = one_in(seed, 6) ? size_max : sizes[rnd(seed) % 5];
    int xy[12];
    int cx = rnd_in(seed, -20, 275), cy = rnd_in(seed, -10, 200);
    for (int i = 0; i < nv; i++) {
        xy[2 * i] = dsgx_clamp(cx + rnd_in(seed, -size, size), 0, 256);
        xy[2 * i + 1] = dsgx_clamp(cy + rnd_in(seed, -size, size), 0, 192);
    }
    if (one_in(seed, 10)) xy[2] = xy[0], xy[3] = xy[1]; /* a shared vertex: line polygons */
    uint32_t alpha = one_in(seed, 4) ? (uint32_t)rnd_in(seed, 0, 30) : 31u;
    uint32_t mode = shadows && one_in(seed, 8) ? POLYMODE_SHADOW : (uint32_t)rnd_in(seed, 0, 2);
    uint32_t id = one_in(seed, 4) ? 0u : (uint32_t)rnd_in(seed, 0, 3);
    uint32_t attr = attr_make(alpha, id, mode) | (rnd(seed) & 1u) << 11 |
                    (one_in(seed, 8) ? 1u << 14 : 0u) | (rnd(seed) & 1u) << 15;
    gx_polygon *p = scene_poly(s, nv, xy, attr, 0, rnd(seed) % 2 != 0, 31, 31, 31);
    p->teximage = rnd_teximage(seed);
    p->pltt_base = rnd(seed) & 0x1FFFu;
    p->wbuffer = one_in(seed, 6);
    uint32_t fmt = teximage_format(p->teximage);
    p->translucent =
        ((fmt == TEXFMT_A3I5 || fmt == TEXFMT_A5I3) && !(mode & 1u)) || (alpha > 0 && alpha < 31);
    p->sort_key = (uint32_t)(p->ybottom << 8 | p->ytop) | (p->translucent ? 0x10000u : 0);

    /* W: one value with bits 0-6 clear (the linear line set-up), one with low bits, or one
     * per vertex (perspective); depth: one, close or any */
    uint32_t wkind = rnd(seed) % 4;
    int32_t w0 = rnd_in(seed, 0x100, 0xFFFF);
    if (wkind < 2) w0 = (w0 & 0xFF80) | 0x80;
    int32_t z0 = rnd_in(seed, 0, 0xFFFFFF);
    int zmode = (int)(rnd(seed) % 3);
    bool flat = one_in(seed, 2);
    uint16_t col[3];
    for (int c = 0; c < 3; c++) col[c] = (uint16_t)rnd_in(seed, 0, 511);
    int32_t t0 = rnd_in(seed, -4096, 4096), tr = one_in(seed, 2) ? 64 : 8192;
    for (int i = 0; i < nv; i++) {
        gx_vertex *v = &s->f->verts[p->vtx[i]];
        for (int c = 0; c < 3; c++) v->color[c] = flat ? col[c] : (uint16_t)rnd_in(seed, 0, 511);
        for (int c = 0; c < 2; c++)
            v->texcoord[c] = (int16_t)dsgx_clamp(t0 + rnd_in(seed, -tr, tr), -32768, 32767);
        p->w[i] = wkind == 3 ? rnd_in(seed, 0x100, 0xFFFF) : w0;
        p->z[i] = zmode == 0   ? z0
                  : zmode == 1 ? dsgx_clamp(z0 + rnd_in(seed, -0x400, 0x400), 0, 0xFFFFFF)
                               : rnd_in(seed, 0, 0xFFFFFF);
    }
}

/* A random frame of @p n polygons with random rendering registers. */
static void random_frame(gx_frame *f, uint32_t *seed, unsigned n, bool shadows, int size_max)
{
    scene s = {.f = f, .r = NULL};
    const uint8_t *tex = f->tex_vram, *pal = f->pal_vram;
    memset(f, 0, sizeof *f);
    f->tex_vram = tex;
    f->pal_vram = pal;
    gx_render_regs *g = &f->regs;
    /* texturing mostly on; highlight, alpha test, blending, anti-aliasing, edge marking, fog,
     * now and then the rear-plane bitmap (no lazy clear) */
    g->disp3dcnt = (uint16_t)((one_in(seed, 8) ? 0u : 1u) | (rnd(seed) & 0xEu) |
                              (one_in(seed, 4) ? 0x10u : 0u) | (one_in(seed, 3) ? 0x20u : 0u) |
                              (one_in(seed, 4) ? 0x80u : 0u) | (rnd(seed) & 0x40u) |
                              (rnd(seed) & 0xF00u) | (one_in(seed, 10) ? 0x4000u : 0u));
    g->alpha_ref = (uint8_t)(rnd(seed) & 0x1Fu);
    g->clear_color = rnd(seed) & 0x3F1FFFFFu;
    g->clear_depth = (uint16_t)(one_in(seed, 2) ? 0x7FFF : rnd(seed) & 0x7FFF);
    g->fog_color = rnd(seed);
    g->fog_offset = (uint16_t)(rnd(seed) & 0x7FFF);
    for (int i = 0; i < 8; i++) g->edge_color[i] = (uint16_t)rnd(seed);
    for (int i = 0; i < 32; i++) g->fog_table[i] = (uint8_t)(rnd(seed) & 0x7Fu);
    for (int i = 0; i < 32; i++) g->toon_table[i] = (uint16_t)rnd(seed);
    g->swap_param = rnd(seed) & 1u;
    for (unsigned k = 0; k < n && f->nverts + 6 <= GX_MAX_VERTICES; k++)
        random_poly(&s, seed, shadows, size_max);
}

typedef struct pair {
    gx_frame *f;
    uint8_t *tex, *pal;
    raster_engine *fast, *ref;
    dsgx_frame out_fast, out_ref;
    unsigned drawn_pmajor; /* frames the fast engine drew polygon by polygon and kept */
    unsigned redrawn;      /* frames it drew polygon by polygon, then again (cut) */
    unsigned cut;          /* frames the timing model cut */
    unsigned estimated;    /* frames whose timing bound was checked (check_estimate) */
} pair;

static void pair_init(pair *p, uint32_t seed)
{
    memset(p, 0, sizeof *p);
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
    p->fast = raster_create();
    p->ref = raster_create();
    assert_non_null(p->fast);
    assert_non_null(p->ref);
    p->ref->scanline_order = true;
    p->fast->split_min_work = 0; /* (two threads: every frame split) */
}

static void pair_free(pair *p)
{
    raster_destroy(p->fast);
    raster_destroy(p->ref);
    free(p->f);
    free(p->tex);
    free(p->pal);
}

/* The reference of span.c pmajor_estimate (as it was before raster_setup_frame added its terms
 * up, raster_engine.est): from the render list's boxes, polygon by polygon, an upper bound of
 * each line's timing charges in @p rec and which lines 8 or more polygons cross in @p full.
 * Valid when every polygon has 0 <= ytop <= ybottom. */
static void estimate_ref(const raster_engine *r, raster_timing_line *rec, bool *full)
{
    int64_t diff[RASTER_TIMING_LINES + 1] = {0}, bottom[RASTER_TIMING_LINES] = {0};
    int32_t crossing[RASTER_TIMING_LINES + 1] = {0}; /* polygons with ytop <= y <= ybottom */
    for (uint32_t i = 0; i < r->npolys; i++) {
        const raster_list_box *p = &r->box[i];
        int64_t width = (int64_t)p->x1 + 1 - (p->x0 < 0 ? 0 : p->x0);
        int64_t cost = RASTER_TIMING_PER_POLY +
                       (width > RASTER_TIMING_FREE_PIXELS ? width - RASTER_TIMING_FREE_PIXELS : 0);
        int32_t yend = p->ytop == p->ybottom ? p->ybottom + 1 : p->ybottom; /* drawn lines */
        if (p->ytop >= RASTER_TIMING_LINES) continue;
        crossing[p->ytop]++;
        crossing[p->ybottom < RASTER_TIMING_LINES ? p->ybottom + 1 : RASTER_TIMING_LINES]--;
        diff[p->ytop] += cost;
        diff[yend < RASTER_TIMING_LINES ? yend : RASTER_TIMING_LINES] -= cost;
        if (p->ytop != p->ybottom && p->ybottom < RASTER_TIMING_LINES)
            bottom[p->ybottom] += RASTER_TIMING_EMPTY_LINE;
    }
    int64_t run = 0;
    int32_t n = 0;
    for (int32_t y = 0; y < RASTER_TIMING_LINES; y++) {
        n += crossing[y];
        full[y] = n >= 8;
        run += diff[y];
        rec[y].time = run + bottom[y];
        rec[y].need = rec[y].time > 0 ? rec[y].time + RASTER_TIMING_MIN_TO_START : INT64_MIN;
    }
}

/* raster_pmajor_frame's bound (span.c pmajor_estimate, from raster_setup_frame's per-line
 * terms) against estimate_ref, on the frame @p r has just drawn (its render list stays).
 * @return whether it was estimated. */
static bool check_estimate(raster_engine *r, unsigned frame)
{
    if (r->has_shadows || r->scanline_order || !r->list_ytop_ok) return false; /* (not estimated) */
    static raster_timing_line ref[RASTER_TIMING_LINES];
    bool full[192];
    estimate_ref(r, ref, full);
    (void)raster_pmajor_frame(r); /* (the estimate: r->line_rec, r->pmajor_full) */
    for (int y = 0; y < RASTER_TIMING_LINES; y++) {
        if (r->line_rec[y].time != ref[y].time || r->line_rec[y].need != ref[y].need ||
            r->pmajor_full[y] != full[y])
            fail_msg("frame %u line %d: the timing bound differs from the reference", frame, y);
    }
    return true;
}

/* Render the pair's frame on both engines (the fast one on @p threads threads) and compare
 * everything they produced. */
static void render_compare(pair *p, unsigned frame, unsigned threads)
{
    raster_result rf, rr;
    assert_int_equal(raster_set_threads(p->fast, threads), threads);
    raster_render(p->fast, p->f, &p->out_fast, &rf);
    raster_render(p->ref, p->f, &p->out_ref, &rr);
    assert_false(p->ref->pmajor);
    p->estimated += check_estimate(p->fast, frame);
    if (p->fast->pmajor && p->fast->last_lines != RASTER_LINES_CUT) p->drawn_pmajor++;
    if (p->fast->pmajor && p->fast->last_lines == RASTER_LINES_CUT) p->redrawn++;
    /* the upper bound of the timing costs (span.c pmajor_estimate) keeps the frames the timing
     * model cuts out of the polygon-major order */
    if (p->fast->pmajor && !p->fast->pmajor_unchecked)
        assert_int_not_equal(p->fast->last_lines, RASTER_LINES_CUT);
    if (rr.lines_cut > 0) p->cut++;
    /* A frame drawn without cuts (polygon by polygon, or in bands on two threads) that the
     * timing model then cuts is drawn again scanline by scanline after a new clear (render.c).
     * The lazy clear leaves the lower layer alone (render.c: no output pixel depends on what
     * it held before the frame; test_lower_layer_unread), so what the first drawing left there
     * stays: there the lower layer is compared for this frame's output only, and the
     * reference's is copied over to keep comparing every word after. */
    bool lower_free =
        p->fast->last_lines == RASTER_LINES_CUT && !disp3dcnt_rear_bitmap(p->f->regs.disp3dcnt);
    if (lower_free) {
        memcpy(p->fast->color + RASTER_BUF_SIZE, p->ref->color + RASTER_BUF_SIZE,
               RASTER_BUF_SIZE * sizeof p->fast->color[0]);
        memcpy(p->fast->depth + RASTER_BUF_SIZE, p->ref->depth + RASTER_BUF_SIZE,
               RASTER_BUF_SIZE * sizeof p->fast->depth[0]);
        memcpy(p->fast->attr + RASTER_BUF_SIZE, p->ref->attr + RASTER_BUF_SIZE,
               RASTER_BUF_SIZE * sizeof p->fast->attr[0]);
    }
    same_frame(p->fast, p->ref, &p->out_fast, &p->out_ref, frame, "polygon-major/scanline",
               "the polygon-major order differs from the scanline order");
    assert_int_equal(rf.rdlines, rr.rdlines);
    assert_int_equal(rf.underflow, rr.underflow);
    assert_int_equal(rf.lines_cut, rr.lines_cut);
    assert_int_equal(p->fast->prev_shadow_mask, p->ref->prev_shadow_mask);
}

/* Frames of every kind, light and heavy, on one thread and on two. */
static void test_random_frames(void **state)
{
    (void)state;
    uint32_t seed = 0x9E3779B9u;
    pair p;
    pair_init(&p, 0xFEEDu);
    for (unsigned frame = 0; frame < 200; frame++) {
        bool shadows = frame % 5 == 4;
        unsigned n = (unsigned)(frame % 4 == 0 ? rnd_in(&seed, 300, 1500) : rnd_in(&seed, 1, 120));
        int size_max = frame % 8 == 0 ? 140 : 60;
        random_frame(p.f, &seed, n, shadows, size_max);
        /* half the frames also polygon by polygon when their timing may be cut */
        p.fast->pmajor_unchecked = frame / 4 % 2 == 1;
        render_compare(&p, frame, frame % 3 == 2 ? 2u : 1u);
    }
    assert_true(p.drawn_pmajor > 100); /* (the polygon-major order did draw) */
    assert_true(p.cut > 5);            /* (frames the timing model cut) */
    assert_true(p.redrawn > 5);        /* (drawn again after the polygon-major order) */
    assert_true(p.estimated > 100);    /* (the timing bound checked) */
    pair_free(&p);
}

/* The lazy clear does not clear the lower layer (render.c): random frames of every kind (half
 * with anti-aliasing, some with shadows) on two engines, one of which finds random garbage in
 * its lower layers before each frame; the output, every top-layer word and the timing results
 * must be the same. */
static void test_lower_layer_unread(void **state)
{
    (void)state;
    uint32_t seed = 0x1234567u;
    pair p;
    pair_init(&p, 0xC0DEu);
    p.ref->scanline_order = false; /* (both engines as they are by default) */
    unsigned aa_frames = 0;
    for (unsigned frame = 0; frame < 120; frame++) {
        unsigned n = (unsigned)(frame % 5 == 0 ? rnd_in(&seed, 300, 900) : rnd_in(&seed, 1, 150));
        random_frame(p.f, &seed, n, frame % 4 == 3, frame % 6 == 0 ? 140 : 60);
        if (frame % 2 == 0) p.f->regs.disp3dcnt |= 0x10u; /* anti-aliasing */
        aa_frames += disp3dcnt_antialias(p.f->regs.disp3dcnt) != 0;
        /* (garbage an earlier frame could leave: colour, depth and attribute words with only
         * their fields' bits, raster_internal.h) */
        for (size_t i = RASTER_BUF_SIZE; i < 2 * RASTER_BUF_SIZE; i++) {
            p.ref->color[i] = rnd(&seed) & 0x1F3F3F3Fu;
            p.ref->depth[i] = rnd(&seed) & 0xFFFFFFu;
            p.ref->attr[i] = rnd(&seed) & 0x3F7FFF7Fu;
        }
        raster_result rf, rr;
        raster_render(p.fast, p.f, &p.out_fast, &rf);
        raster_render(p.ref, p.f, &p.out_ref, &rr);
        if (memcmp(&p.out_fast, &p.out_ref, sizeof p.out_fast) != 0)
            fail_msg("frame %u: the lower layer's garbage reached the output", frame);
        for (size_t i = 0; i < RASTER_BUF_SIZE; i++) {
            if (p.fast->color[i] != p.ref->color[i] || p.fast->depth[i] != p.ref->depth[i] ||
                p.fast->attr[i] != p.ref->attr[i])
                fail_msg("frame %u: the lower layer's garbage reached top-layer word %zu", frame,
                         i);
        }
        assert_int_equal(rf.rdlines, rr.rdlines);
        assert_int_equal(rf.lines_cut, rr.lines_cut);
    }
    assert_true(aa_frames >= 60);
    pair_free(&p);
}

/* g_heavy_1's kind of frame on its own: many small opaque Z-buffered triangles with one W
 * (bits 0-6 clear: the linear line set-up), textured or not, over each other. */
static void test_small_linear_polygons(void **state)
{
    (void)state;
    uint32_t seed = 0x2545F491u;
    pair p;
    pair_init(&p, 0xBEEFu);
    for (unsigned frame = 0; frame < 40; frame++) {
        random_frame(p.f, &seed, 0, false, 12);
        p.f->regs.disp3dcnt &= (uint16_t)~0x4010u; /* no anti-aliasing, no rear bitmap */
        scene s = {.f = p.f, .r = NULL};
        unsigned n = (unsigned)rnd_in(&seed, 100, 1000);
        for (unsigned k = 0; k < n && p.f->nverts + 6 <= GX_MAX_VERTICES; k++) {
            random_poly(&s, &seed, false, 12);
            gx_polygon *q = &p.f->polys[p.f->npolys - 1];
            q->attr = (q->attr & ~(0x1Fu << 16) & ~(3u << 4)) | 31u << 16;
            q->wbuffer = false;
            q->w[0] = (q->w[0] & 0xFF80) | 0x80;
            for (int i = 1; i < q->nverts; i++) q->w[i] = q->w[0];
            uint32_t fmt = teximage_format(q->teximage);
            q->translucent = fmt == TEXFMT_A3I5 || fmt == TEXFMT_A5I3;
            q->sort_key = (uint32_t)(q->ybottom << 8 | q->ytop) | (q->translucent ? 0x10000u : 0);
        }
        render_compare(&p, frame, frame % 2 ? 2u : 1u);
    }
    assert_true(p.drawn_pmajor > 20);
    pair_free(&p);
}

/* Loads at the edge of the time budget. Line 0 of a timed frame has 53501 units (pair 0's
 * deadline), 4 of them taken by the first-polygon delay; 201 full-width layers (12 + 253
 * each: their spans end at x = 256) leave 232, a layer of `width` pixels takes 12 + width - 4
 * of them, and then a last polygon of one pixel must still find 12 + 2 (MinToStartPoly): cut
 * from width 210. Line 1 the same with 202 flat layers on it (12 + 252 each: a flat polygon's
 * right end is pushed left; 169 left), and last a translucent polygon (after every opaque one)
 * drawn on line 0 whose bottom line 1 must find 4: cut from width 158. The sweeps cross the
 * points where the live model starts cutting; both orders must agree on every frame. */
static void test_budget_boundary(void **state)
{
    (void)state;
    pair p;
    pair_init(&p, 0x5A5Au);
    p.fast->pmajor_unchecked = true; /* (the upper bound would send these to the scanline order) */
    for (int last_bottom = 0; last_bottom < 2; last_bottom++) {
        unsigned cut = 0, kept = 0;
        for (int width = 140; width < 230; width++) {
            memset(p.f, 0, sizeof *p.f);
            p.f->tex_vram = p.tex;
            p.f->pal_vram = p.pal;
            scene s = {.f = p.f, .r = NULL};
            int y0 = last_bottom ? 1 : 0, y1 = 1;
            int layers = last_bottom ? 202 : 201;
            for (int k = 0; k <= layers; k++) {
                int x1 = k < layers ? 256 : width;
                const int xy[] = {0, y0, x1, y0, x1, y1, 0, y1};
                scene_poly(&s, 4, xy, attr_make(31, 1, 0), 0x1000 * k, true, 31, 0, 0);
            }
            const int dot[] = {40, 0, 41, 0, 40, 1};
            scene_poly(&s, 3, dot, attr_make(last_bottom ? 15 : 31, 2, 0), 0, true, 0, 31, 0);
            render_compare(&p, (unsigned)width, 1);
            raster_result res;
            raster_render(p.fast, p.f, &p.out_fast, &res);
            if (res.lines_cut)
                cut++;
            else
                kept++;
        }
        assert_true(cut > 5 && kept > 5);
    }
    pair_free(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_frames),
        cmocka_unit_test(test_lower_layer_unread),
        cmocka_unit_test(test_small_linear_polygons),
        cmocka_unit_test(test_budget_boundary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
