/*
 * test_raster_threads.c - a frame drawn in bands of scanlines on several threads
 * (raster/threads.c) is the frame drawn on one thread, bit for bit, with the same timing-model
 * results; the recorded-cost replay of the timing model (raster_timing_record /
 * raster_timing_replay_line) agrees with the live model and reports exactly the frames it would
 * have cut; a thread lent to the frame another thread draws (lend.h) draws the same frames.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "raster/lend.h"
#include "raster/threads.h"
#include "raster_scene.h"
#include "test_rand.h"

/* A random frame: n polygons of 3..6 vertices anywhere on (and a little off) the screen,
 * random per-vertex colours, depths and W (perspective edges and spans), some translucent,
 * some W-buffered, some wireframe, convex or not. */
static void random_frame(scene *s, uint32_t *seed, unsigned n, uint16_t disp3dcnt)
{
    memset(s->f, 0, sizeof *s->f);
    s->f->regs.disp3dcnt = disp3dcnt;
    s->f->regs.clear_depth = 0x7FFF;
    s->f->regs.clear_color = 0x001F0000u | (uint32_t)rnd_in(seed, 0, 0x7FFF);
    for (int i = 0; i < 8; i++) s->f->regs.edge_color[i] = (uint16_t)rnd(seed);
    for (unsigned k = 0; k < n; k++) {
        int nv = rnd_in(seed, 3, 6);
        int xy[12];
        int cx = rnd_in(seed, -20, 275), cy = rnd_in(seed, -10, 200);
        int size = rnd(seed) % 4 == 0 ? 120 : 24;
        for (int i = 0; i < nv; i++) {
            xy[2 * i] = dsgx_clamp(cx + rnd_in(seed, -size, size), 0, 256);
            xy[2 * i + 1] = dsgx_clamp(cy + rnd_in(seed, -size, size), 0, 192);
        }
        uint32_t alpha = rnd(seed) % 3 == 0 ? (uint32_t)rnd_in(seed, 0, 30) : 31u;
        uint32_t attr = attr_make(alpha, (unsigned)rnd_in(seed, 0, 63), 0) |
                        (rnd(seed) % 2 ? 1u << 15 : 0); /* (bit 15: fog) */
        gx_polygon *p = scene_poly(s, nv, xy, attr, 0, rnd(seed) % 2 != 0, 31, 31, 31);
        p->wbuffer = rnd(seed) % 4 == 0;
        for (int i = 0; i < nv; i++) {
            gx_vertex *v = &s->f->verts[p->vtx[i]];
            for (int c = 0; c < 3; c++) v->color[c] = (uint16_t)rnd_in(seed, 0, 511);
            p->z[i] = rnd_in(seed, 0, 0xFFFFFF);
            /* mostly W values that differ (perspective), sometimes equal (linear) */
            p->w[i] = rnd(seed) % 3 == 0 ? 0x1000 : rnd_in(seed, 0x100, 0xFFFF);
        }
    }
}

/* Render the frame with @p threads threads (splitting even the smallest frames). */
static void render(scene *s, unsigned threads, dsgx_frame *out, raster_result *res)
{
    assert_int_equal(raster_set_threads(s->r, threads), threads);
    s->r->split_min_work = 0;
    raster_render(s->r, s->f, out, res);
}

/* The drawn buffers (both layers), which the output alone may not show. */
static void assert_same_buffers(const raster_engine *a, const raster_engine *b)
{
    assert_memory_equal(a->color, b->color, sizeof a->color);
    assert_memory_equal(a->depth, b->depth, sizeof a->depth);
    assert_memory_equal(a->attr, b->attr, sizeof a->attr);
}

static void test_bands_match_one_thread(void **state)
{
    (void)state;
    static const uint16_t cnt[] = {
        0x0008,                            /* blending */
        0x0008 | 0x0020,                   /* blending, edge marking (complete buffers compared) */
        0x0008 | 0x0010,                   /* blending, anti-aliasing (lower layer) */
        0x0000 | 0x0020 | 0x0080,          /* edge marking, fog */
        0x0008 | 0x0010 | 0x0020 | 0x0080, /* all of them: marked pixels' coverage in AA */
    };
    uint32_t seed = 0x1234567u;
    int split = 0;
    dsgx_frame *one = malloc(sizeof *one), *many = malloc(sizeof *many);
    assert_non_null(one);
    assert_non_null(many);
    for (int frame = 0; frame < 24; frame++) {
        scene a, b;
        scene_init(&a, 0);
        scene_init(&b, 0);
        uint16_t c = cnt[frame % 5];
        uint32_t s0 = seed;
        unsigned n = (unsigned)rnd_in(&seed, 1, 300);
        random_frame(&a, &seed, n, c);
        seed = s0;
        (void)rnd_in(&seed, 1, 300);
        random_frame(&b, &seed, n, c);
        unsigned threads = 2u + (unsigned)frame % 7u;
        raster_result ra, rb;
        /* twice: the first frame after power-on is untimed, the second is timed */
        for (int pass = 0; pass < 2; pass++) {
            render(&a, 1, one, &ra);
            render(&b, threads, many, &rb);
            /* split; or, on the timed pass, split and found too slow: drawn again */
            if (pass == 0) assert_int_equal(b.r->last_lines, RASTER_LINES_SPLIT);
            assert_int_not_equal(b.r->last_lines, RASTER_LINES_NOT_SPLIT);
            split += b.r->last_lines == RASTER_LINES_SPLIT;
            assert_memory_equal(one->px, many->px, sizeof one->px);
            assert_int_equal(ra.rdlines, rb.rdlines);
            assert_int_equal(ra.underflow, rb.underflow);
            assert_int_equal(ra.lines_cut, rb.lines_cut);
            if (c & 0x0030) assert_same_buffers(a.r, b.r); /* (complete clear: every pixel) */
        }
        scene_free(&a);
        scene_free(&b);
    }
    assert_true(split > 30); /* (most frames fit the budget) */
    free(one);
    free(many);
}

/* raster_render_ram (the pipelined replay's call, tools/core/system.c): a frame given as its
 * registers, counts and views in one gx_frame and its polygon/vertex RAM in another is the
 * frame raster_render draws from one, on one thread and in bands, timing-model results
 * included. The first part's own polygon and vertex entries hold another random frame, so a
 * read of them shows. */
static void test_render_ram_in_two_parts(void **state)
{
    (void)state;
    uint32_t seed = 0xC0FFEEu;
    dsgx_frame *whole = malloc(sizeof *whole), *parts = malloc(sizeof *parts);
    assert_non_null(whole);
    assert_non_null(parts);
    for (int frame = 0; frame < 12; frame++) {
        scene a, b, other;
        scene_init(&a, 0);
        scene_init(&b, 0);
        scene_init(&other, 0);
        uint16_t c = frame % 3 ? 0x0008 : 0x0008 | 0x0020 | 0x0080;
        unsigned n = (unsigned)rnd_in(&seed, 1, 300);
        random_frame(&a, &seed, n, c);
        random_frame(&other, &seed, (unsigned)rnd_in(&seed, 1, 300), c);
        /* b: a's registers and counts, other's entries */
        *b.f = *other.f;
        b.f->regs = a.f->regs;
        b.f->npolys = a.f->npolys;
        b.f->nverts = a.f->nverts;
        b.f->tex_vram = a.f->tex_vram;
        b.f->pal_vram = a.f->pal_vram;
        unsigned threads = frame % 2 ? 1u : 3u;
        raster_result ra, rb;
        for (int pass = 0; pass < 2; pass++) { /* (untimed, then timed) */
            render(&a, threads, whole, &ra);
            assert_int_equal(raster_set_threads(b.r, threads), threads);
            b.r->split_min_work = 0;
            raster_render_ram(b.r, b.f, a.f, parts, &rb);
            assert_memory_equal(whole->px, parts->px, sizeof whole->px);
            assert_int_equal(ra.rdlines, rb.rdlines);
            assert_int_equal(ra.underflow, rb.underflow);
            assert_int_equal(ra.lines_cut, rb.lines_cut);
            assert_int_equal(a.r->last_lines, b.r->last_lines);
            /* (the lines the model counts as touched: from the entries too) */
            assert_memory_equal(a.r->timing.pair_touched, b.r->timing.pair_touched,
                                sizeof a.r->timing.pair_touched);
        }
        scene_free(&a);
        scene_free(&b);
        scene_free(&other);
    }
    free(whole);
    free(parts);
}

/* Each thread's stream of bands (threads.c plan_streams) at any share: random frames drawn
 * with 2 and 3 threads, the streams' shares set at random before each (one stream taking it
 * all, empty streams, anything between), and as shares_update leaves them after a frame, are
 * the one-thread frames: the output, every word of the top buffer layer, RDLINES_COUNT, the
 * underflow bit and the lines cut. (Not the lower layer: on engines that drew earlier frames
 * it can differ between one thread and bands already with the bands of before the streams,
 * by a translucent blend under an edge pixel, while the outputs stay equal;
 * test_bands_match_one_thread compares both layers on fresh engines.) Frames are drawn until
 * threads have taken bands from another thread's stream both ways (a stream nobody had; the last
 * band of one somebody had). */
/* The polygons each band of the last split frame walked (threads.c plan_band_lists) are those
 * of the render list whose lines meet the band, in list order: the ones the whole list's walk
 * would draw there. @return the bands checked. */
static unsigned check_band_lists(const raster_engine *r)
{
    unsigned checked = 0;
    for (unsigned k = 0; k < r->nbands; k++) {
        uint32_t n = 0, at = 0;
        const uint16_t *list = raster_band_polys(r, k, &n);
        if (!list) continue;
        for (uint32_t i = 0; i < r->npolys; i++) {
            if (r->box[i].ytop >= r->band_y[k + 1] || r->box[i].ybottom < r->band_y[k]) continue;
            assert_true(at < n);
            assert_int_equal(list[at++], i);
        }
        assert_int_equal(at, n);
        checked++;
    }
    return checked;
}

static void test_streams_any_share(void **state)
{
    (void)state;
    static const uint16_t cnt[] = {0x0008, 0x0008 | 0x0020 | 0x0080, 0x0008 | 0x0010, 0x0000};
    uint32_t seed = 0x5EEDu;
    unsigned adopted = 0, stolen = 0, split = 0, lists = 0;
    dsgx_frame *one = malloc(sizeof *one), *many = malloc(sizeof *many);
    assert_non_null(one);
    assert_non_null(many);
    scene a, b;
    scene_init(&a, 0);
    scene_init(&b, 0);
    for (unsigned frame = 0; frame < 48 || ((!adopted || !stolen) && frame < 600); frame++) {
        uint16_t c = cnt[frame % 4];
        unsigned n = (unsigned)rnd_in(&seed, 1, 400);
        uint32_t s0 = seed;
        random_frame(&a, &seed, n, c);
        seed = s0;
        random_frame(&b, &seed, n, c);
        unsigned threads = 2u + frame % 2u;
        raster_result ra, rb;
        render(&a, 1, one, &ra);
        assert_int_equal(raster_set_threads(b.r, threads), threads);
        b.r->split_min_work = 0;
        if (frame % 3 != 2) { /* (else the shares the last frame left) */
            uint32_t left = 65536;
            for (unsigned t = 0; t < threads; t++) {
                uint32_t pick = rnd(&seed) % 4u == 0 ? (rnd(&seed) % 2u ? left : 0u)
                                                     : (uint32_t)rnd(&seed) % (left + 1u);
                b.r->share[t] = t + 1 == threads ? left : pick;
                left -= b.r->share[t];
            }
            b.r->share_threads = threads;
        }
        raster_render(b.r, b.f, many, &rb);
        assert_int_not_equal(b.r->last_lines, RASTER_LINES_NOT_SPLIT);
        split += b.r->last_lines == RASTER_LINES_SPLIT;
        for (unsigned t = 0; t < threads; t++) {
            adopted += b.r->band[t]->adopted;
            stolen += b.r->band[t]->stolen;
        }
        assert_memory_equal(one->px, many->px, sizeof one->px);
        assert_memory_equal(a.r->color, b.r->color, RASTER_BUF_SIZE * sizeof a.r->color[0]);
        assert_memory_equal(a.r->depth, b.r->depth, RASTER_BUF_SIZE * sizeof a.r->depth[0]);
        assert_memory_equal(a.r->attr, b.r->attr, RASTER_BUF_SIZE * sizeof a.r->attr[0]);
        assert_int_equal(ra.rdlines, rb.rdlines);
        assert_int_equal(ra.underflow, rb.underflow);
        assert_int_equal(ra.lines_cut, rb.lines_cut);
        lists += check_band_lists(b.r);
        /* (the shares after the frame: a partition of the work) */
        uint32_t sum = 0;
        for (unsigned t = 0; t < threads; t++) sum += b.r->share[t];
        assert_in_range(sum, 65536u - threads, 65536u);
    }
    print_message("streams: %u frames split, %u bands adopted, %u stolen, %u band lists\n", split,
                  adopted, stolen, lists);
    assert_true(split > 24);
    assert_true(lists > 24);
    assert_true(adopted > 0);
    assert_true(stolen > 0);
    scene_free(&a);
    scene_free(&b);
    free(one);
    free(many);
}

/* Full-screen layers: too many for the time budget of a timed frame. */
static void layers(scene *s, unsigned n, uint16_t disp3dcnt)
{
    memset(s->f, 0, sizeof *s->f);
    s->f->regs.disp3dcnt = disp3dcnt;
    for (unsigned k = 0; k < n; k++) {
        const int xy[] = {0, 0, 256, 0, 256, 192, 0, 192};
        uint32_t attr = attr_make(31, k, 0);
        scene_poly(s, 4, xy, attr, (int32_t)(0xFFFFFF - k * 0x1000), true, k % 32, 31, 0);
    }
}

static void test_cut_frame_drawn_again(void **state)
{
    (void)state;
    scene a, b;
    scene_init(&a, 0);
    scene_init(&b, 0);
    dsgx_frame *one = malloc(sizeof *one), *many = malloc(sizeof *many);
    assert_non_null(one);
    assert_non_null(many);
    raster_result ra, rb;
    for (int pass = 0; pass < 4; pass++) {
        /* (the last frame with edge marking and fog: the final pass after the redraw) */
        uint16_t cnt = pass == 3 ? 0x0008 | 0x0020 | 0x0080 : 0x0008;
        layers(&a, 12, cnt);
        layers(&b, 12, cnt);
        render(&a, 1, one, &ra);
        render(&b, 2, many, &rb);
        /* the first frame is untimed (nothing cut: the bands' frame stands); the timed ones
         * lose lines and are drawn again on one thread */
        assert_int_equal(b.r->last_lines, pass == 0 ? RASTER_LINES_SPLIT : RASTER_LINES_CUT);
        assert_memory_equal(one->px, many->px, sizeof one->px);
        assert_int_equal(ra.rdlines, rb.rdlines);
        assert_int_equal(ra.underflow, rb.underflow);
        assert_int_equal(ra.lines_cut, rb.lines_cut);
        if (pass > 0) assert_true(rb.lines_cut > 0);
    }
    free(one);
    free(many);
    scene_free(&a);
    scene_free(&b);
}

static void test_shadow_frame_one_thread(void **state)
{
    (void)state;
    scene s;
    scene_init(&s, 0);
    uint32_t seed = 99;
    random_frame(&s, &seed, 40, 0x0008);
    const int xy[] = {10, 10, 200, 10, 200, 150};
    scene_poly(&s, 3, xy, attr_make(20, 0, POLYMODE_SHADOW), 0x100, true, 0, 0,
               0); /* mode 3, ID 0: a shadow mask */
    dsgx_frame *out = malloc(sizeof *out);
    assert_non_null(out);
    render(&s, 4, out, NULL);
    assert_int_equal(s.r->last_lines, RASTER_LINES_NOT_SPLIT);
    /* and without it the same engine splits the frame */
    s.f->npolys--;
    render(&s, 4, out, NULL);
    assert_int_equal(s.r->last_lines, RASTER_LINES_SPLIT);
    free(out);
    scene_free(&s);
}

/* ---- a lent thread (lend.h: the pipelined replay's geometry thread) ---- */

typedef struct lent_render {
    scene *s;
    dsgx_frame *out;
    raster_result res;
    atomic_bool done;
} lent_render;

static void *render_main(void *arg)
{
    lent_render *j = arg;
    raster_render(j->s->r, j->s->f, j->out, &j->res);
    atomic_store(&j->done, true);
    return NULL;
}

/* One frame (number @p frame) drawn on one thread and on a lent-thread engine, both passes
 * (untimed, then timed), compared. @return how many times the lent thread joined a step. */
static unsigned lent_frame(int frame, uint32_t *seed, dsgx_frame *one, dsgx_frame *lent)
{
    unsigned joined = 0;
    scene a, b;
    scene_init(&a, 0);
    scene_init(&b, 0);
    uint16_t c = frame % 2 ? 0x0008 | 0x0020 | 0x0080 : 0x0008; /* (final pass: 2 steps) */
    uint32_t s0 = *seed;
    random_frame(&a, seed, 300, c);
    *seed = s0;
    random_frame(&b, seed, 300, c);
    /* 2 threads: the render's and the lent one; 3: with a worker too */
    unsigned n = 2u + (unsigned)frame % 2u;
    assert_int_equal(raster_set_threads_lent(b.r, n, 1), n);
    b.r->split_min_work = 0;
    raster_result ra;
    for (int pass = 0; pass < 2; pass++) { /* (untimed, then timed) */
        render(&a, 1, one, &ra);
        unsigned closed = raster_lend_frames(b.r);
        lent_render j = {&b, lent, {0}, false};
        pthread_t th;
        assert_int_equal(pthread_create(&th, NULL, render_main, &j), 0);
        bool lend = frame % 4 != 3; /* (and sometimes nobody comes) */
        while (lend && !atomic_load(&j.done)) joined += raster_lend(b.r);
        pthread_join(th, NULL);
        assert_int_equal(raster_lend_frames(b.r), closed + 1u);
        /* split; on the timed pass possibly found too slow and drawn again (cut) */
        if (pass == 0) assert_int_equal(b.r->last_lines, RASTER_LINES_SPLIT);
        assert_int_not_equal(b.r->last_lines, RASTER_LINES_NOT_SPLIT);
        assert_memory_equal(one->px, lent->px, sizeof one->px);
        assert_int_equal(ra.rdlines, j.res.rdlines);
        assert_int_equal(ra.underflow, j.res.underflow);
        assert_int_equal(ra.lines_cut, j.res.lines_cut);
    }
    scene_free(&a);
    scene_free(&b);
    return joined;
}

/* Frames drawn on another thread with this one lent (raster_lend from before the render starts
 * until it ends: it joins the steps) are the one-thread frames; with nobody lent, the frame is
 * drawn whole by the thread in raster_render. Each frame closes once (raster_lend_frames). */
static void test_lent_thread_same_frames(void **state)
{
    (void)state;
    uint32_t seed = 0xC0FFEEu;
    unsigned joined = 0;
    dsgx_frame *one = malloc(sizeof *one), *lent = malloc(sizeof *lent);
    assert_non_null(one);
    assert_non_null(lent);
    for (int frame = 0; frame < 12; frame++) joined += lent_frame(frame, &seed, one, lent);
    /* Whether the lent thread got into a step before the render thread had drawn it all is up
     * to the scheduler (on a loaded or single processor it may never, in 12 frames): draw more
     * frames that lend until it has, so that a lent thread's drawing is always checked. */
    for (int extra = 0; joined == 0 && extra < 400; extra++)
        joined += lent_frame(extra % 2, &seed, one, lent);
    assert_true(joined > 0); /* (the lent thread did draw) */
    free(one);
    free(lent);
}

/* ---- the timing model's replay against the live model ---- */

typedef struct event {
    bool bottom;
    int32_t xl, xr;
    bool pixels;
} event;

/* One frame of random lines through the live model (timing.h protocol). @return the first
 * line the live model cut or skipped something on, or -1. */
static int live_frame(raster_timing *t, gx_frame *fr, event ev[192][300], const int nev[192])
{
    int first_cut = -1;
    raster_timing_frame_begin(t, fr);
    for (int y = 0; y < 192; y++) {
        raster_timing_line_begin(t, y);
        for (int i = 0; i < nev[y]; i++) {
            const event *e = &ev[y][i];
            bool cut;
            if (e->bottom) {
                raster_timing_poly_bottom(t, y);
                cut = raster_timing_line_aborted(t, y);
            } else {
                cut = raster_timing_line_aborted(t, y) ||
                      raster_timing_poly_span(t, y, e->xl, e->xr, e->pixels) !=
                          RASTER_TIMING_NO_LIMIT;
            }
            if (cut && first_cut < 0) first_cut = y;
        }
        raster_timing_line_end(t, y);
    }
    return first_cut;
}

/* The same frame recorded, then replayed. @return the first line the replay refused, or -1. */
static int replay_frame(raster_timing *t, gx_frame *fr, event ev[192][300], const int nev[192])
{
    static raster_timing_line rec[192];
    raster_timing recorder;
    raster_timing_record(&recorder, rec);
    for (int y = 0; y < 192; y++) {
        raster_timing_line_begin(&recorder, y);
        for (int i = 0; i < nev[y]; i++) {
            const event *e = &ev[y][i];
            if (e->bottom)
                raster_timing_poly_bottom(&recorder, y);
            else
                assert_int_equal(raster_timing_poly_span(&recorder, y, e->xl, e->xr, e->pixels),
                                 RASTER_TIMING_NO_LIMIT);
        }
        raster_timing_line_end(&recorder, y);
    }
    raster_timing_frame_begin(t, fr);
    for (int y = 0; y < 192; y++) {
        raster_timing_line_begin(t, y);
        if (!raster_timing_replay_line(t, y, rec[y])) return y;
        raster_timing_line_end(t, y);
    }
    return -1;
}

/* A frame whose one polygon touches every line (each pair starts with the first-polygon
 * delay); the events of each line are given separately. */
static gx_frame *touching_frame(void)
{
    gx_frame *fr = calloc(1, sizeof *fr);
    assert_non_null(fr);
    fr->npolys = 1;
    fr->polys[0].ytop = 0;
    fr->polys[0].ybottom = 191;
    fr->polys[0].nverts = 3;
    return fr;
}

static void test_timing_replay(void **state)
{
    (void)state;
    static event ev[192][300];
    static int nev[192];
    gx_frame *fr = touching_frame();
    uint32_t seed = 0xBEEF;
    int fits = 0, cuts = 0;
    for (int round = 0; round < 400; round++) {
        /* busy lines: up to 40 polygons of up to 300 pixels, or up to 300 of a few pixels
         * (their start test, not their pixels, decides), some frames far over budget */
        bool narrow = round % 2 != 0;
        int load = narrow ? rnd_in(&seed, 150, 300) : rnd_in(&seed, 1, 40);
        for (int y = 0; y < 192; y++) {
            nev[y] = rnd_in(&seed, narrow ? load / 2 : 0, load);
            for (int i = 0; i < nev[y]; i++) {
                event *e = &ev[y][i];
                e->bottom = rnd(&seed) % 6 == 0;
                e->xl = rnd_in(&seed, -40, 250);
                e->xr = e->xl + (narrow ? rnd_in(&seed, -3, 6) : rnd_in(&seed, -3, 300));
                e->pixels = rnd(&seed) % 20 != 0;
            }
        }
        raster_timing live, rep;
        raster_timing_init(&live);
        raster_timing_init(&rep);
        /* the first frame after power-on is untimed: nothing is ever cut */
        assert_int_equal(live_frame(&live, fr, ev, nev), -1);
        assert_int_equal(replay_frame(&rep, fr, ev, nev), -1);
        raster_result a, b;
        raster_timing_frame_end(&live, &a);
        raster_timing_frame_end(&rep, &b);
        assert_int_equal(a.rdlines, b.rdlines);
        /* a timed frame: the replay refuses exactly the first line the live model cuts */
        int lc = live_frame(&live, fr, ev, nev);
        int rc = replay_frame(&rep, fr, ev, nev);
        assert_int_equal(lc, rc);
        if (lc < 0) {
            raster_timing_frame_end(&live, &a);
            raster_timing_frame_end(&rep, &b);
            assert_int_equal(a.rdlines, b.rdlines);
            assert_int_equal(a.underflow, b.underflow);
            assert_int_equal(a.lines_cut, 0);
            assert_int_equal(b.lines_cut, 0);
            fits++;
        } else {
            cuts++;
        }
    }
    /* both kinds of frame were tried */
    print_message("timing replay: %d frames fit, %d cut\n", fits, cuts);
    assert_true(fits > 50);
    assert_true(cuts > 50);
    free(fr);
}

/* Line 0 of a timed frame has 53501 - 4 units (pair 0's deadline, the first-polygon delay): a
 * wide span leaves L of them, then a last polygon of one pixel (no pixel cost) must still
 * find 2 units after its 12 (MODEL.md MinToStartPoly), and a last bottom line 0 after its 4.
 * The replay must refuse line 0 exactly when the live model cuts it. */
static void test_timing_replay_boundary(void **state)
{
    (void)state;
    static event ev[192][300];
    static int nev[192];
    gx_frame *fr = touching_frame();
    for (int last_bottom = 0; last_bottom < 2; last_bottom++) {
        for (int32_t left = 0; left < 20; left++) {
            memset(nev, 0, sizeof nev);
            nev[0] = 2;
            int32_t width = 53501 - 4 - 12 + 4 - left; /* 12 + (width - 4) leaves `left` */
            ev[0][0] = (event){false, 0, width - 1, true};
            ev[0][1] = last_bottom ? (event){true, 0, 0, false} : (event){false, 0, 0, true};
            raster_timing live, rep;
            raster_timing_init(&live);
            raster_timing_init(&rep);
            (void)live_frame(&live, fr, ev, nev); /* (untimed) */
            (void)replay_frame(&rep, fr, ev, nev);
            int lc = live_frame(&live, fr, ev, nev);
            int rc = replay_frame(&rep, fr, ev, nev);
            bool cut = last_bottom ? left - 4 < 0 : left - 12 < 2;
            assert_int_equal(lc, cut ? 0 : -1);
            assert_int_equal(rc, lc);
        }
    }
    free(fr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bands_match_one_thread),
        cmocka_unit_test(test_streams_any_share),
        cmocka_unit_test(test_render_ram_in_two_parts),
        cmocka_unit_test(test_cut_frame_drawn_again),
        cmocka_unit_test(test_shadow_frame_one_thread),
        cmocka_unit_test(test_lent_thread_same_frames),
        cmocka_unit_test(test_timing_replay),
        cmocka_unit_test(test_timing_replay_boundary),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
