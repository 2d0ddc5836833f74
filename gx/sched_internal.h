/*
 * sched_internal.h - the cycle-driven scheduler (private to gx/): the engine clock, the
 * GXFIFO (256 entries), the PIPE (4 entries), the stall queue, GXSTAT's timed bits and the
 * IRQ/DMA lines. Hardware notes: sched.c.
 *
 * "Time has one owner": only sched.c moves the engine clock and decides when a FIFO entry
 * executes; the cost of an entry comes from the cycle model (cycles.c) through the executor
 * (fifo.c gx_fifo_run_entry). Everything here is plain old data (save states copy it).
 */
#ifndef DSGX_SCHED_INTERNAL_H
#define DSGX_SCHED_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gx/cmd_internal.h"
#include "gx/gx.h"

#define GX_STALL_QUEUE_SIZE 64 /* melonDS CmdStallQueue; one STM's worth of words */

/** A ring of FIFO entries (size fixed by the owner: 256, 4 or 64). */
typedef struct gx_sched_ring {
    uint16_t head;  /**< index of the oldest entry */
    uint16_t count; /**< entries held */
} gx_sched_ring;

typedef struct gx_sched_state {
    bool cycle_mode; /**< gx_set_cycle_mode (kept across gx_reset) */

    uint64_t now;  /**< engine clock: cycles run since reset */
    uint64_t host; /**< host clock: cycles passed to gx_run since reset (<= now after a stall) */
    uint32_t rem;  /**< cycles left of the entry in progress (melonDS CycleCount) */

    gx_fifo_entry fifo[256];                  /**< GXFIFO */
    gx_fifo_entry pipe[4];                    /**< PIPE: the next entries to execute */
    gx_fifo_entry stall[GX_STALL_QUEUE_SIZE]; /**< written while the FIFO was full */
    gx_sched_ring fifo_ring, pipe_ring, stall_ring;

    /* GXSTAT bits with their own life time (melonDS GXStat, NumPushPopCommands,
     * NumTestCommands) */
    bool busy;             /**< bit 27 */
    bool pushpop_busy;     /**< bit 14 */
    bool test_busy;        /**< bit 0 */
    uint16_t pushpop_left; /**< MTX_PUSH/POP entries written, not executed */
    uint16_t test_left;    /**< BOX/POS/VEC_TEST entries written, not executed */

    bool line[2];        /**< last level reported per enum gx_line */
    uint8_t in_callback; /**< inside the line callback: writes queue, nothing runs */
    bool stalled_write;  /**< the current write went to the stall queue (gx_bus_write32) */
} gx_sched_state;

/** Reset the clock and the queues (keeps cycle_mode). */
void gx_sched_reset(gx_engine *gx);
/** Cycle mode: queue one FIFO entry written on the bus (from fifo.c). */
void gx_sched_push(gx_engine *gx, uint8_t opcode, uint32_t param);
/** Cycle mode: VBlank resumed the engine after a swap (from swap.c). */
void gx_sched_vblank(gx_engine *gx);
/** Cycle mode: GXSTAT's FIFO level (bits 16-24) and the timed bits 0, 14 and 27. */
uint32_t gx_sched_gxstat(const gx_engine *gx);
/** Re-evaluate the IRQ and DMA lines (after a FIFO level or IRQ mode change). */
void gx_sched_update_lines(gx_engine *gx);
/** True when nothing is queued, in progress or held (mode switches are allowed). */
bool gx_sched_idle(const gx_engine *gx);

#endif
