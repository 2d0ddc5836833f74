/*
 * threads.c - drawing one frame on several threads: its scanlines in bands, then its final pass
 * in bands of lines.
 *
 * Hardware notes: the DS draws scanlines one after the other, and so does every band here; what
 * makes bands of lines independent is that nothing a line draws depends on another line:
 *  - a polygon line writes and reads only its own row of the colour/depth/attribute buffers
 *    (both layers); the final pass (edge marking reads the neighbouring rows' polygon IDs and
 *    depths) starts after every line, and none of its steps writes what another line reads
 *    (postpass.c);
 *  - a polygon's edges on a line follow from its vertices and the line alone: a band's first line
 *    sets up the edges of the polygons above it that reach it directly at that line, the same
 *    state as stepping down from their top line (edge.c raster_slope_setup, checked by
 *    test_raster_threads);
 *  - the texture cache is planned before any line (setup.c) and only read while drawing;
 *  - two things DO run from line to line and are handled apart: the shadow stencil and its
 *    "previous polygon was a shadow mask" flag (melonDS GPU3D_Soft.cpp keeps both across lines:
 *    frames with shadow polygons are drawn on one thread), and the scanline timing model
 *    (timing.c: its clock runs through the frame). Bands draw without cutting anything and record
 *    each line's cost; the engine's timing model then replays the lines in order. When no line
 *    would have been cut, the replay ends in the same state as the live model (same
 *    RDLINES_COUNT, underflow bit) and the frame is the frame; otherwise it is drawn again on one
 *    thread with the live model (render.c). Frames too small to gain are drawn on one thread.
 * The result is the same frame, bit for bit, whatever the number of threads (test_raster_threads
 * and the golden tests run with 1 and with several threads).
 *
 * Workers are created once (raster_set_threads), spin a few tens of microseconds after a step
 * for the next one (a frame's final pass follows its lines), then sleep on a condition variable;
 * the caller's thread works as thread 0. Bands are handed out in order (plan_bands).
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "raster/raster_internal.h"
#include "raster/threads.h"

/* Smallest estimated work (setup.c line_work, about instructions) worth splitting: measured on
 * the reference traces, frames estimated below ~1.1 M (a_flat_triangle 0.68 M, dot_polygons
 * 0.79 M, vtx_formats 0.97 M: 40-75 us) ran no faster or slower on two threads (waking the
 * worker, the second band's set-up), frames above it (cull_modes 1.19 M, d_lit_cube 1.34 M)
 * faster. */
#define SPLIT_MIN_WORK 1100000u

typedef struct worker {
    struct raster_pool *pool;
    unsigned index; /* thread number: 1.. */
} worker;

/* A job: part @p i of @p n of the current step of the frame (worker i does part i). */
typedef void (*job_fn)(raster_engine *r, unsigned i, unsigned n);

struct raster_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    raster_engine *r;
    unsigned nworkers;   /* threads started */
    job_fn job;          /* the current step */
    unsigned nparts;     /* its parts: part 0 on the caller's thread, part i by worker i */
    atomic_uint running; /* workers still on the current step */
    atomic_ullong gen;   /* step counter: a new value wakes the workers */
    bool quit;
    pthread_t th[RASTER_MAX_THREADS];
    worker w[RASTER_MAX_THREADS];
};

/* A short wait in a spin loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Pauses a worker spins for the next step before it sleeps (tens of microseconds: a frame's
 * final pass follows its lines that closely; waking a sleeping thread costs as much). */
#define SPIN_WAKE 2000

static void *worker_main(void *arg)
{
    worker *w = arg;
    struct raster_pool *p = w->pool;
    unsigned long long seen = 0;
    for (;;) {
        for (int i = 0; i < SPIN_WAKE && atomic_load(&p->gen) == seen; i++) cpu_relax();
        pthread_mutex_lock(&p->lock);
        while (atomic_load(&p->gen) == seen && !p->quit) pthread_cond_wait(&p->wake, &p->lock);
        bool quit = p->quit;
        pthread_mutex_unlock(&p->lock);
        if (quit) break;
        seen = atomic_load(&p->gen);
        /* (job and nparts are written before gen moves, and stay until every worker is done) */
        if (w->index < p->nparts) p->job(p->r, w->index, p->nparts);
        atomic_fetch_sub(&p->running, 1u);
    }
    return NULL;
}

static void pool_destroy(struct raster_pool *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->nworkers; i++) pthread_join(p->th[i], NULL);
    pthread_cond_destroy(&p->wake);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* A pool of up to @p n workers for bands 1..n (fewer when threads cannot be created). */
static struct raster_pool *pool_create(raster_engine *r, unsigned n)
{
    struct raster_pool *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->r = r;
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->wake, NULL) != 0) {
        pthread_mutex_destroy(&p->lock);
        free(p);
        return NULL;
    }
    for (unsigned i = 0; i < n; i++) {
        p->w[i] = (worker){p, i + 1};
        if (pthread_create(&p->th[i], NULL, worker_main, &p->w[i]) != 0) break;
        p->nworkers++;
    }
    return p;
}

bool raster_threads_init(raster_engine *r)
{
    r->band[0] = calloc(1, sizeof *r->band[0]);
    if (!r->band[0]) return false;
    r->band[0]->r = r;
    r->threads = 1;
    r->split_min_work = SPLIT_MIN_WORK;
    return true;
}

void raster_threads_free(raster_engine *r)
{
    pool_destroy(r->pool);
    r->pool = NULL;
    for (unsigned i = 0; i < RASTER_MAX_THREADS; i++) {
        free(r->band[i]);
        r->band[i] = NULL;
    }
}

unsigned raster_set_threads(raster_engine *r, unsigned n)
{
    if (n < 1) n = 1;
    if (n > RASTER_MAX_THREADS) n = RASTER_MAX_THREADS;
    if (n == r->threads) return n; /* (the workers it has) */
    pool_destroy(r->pool);
    r->pool = NULL;
    unsigned bands = 1;
    while (bands < n) {
        if (!r->band[bands]) r->band[bands] = calloc(1, sizeof *r->band[bands]);
        if (!r->band[bands]) break;
        r->band[bands]->r = r;
        bands++;
    }
    if (bands > 1) {
        r->pool = pool_create(r, bands - 1);
        bands = r->pool ? r->pool->nworkers + 1 : 1;
    }
    r->threads = bands;
    return bands;
}

/* Run @p job in @p n parts at once (n <= workers + 1), part 0 on this thread. */
static void pool_run(struct raster_pool *p, job_fn job, unsigned n)
{
    pthread_mutex_lock(&p->lock);
    p->job = job;
    p->nparts = n;
    atomic_store(&p->running, p->nworkers);
    atomic_fetch_add(&p->gen, 1u);
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    job(p->r, 0, n);
    /* the workers finish within microseconds of this thread (the bands are taken in turns):
     * spin, then yield the processor */
    for (unsigned i = 0; atomic_load(&p->running) != 0; i++) {
        if (i < 4096)
            cpu_relax();
        else
            sched_yield();
    }
}

size_t raster_threads_memory(const raster_engine *r)
{
    size_t n = r->pool ? sizeof *r->pool : 0;
    for (unsigned i = 0; i < RASTER_MAX_THREADS; i++)
        if (r->band[i]) n += sizeof *r->band[i];
    return n;
}

unsigned raster_threads(const raster_engine *r)
{
    return r->threads;
}

void raster_draw_lines(raster_engine *r, int32_t y0, int32_t y1)
{
    raster_band *b = r->band[0];
    b->y0 = y0;
    b->y1 = y1;
    b->timing = &r->timing;
    raster_draw_band(b);
    if (b->drew) r->prev_shadow_mask = b->prev_mask;
}

/* Worker i (0: the caller): bands of lines as they come (raster_engine.next_band), each then
 * finished by raster_lines_done, with thread i's band state. */
static void draw_job(raster_engine *r, unsigned i, unsigned n)
{
    (void)n;
    raster_band *b = r->band[i];
    bool drew = false;
    raster_timing_record(&b->rec, r->line_rec);
    for (;;) {
        unsigned k = atomic_fetch_add(&r->next_band, 1u);
        if (k >= r->nbands) break;
        b->y0 = r->band_y[k];
        b->y1 = r->band_y[k + 1];
        b->timing = &b->rec;
        raster_draw_band(b);
        drew = drew || b->drew;
        raster_lines_done(r, b->y0, b->y1);
    }
    b->drew = drew;
}

/* Bands of lines in three rounds of one band per thread, the rounds 60%, 30% and 10% of the
 * estimated work: the threads take bands as they finish the last, so a band that takes longer
 * than estimated (or a worker that wakes late) is made up by the smaller ones at the end.
 * Every band after the first costs the set-up of the polygons crossing its first line. */
static void plan_bands(raster_engine *r, uint64_t total)
{
    static const unsigned round_pct[3] = {60, 30, 10};
    unsigned n = r->threads, k = 0;
    uint64_t acc = 0, goal = 0;
    int32_t y = 0;
    r->band_y[0] = 0;
    for (unsigned round = 0; round < 3; round++) {
        for (unsigned i = 0; i < n; i++) {
            goal += total * round_pct[round] / 100 / n;
            bool last = round == 2 && i == n - 1;
            while (y < 192 && (last || acc + r->line_work[y] / 2 < goal)) acc += r->line_work[y++];
            if (y > r->band_y[k]) r->band_y[++k] = y; /* (empty bands dropped) */
        }
    }
    r->nbands = k;
}

raster_lines_result raster_draw_lines_split(raster_engine *r)
{
    if (r->threads < 2 || !r->pool || r->has_shadows) return RASTER_LINES_NOT_SPLIT;
    uint64_t total = 0;
    for (int y = 0; y < 192; y++) total += r->line_work[y];
    if (total < r->split_min_work) return RASTER_LINES_NOT_SPLIT;

    plan_bands(r, total);
    atomic_store(&r->next_band, 0u);
    pool_run(r->pool, draw_job, r->threads);

    /* (no shadow masks: every band that drew a polygon line leaves the flag false) */
    for (unsigned i = 0; i < r->threads; i++) {
        if (r->band[i]->drew) r->prev_shadow_mask = r->band[i]->prev_mask;
    }
    /* the timing model, line by line in order, from the recorded costs */
    for (int y = 0; y < 192; y++) {
        raster_timing_line_begin(&r->timing, y);
        if (!raster_timing_replay_line(&r->timing, y, r->line_rec[y])) return RASTER_LINES_CUT;
        raster_timing_line_end(&r->timing, y);
    }
    return RASTER_LINES_SPLIT;
}

/* The final pass of lines [192 i / n, 192 (i + 1) / n): the same work on every line. */
static void postpass_job(raster_engine *r, unsigned i, unsigned n)
{
    raster_postpass_rows(r, r->frame, r->out, (int)(192 * i / n), (int)(192 * (i + 1) / n));
}

void raster_postpass_split(raster_engine *r, const gx_frame *in, dsgx_frame *out)
{
    if (r->threads < 2 || !r->pool || r->last_lines != RASTER_LINES_SPLIT) {
        raster_postpass_rows(r, in, out, 0, 192);
        return;
    }
    pool_run(r->pool, postpass_job, r->threads);
}
