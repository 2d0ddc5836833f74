/*
 * test_multi_engine.c - several engines in one process: no state is shared between instances.
 *
 *  - two engine pairs driven in lockstep, one bus write of each trace at a time (the order an
 *    emulator running two consoles would interleave them), every frame of each equal to the
 *    trace's solo replay;
 *  - the same trace on both pairs at once, with one pair also saving and restoring itself
 *    in between;
 *  - four pairs replaying different traces on four threads at the same time (two of them
 *    drawing on two rendering threads each), every frame equal to the solo replay.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/core/savestate.h"
#include "tools/core/system.h"
#include "tools/core/trace.h"

#define MAX_FRAMES 16

typedef struct replay {
    dsgx_trace t;
    dsgx_system *s;
    size_t next; /* next item */
    unsigned n;
    uint64_t hash[MAX_FRAMES];
} replay;

static void load(dsgx_trace *t, const char *name)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/ref/%s", DSGX_GOLDEN_DIR, name);
    memset(t, 0, sizeof *t);
    if (dsgx_trace_load(t, path, err, sizeof err) != 0) fail_msg("%s", err);
}

static void start(replay *r, const char *name)
{
    memset(r, 0, sizeof *r);
    load(&r->t, name);
    r->s = dsgx_system_create();
    assert_non_null(r->s);
}

/* One item. @return false at the end of the trace. */
static bool step(replay *r)
{
    if (r->next >= r->t.n) return false;
    const dsgx_trace_item *it = &r->t.items[r->next++];
    if (it->op == TRACE_FRAME) {
        dsgx_system_frame(r->s);
        if (r->n < MAX_FRAMES) r->hash[r->n++] = dsgx_frame_hash(&r->s->frame);
    } else {
        dsgx_system_exec(r->s, &r->t, it);
    }
    return true;
}

static void finish(replay *r)
{
    dsgx_system_destroy(r->s);
    dsgx_trace_free(&r->t);
}

static void solo(const char *name, replay *out)
{
    start(out, name);
    while (step(out)) {
    }
    assert_true(out->n > 0);
}

static void same_frames(const replay *a, const replay *ref, const char *name)
{
    assert_int_equal(a->n, ref->n);
    for (unsigned f = 0; f < ref->n; f++)
        if (a->hash[f] != ref->hash[f])
            fail_msg("%s frame %u differs from the solo replay", name, f);
}

static const char *const pairs[][2] = {
    {"scene_terrain.trace", "shadow_polys.trace"},
    {"multiframe_3.trace", "tex_formats_paletted.trace"},
    {"clear_plane.trace", "antialias.trace"},
    {"g_heavy_1.trace", "rear_plane_bitmap.trace"},
};

static void test_interleaved(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
        replay ref[2], run[2];
        for (int i = 0; i < 2; i++) {
            solo(pairs[k][i], &ref[i]);
            start(&run[i], pairs[k][i]);
        }
        bool more = true;
        while (more) {
            more = step(&run[0]);
            more = step(&run[1]) || more;
        }
        for (int i = 0; i < 2; i++) {
            same_frames(&run[i], &ref[i], pairs[k][i]);
            finish(&run[i]);
            finish(&ref[i]);
        }
    }
}

static void test_same_trace_with_save_states(void **state)
{
    (void)state;
    replay ref, a, b;
    solo("multiframe_3.trace", &ref);
    start(&a, "multiframe_3.trace");
    start(&b, "multiframe_3.trace");
    uint8_t *blob = NULL;
    size_t cap = 0;
    for (size_t i = 0; step(&a); i++) {
        step(&b);
        if (i % 50 == 25) { /* b saves and restores itself; a is untouched */
            size_t n = dsgx_state_size(b.s->gx, b.s->raster);
            if (n > cap) blob = realloc(blob, cap = n);
            assert_int_equal(dsgx_state_save(b.s->gx, b.s->raster, blob, n, 0), n);
            gx_reset(b.s->gx);
            assert_int_equal(dsgx_state_restore(b.s->gx, b.s->raster, blob, n, NULL, 0), 0);
        }
    }
    same_frames(&a, &ref, "pair a");
    same_frames(&b, &ref, "pair b");
    free(blob);
    finish(&a);
    finish(&b);
    finish(&ref);
}

typedef struct job {
    const char *name;
    unsigned raster_threads;
    replay run;
} job;

static void *thread_main(void *arg)
{
    job *j = arg;
    raster_set_threads(j->run.s->raster, j->raster_threads);
    while (step(&j->run)) {
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    job jobs[4] = {{.name = "scene_characters.trace", .raster_threads = 1},
                   {.name = "shadow_polys.trace", .raster_threads = 2},
                   {.name = "tex_wrap.trace", .raster_threads = 1},
                   {.name = "scene_terrain.trace", .raster_threads = 2}};
    pthread_t th[4];
    for (int i = 0; i < 4; i++) start(&jobs[i].run, jobs[i].name);
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&th[i], NULL, thread_main, &jobs[i]), 0);
    for (int i = 0; i < 4; i++) assert_int_equal(pthread_join(th[i], NULL), 0);
    for (int i = 0; i < 4; i++) {
        replay ref;
        solo(jobs[i].name, &ref);
        same_frames(&jobs[i].run, &ref, jobs[i].name);
        finish(&ref);
        finish(&jobs[i].run);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interleaved),
        cmocka_unit_test(test_same_trace_with_save_states),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
