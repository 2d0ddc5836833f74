/*
 * system.h - a minimal DS "system" for replaying bus traffic: the geometry engine, the rendering
 * engine and the frame they produce, connected the way the hardware connects them (trace ->
 * gx -> VBlank latch -> raster -> frame). Used by the CLI, the tests and the benchmarks.
 */
#ifndef DSGX_SYSTEM_H
#define DSGX_SYSTEM_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/gx.h"
#include "raster/frame.h"
#include "raster/raster.h"
#include "tools/core/trace.h"

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
    dsgx_log_fn log;
    void *log_user;
} dsgx_system;

dsgx_system *dsgx_system_create(void);
void dsgx_system_destroy(dsgx_system *s);
void dsgx_system_set_log(dsgx_system *s, dsgx_log_fn fn, void *user);

/** Execute one bus operation of a trace (w32/w16/w8/data), untimed; `frame` items go to
 *  dsgx_system_frame(). */
void dsgx_system_exec(dsgx_system *s, const dsgx_trace *t, const dsgx_trace_item *it);

/** The `frame` directive: latch at VBlank and render. @return true when a new frame was
 *  rendered, false when the last one was re-emitted (no SWAP_BUFFERS since). */
bool dsgx_system_frame(dsgx_system *s);

/** Called for every frame a replay emits (index counts from 0). */
typedef void (*dsgx_frame_cb)(void *user, unsigned index, dsgx_system *s);

/** Replay a whole trace. @return the number of frames emitted. */
unsigned dsgx_system_replay(dsgx_system *s, const dsgx_trace *t, dsgx_frame_cb cb, void *user);

/** Monotonic clock in nanoseconds. */
uint64_t dsgx_now_ns(void);

#endif
