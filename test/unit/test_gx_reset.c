/*
 * test_gx_reset.c - a reset geometry engine is a new one in everything observable, whatever it
 * did before (strips, clipped polygons with copied shared vertices, several frames, RAM
 * overflow, a save-state restore).
 *
 * gx_reset empties the polygon/vertex RAMs without clearing their entries (engine.c
 * empty_frame): nothing reads an entry at or beyond a RAM's counts (gx_frame.h). So the
 * comparison is through what can be observed: the registers read back (every word of the 3D
 * I/O range and the VRAM LCDC window), the frame figures, the latched frame's registers, counts,
 * entries below the counts and VRAM views, the save state (every part of the machine state,
 * byte for byte), and then the same commands run on the reset engine and on a new one: the same
 * save state after every frame, the same latched frames and the same pixels drawn from them. The
 * reset engines here do hold older entries beyond the counts (asserted), which the drawing must
 * not see. A system-level test does the same for the golden/ref traces: replayed from a reset
 * after g_heavy_1, every frame as on a new geometry engine.
 *
 * Three polygon/vertex RAMs (gx_set_frame_rams) are tested here too: an engine taking three in
 * turn is, in everything observable, the engine taking two, before and after a reset.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "gx/gx_internal.h"
#include "gx/regs.h"
#include "gx_state_compare.h"
#include "tools/core/savestate.h"
#include "tools/core/system.h"

enum {
    OP_MTX_MODE = 0x10,
    OP_MTX_IDENTITY = 0x15,
    OP_COLOR = 0x20,
    OP_VTX_16 = 0x23,
    OP_ATTR = 0x29,
    OP_BEGIN = 0x40,
    OP_SWAP = 0x50,
};

static void cmd(gx_engine *gx, uint8_t op, uint32_t p)
{
    gx_write32(gx, 0x04000400u + op * 4u, p);
}

static uint32_t rnd(uint32_t *s)
{
    *s = *s * 1103515245u + 12345u;
    return *s >> 8;
}

/* @p n vertices of primitive @p prim at random positions, some far outside the view volume
 * (clipped: new vertices, and strips storing copies of their shared vertices) */
static void draw(gx_engine *gx, uint32_t *seed, unsigned prim, unsigned n)
{
    cmd(gx, OP_ATTR, 0x001F00C0u); /* both faces, opaque */
    cmd(gx, OP_BEGIN, prim);
    for (unsigned i = 0; i < n; i++) {
        cmd(gx, OP_COLOR, rnd(seed) & 0x7FFFu);
        uint32_t range = (rnd(seed) & 7u) == 0 ? 0xFFFFu : 0x1FFFu;
        uint32_t x = rnd(seed) & range, y = rnd(seed) & range, z = rnd(seed) & range;
        cmd(gx, OP_VTX_16, ((x - range / 2) & 0xFFFFu) | ((y - range / 2) & 0xFFFFu) << 16);
        cmd(gx, OP_VTX_16, (z - range / 2) & 0xFFFFu);
    }
}

/* One frame of random primitives of every kind, swapped and latched. */
static void frame(gx_engine *gx, uint32_t *seed, unsigned n)
{
    cmd(gx, OP_MTX_MODE, 0);
    cmd(gx, OP_MTX_IDENTITY, 0);
    for (unsigned prim = 0; prim < 4; prim++) draw(gx, seed, prim, n);
    cmd(gx, OP_SWAP, 0);
    assert_true(gx_vblank(gx));
}

/* Whether any byte of a RAM's entries at or beyond its counts is not zero (a new engine's are
 * all zero). */
static bool stale_beyond_counts(const gx_frame *f)
{
    const uint8_t *p = (const uint8_t *)&f->polys[f->npolys];
    const uint8_t *v = (const uint8_t *)&f->verts[f->nverts];
    size_t np = (GX_MAX_POLYGONS - f->npolys) * sizeof(gx_polygon);
    size_t nv = (GX_MAX_VERTICES - f->nverts) * sizeof(gx_vertex);
    for (size_t i = 0; i < np; i++)
        if (p[i]) return true;
    for (size_t i = 0; i < nv; i++)
        if (v[i]) return true;
    return false;
}

/* The latched frames of @p a and @p b: registers, counts, the entries below the counts, VRAM
 * views. */
static void same_latched(gx_engine *a, gx_engine *b)
{
    const gx_frame *fa = gx_render_frame(a), *fb = gx_render_frame(b);
    assert_memory_equal(&fa->regs, &fb->regs, sizeof fa->regs);
    assert_int_equal(fa->npolys, fb->npolys);
    assert_int_equal(fa->nverts, fb->nverts);
    assert_memory_equal(fa->polys, fb->polys, fa->npolys * sizeof(gx_polygon));
    assert_memory_equal(fa->verts, fb->verts, fa->nverts * sizeof(gx_vertex));
    assert_memory_equal(fa->tex_vram, fb->tex_vram, GX_TEX_VRAM_SIZE);
    assert_memory_equal(fa->pal_vram, fb->pal_vram, GX_PAL_VRAM_SIZE);
}

/* Everything a host can read of @p a and @p b: bus reads, frame figures, the frame being built
 * (its counts), the latched frame, the save state. */
static void same_observables(gx_engine *a, gx_engine *b, raster_engine *r)
{
    for (uint32_t addr = 0x04000000u; addr < 0x04000700u; addr += 4)
        if (gx_read32(a, addr) != gx_read32(b, addr)) fail_msg("register %08X differs", addr);
    for (uint32_t addr = REG_VRAM_LCDC_BASE; addr < REG_VRAM_LCDC_END; addr += 4)
        if (gx_read32(a, addr) != gx_read32(b, addr)) fail_msg("VRAM %08X differs", addr);
    gx_frame_stats sa, sb;
    gx_last_frame_stats(a, &sa);
    gx_last_frame_stats(b, &sb);
    assert_memory_equal(&sa, &sb, sizeof sa);
    gx_current_frame_stats(a, &sa);
    gx_current_frame_stats(b, &sb);
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_int_equal(gx_swap_pending(a), gx_swap_pending(b));
    same_latched(a, b);
    same_state(a, b, r);
}

static void same_result(const raster_result *a, const raster_result *b)
{
    assert_int_equal(a->rdlines, b->rdlines);
    assert_int_equal(a->underflow, b->underflow);
    assert_int_equal(a->lines_cut, b->lines_cut);
}

/* Rendering engines for comparing two geometry engines: one to save states with, one to draw
 * each engine's frames, and their frames. */
typedef struct drawers {
    raster_engine *r, *ra, *rb;
    dsgx_frame *fa, *fb;
} drawers;

static void drawers_create(drawers *d)
{
    d->r = raster_create();
    d->ra = raster_create();
    d->rb = raster_create();
    d->fa = malloc(sizeof *d->fa);
    d->fb = malloc(sizeof *d->fb);
    assert_non_null(d->r);
    assert_non_null(d->ra);
    assert_non_null(d->rb);
    assert_non_null(d->fa);
    assert_non_null(d->fb);
}

static void drawers_destroy(drawers *d)
{
    free(d->fa);
    free(d->fb);
    raster_destroy(d->r);
    raster_destroy(d->ra);
    raster_destroy(d->rb);
}

/* The frames latched by @p a and @p b, each drawn by its own rendering engine: the same pixels
 * and results. */
static void same_drawn(drawers *d, gx_engine *a, gx_engine *b)
{
    raster_result res_a, res_b;
    raster_render(d->ra, gx_render_frame(a), d->fa, &res_a);
    raster_render(d->rb, gx_render_frame(b), d->fb, &res_b);
    assert_memory_equal(d->fa->px, d->fb->px, sizeof d->fa->px);
    same_result(&res_a, &res_b);
}

/* @p gx, just reset, against a new engine: the same observables now, and after the same frames
 * (each also drawn, by a new rendering engine per geometry engine: the same pixels). */
static void assert_like_fresh(gx_engine *gx, uint32_t seed)
{
    gx_engine *fresh = gx_create();
    assert_non_null(fresh);
    drawers d;
    drawers_create(&d);
    same_observables(gx, fresh, d.r);
    uint32_t sa = seed, sb = seed;
    for (int f = 0; f < 3; f++) {
        unsigned n = 20 + 30 * (unsigned)f;
        frame(gx, &sa, n);
        frame(fresh, &sb, n);
        same_observables(gx, fresh, d.r);
        same_drawn(&d, gx, fresh);
    }
    drawers_destroy(&d);
    gx_destroy(fresh);
}

static void test_reset_after_frames(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint32_t seed = 7;
    for (int round = 0; round < 3; round++) {
        frame(gx, &seed, 60 + 40 * (unsigned)round);
        draw(gx, &seed, 2, 30); /* a frame being built at the reset */
        gx_reset(gx);
        assert_true(stale_beyond_counts(gx->build) || stale_beyond_counts(gx->render));
        assert_like_fresh(gx, seed + (uint32_t)round);
    }
    gx_destroy(gx);
}

/* Polygon and vertex RAM filled to overflow in both buffers, then reset. */
static void test_reset_after_overflow(void **state)
{
    (void)state;
    gx_engine *gx = gx_create();
    assert_non_null(gx);
    uint32_t seed = 99;
    for (int f = 0; f < 2; f++) {
        draw(gx, &seed, 0, 3 * 2100);
        cmd(gx, OP_SWAP, 0);
        assert_true(gx_vblank(gx));
    }
    assert_true(gx_render_frame(gx)->npolys > 1000);
    gx_reset(gx);
    assert_true(stale_beyond_counts(gx->build));
    assert_true(stale_beyond_counts(gx->render));
    assert_like_fresh(gx, 5);
    gx_destroy(gx);
}

/* A state restored into an engine (its RAMs then the restore's spare frames), then a reset. */
static void test_reset_after_restore(void **state)
{
    (void)state;
    gx_engine *src = gx_create(), *gx = gx_create();
    raster_engine *r = raster_create();
    assert_non_null(src);
    assert_non_null(gx);
    assert_non_null(r);
    uint32_t seed = 31;
    frame(src, &seed, 80);
    draw(src, &seed, 1, 40);
    size_t n;
    uint8_t *blob = state_of(src, r, &n);
    frame(gx, &seed, 10);
    assert_int_equal(dsgx_state_restore(gx, r, blob, n, NULL, 0), 0);
    same_state(gx, src, r);
    gx_reset(gx);
    assert_true(stale_beyond_counts(gx->render));
    assert_like_fresh(gx, 77);
    free(blob);
    raster_destroy(r);
    gx_destroy(src);
    gx_destroy(gx);
}

/* ---- three polygon/vertex RAMs ---- */

/* An engine with three RAMs against one with two, frame after frame: the same observables and
 * pixels; the RAMs taken in turn (the latched frame in three places, each back every third
 * frame); the third RAM's bytes counted; a state restored; back to two RAMs between frames;
 * then a reset. */
static void test_three_rams(void **state)
{
    (void)state;
    gx_engine *two = gx_create(), *three = gx_create();
    assert_non_null(two);
    assert_non_null(three);
    drawers d;
    drawers_create(&d);
    assert_int_equal(gx_frame_rams(three), 2);
    assert_false(gx_set_frame_rams(three, 1));
    assert_false(gx_set_frame_rams(three, 4));
    assert_true(gx_set_frame_rams(three, 3));
    assert_true(gx_set_frame_rams(three, 3)); /* (again: nothing changes) */
    assert_int_equal(gx_frame_rams(three), 3);
    assert_int_equal(gx_memory_bytes(three), gx_memory_bytes(two) + sizeof(gx_frame));
    const gx_frame *latched[8];
    uint32_t sa = 11, sb = 11;
    for (int f = 0; f < 8; f++) {
        unsigned n = 15 + 10 * (unsigned)f;
        if (f == 6) { /* (two RAMs again, between frames) */
            assert_true(gx_set_frame_rams(three, 2));
            assert_int_equal(gx_frame_rams(three), 2);
            assert_int_equal(gx_memory_bytes(three), gx_memory_bytes(two));
        }
        if (f == 5) { /* (a state restored into the engine with three RAMs) */
            size_t bytes;
            uint8_t *blob = state_of(two, d.r, &bytes);
            assert_int_equal(dsgx_state_restore(three, d.r, blob, bytes, NULL, 0), 0);
            free(blob);
        }
        frame(two, &sa, n);
        frame(three, &sb, n);
        latched[f] = gx_render_frame(three);
        assert_ptr_not_equal(latched[f], three->build);
        same_observables(two, three, d.r);
        same_drawn(&d, two, three);
    }
    /* three RAMs (frames 0-4, before the restore brings in its own): every latched frame in
     * another RAM than the two before it, the same RAM as three frames before */
    for (int f = 1; f < 5; f++) {
        assert_ptr_not_equal(latched[f], latched[f - 1]);
        if (f >= 2) assert_ptr_not_equal(latched[f], latched[f - 2]);
        if (f >= 3) assert_ptr_equal(latched[f], latched[f - 3]);
    }
    /* two RAMs (frames 6, 7): the latched frame alternates */
    assert_ptr_not_equal(latched[7], latched[6]);
    /* a reset with three RAMs again, the third holding an older frame */
    assert_true(gx_set_frame_rams(three, 3));
    frame(three, &sb, 40);
    frame(three, &sb, 50);
    gx_reset(three);
    assert_like_fresh(three, 23);
    assert_int_equal(gx_frame_rams(three), 3); /* (a reset keeps them) */
    drawers_destroy(&d);
    gx_destroy(two);
    gx_destroy(three);
}

/* ---- the system: golden/ref traces replayed from a reset ---- */

#define MAX_FRAMES 16

typedef struct frames {
    unsigned n;
    uint64_t hash[MAX_FRAMES];
    raster_result res[MAX_FRAMES];
    gx_frame_stats stats[MAX_FRAMES];
} frames;

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    frames *f = user;
    (void)index;
    if (f->n >= MAX_FRAMES) return;
    f->hash[f->n] = dsgx_frame_hash(&s->frame);
    f->res[f->n] = s->result;
    f->stats[f->n] = s->stats;
    f->n++;
}

static void load(dsgx_trace *t, const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/ref/%s", DSGX_GOLDEN_DIR, name);
    memset(t, 0, sizeof *t);
    if (dsgx_trace_load(t, path, err, sizeof err) != 0) fail_msg("%s", err);
}

/* Two systems replay g_heavy_1 (both RAMs full of its entries, the rendering engines with its
 * history); then one replays @p t twice from dsgx_system_reset (as `dsgx bench` does), the other
 * once on a new geometry engine: the same frames, figures and geometry state. */
static void reset_like_fresh(const dsgx_trace *heavy, const dsgx_trace *t, const char *name)
{
    dsgx_system *a = dsgx_system_create(), *b = dsgx_system_create();
    assert_non_null(a);
    assert_non_null(b);
    frames skip = {0}, fa = {0}, fb = {0};
    dsgx_system_replay(a, heavy, on_frame, &skip);
    dsgx_system_replay(b, heavy, on_frame, &skip);
    gx_destroy(b->gx);
    b->gx = gx_create();
    assert_non_null(b->gx);
    unsigned na = dsgx_system_replay_repeat(a, t, 2, on_frame, &fa);
    unsigned nb = dsgx_system_replay(b, t, on_frame, &fb);
    assert_int_equal(na, 2 * nb);
    if (nb > MAX_FRAMES / 2) nb = MAX_FRAMES / 2;
    for (unsigned k = 0; k < 2 * nb; k++) {
        unsigned i = k % nb;
        /* the second pass starts where the first left the rendering engine: frames only */
        if (fa.hash[k] != fb.hash[i]) fail_msg("%s: frame %u differs after a reset", name, k);
        if (k >= nb) continue;
        same_result(&fa.res[k], &fb.res[i]);
        assert_memory_equal(&fa.stats[k], &fb.stats[i], sizeof fa.stats[k]);
    }
    same_state(a->gx, b->gx, b->raster);
    dsgx_system_destroy(a);
    dsgx_system_destroy(b);
}

static int by_name(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

static void test_golden_traces_from_reset(void **state)
{
    (void)state;
    char dir[512];
    snprintf(dir, sizeof dir, "%s/ref", DSGX_GOLDEN_DIR);
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[256];
    size_t n = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL && n < 256;) {
        size_t len = strlen(e->d_name);
        if (len > 6 && !strcmp(e->d_name + len - 6, ".trace")) {
            names[n] = malloc(len + 1);
            assert_non_null(names[n]);
            memcpy(names[n++], e->d_name, len + 1);
        }
    }
    closedir(d);
    assert_true(n >= 40);
    qsort(names, n, sizeof names[0], by_name);
    dsgx_trace heavy;
    load(&heavy, "g_heavy_1.trace");
    for (size_t i = 0; i < n; i++) {
        dsgx_trace t;
        load(&t, names[i]);
        reset_like_fresh(&heavy, &t, names[i]);
        dsgx_trace_free(&t);
        free(names[i]);
    }
    dsgx_trace_free(&heavy);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reset_after_frames),
        cmocka_unit_test(test_reset_after_overflow),
        cmocka_unit_test(test_reset_after_restore),
        cmocka_unit_test(test_three_rams),
        cmocka_unit_test(test_golden_traces_from_reset),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
