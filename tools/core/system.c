/*
 * system.c - trace replay through the geometry and rendering engines, one frame at a time or
 * pipelined (see system.h).
 *
 * Hardware notes: the DS geometry engine builds frame N+1 in one polygon/vertex RAM bank while
 * the rendering engine draws frame N from the other, latched at VBlank with the rendering
 * registers (GBATEK "DS 3D Polygon/Vertex RAM, SWAP_BUFFERS"); the rendering engine reads
 * texture and palette VRAM as it draws, and reports back RDLINES_COUNT and the line-buffer
 * underflow bit (DISP3DCNT bit 12, acknowledged by writing 1). The pipelined replay keeps the
 * one-frame-at-a-time order of every effect the two engines see of each other:
 *  - the render thread draws a copy of the latched frame's registers and counts and of the VRAM
 *    views, so the geometry engine may reset and take VRAM writes meanwhile: they are copied at
 *    the `frame` directive. Polygon and vertex RAM it draws in place (raster_render_ram), from
 *    the latched bank, which nothing writes before the next latch (the geometry engine builds
 *    in another bank, gx_reset leaves the banks' entries as they are, and the next latch
 *    waits for the render);
 *  - the report (gx_report_render) reaches the geometry engine before the next latch (the
 *    `frame` directive or a trace `vblank` waits for the render), and before a DISP3DCNT write
 *    that acknowledges the underflow bit (it waits too). Other writes commute with the report:
 *    it sets RDLINES_COUNT (read-only) and may set bit 12, which only such a write clears;
 *  - a reset (dsgx_system_reset) while a frame is drawn drops that frame's report: one frame at
 *    a time the report would have landed first and the reset overwritten it;
 *  - raster_power_on (POWCNT1 bit 2 going 0 -> 1) is applied just before the next render, in
 *    both modes: nothing reads the rendering engine between the write and that render.
 * Threads: never more at work than dsgx_system_set_threads' n. The caller's thread, waiting
 * for a render (pipe_wait), draws bands of it (raster_lend: it is one of the rendering engine's
 * threads) while any are left to share out, then spins ~20 us and sleeps on a condition
 * variable; the render thread spins ~100 us for its next frame (the hand-over after a frame:
 * emit it, latch the next, copy its registers), then sleeps.
 */
#define _POSIX_C_SOURCE 200809L
#include "tools/core/system.h"

#include "gx/regs.h"
#include "raster/lend.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t dsgx_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* ---- the render thread ---- */

/* How long the caller's thread spins for a render it has no part of left to draw before
 * sleeping on a condition variable (a wake-up from sleep cost 15-20 us here). Spins of 3, 20,
 * 50 and 100 us made no difference beyond the noise (bench/README.md); 20 us is about what the
 * rendering engine's own workers spin. */
#define PIPE_SPIN_NS 20000u
/* How long the render thread spins for its next frame: longer, since the caller's thread
 * hands it over only after emitting the last frame, latching and copying the next (~40-80 us
 * on g_heavy_1), and the render thread's wake-up would add to every frame (bench/README.md
 * "pipe2"). */
#define RENDER_SPIN_NS 100000u

/* The VRAM writes since the last reset (VRAMCNT, LCDC window), as trace items of one replay:
 * VRAM after the same writes from reset holds the same bytes, so the views need no new copy
 * (a benchmark replays a trace's uploads from reset every pass). Longer histories are not
 * kept (known false). */
#define VRAM_HISTORY 64
typedef struct vram_history {
    bool known;
    unsigned n;
    const dsgx_trace_item *item[VRAM_HISTORY];
} vram_history;

static bool same_history(const vram_history *a, const vram_history *b)
{
    return a->known && b->known && a->n == b->n &&
           !memcmp(a->item, b->item, a->n * sizeof a->item[0]);
}

/* A frame in flight: what its callback gets, kept from its `frame` directive. */
typedef struct pipe_pending {
    unsigned index;
    bool reemitted;
    uint64_t geometry_ns;
    gx_frame_stats stats;
} pipe_pending;

struct dsgx_pipe {
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t job;   /* a frame posted, or quit */
    pthread_cond_t done;  /* a frame drawn */
    atomic_uint posted;   /* frames posted (caller's thread) */
    atomic_uint finished; /* frames drawn (render thread) */
    bool quit;            /* (under lock) */
    raster_engine *raster;
    /* the job: written before `posted` moves, read by the render thread until `finished` does */
    gx_frame *in;        /* copy of the latched frame's registers, counts and views (its
                            polygon/vertex RAM arrays are never touched: not resident) */
    const gx_frame *ram; /* the latched bank, whose polygon/vertex RAM is drawn in place */
    uint8_t *tex, *pal;  /* copies of the VRAM views */
    bool power_on;       /* raster_power_on first */
    dsgx_frame *out;     /* the system's frame */
    raster_result res;   /* (render thread) */
    uint64_t render_ns;  /* (render thread) */
    /* the caller's thread only */
    bool in_flight;
    unsigned lend_from;        /* raster_lend_frames before the frame in flight */
    bool drop_report;          /* a reset came after the frame in flight */
    bool vram_stale;           /* VRAM may differ from the copies */
    vram_history vram, copied; /* VRAM's history now, and when the views were copied */
    pipe_pending pending;
    dsgx_frame_cb cb; /* the replay's callback */
    void *user;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/* Spin until *a != old, for at most @p ns nanoseconds. @return the value seen last. */
static unsigned spin_while(atomic_uint *a, unsigned old, uint64_t ns)
{
    uint64_t t0 = dsgx_now_ns();
    for (;;) {
        for (int i = 0; i < 64; i++) {
            unsigned v = atomic_load(a);
            if (v != old) return v;
            cpu_relax();
        }
        if (dsgx_now_ns() - t0 > ns) return old;
    }
}

static void *pipe_main(void *arg)
{
    dsgx_pipe *p = arg;
    unsigned seen = 0;
    for (;;) {
        spin_while(&p->posted, seen, RENDER_SPIN_NS);
        pthread_mutex_lock(&p->lock);
        while (atomic_load(&p->posted) == seen && !p->quit) pthread_cond_wait(&p->job, &p->lock);
        bool quit = atomic_load(&p->posted) == seen; /* (quit, and no frame left) */
        pthread_mutex_unlock(&p->lock);
        if (quit) break;
        seen++;
        uint64_t t0 = dsgx_now_ns();
        if (p->power_on) raster_power_on(p->raster);
        raster_render_ram(p->raster, p->in, p->ram, p->out, &p->res);
        p->render_ns = dsgx_now_ns() - t0;
        pthread_mutex_lock(&p->lock);
        atomic_store(&p->finished, seen);
        pthread_cond_signal(&p->done);
        pthread_mutex_unlock(&p->lock);
    }
    return NULL;
}

static void pipe_free(dsgx_pipe *p)
{
    free(p->in);
    free(p->tex);
    free(p->pal);
    free(p);
}

static dsgx_pipe *pipe_create(dsgx_system *s)
{
    dsgx_pipe *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->raster = s->raster;
    p->out = &s->frame;
    p->vram_stale = true;
    p->in = malloc(sizeof *p->in);
    p->tex = malloc(GX_TEX_VRAM_SIZE);
    p->pal = malloc(GX_PAL_VRAM_SIZE);
    if (!p->in || !p->tex || !p->pal) {
        pipe_free(p);
        return NULL;
    }
    if (pthread_mutex_init(&p->lock, NULL) != 0) {
        pipe_free(p);
        return NULL;
    }
    if (pthread_cond_init(&p->job, NULL) != 0) goto fail_lock;
    if (pthread_cond_init(&p->done, NULL) != 0) goto fail_job;
    if (pthread_create(&p->thread, NULL, pipe_main, p) != 0) goto fail_done;
    return p;
fail_done:
    pthread_cond_destroy(&p->done);
fail_job:
    pthread_cond_destroy(&p->job);
fail_lock:
    pthread_mutex_destroy(&p->lock);
    pipe_free(p);
    return NULL;
}

/* Stop the render thread (after the frame in flight, which nobody waits for any more). */
static void pipe_destroy(dsgx_pipe *p)
{
    if (!p) return;
    pthread_mutex_lock(&p->lock);
    p->quit = true;
    pthread_cond_signal(&p->job);
    pthread_mutex_unlock(&p->lock);
    pthread_join(p->thread, NULL);
    pthread_cond_destroy(&p->done);
    pthread_cond_destroy(&p->job);
    pthread_mutex_destroy(&p->lock);
    pipe_free(p);
}

/* Wait until the render thread has drawn every frame posted, drawing bands of it meanwhile
 * (raster_lend: this thread is one of the rendering engine's threads) while it has any left to
 * share out; after that, spin a little, then sleep. */
static void pipe_wait(dsgx_pipe *p)
{
    unsigned want = atomic_load(&p->posted);
    uint64_t idle = 0; /* when there was nothing left to draw */
    while (atomic_load(&p->finished) != want) {
        if (raster_lend(p->raster)) {
            idle = 0;
        } else if (raster_lend_frames(p->raster) != p->lend_from) {
            /* (the frame's steps are behind it: it finishes on the render thread) */
            uint64_t now = dsgx_now_ns();
            if (!idle) idle = now;
            if (now - idle > PIPE_SPIN_NS) break;
            for (int i = 0; i < 64; i++) cpu_relax();
        } else {
            cpu_relax(); /* (a step of the frame may still open) */
        }
    }
    if (atomic_load(&p->finished) == want) return;
    pthread_mutex_lock(&p->lock);
    while (atomic_load(&p->finished) != want) pthread_cond_wait(&p->done, &p->lock);
    pthread_mutex_unlock(&p->lock);
}

/* The latched frame as the render reads it (the render thread is idle: the last frame is
 * finished): the registers, the counts of polygon and vertex RAM (their entries are drawn in
 * place, pipe_main), and the VRAM views (copied again only when VRAM may have changed). */
static void pipe_copy_frame(dsgx_pipe *p, const gx_frame *f)
{
    gx_frame *to = p->in;
    to->npolys = f->npolys < GX_MAX_POLYGONS ? f->npolys : GX_MAX_POLYGONS;
    to->nverts = f->nverts < GX_MAX_VERTICES ? f->nverts : GX_MAX_VERTICES;
    p->ram = f;
    to->regs = f->regs;
    if (p->vram_stale && !same_history(&p->vram, &p->copied)) {
        memcpy(p->tex, f->tex_vram, GX_TEX_VRAM_SIZE);
        memcpy(p->pal, f->pal_vram, GX_PAL_VRAM_SIZE);
    }
    p->vram_stale = false;
    p->copied = p->vram;
    to->tex_vram = p->tex;
    to->pal_vram = p->pal;
}

/* Figures of the frame just emitted (the whole-frame interval since the last one). */
static void emit(dsgx_system *s, dsgx_frame_cb cb, void *user, unsigned index, uint64_t *last)
{
    uint64_t now = dsgx_now_ns();
    s->frame_ns = now - *last;
    *last = now;
    if (cb) cb(user, index, s);
}

/* Finish the frame in flight, if any: wait for it, hand its report to the geometry engine and
 * emit it. @p last: the replay's emission clock. */
static void pipe_finish(dsgx_system *s, uint64_t *last)
{
    dsgx_pipe *p = s->pipe;
    if (!p || !p->in_flight) return;
    pipe_wait(p);
    p->in_flight = false;
    s->result = p->res;
    s->render_ns = p->render_ns;
    s->stats = p->pending.stats;
    s->reemitted = p->pending.reemitted;
    s->have_frame = true;
    if (!p->drop_report) gx_report_render(s->gx, s->result.rdlines, s->result.underflow);
    p->drop_report = false;
    uint64_t geometry_ns = s->geometry_ns; /* (the next frame's, running) */
    s->geometry_ns = p->pending.geometry_ns;
    uint64_t now = dsgx_now_ns();
    emit(s, p->cb, p->user, p->pending.index, last ? last : &now);
    s->geometry_ns = geometry_ns;
}

/* Post the latched frame to the render thread. */
static void pipe_post(dsgx_system *s, const gx_frame *f, const pipe_pending *pending)
{
    dsgx_pipe *p = s->pipe;
    pipe_copy_frame(p, f);
    p->power_on = s->power_on;
    s->power_on = false;
    p->pending = *pending;
    p->in_flight = true;
    p->lend_from = raster_lend_frames(p->raster); /* (nothing is drawn now) */
    pthread_mutex_lock(&p->lock);
    atomic_fetch_add(&p->posted, 1u);
    pthread_cond_signal(&p->job);
    pthread_mutex_unlock(&p->lock);
}

/* ---- the system ---- */

dsgx_system *dsgx_system_create(void)
{
    dsgx_system *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->gx = gx_create();
    s->raster = raster_create();
    if (!s->gx || !s->raster) {
        dsgx_system_destroy(s);
        return NULL;
    }
    return s;
}

void dsgx_system_destroy(dsgx_system *s)
{
    if (!s) return;
    pipe_destroy(s->pipe);
    if (s->gx) gx_destroy(s->gx);
    if (s->raster) raster_destroy(s->raster);
    free(s->replay_words);
    free(s->replay_runs);
    free(s);
}

void dsgx_system_set_log(dsgx_system *s, dsgx_log_fn fn, void *user)
{
    s->log = fn;
    s->log_user = user;
    gx_set_log(s->gx, fn, user);
}

unsigned dsgx_system_set_threads(dsgx_system *s, unsigned n)
{
    if (n < 1) n = 1;
    if (n > 8) n = 8;
    pipe_finish(s, NULL);
    if (n == 1) {
        pipe_destroy(s->pipe);
        s->pipe = NULL;
    } else if (!s->pipe) {
        s->pipe = pipe_create(s);
    }
    if (!s->pipe) n = 1;
    /* pipelined: the geometry engine builds in the RAM drawn two frames ago, whose lines the
     * render thread's core has let go of (gx_set_frame_rams; out of memory: two RAMs, the
     * same frames) */
    gx_set_frame_rams(s->gx, s->pipe ? 3u : 2u);
    /* pipelined: the render thread, n - 2 workers, and this thread lent once its writes are
     * done (pipe_wait): never more than n threads at work */
    unsigned drawing = raster_set_threads_lent(s->raster, n, s->pipe ? 1u : 0u);
    return s->pipe && drawing < 2 ? 2 : drawing;
}

void dsgx_system_reset(dsgx_system *s)
{
    if (s->pipe) {
        s->pipe->drop_report = s->pipe->in_flight;
        s->pipe->vram_stale = true;
        s->pipe->vram.known = true; /* (reset: VRAM all zero) */
        s->pipe->vram.n = 0;
    }
    gx_reset(s->gx);
}

/* POWCNT1 bit 2 (3D rendering engine) going from 0 to 1 restarts the rendering engine's
 * timing (raster_power_on, applied before the next render). */
static bool render_power(dsgx_system *s)
{
    return (gx_read16(s->gx, REG_POWCNT1) & 4u) != 0;
}

void dsgx_system_exec(dsgx_system *s, const dsgx_trace *t, const dsgx_trace_item *it)
{
    bool pow_write = (it->addr & ~3u) == REG_POWCNT1 && it->op != TRACE_DATA;
    bool was_on = pow_write && render_power(s);
    switch (it->op) {
    case TRACE_W32: gx_write32(s->gx, it->addr, it->value); break;
    case TRACE_W16: gx_write16(s->gx, it->addr, (uint16_t)it->value); break;
    case TRACE_W8: gx_write8(s->gx, it->addr, (uint8_t)it->value); break;
    case TRACE_DATA:
        /* consecutive 32-bit little-endian writes (specs/trace.md) */
        gx_write32_block(s->gx, it->addr, t->data + it->data_off, it->data_len);
        break;
    case TRACE_VBLANK: gx_vblank(s->gx); break; /* latches, draws nothing (trace.h) */
    default: break;
    }
    if (pow_write && !was_on && render_power(s)) s->power_on = true;
}

/* Render the latched frame on this thread. */
static void render_here(dsgx_system *s)
{
    uint64_t t0 = dsgx_now_ns();
    if (s->power_on) raster_power_on(s->raster);
    s->power_on = false;
    raster_render(s->raster, gx_render_frame(s->gx), &s->frame, &s->result);
    s->render_ns = dsgx_now_ns() - t0;
    gx_report_render(s->gx, s->result.rdlines, s->result.underflow);
    gx_last_frame_stats(s->gx, &s->stats);
    s->have_frame = true;
}

bool dsgx_system_frame(dsgx_system *s)
{
    pipe_finish(s, NULL);
    bool fresh = gx_vblank(s->gx);
    s->reemitted = !fresh;
    if (fresh || !s->have_frame) render_here(s);
    if (!fresh && s->log)
        s->log(s->log_user, DSGX_LOG_WARN, "frame without SWAP_BUFFERS: last frame re-emitted");
    return fresh;
}

/* ---- replay ---- */

/* Whether a bus operation must wait for the frame in flight: a trace `vblank` (it latches the
 * underflow bit), or a write of 1 to DISP3DCNT bit 12 (it acknowledges the underflow bit). */
static bool waits_for_render(const dsgx_trace *t, const dsgx_trace_item *it)
{
    const uint32_t ack = 1u << 12;
    switch (it->op) {
    case TRACE_VBLANK: return true;
    case TRACE_W32: return it->addr >> 2 == REG_DISP3DCNT >> 2 && (it->value & ack);
    case TRACE_W16: return it->addr >> 1 == REG_DISP3DCNT >> 1 && (it->value & 0xFFFFu & ack);
    case TRACE_W8: return it->addr == REG_DISP3DCNT + 1u && (it->value & (ack >> 8));
    case TRACE_DATA:
        /* the words written at DISP3DCNT (each aligned down): byte 1 holds bit 12 */
        if ((uint64_t)it->addr + it->data_len <= REG_DISP3DCNT || it->addr > REG_DISP3DCNT + 3u)
            return false;
        for (uint32_t k = 0; k + 4 <= it->data_len; k += 4)
            if (((it->addr + k) & ~3u) == REG_DISP3DCNT &&
                (t->data[it->data_off + k + 1u] & (ack >> 8)))
                return true;
        return false;
    default: return false;
    }
}

/* Whether a bus operation may change VRAM (VRAMCNT, the LCDC window). */
static bool writes_vram(const dsgx_trace_item *it)
{
    uint32_t len = it->op == TRACE_DATA ? it->data_len : 4u;
    if (it->op > TRACE_DATA || len == 0) return false;
    uint64_t lo = it->addr & ~3u, hi = (uint64_t)it->addr + len;
    return (lo < REG_VRAMCNT_A + 12u && hi > REG_VRAMCNT_A) ||
           (lo < REG_VRAM_LCDC_END && hi > REG_VRAM_LCDC_BASE);
}

/* A `frame` directive, pipelined: finish the frame in flight, latch, post the new one (or
 * re-emit the last). */
static void pipe_frame(dsgx_system *s, unsigned index, uint64_t *last)
{
    dsgx_pipe *p = s->pipe;
    pipe_finish(s, last);
    bool fresh = gx_vblank(s->gx);
    if (!fresh && s->log)
        s->log(s->log_user, DSGX_LOG_WARN, "frame without SWAP_BUFFERS: last frame re-emitted");
    if (fresh || !s->have_frame) {
        pipe_pending pending = {index, !fresh, s->geometry_ns, {0}};
        gx_last_frame_stats(s->gx, &pending.stats);
        pipe_post(s, gx_render_frame(s->gx), &pending);
    } else {
        s->reemitted = true;
        emit(s, p->cb, p->user, index, last);
    }
}

/* A 32-bit write to GXFIFO or a command port. */
static inline bool is_command_write(const dsgx_trace_item *it)
{
    return it->op == TRACE_W32 && it->addr - REG_GXFIFO < REG_GXSTAT - REG_GXFIFO;
}

bool dsgx_system_prepare_runs(dsgx_system *s, const dsgx_trace *t,
                              bool (*in_run)(const dsgx_trace_item *))
{
    if (t->n > s->replay_cap) {
        gx_bus_word *w = realloc(s->replay_words, t->n * sizeof(*w));
        if (w) s->replay_words = w;
        uint32_t *r = realloc(s->replay_runs, t->n * sizeof(*r));
        if (r) s->replay_runs = r;
        if (!w || !r || t->n > UINT32_MAX) {
            s->replay_cap = 0;
            return false;
        }
        s->replay_cap = t->n;
    }
    uint32_t run = 0;
    for (size_t i = t->n; i-- > 0;) {
        const dsgx_trace_item *it = &t->items[i];
        run = in_run(it) ? run + 1 : 0;
        s->replay_runs[i] = run;
        s->replay_words[i].addr = it->addr;
        s->replay_words[i].value = it->value;
    }
    return true;
}

static bool is_command_write_fn(const dsgx_trace_item *it)
{
    return is_command_write(it);
}

/* Hand the run of command writes from item i on to the engine, in chunks (when
 * dsgx_system_prepare_runs could not: copied here). @return the index of the first item after the
 * run. */
static size_t write_commands(gx_engine *gx, const dsgx_trace *t, size_t i)
{
    enum { CHUNK = 128 };
    gx_bus_word w[CHUNK];
    for (;;) {
        size_t n = 0;
        for (; n < CHUNK && i < t->n && is_command_write(&t->items[i]); i++, n++) {
            w[n].addr = t->items[i].addr;
            w[n].value = t->items[i].value;
        }
        gx_write32_run(gx, w, n);
        if (n < CHUNK) return i;
    }
}

/* One pass over the trace; frames are numbered from *frames on. */
static void replay_pass(dsgx_system *s, const dsgx_trace *t, bool prepared, dsgx_frame_cb cb,
                        void *user, unsigned *frames, uint64_t *last)
{
    dsgx_pipe *p = s->pipe;
    s->geometry_ns = 0;
    size_t i = 0;
    while (i < t->n) {
        /* one clock pair around each run of bus writes: reading the clock per write would cost
         * more than the geometry work itself (bench/README.md) */
        uint64_t t0 = dsgx_now_ns(), waited = 0;
        for (; i < t->n && t->items[i].op != TRACE_FRAME; i++) {
            const dsgx_trace_item *it = &t->items[i];
            /* GXFIFO and the command ports, most of a frame's writes: they neither wait for the
             * frame in flight, nor write VRAM, nor power anything on; a run of them goes to the
             * engine at once (gx_write32_run) */
            if (prepared && s->replay_runs[i]) {
                gx_write32_run(s->gx, &s->replay_words[i], s->replay_runs[i]);
                i += s->replay_runs[i] - 1;
                continue;
            }
            if (is_command_write(it)) {
                i = write_commands(s->gx, t, i) - 1;
                continue;
            }
            if (p && p->in_flight && waits_for_render(t, it)) {
                uint64_t w0 = dsgx_now_ns();
                pipe_finish(s, last);
                waited += dsgx_now_ns() - w0;
            }
            if (p && writes_vram(it)) {
                p->vram_stale = true;
                if (p->vram.n < VRAM_HISTORY)
                    p->vram.item[p->vram.n++] = it;
                else
                    p->vram.known = false;
            }
            dsgx_system_exec(s, t, it);
        }
        s->geometry_ns += dsgx_now_ns() - t0 - waited;
        if (i == t->n) break;
        i++; /* the `frame` directive */
        if (p) {
            pipe_frame(s, (*frames)++, last);
        } else {
            dsgx_system_frame(s);
            emit(s, cb, user, (*frames)++, last);
        }
        s->geometry_ns = 0;
    }
}

static unsigned replay(dsgx_system *s, const dsgx_trace *t, unsigned passes, bool reset,
                       dsgx_frame_cb cb, void *user)
{
    unsigned frames = 0;
    uint64_t last = dsgx_now_ns();
    if (s->pipe) {
        s->pipe->cb = cb;
        s->pipe->user = user;
        s->pipe->vram_stale = true; /* (VRAM may have been written outside the system) */
        s->pipe->vram.known = s->pipe->copied.known = false;
    }
    bool prepared = dsgx_system_prepare_runs(s, t, is_command_write_fn);
    for (unsigned k = 0; k < passes; k++) {
        if (reset) dsgx_system_reset(s);
        replay_pass(s, t, prepared, cb, user, &frames, &last);
    }
    pipe_finish(s, &last);
    if (s->pipe) s->pipe->cb = NULL;
    return frames;
}

unsigned dsgx_system_replay(dsgx_system *s, const dsgx_trace *t, dsgx_frame_cb cb, void *user)
{
    return replay(s, t, 1, false, cb, user);
}

unsigned dsgx_system_replay_repeat(dsgx_system *s, const dsgx_trace *t, unsigned passes,
                                   dsgx_frame_cb cb, void *user)
{
    return replay(s, t, passes, true, cb, user);
}
