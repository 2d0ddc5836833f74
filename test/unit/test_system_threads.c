/*
 * test_system_threads.c - the pipelined replay (tools/core/system.h: frame N drawn on a render
 * thread while the geometry engine runs frame N+1) against the one-frame-at-a-time replay, on
 * every golden trace (golden/ref, rdlines, scenes, hw) and frame dump (golden/ntrfd-later,
 * golden/ntrfd): the same frames, bit for bit, the same
 * RDLINES_COUNT, underflow bit, cut lines, geometry figures and re-emitted frames, in the same
 * order, and the same DISP3DCNT / RDLINES_COUNT / GXSTAT left in the geometry engine. Also
 * repeated passes with a reset between them (dsgx_system_replay_repeat: the reset lands while
 * the last frame is drawn), and underflow acknowledgements written while a frame is drawn.
 * Built and run under ThreadSanitizer by CI (.ci/run, "threads").
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

#include "gx/regs.h"
#include "tools/core/input.h"
#include "tools/core/system.h"

/* What one emitted frame shows a frame callback. */
typedef struct frame_rec {
    unsigned index;
    uint64_t hash;
    raster_result result;
    gx_frame_stats stats;
    bool reemitted;
} frame_rec;

typedef struct run {
    frame_rec *v;
    size_t n, cap;
    uint32_t *latch; /* DISP3DCNT << 8 | RDLINES_COUNT at every latching VBlank */
    size_t nlatch, latch_cap;
    unsigned frames;                           /* the replay's return value */
    uint32_t disp3dcnt, rdlines_count, gxstat; /* read back after the replay */
} run;

static void on_frame(void *user, unsigned index, dsgx_system *s)
{
    run *r = user;
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 16;
        r->v = realloc(r->v, r->cap * sizeof *r->v);
        assert_non_null(r->v);
    }
    r->v[r->n++] =
        (frame_rec){index, dsgx_frame_hash(&s->frame), s->result, s->stats, s->reemitted};
}

/* At a latching VBlank (on the caller's thread): the last frame's report must be in. */
static void on_vblank(void *user, gx_engine *gx)
{
    run *r = user;
    if (r->nlatch == r->latch_cap) {
        r->latch_cap = r->latch_cap ? r->latch_cap * 2 : 16;
        r->latch = realloc(r->latch, r->latch_cap * sizeof *r->latch);
        assert_non_null(r->latch);
    }
    r->latch[r->nlatch++] = gx_read32(gx, REG_DISP3DCNT) << 8 | gx_read32(gx, REG_RDLINES_COUNT);
}

/* Replay @p t on @p threads threads: once (passes 0) or @p passes times from reset. */
static void replay(const dsgx_trace *t, unsigned threads, unsigned passes, run *out)
{
    memset(out, 0, sizeof *out);
    dsgx_system *s = dsgx_system_create();
    assert_non_null(s);
    assert_int_equal(dsgx_system_set_threads(s, threads) > 1, threads > 1);
    assert_true((s->pipe != NULL) == (threads > 1)); /* (the pipeline really runs) */
    gx_set_hooks(s->gx, &(gx_hooks){.user = out, .vblank = on_vblank});
    out->frames = passes ? dsgx_system_replay_repeat(s, t, passes, on_frame, out)
                         : dsgx_system_replay(s, t, on_frame, out);
    out->disp3dcnt = gx_read32(s->gx, REG_DISP3DCNT);
    out->rdlines_count = gx_read32(s->gx, REG_RDLINES_COUNT);
    out->gxstat = gx_read32(s->gx, REG_GXSTAT);
    dsgx_system_destroy(s);
}

static void assert_same(const char *name, const run *a, const run *b)
{
    if (a->frames != b->frames || a->n != b->n || a->n != a->frames)
        fail_msg("%s: %u/%zu frames one at a time, %u/%zu pipelined", name, a->frames, a->n,
                 b->frames, b->n);
    for (size_t i = 0; i < a->n; i++) {
        const frame_rec *x = &a->v[i], *y = &b->v[i];
        if (x->index != i || y->index != i) fail_msg("%s: frame %zu out of order", name, i);
        if (x->hash != y->hash) fail_msg("%s: frame %zu differs", name, i);
        if (x->result.rdlines != y->result.rdlines || x->result.underflow != y->result.underflow ||
            x->result.lines_cut != y->result.lines_cut)
            fail_msg("%s: frame %zu: rdlines %u/%u underflow %d/%d", name, i, x->result.rdlines,
                     y->result.rdlines, x->result.underflow, y->result.underflow);
        if (memcmp(&x->stats, &y->stats, sizeof x->stats) || x->reemitted != y->reemitted)
            fail_msg("%s: frame %zu: geometry figures differ", name, i);
    }
    if (a->nlatch != b->nlatch) fail_msg("%s: %zu/%zu latches", name, a->nlatch, b->nlatch);
    for (size_t i = 0; i < a->nlatch; i++)
        if (a->latch[i] != b->latch[i])
            fail_msg("%s: latch %zu: DISP3DCNT %04x/%04x RDLINES_COUNT %u/%u", name, i,
                     a->latch[i] >> 8, b->latch[i] >> 8, a->latch[i] & 0xFFu, b->latch[i] & 0xFFu);
    if (a->disp3dcnt != b->disp3dcnt || a->rdlines_count != b->rdlines_count ||
        a->gxstat != b->gxstat)
        fail_msg("%s: DISP3DCNT %08x/%08x RDLINES_COUNT %u/%u GXSTAT %08x/%08x after the replay",
                 name, a->disp3dcnt, b->disp3dcnt, a->rdlines_count, b->rdlines_count, a->gxstat,
                 b->gxstat);
}

/* One at a time vs pipelined on @p threads threads, @p passes as replay(). @return frames. */
static unsigned compare(const char *name, const dsgx_trace *t, unsigned threads, unsigned passes)
{
    run a, b;
    replay(t, 1, passes, &a);
    replay(t, threads, passes, &b);
    assert_same(name, &a, &b);
    unsigned n = a.frames;
    free(a.v);
    free(b.v);
    free(a.latch);
    free(b.latch);
    return n;
}

static void load(const char *path, dsgx_trace *t)
{
    char err[512];
    memset(t, 0, sizeof *t);
    if (dsgx_input_load(path, t, err, sizeof err)) fail_msg("%s", err);
}

static bool ends_with(const char *s, const char *end)
{
    size_t n = strlen(s), m = strlen(end);
    return n > m && !strcmp(s + n - m, end);
}

/* Every trace and frame dump (NTRFD) of @p base/<dir>, pipelined on @p threads threads. */
static void compare_dir(const char *base, const char *dir, unsigned threads)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", base, dir);
    DIR *d = opendir(path);
    assert_non_null(d);
    unsigned traces = 0, frames = 0;
    for (struct dirent *e; (e = readdir(d)) != NULL;) {
        if (!ends_with(e->d_name, ".trace") && !ends_with(e->d_name, ".ntrfd")) continue;
        snprintf(path, sizeof path, "%s/%s/%s", base, dir, e->d_name);
        dsgx_trace t;
        load(path, &t);
        frames += compare(path, &t, threads, 0);
        traces++;
        dsgx_trace_free(&t);
    }
    closedir(d);
    assert_true(traces >= 5); /* (the corpus is there) */
    assert_true(frames >= traces);
}

static void test_ref(void **state)
{
    (void)state;
    compare_dir(DSGX_GOLDEN_DIR, "ref", 2);
}

static void test_rdlines(void **state)
{
    (void)state;
    compare_dir(DSGX_GOLDEN_DIR, "rdlines", 2);
}

static void test_scenes(void **state)
{
    (void)state;
    compare_dir(DSGX_GOLDEN_DIR, "scenes", 3);
}

static void test_hw(void **state)
{
    (void)state;
    compare_dir(DSGX_GOLDEN_DIR, "hw", 2);
}

/* Frame dumps: golden/ntrfd-later and the real NTRFD dumps of golden/ntrfd. */
static void test_ntrfd(void **state)
{
    (void)state;
    compare_dir(DSGX_GOLDEN_DIR, "ntrfd-later", 2);
    compare_dir(DSGX_GOLDEN_DIR, "ntrfd", 2);
}

/* Passes from reset, as `dsgx bench` replays: a pass's reset, power-on and VRAM uploads land
 * while the last pass's frame is drawn (its report dropped, its VRAM views its own). */
static void test_repeat(void **state)
{
    (void)state;
    static const char *const traces[] = {
        "ref/g_heavy_1.trace", "ref/scene_terrain.trace",
        "rdlines/band_bottom.trace", /* underflow in the last frame: the report the reset drops */
        "scenes/multiframe_texture_anim.trace", /* VRAM rewritten between frames */
    };
    for (size_t i = 0; i < sizeof traces / sizeof traces[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", DSGX_GOLDEN_DIR, traces[i]);
        dsgx_trace t;
        load(path, &t);
        unsigned once = t.nframes;
        assert_int_equal(compare(path, &t, 2, 3), 3 * once);
        dsgx_trace_free(&t);
    }
}

/* A trace whose frames underflow, with DISP3DCNT writes after each `frame` directive that
 * acknowledge the underflow bit (bit 12 written 1) in the ways a trace can write it: one at a
 * time, the report lands first and the write clears the bit; pipelined, the write must wait for
 * the frame in flight. The last write comes after the last frame: DISP3DCNT bit 12 reads 0. */
static void test_underflow_ack(void **state)
{
    (void)state;
    dsgx_trace src, t = {0};
    load(DSGX_GOLDEN_DIR "/rdlines/band_bottom.trace", &src);
    unsigned k = 0;
    for (size_t i = 0; i < src.n; i++) {
        const dsgx_trace_item *it = &src.items[i];
        if (it->op == TRACE_DATA)
            assert_int_equal(
                dsgx_trace_add_data(&t, it->addr, src.data + it->data_off, it->data_len), 0);
        else
            assert_int_equal(dsgx_trace_add(&t, it->op, it->addr, it->value), 0);
        if (it->op != TRACE_FRAME) continue;
        static const uint8_t word[4] = {0x00, 0x10, 0x00, 0x00}; /* DISP3DCNT, bit 12 */
        switch (k++ % 4) {
        case 0: assert_int_equal(dsgx_trace_add(&t, TRACE_W32, REG_DISP3DCNT, 1u << 12), 0); break;
        case 1: assert_int_equal(dsgx_trace_add(&t, TRACE_W16, REG_DISP3DCNT, 1u << 12), 0); break;
        case 2: assert_int_equal(dsgx_trace_add(&t, TRACE_W8, REG_DISP3DCNT + 1, 0x10), 0); break;
        default: assert_int_equal(dsgx_trace_add_data(&t, REG_DISP3DCNT, word, 4), 0); break;
        }
    }
    run a, b;
    replay(&t, 1, 0, &a);
    replay(&t, 2, 0, &b);
    assert_same("band_bottom + acknowledgements", &a, &b);
    assert_true(a.n >= 3 && a.v[a.n - 1].result.underflow); /* the last frame underflowed */
    assert_int_equal(a.disp3dcnt & (1u << 12), 0);          /* and was acknowledged */
    free(a.v);
    free(b.v);
    free(a.latch);
    free(b.latch);
    dsgx_trace_free(&t);
    dsgx_trace_free(&src);
}

/* dsgx_system_frame and set_threads on a pipelined system: synchronous, the same frames. */
static void test_threads_switch(void **state)
{
    (void)state;
    dsgx_trace t;
    load(DSGX_GOLDEN_DIR "/scenes/multiframe_texture_anim.trace", &t);
    run a, b;
    replay(&t, 1, 0, &a);
    memset(&b, 0, sizeof b);
    dsgx_system *s = dsgx_system_create();
    assert_non_null(s);
    gx_set_hooks(s->gx, &(gx_hooks){.user = &b, .vblank = on_vblank});
    unsigned frame = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (t.items[i].op != TRACE_FRAME) {
            dsgx_system_exec(s, &t, &t.items[i]);
            continue;
        }
        /* every other frame pipelined, drawn on the caller's thread by dsgx_system_frame */
        unsigned n = dsgx_system_set_threads(s, frame % 2 ? 2 : 1);
        /* (pipelined: three polygon/vertex RAMs, gx_set_frame_rams) */
        assert_int_equal(gx_frame_rams(s->gx), n > 1 ? 3 : 2);
        dsgx_system_frame(s);
        on_frame(&b, frame++, s);
    }
    b.frames = frame;
    b.disp3dcnt = gx_read32(s->gx, REG_DISP3DCNT);
    b.rdlines_count = gx_read32(s->gx, REG_RDLINES_COUNT);
    b.gxstat = gx_read32(s->gx, REG_GXSTAT);
    dsgx_system_destroy(s);
    assert_same("multiframe_texture_anim, dsgx_system_frame", &a, &b);
    free(a.v);
    free(b.v);
    free(a.latch);
    free(b.latch);
    dsgx_trace_free(&t);
}

/* ---- random traces: bus events between and inside frames ---- */

static uint64_t rng(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* One random bus event that touches what the two engines see of each other: DISP3DCNT (the
 * underflow acknowledgement among its bits, as w32, w16, w8 or data), a trace vblank, the 3D
 * power bits, the geometry engine's power bit (off: a VBlank swaps nothing, though a swap may
 * be pending), a palette upload through the LCDC window with VRAMCNT_E switched, GXSTAT. */
static void add_event(dsgx_trace *t, uint64_t *st)
{
    uint32_t r = (uint32_t)rng(st);
    uint8_t bytes[32];
    for (size_t i = 0; i < sizeof bytes; i++) bytes[i] = (uint8_t)rng(st);
    switch (rng(st) % 9) {
    case 0: assert_int_equal(dsgx_trace_add(t, TRACE_W32, REG_DISP3DCNT, r & 0x7FFFu), 0); break;
    case 1: assert_int_equal(dsgx_trace_add(t, TRACE_W16, REG_DISP3DCNT, r & 0x3001u), 0); break;
    case 2: assert_int_equal(dsgx_trace_add(t, TRACE_W8, REG_DISP3DCNT + 1, r & 0x30u), 0); break;
    case 3: assert_int_equal(dsgx_trace_add_data(t, REG_DISP3DCNT - 4, bytes, 8), 0); break;
    case 4: assert_int_equal(dsgx_trace_add(t, TRACE_VBLANK, 0, 0), 0); break;
    case 5: /* 3D rendering off and on again, or left as it was */
        assert_int_equal(dsgx_trace_add(t, TRACE_W16, REG_POWCNT1, 0x820Bu), 0);
        assert_int_equal(dsgx_trace_add(t, TRACE_W16, REG_POWCNT1, r & 1 ? 0x820Fu : 0x820Bu), 0);
        if (!(r & 1)) assert_int_equal(dsgx_trace_add(t, TRACE_W16, REG_POWCNT1, 0x820Fu), 0);
        break;
    case 8: /* the geometry engine off (a VBlank swaps nothing then) or on */
        assert_int_equal(dsgx_trace_add(t, TRACE_W16, REG_POWCNT1, r & 2 ? 0x820Fu : 0x8207u), 0);
        break;
    case 6:
        assert_int_equal(dsgx_trace_add(t, TRACE_W8, REG_VRAMCNT_A + 4, 0x80u), 0);
        assert_int_equal(dsgx_trace_add_data(t, REG_VRAM_LCDC_BASE + 0x80000u, bytes, 32), 0);
        assert_int_equal(dsgx_trace_add(t, TRACE_W8, REG_VRAMCNT_A + 4, 0x83u), 0);
        break;
    default: assert_int_equal(dsgx_trace_add(t, TRACE_W32, REG_GXSTAT, r), 0); break;
    }
}

/* A golden trace with 0-3 random events after each of its operations near a `frame`
 * directive (the writes just before and after it), one at a time vs pipelined. */
static void test_random_events(void **state)
{
    (void)state;
    static const char *const bases[] = {"rdlines/band_ramp_mid.trace",
                                        "scenes/multiframe_texture_anim.trace"};
    uint64_t st = 0x243F6A8885A308D3ull;
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", DSGX_GOLDEN_DIR, bases[b]);
        dsgx_trace src;
        load(path, &src);
        for (unsigned round = 0; round < 12; round++) {
            dsgx_trace t = {0};
            for (size_t i = 0; i < src.n; i++) {
                const dsgx_trace_item *it = &src.items[i];
                bool near =
                    it->op == TRACE_FRAME || (i + 1 < src.n && src.items[i + 1].op == TRACE_FRAME);
                if (it->op == TRACE_DATA)
                    assert_int_equal(
                        dsgx_trace_add_data(&t, it->addr, src.data + it->data_off, it->data_len),
                        0);
                else
                    assert_int_equal(dsgx_trace_add(&t, it->op, it->addr, it->value), 0);
                for (unsigned k = near ? (unsigned)(rng(&st) % 4) : 0; k > 0; k--)
                    add_event(&t, &st);
            }
            char name[1100];
            snprintf(name, sizeof name, "%s, random events round %u", path, round);
            compare(name, &t, 2 + round % 3, round % 4 == 3 ? 2 : 0);
            dsgx_trace_free(&t);
        }
        dsgx_trace_free(&src);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ref),           cmocka_unit_test(test_rdlines),
        cmocka_unit_test(test_scenes),        cmocka_unit_test(test_hw),
        cmocka_unit_test(test_ntrfd),         cmocka_unit_test(test_repeat),
        cmocka_unit_test(test_underflow_ack), cmocka_unit_test(test_threads_switch),
        cmocka_unit_test(test_random_events),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
