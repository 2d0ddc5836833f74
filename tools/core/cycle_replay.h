/*
 * cycle_replay.h - trace replay in the geometry engine's cycle-driven mode (docs/cycle.md), the
 * way an emulator drives it: bus writes one at a time, the engine advanced by a fixed slice of
 * cycles after each, writes to a full FIFO stalling the writer. Used by `dsgx bench --cycles`
 * and the tests that compare it with run-to-completion replay.
 */
#ifndef DSGX_CYCLE_REPLAY_H
#define DSGX_CYCLE_REPLAY_H

#include <stdint.h>

#include "tools/core/system.h"

/** What a cycle-driven replay saw. */
typedef struct dsgx_cycle_stats {
    uint64_t stalls;       /**< 32-bit writes that stalled */
    uint64_t stall_cycles; /**< the cycles they stalled, summed */
    uint64_t run_cycles;   /**< cycles passed to gx_run */
} dsgx_cycle_stats;

/**
 * Replay @p t in cycle mode (set on s->gx, which must be idle): every 32-bit write through
 * gx_bus_write32, gx_run(@p slice) after each trace item (a `data` item's words are written
 * one by one, each followed by a slice), and before each `frame` the cycles the engine needs to
 * finish its commands or reach its SWAP_BUFFERS; then the frame as dsgx_system_frame renders
 * it. s->geometry_ns is timed as dsgx_system_replay times it. @p st may be NULL.
 * @return the number of frames emitted.
 */
unsigned dsgx_system_replay_cycles(dsgx_system *s, const dsgx_trace *t, uint32_t slice,
                                   dsgx_frame_cb cb, void *user, dsgx_cycle_stats *st);

#endif
