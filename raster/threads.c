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
 * and the golden tests run with 1 and with several threads). Frames span.c raster_pmajor_frame
 * accepts are drawn polygon by polygon in each band (raster_draw_band_pmajor), and on one thread
 * the same way against a recording model, replayed as the bands' (raster/README.md "Drawing
 * order").
 *
 * A frame is drawn in steps (its lines, then its final pass), each open to whoever joins it
 * while it runs: the caller's thread works as thread 0, the workers (created once,
 * raster_set_threads) join it as they wake, lent threads (lend.h: a pipelined replay's geometry
 * thread) when they have nothing else to do. Each takes its pieces of the step as it goes
 * (bands from its stream of lines, then from the others', plan_streams; pieces of the final
 * pass from a shared counter), so the step is done however many join and when; the caller's
 * thread closes it once nobody is inside. Workers spin a few tens of microseconds after a step
 * for the next one (a frame's final pass follows its lines), then sleep on a condition
 * variable.
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "raster/lend.h"
#include "raster/raster_internal.h"
#include "raster/threads.h"

/* Smallest estimated work (setup.c line_work, about instructions) worth splitting: measured on
 * the reference traces, frames estimated below ~1.1 M (a_flat_triangle 0.68 M, dot_polygons
 * 0.79 M, vtx_formats 0.97 M: 40-75 us) ran no faster or slower on two threads (waking the
 * worker, the second band's set-up), frames above it (cull_modes 1.19 M, d_lit_cube 1.34 M)
 * faster. */
#define SPLIT_MIN_WORK 1100000u

#define MAX_BANDS (RASTER_STREAM_BANDS * RASTER_MAX_THREADS)

typedef struct worker {
    struct raster_pool *pool;
    unsigned index; /* thread number: 1.. */
} worker;

/* A job: the current step of the frame, on thread @p i (band[i]: 0 the caller, 1.. the
 * workers, then the lent threads). Jobs take their work in pieces from a shared counter, so
 * the step is done whoever joins it, and whenever. */
typedef void (*job_fn)(raster_engine *r, unsigned i);

/* The step word: bits 0-7 count the threads inside the current step, bit 8 says it is open
 * (threads may join), the bits above number the steps. A thread joins an open step it has not
 * joined yet by adding 1 (compare-and-swap, so never after it closed); the caller's thread
 * closes it once nobody is inside (compare-and-swap from "open, 0 inside"). */
#define STEP_INSIDE 0xFFull
#define STEP_OPEN   0x100ull
#define STEP_ONE    0x200ull

struct raster_pool {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    raster_engine *r;
    unsigned nworkers; /* threads started: band[1..nworkers] */
    unsigned nlent;    /* threads lent by the caller (raster_lend): band[nworkers + 1..] */
    job_fn job;        /* the current step (written before it opens) */
    atomic_ullong step;
    atomic_uint lent_free; /* lent slots not in use (bit i: band[nworkers + 1 + i]) */
    unsigned long long lent_seen[RASTER_MAX_THREADS]; /* the last step each lent slot joined */
    atomic_uint closed;    /* frames with no step left to open (raster_lend_frames) */
    atomic_uint next_rows; /* the final pass's next piece of lines */
    /* band k's polygons in the last frame split in polygon-major order (plan_band_lists):
     * list[k * GX_MAX_POLYGONS..][0, nlist[k]), for k < nlisted */
    unsigned nlisted;
    uint16_t nlist[MAX_BANDS];
    size_t list_bytes;
    bool quit;
    pthread_t th[RASTER_MAX_THREADS];
    worker w[RASTER_MAX_THREADS];
    uint16_t list[]; /* (RASTER_STREAM_BANDS * threads * GX_MAX_POLYGONS: list_bytes) */
};

/* A short wait in a spin loop. */
static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Whether an open step is there that a thread which last joined step @p seen has not joined. */
static bool step_joinable(struct raster_pool *p, unsigned long long seen)
{
    unsigned long long s = atomic_load(&p->step);
    return (s & STEP_OPEN) && s / STEP_ONE != seen;
}

/* Join the open step if it is not step @p *seen. @return true when inside (then step_leave). */
static bool step_join(struct raster_pool *p, unsigned long long *seen)
{
    unsigned long long s = atomic_load(&p->step);
    while ((s & STEP_OPEN) && s / STEP_ONE != *seen) {
        if (atomic_compare_exchange_weak(&p->step, &s, s + 1u)) {
            *seen = s / STEP_ONE;
            return true;
        }
    }
    return false;
}

static void step_leave(struct raster_pool *p)
{
    atomic_fetch_sub(&p->step, 1u);
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
        for (int i = 0; i < SPIN_WAKE && !step_joinable(p, seen); i++) cpu_relax();
        if (step_join(p, &seen)) {
            /* (job was written before the step opened, and stays until it closes) */
            p->job(p->r, w->index);
            step_leave(p);
            continue;
        }
        pthread_mutex_lock(&p->lock);
        while (!step_joinable(p, seen) && !p->quit) pthread_cond_wait(&p->wake, &p->lock);
        bool quit = p->quit;
        pthread_mutex_unlock(&p->lock);
        if (quit) break;
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

/* A pool of up to @p workers workers for band[1..workers] (fewer when threads cannot be
 * created), and @p lent slots for lent threads after them. */
static struct raster_pool *pool_create(raster_engine *r, unsigned workers, unsigned lent)
{
    size_t list_bytes =
        (size_t)RASTER_STREAM_BANDS * (1u + workers + lent) * GX_MAX_POLYGONS * sizeof(uint16_t);
    struct raster_pool *p = calloc(1, sizeof *p + list_bytes);
    if (!p) return NULL;
    p->list_bytes = list_bytes;
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
    for (unsigned i = 0; i < workers; i++) {
        p->w[i] = (worker){p, i + 1};
        if (pthread_create(&p->th[i], NULL, worker_main, &p->w[i]) != 0) break;
        p->nworkers++;
    }
    p->nlent = lent;
    atomic_store(&p->lent_free, (1u << lent) - 1u);
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

unsigned raster_set_threads_lent(raster_engine *r, unsigned n, unsigned lent)
{
    if (n < 1) n = 1;
    if (n > RASTER_MAX_THREADS) n = RASTER_MAX_THREADS;
    if (lent > n - 1) lent = n - 1;
    if (n == r->threads && lent == (r->pool ? r->pool->nlent : 0)) return n; /* (as it is) */
    pool_destroy(r->pool);
    r->pool = NULL;
    unsigned bands = 1;
    while (bands < n) {
        if (!r->band[bands]) r->band[bands] = calloc(1, sizeof *r->band[bands]);
        if (!r->band[bands]) break;
        r->band[bands]->r = r;
        bands++;
    }
    if (lent > bands - 1) lent = bands - 1;
    if (bands > 1) {
        r->pool = pool_create(r, bands - 1 - lent, lent);
        bands = r->pool ? 1 + r->pool->nworkers + r->pool->nlent : 1;
    }
    r->threads = bands;
    return bands;
}

unsigned raster_set_threads(raster_engine *r, unsigned n)
{
    return raster_set_threads_lent(r, n, 0);
}

/* Run @p job as one step, on this thread and whichever others join it (started workers, lent
 * threads); @return once it is done and nobody is inside. */
static void pool_run(struct raster_pool *p, job_fn job)
{
    p->job = job;
    unsigned long long closed = (atomic_load(&p->step) / STEP_ONE + 1u) * STEP_ONE;
    if (p->nworkers) {
        pthread_mutex_lock(&p->lock);
        atomic_store(&p->step, closed | STEP_OPEN);
        pthread_cond_broadcast(&p->wake);
        pthread_mutex_unlock(&p->lock);
    } else {
        atomic_store(&p->step, closed | STEP_OPEN);
    }
    job(p->r, 0);
    /* the others finish within microseconds of this thread (the pieces are taken in turns):
     * spin, then yield the processor, until nobody is inside; then close */
    unsigned long long open = closed | STEP_OPEN;
    for (unsigned i = 0; !atomic_compare_exchange_weak(&p->step, &open, closed); i++) {
        open = closed | STEP_OPEN;
        if (i < 4096)
            cpu_relax();
        else
            sched_yield();
    }
}

/* No step of this frame opens any more: tell the lent threads (raster_lend_frames). */
static void frame_closed(raster_engine *r)
{
    if (r->pool) atomic_fetch_add(&r->pool->closed, 1u);
}

bool raster_lend(raster_engine *r)
{
    struct raster_pool *p = r->pool;
    if (!p || !p->nlent) return false;
    unsigned slot, free_slots = atomic_load(&p->lent_free);
    do {
        if (!free_slots) return false; /* (more lenders than lent threads) */
        slot = (unsigned)__builtin_ctz(free_slots);
    } while (!atomic_compare_exchange_weak(&p->lent_free, &free_slots, free_slots & ~(1u << slot)));
    bool joined = step_join(p, &p->lent_seen[slot]);
    if (joined) {
        p->job(r, p->nworkers + 1u + slot);
        step_leave(p);
    }
    atomic_fetch_or(&p->lent_free, 1u << slot);
    return joined;
}

unsigned raster_lend_frames(const raster_engine *r)
{
    return r->pool ? atomic_load(&r->pool->closed) : 0u;
}

size_t raster_threads_memory(const raster_engine *r)
{
    size_t n = r->pool ? sizeof *r->pool + r->pool->list_bytes : 0;
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

/* ---- streams of bands ----
 *
 * Each thread has its stream of lines: thread 0 (the one in raster_render) the top one, the
 * s-th thread to join the s-th below it. A thread draws its stream's bands from the front, in
 * line order, so each band carries on from its last (no set-up again of the polygons crossing
 * its first line: the polygon-major order hands their states on, the scanline order keeps its
 * active list); a thread whose stream is drawn takes a stream nobody has joined for (from its
 * front), else the last untaken band of the stream with the most work left. A stream's bands
 * are 90% and 10% of its work, so what is taken from the back, with the set-up of its polygons
 * at its first line, is small (finer ends, 70/15/10/5%, balanced no better: each band boundary
 * costs its polygons' states carried over and their segments cut, bench/README.md "thr2"). The
 * streams' shares of the frame come from the work each thread drew in the frames before
 * (shares_update): a thread that joins late (a lent thread, which first runs the next frame's
 * geometry) gets the share it drew, and the split settles where the threads finish together. Who
 * draws which line changes nothing in the frame, only when it is done. */

#define STREAM_OWNED (1u << 16)

static inline unsigned stream_front(unsigned w)
{
    return w & 0xFFu;
}

static inline unsigned stream_back(unsigned w)
{
    return (w >> 8) & 0xFFu;
}

/* Take stream @p s's first untaken band into @p k. @return false when none is left. */
static bool take_front(raster_engine *r, unsigned s, unsigned *k)
{
    unsigned w = atomic_load(&r->stream[s]);
    do {
        if (stream_front(w) >= stream_back(w)) return false;
    } while (!atomic_compare_exchange_weak(&r->stream[s], &w, w + 1u));
    *k = stream_front(w);
    return true;
}

/* Make stream @p s this thread's: @return false when another thread has it. */
static bool claim(raster_engine *r, unsigned s)
{
    unsigned w = atomic_load(&r->stream[s]);
    do {
        if (w & STREAM_OWNED) return false;
    } while (!atomic_compare_exchange_weak(&r->stream[s], &w, w | STREAM_OWNED));
    return true;
}

/* A stream nobody has, with bands left, made this thread's; @return its number or -1. */
static int adopt(raster_engine *r)
{
    for (unsigned s = 0; s < r->nstreams; s++) {
        unsigned w = atomic_load(&r->stream[s]);
        if (!(w & STREAM_OWNED) && stream_front(w) < stream_back(w) && claim(r, s)) return (int)s;
    }
    return -1;
}

/* The last untaken band of the stream with the most work left, into @p k. @return false when
 * no band is left. */
static bool steal_back(raster_engine *r, unsigned *k)
{
    for (;;) {
        unsigned best = 0;
        uint64_t most = 0;
        for (unsigned s = 0; s < r->nstreams; s++) {
            unsigned w = atomic_load(&r->stream[s]);
            uint64_t left = stream_front(w) < stream_back(w)
                                ? r->band_acc[stream_back(w)] - r->band_acc[stream_front(w)] + 1u
                                : 0u;
            if (left > most) most = left, best = s;
        }
        if (!most) return false;
        unsigned w = atomic_load(&r->stream[best]);
        if (stream_front(w) < stream_back(w) &&
            atomic_compare_exchange_weak(&r->stream[best], &w, w - (1u << 8))) {
            *k = stream_back(w) - 1u;
            return true;
        }
    }
}

/* Thread i (0: the caller): the bands of its stream, then of the others (above), each then
 * finished by raster_lines_done, with thread i's band state. A band that starts where this
 * thread's last one ended carries on from its state, as one longer band. */
static void draw_job(raster_engine *r, unsigned i)
{
    raster_band *b = r->band[i];
    unsigned slot = i == 0 ? 0u : atomic_fetch_add(&r->arrivals, 1u);
    int own = slot < r->nstreams && claim(r, slot) ? (int)slot : -1;
    bool drew = false;
    uint64_t work = 0;
    int32_t end = -1; /* where this thread's last band ended */
    raster_timing_record(&b->rec, r->line_rec);
    b->timing = &b->rec;
    for (;;) {
        unsigned k;
        if (own >= 0 && take_front(r, (unsigned)own, &k)) {
            /* (the next band of this thread's stream) */
        } else if ((own = adopt(r)) >= 0 && take_front(r, (unsigned)own, &k)) {
            b->adopted++;
        } else if (steal_back(r, &k)) {
            b->stolen++;
        } else {
            break;
        }
        int32_t y0 = r->band_y[k], y1 = r->band_y[k + 1];
        if (r->pmajor) {
            struct raster_pool *p = r->pool;
            b->y0 = y0;
            b->y1 = y1;
            b->order = &p->list[k * GX_MAX_POLYGONS];
            b->norder = p->nlist[k];
            raster_draw_band_pmajor(b, r->line_rec, y0 == end);
        } else if (y0 == end) {
            for (int32_t y = y0; y < y1; y++) raster_band_line(b, y); /* (b->y0 as it was) */
            b->y1 = y1;
        } else {
            b->y0 = y0;
            b->y1 = y1;
            raster_draw_band(b);
        }
        end = y1;
        drew = drew || b->drew;
        work += r->band_acc[k + 1] - r->band_acc[k];
        raster_lines_done(r, y0, y1);
    }
    b->drew = drew;
    if (slot < RASTER_MAX_THREADS) r->slot_work[slot] = work;
}

/* Each thread's stream of lines by the shares (of the estimated work), in bands of 90 and 10% of
 * the stream's work; empty bands dropped. */
static void plan_streams(raster_engine *r, uint64_t total)
{
    static const unsigned band_pct[RASTER_STREAM_BANDS] = {90, 100}; /* (cumulative) */
    unsigned n = r->threads, k = 0;
    uint64_t acc = 0, start = 0, cum = 0;
    int32_t y = 0;
    r->band_y[0] = 0;
    r->band_acc[0] = 0;
    for (unsigned s = 0; s < n; s++) {
        r->stream_band[s] = (uint8_t)k;
        cum += r->share[s];
        uint64_t end = s == n - 1 || cum >= 65536u ? total : total * cum >> 16;
        if (end < start) end = start;
        for (unsigned j = 0; j < RASTER_STREAM_BANDS; j++) {
            uint64_t goal = start + (end - start) * band_pct[j] / 100u;
            bool last = s == n - 1 && j == RASTER_STREAM_BANDS - 1;
            while (y < 192 && (last || acc + r->line_work[y] / 2 < goal)) acc += r->line_work[y++];
            if (y > r->band_y[k]) {
                r->band_y[++k] = y;
                r->band_acc[k] = acc;
            }
        }
        start = end;
    }
    r->stream_band[n] = (uint8_t)k;
    r->nbands = k;
    r->nstreams = n;
    for (unsigned s = 0; s < n; s++) {
        atomic_store(&r->stream[s], r->stream_band[s] | (unsigned)r->stream_band[s + 1] << 8);
        r->slot_work[s] = 0;
    }
    atomic_store(&r->arrivals, 1u);
}

/* Each band's polygons for the polygon-major order (raster_draw_band.order): the render-list
 * indices of the polygons whose lines (r->box) meet the band, in list order, so that a band does
 * not walk the whole list (a walk of g_heavy_1's 2,000 polygons cost ~30 K instructions a band,
 * most of a carried band boundary's cost). Each band has room for every polygon (the pool's
 * list: 2 bands a thread x 2,048 x 2 bytes, 8 KiB a thread). */
static void plan_band_lists(raster_engine *r)
{
    struct raster_pool *p = r->pool;
    uint8_t band_of[192];
    for (unsigned k = 0; k < r->nbands; k++) {
        for (int32_t y = r->band_y[k]; y < r->band_y[k + 1]; y++) band_of[y] = (uint8_t)k;
        p->nlist[k] = 0;
    }
    for (uint32_t i = 0; i < r->npolys; i++) {
        int32_t ytop = r->box[i].ytop, ybottom = r->box[i].ybottom;
        if (ytop > 191 || ybottom < ytop) continue; /* (the latter: none, raster_pmajor_frame) */
        unsigned last = band_of[ybottom < 191 ? ybottom : 191];
        for (unsigned k = band_of[ytop]; k <= last; k++)
            p->list[k * GX_MAX_POLYGONS + p->nlist[k]++] = (uint16_t)i;
    }
    p->nlisted = r->nbands;
}

const uint16_t *raster_band_polys(const raster_engine *r, unsigned k, uint32_t *n)
{
    const struct raster_pool *p = r->pool;
    if (!p || k >= p->nlisted) return NULL;
    *n = p->nlist[k];
    return &p->list[k * GX_MAX_POLYGONS];
}

/* The shares of the next frame: half the last ones, half the work each thread drew in this
 * one (a thread that did not come drew none). Equal shares when the thread count changed. */
static void shares_update(raster_engine *r, bool drawn)
{
    unsigned n = r->threads;
    if (r->share_threads != n) {
        for (unsigned s = 0; s < n; s++) r->share[s] = 65536u / n;
        r->share_threads = n;
        return;
    }
    if (!drawn) return;
    uint64_t sum = 0;
    for (unsigned s = 0; s < n; s++) sum += r->slot_work[s];
    if (!sum) return;
    for (unsigned s = 0; s < n; s++)
        r->share[s] = (uint32_t)((r->share[s] + r->slot_work[s] * 65536u / sum) / 2u);
}

/* The timing model, line by line in order, from the recorded costs. @return false when a
 * line would have been cut (the model must then be restarted). */
static bool replay_lines(raster_engine *r)
{
    for (int y = 0; y < 192; y++) {
        raster_timing_line_begin(&r->timing, y);
        if (!raster_timing_replay_line(&r->timing, y, r->line_rec[y])) return false;
        raster_timing_line_end(&r->timing, y);
    }
    return true;
}

/* A frame on this thread alone in polygon-major order (span.c raster_draw_band_pmajor). */
static raster_lines_result draw_lines_pmajor(raster_engine *r)
{
    raster_band *b = r->band[0];
    b->y0 = 0;
    b->y1 = 192;
    b->order = NULL; /* (the whole list) */
    raster_draw_band_pmajor(b, r->line_rec, false);
    if (b->drew) r->prev_shadow_mask = b->prev_mask;
    raster_lines_done(r, 0, 192);
    return replay_lines(r) ? RASTER_LINES_DRAWN : RASTER_LINES_CUT;
}

static raster_lines_result draw_lines_split(raster_engine *r)
{
    r->pmajor = raster_pmajor_frame(r);
    if (r->threads < 2 || !r->pool || r->has_shadows)
        return r->pmajor ? draw_lines_pmajor(r) : RASTER_LINES_NOT_SPLIT;
    uint64_t total = 0;
    for (int y = 0; y < 192; y++) total += r->line_work[y];
    if (total < r->split_min_work) return r->pmajor ? draw_lines_pmajor(r) : RASTER_LINES_NOT_SPLIT;

    shares_update(r, false);
    plan_streams(r, total);
    r->pool->nlisted = 0;
    if (r->pmajor) plan_band_lists(r);
    for (unsigned i = 0; i < r->threads; i++) { /* (who joins sets them) */
        r->band[i]->drew = false;
        r->band[i]->adopted = r->band[i]->stolen = 0;
    }
    pool_run(r->pool, draw_job);
    shares_update(r, true);

    /* (no shadow masks: every band that drew a polygon line leaves the flag false) */
    for (unsigned i = 0; i < r->threads; i++) {
        if (r->band[i]->drew) r->prev_shadow_mask = r->band[i]->prev_mask;
    }
    return replay_lines(r) ? RASTER_LINES_SPLIT : RASTER_LINES_CUT;
}

raster_lines_result raster_draw_lines_split(raster_engine *r)
{
    raster_lines_result lines = draw_lines_split(r);
    /* (the final pass is split after split lines only: raster_postpass_split closes then) */
    if (lines != RASTER_LINES_SPLIT || !r->final_pass) frame_closed(r);
    return lines;
}

/* Lines the final pass takes at a time: the same work on every line; pieces small enough that
 * a thread joining late still finds some. */
#define POSTPASS_ROWS 16

static void postpass_job(raster_engine *r, unsigned i)
{
    (void)i;
    for (;;) {
        unsigned k = atomic_fetch_add(&r->pool->next_rows, 1u);
        if (k >= 192 / POSTPASS_ROWS) break;
        int y0 = (int)k * POSTPASS_ROWS;
        raster_postpass_rows(r, r->frame, r->out, y0, y0 + POSTPASS_ROWS);
    }
}

void raster_postpass_split(raster_engine *r, const gx_frame *in, dsgx_frame *out)
{
    if (r->threads < 2 || !r->pool || r->last_lines != RASTER_LINES_SPLIT) {
        raster_postpass_rows(r, in, out, 0, 192);
        return;
    }
    atomic_store(&r->pool->next_rows, 0u);
    pool_run(r->pool, postpass_job);
    frame_closed(r);
}
