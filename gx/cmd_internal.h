/*
 * cmd_internal.h - GXFIFO, PIPE, command ports, packed-word decoding, the command table and
 * the cycle model (private to gx/). Hardware notes: see fifo.c, cmdtable.c and cycles.c.
 *
 * Flow: bus writes -> packed-word decoder / command ports (fifo.c) -> FIFO entries
 * (opcode, parameter word) -> entry executor (fifo.c), which collects a command's parameter
 * entries, charges cycles (cycles.c, costs from the table in cmdtable.c) and calls the handler.
 */
#ifndef DSGX_CMD_INTERNAL_H
#define DSGX_CMD_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gx/gx.h"

#define GX_FIFO_SIZE   256
#define GX_PIPE_SIZE   4
#define GX_MAX_PARAMS  32
#define GX_SWAP_CYCLES 325 /* MODEL.md 3: SWAP_BUFFERS sets the outstanding count to 325 */

/** A command handler: params holds the command's parameter words in order. */
typedef void (*gx_cmd_handler)(gx_engine *gx, const uint32_t *params);

/** What a command waits for before it issues (cycles.c; MODEL.md section 3). */
enum gx_wait_class {
    GX_WAIT_4 = 0,    /* "4-cycle" class: pays the normal tail only (MTX_*, NORMAL, TEXCOORD...) */
    GX_WAIT_6,        /* "6-cycle" class: waits until the vertex tail is <= 2 */
    GX_WAIT_8,        /* "8-cycle" class: waits until the vertex tail is 0 */
    GX_WAIT_VERTEX,   /* vertex commands: wait for a free polygon-pipeline vertex slot */
    GX_WAIT_BEGIN,    /* BEGIN_VTXS: stalls the polygon pipeline (+1) */
    GX_WAIT_LIGHTVEC, /* LIGHT_VECTOR: stalls the polygon pipeline (+9), else the 6-cycle wait */
    GX_WAIT_BOX,      /* BOX_TEST: stalls the polygon pipeline (+11), else the 8-cycle wait */
};

/** How a command's work cost is computed beyond the fixed table value. */
enum gx_cost_kind {
    GX_COST_FIXED = 0,
    GX_COST_MTX,    /* matrix command: its own cost in texture mode, + work_mode2 in mode 2 */
    GX_COST_NORMAL, /* max(1, lights enabled) and a 7-cycle normal tail */
    GX_COST_VERTEX, /* polygon pipeline start, 7-cycle vertex tail, 3 cycles */
    GX_COST_SWAP,   /* sets the outstanding count to 325, drops the pipelines */
};

/** One row of the command table (cmdtable.c). */
typedef struct gx_cmd_info {
    const char *name;
    uint8_t nparams;
    uint8_t wait;        /* enum gx_wait_class */
    uint8_t cost_kind;   /* enum gx_cost_kind */
    uint16_t work;       /* work cycles added when the command runs (modes 0-2) */
    uint16_t work_tex;   /* work cycles in texture matrix mode (GX_COST_MTX) */
    uint16_t work_mode2; /* extra work cycles in matrix mode 2 (GX_COST_MTX) */
    gx_cmd_handler fn;
} gx_cmd_info;

/** The command table (cmdtable.c), indexed by any opcode byte; rows without a name are unknown
 *  opcodes: all zero, which is what they do (no parameters, the 4-cycle wait class, no work, no
 *  handler), so the executor reads every entry's row without a range test. */
extern const gx_cmd_info gx_cmd_table[256];

/** Table row of a defined opcode, or NULL (unknown opcodes: see README.md). */
static inline const gx_cmd_info *gx_cmd_lookup(uint8_t opcode)
{
    const gx_cmd_info *info = &gx_cmd_table[opcode];
    return info->name ? info : NULL;
}

/** One FIFO entry: a command's opcode with one parameter word (or the packed word). */
typedef struct gx_fifo_entry {
    uint8_t opcode;
    uint8_t zero[3]; /* the padding, named so that it is always 0: the scheduler's rings are
                      * saved as bytes (save states), which must not depend on stack garbage */
    uint32_t param;
} gx_fifo_entry;

/** The cycle model's pipeline state (cycles.c; MODEL.md section 3). */
typedef struct gx_cycle_state {
    int32_t vp;           /* vertex tail */
    int32_t np;           /* normal tail */
    int32_t pp;           /* polygon pipeline remaining */
    int32_t slot_counter; /* cycles into the current 9-cycle vertex-slot step */
    uint32_t slots_free;  /* bit 0: a vertex slot is free now; bit n: free n steps later */
    int64_t charged;      /* cycles charged to the FIFO entry being executed */
} gx_cycle_state;

typedef struct gx_cmd_state {
    /* packed GXFIFO word decoding (fifo.c) */
    uint32_t packed;     /* opcodes of the current packed word, the running one in bits 0-7 */
    uint8_t packed_left; /* opcode slots of the word not finished yet (0: next write is a word) */
    uint8_t param_got;   /* parameters of the running opcode received */
    uint8_t param_need;  /* parameters it needs */

    /* entry executor: parameters of the multi-parameter command being collected */
    uint32_t exec_params[GX_MAX_PARAMS];
    uint8_t exec_count;
    uint8_t exec_op;      /* opcode of the first entry of the command being collected */
    uint64_t exec_cycles; /* cycles charged to the command so far (for the hook) */

    gx_cycle_state cyc;

    /* per-frame figures (from the first command after the previous swap) */
    uint64_t frame_cycles;
    uint32_t frame_commands;

    /* SWAP_BUFFERS: entries written while the swap waits for VBlank are held here */
    bool swap_pending;
    uint32_t swap_param;
    gx_fifo_entry *deferred;
    size_t ndeferred, deferred_cap, deferred_head;

    /* GXSTAT bits that are not derived from other state */
    uint32_t irq_mode; /* GXSTAT bits 30-31 */
} gx_cmd_state;

/* ---- fifo.c ---- */
/** Reset the decoder, the executor, the cycle model and the deferred queue. */
void gx_cmd_reset(gx_engine *gx);
/** Free the deferred-entry queue. */
void gx_cmd_free(gx_engine *gx);
/** Hold an entry behind a pending swap (run at VBlank by gx_fifo_run_deferred). */
void gx_fifo_defer(gx_engine *gx, uint8_t op, uint32_t param);
/** A 32-bit word written to GXFIFO (04000400..0400043F). */
void gx_fifo_write(gx_engine *gx, uint32_t val);
/** A 32-bit word written to a command port (04000440..040005FF), run to completion: not in
 *  cycle mode (the bus, engine.c, routes by mode, so that neither path pays for the other). */
void gx_port_write(gx_engine *gx, uint32_t addr, uint32_t val);
/** gx_port_write with the port's opcode already decoded (the bus's fast path, engine.c). */
void gx_port_run(gx_engine *gx, uint8_t op, uint32_t val);
/** The same in cycle mode: the entry goes to the scheduler (sched.c gx_sched_push). */
void gx_port_push(gx_engine *gx, uint32_t addr, uint32_t val);
/** The vertex batch (batch.c): the longest run from @p w of COLOR, NORMAL, TEXCOORD and VTX_16
 *  port writes (whole VTX_16 pairs, a bounded number of words) executed as a batch, the same
 *  as entry by entry. @p slice 0: run to completion (gx_write32_run; the caller has checked the
 *  power and the mode); else the cycle-driven mode with gx_run(slice) after each write
 *  (gx_bus_write32_run). @return the words taken, 0 when the batch does not apply (hooks set, a
 *  swap or held entries, a command collecting parameters, no vertex-command write first; in the
 *  cycle-driven mode also a slice under 64 cycles, or an engine not idle between writes). */
size_t gx_batch_ports(gx_engine *gx, const gx_bus_word *w, size_t n, uint32_t slice);
/** The batch for packed GXFIFO words (run to completion only; the caller has checked the power
 *  and the mode): whole packed words whose bytes are COLOR, NORMAL, TEXCOORD, VTX_16 or NOP
 *  (not all NOP), each with all its parameter words, from a word boundary of the decoder.
 *  @p w: bus writes, all to GXFIFO (gx_write32_run); @return the writes taken, 0 when it does
 *  not apply. */
size_t gx_batch_packed_run(gx_engine *gx, const gx_bus_word *w, size_t n);
/** The same for plain GXFIFO words (gx_write_gxfifo). */
size_t gx_batch_packed_words(gx_engine *gx, const uint32_t *words, size_t n);
/** The shortest slice the batch takes in the cycle-driven mode (batch.c: every entry of a batch
 *  must end within its slice). */
#define GX_BATCH_MIN_SLICE 64
/** Execute one FIFO entry now (collect a parameter or run the command). @return the cycles
 *  it costs (the cycle model's charge), which the scheduler lets elapse (cycle mode). */
uint32_t gx_fifo_run_entry(gx_engine *gx, uint8_t op, uint32_t param);
/** Run the entries held back while the swap was pending (called at VBlank). */
void gx_fifo_run_deferred(gx_engine *gx);
/** GXSTAT read value. */
uint32_t gx_gxstat(const gx_engine *gx);
/** GXSTAT write (acknowledge bit 15, IRQ mode bits 30-31); mask selects the bytes written. */
void gx_gxstat_write(gx_engine *gx, uint32_t val, uint32_t mask);

/* ---- cycles.c (the per-entry charges: cycles_internal.h) ---- */
/** Reset the pipelines (power-on). */
void gx_cycles_reset(gx_engine *gx);
/** Idle cycles (cycle mode, nothing to execute): the vertex, normal and polygon pipelines
 *  drain without charge (melonDS FinishWork). @return true while any of them still runs. */
bool gx_cycles_idle(gx_engine *gx, uint32_t n);
/** The common case of gx_cycles_idle, inline for the scheduler: no polygon pipeline running and
 *  both tails at most @p n cycles long. Then they run out (cleared) and it returns true; else
 *  it changes nothing and returns false (call gx_cycles_idle). */
static inline bool gx_cycles_idle_runs_out(gx_cycle_state *c, uint32_t n)
{
    if (c->pp != 0 || (int64_t)c->vp > (int64_t)n || (int64_t)c->np > (int64_t)n) return false;
    c->vp = 0;
    c->np = 0;
    return true;
}

/* ---- swap.c ---- */
void gx_cmd_swap_buffers(gx_engine *gx, const uint32_t *params);
void gx_cmd_nop(gx_engine *gx, const uint32_t *params);

#endif
