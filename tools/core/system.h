/*
 * system.h - a minimal DS "system" for replaying bus traffic: the geometry engine, the rendering
 * engine and the frame they produce, connected the way the hardware connects them (trace ->
 * gx -> VBlank latch -> raster -> frame). Used by the CLI, the tests and the benchmarks.
 *
 * Pipelined replay (dsgx_system_set_threads with 2 or more threads). On the DS the geometry
 * engine fills one polygon/vertex RAM bank while the rendering engine draws the other, latched
 * at VBlank. A pipelined replay does the same: frame N, latched by its `frame` directive, is
 * drawn on a render thread while the caller's thread runs frame N+1's bus writes through the
 * geometry engine; once they are done (at the next `frame` directive, or an event below that
 * waits), the caller's thread helps draw frame N: it takes bands of its scanlines as the render
 * thread does (raster/lend.h). With n threads: the render thread, n - 2 rendering workers and
 * the caller's thread, never more than n at work. The render reads the system's copy of the
 * latched frame's registers and counts and of the texture/palette VRAM views (copied at its
 * `frame` directive, the views only when VRAM may have changed), and the latched polygon/vertex
 * RAM in place (raster_render_ram): nothing writes that RAM before the next latch, since the
 * geometry engine builds in another of its three RAMs (gx_set_frame_rams, set by
 * dsgx_system_set_threads for a pipelined system). So only these events wait for the render to
 * finish:
 *  - the next `frame` directive, and a trace `vblank` (latching reads the DISP3DCNT underflow bit
 *    that the render's RDLINES/underflow report, gx_report_render, sets);
 *  - a DISP3DCNT write acknowledging the underflow bit (bit 12 written 1): the report must land
 *    before it, as it does one frame at a time;
 * and a POWCNT1 power-on reaches the rendering engine with its next frame (raster_power_on is
 * deferred to it: nothing reads the rendering engine in between). Frames, RDLINES_COUNT and the
 * underflow bit are the same, bit for bit, as a one-thread replay (test_system_threads and the
 * golden *.threads tests). Frame callbacks are called in order on the caller's thread, each
 * once its frame is drawn, with that frame's figures; the geometry engine may by then have run
 * some of the next frame's writes, so a callback (or a command/vertex/polygon hook) that reads
 * geometry registers wants a one-thread system (a vblank hook sees the registers it sees one
 * frame at a time); callbacks and hooks must not write the geometry engine. The bus writes of
 * a pipelined replay must go through the system, not gx_write* on s->gx. The copies allocate
 * ~1.2 MiB (a gx_frame whose entries stay untouched, the views), the third RAM 608 KiB.
 * dsgx_system_frame on a pipelined system draws on the caller's thread (the render thread idle,
 * n - 1 threads).
 */
#ifndef DSGX_SYSTEM_H
#define DSGX_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "tools/core/trace.h"

typedef struct dsgx_pipe dsgx_pipe;

typedef struct dsgx_system {
    gx_engine *gx;
    raster_engine *raster;
    dsgx_frame frame;     /**< the last frame emitted */
    raster_result result; /**< its rendering figures */
    gx_frame_stats stats; /**< its geometry figures */
    bool have_frame;
    bool reemitted;       /**< the last `frame` had no new SWAP_BUFFERS */
    uint64_t geometry_ns; /**< wall time spent executing this frame's bus writes (measured by
                               dsgx_system_replay around each run of writes) */
    uint64_t render_ns;   /**< wall time spent in raster_render for this frame */
    uint64_t frame_ns;    /**< wall time from the previous frame's emission (or the start of the
                               replay) to this one's: the whole-frame throughput, callbacks
                               included */
    bool power_on;   /**< 3D rendering was powered on: raster_power_on before the next render */
    dsgx_pipe *pipe; /**< the render thread of a pipelined system, else NULL */
    dsgx_log_fn log;
    void *log_user;
    /* the replayed trace's bus writes in gx_write32_run's form (address, value: 8 bytes each)
     * and, per item, the length of the run of GXFIFO/command-port writes starting there (0 if
     * none): built at the start of each replay (dsgx_system_replay*, and with its own kind of
     * run dsgx_system_replay_cycles), so that every pass hands its runs to the engine without a
     * copy and without reading the 24-byte trace items */
    gx_bus_word *replay_words;
    uint32_t *replay_runs;
    size_t replay_cap;
} dsgx_system;

dsgx_system *dsgx_system_create(void);
/** Fill s->replay_words with every item's (address, value) and s->replay_runs with, per item,
 *  how many items from it on satisfy @p in_run consecutively (the replays' scratch arrays).
 *  @return false when out of memory (the replay then reads the items). */
bool dsgx_system_prepare_runs(dsgx_system *s, const dsgx_trace *t,
                              bool (*in_run)(const dsgx_trace_item *));
void dsgx_system_destroy(dsgx_system *s);
void dsgx_system_set_log(dsgx_system *s, dsgx_log_fn fn, void *user);

/**
 * Threads for replays, @p n 1..8. 1: one frame at a time on the caller's thread, drawn on one
 * thread. 2 or more: pipelined (see above): the caller's thread runs the geometry engine while a
 * render thread draws the last frame, with n - 2 rendering workers and, once its bus writes are
 * done, the caller's thread (raster_set_threads_lent(n, 1)). @return the number of threads a
 * frame is drawn on (at least 2 when pipelined), 1 when no thread could be created (not
 * pipelined).
 */
unsigned dsgx_system_set_threads(dsgx_system *s, unsigned n);

/** Power-on state of the geometry engine (gx_reset), safe while a frame is being drawn. */
void dsgx_system_reset(dsgx_system *s);

/** Execute one bus operation of a trace (w32/w16/w8/data), untimed; `frame` items go to
 *  dsgx_system_frame(). */
void dsgx_system_exec(dsgx_system *s, const dsgx_trace *t, const dsgx_trace_item *it);

/** The `frame` directive: latch at VBlank and render, on the caller's thread (pipelined or
 *  not). @return true when a new frame was rendered, false when the last one was re-emitted (no
 *  SWAP_BUFFERS since). */
bool dsgx_system_frame(dsgx_system *s);

/** Called for every frame a replay emits (index counts from 0). */
typedef void (*dsgx_frame_cb)(void *user, unsigned index, dsgx_system *s);

/** Replay a whole trace; every frame is emitted when it returns. @return the number of frames
 *  emitted. */
unsigned dsgx_system_replay(dsgx_system *s, const dsgx_trace *t, dsgx_frame_cb cb, void *user);

/** Replay a trace @p passes times, each from the geometry engine's power-on state
 *  (dsgx_system_reset), as one stream of frames (index counts across the passes): pipelined,
 *  a pass's first writes overlap the drawing of the previous pass's last frame. For benchmarks.
 *  @return the number of frames emitted. */
unsigned dsgx_system_replay_repeat(dsgx_system *s, const dsgx_trace *t, unsigned passes,
                                   dsgx_frame_cb cb, void *user);

/** Monotonic clock in nanoseconds. */
uint64_t dsgx_now_ns(void);

#endif
