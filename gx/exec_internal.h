/*
 * exec_internal.h - the FIFO-entry executor (private to gx/), inline for its callers: the
 * run-to-completion paths (the bus's command-port fast path in engine.c, fifo.c) and the
 * cycle-driven scheduler's idle-engine fast path (sched.c), so that none pays a call per entry.
 * The cycle charges are inline too (cycles_internal.h): an entry costs one table row read, its
 * issue wait, the handler's call and its work cost. Hardware notes: fifo.c ("Executor").
 */
#ifndef DSGX_EXEC_INTERNAL_H
#define DSGX_EXEC_INTERNAL_H

#include <string.h>

#include "gx/cycles_internal.h"
#include "gx/gx_internal.h"

/* The command hook's event (out of line: only tools that trace commands set the hook). */
void gx_exec_report(gx_engine *gx, uint8_t op, const gx_cmd_info *info, const uint32_t *params,
                    uint64_t cycles);
/* An unknown opcode reached the executor (logged as a game error). */
void gx_exec_unknown(gx_engine *gx, uint8_t op);

static inline void command_done(gx_engine *gx, uint8_t op, const gx_cmd_info *info,
                                const uint32_t *params, uint64_t cycles)
{
    gx->cmd.frame_commands++;
    if (GX_UNLIKELY(gx->hooks.command != NULL)) gx_exec_report(gx, op, info, params, cycles);
}

/* The handler (unknown opcodes have none) and the command's work cost. */
static inline int64_t run_command(gx_engine *gx, const gx_cmd_info *info, const uint32_t *params,
                                  int64_t charged)
{
    if (GX_LIKELY(info->fn != NULL)) info->fn(gx, params);
    return gx_cyc_work(gx, info, charged);
}

enum { GX_OP_COLOR = 0x20, GX_OP_NORMAL = 0x21, GX_OP_TEXCOORD = 0x22, GX_OP_VTX_16 = 0x23 };

/* A command with 0 or 1 parameter ran: its charge is the entry's. */
static inline uint32_t single_done(gx_engine *gx, uint8_t op, const uint32_t *params,
                                   int64_t charged)
{
    gx_cmd_state *s = &gx->cmd;
    s->cyc.charged = charged;
    s->frame_cycles += (uint64_t)charged;
    command_done(gx, op, &gx_cmd_table[op], params, (uint64_t)charged);
    return (uint32_t)charged;
}

/* The entries of a lit, textured vertex (COLOR or NORMAL, TEXCOORD, VTX_16), the bulk of a
 * frame: the generic executor below with the table row's values as constants (wait class, cost
 * kind, parameter count) and direct handler calls. @return false for any other opcode. The
 * command table stays the source of the costs: test_gx_cycles checks the figures per frame. */
static GX_ALWAYS_INLINE bool gx_exec_hot(gx_engine *gx, uint8_t op, uint32_t param, uint32_t *cost)
{
    gx_cmd_state *s = &gx->cmd;
    gx_cycle_state *c = &s->cyc;
    const uint32_t params[1] = {param};
    int64_t charged;
    switch (op) {
    case GX_OP_NORMAL: { /* 4-cycle class; max(1, lights), normal tail 7 */
        /* the issue wait and the work in one count-down: draining a then b cycles is draining
         * a + b (cycles.c), and the handler does not touch the cycle state */
        gx_cmd_normal(gx, params);
        uint32_t lights = gx->geom.lights_enabled_count;
        charged = (int64_t)c->np + 1 + (lights < 1 ? 1 : lights);
        gx_cyc_run(c, charged);
        c->np = GX_NP_NORMAL;
        *cost = single_done(gx, op, params, charged);
        return true;
    }
    case GX_OP_TEXCOORD: /* 4-cycle class, no work */
        charged = c->np + 1;
        gx_cyc_run(c, charged);
        c->np = 0;
        gx_cmd_texcoord(gx, params);
        *cost = single_done(gx, op, params, charged);
        return true;
    case GX_OP_COLOR: /* 6-cycle class, no work */
        charged = gx_cyc_vp_wait(c, 2);
        gx_cmd_color(gx, params);
        *cost = single_done(gx, op, params, charged);
        return true;
    case GX_OP_VTX_16: /* 2 parameters; vertex slot wait, then 1; vertex work */
        s->exec_params[s->exec_count++] = param;
        if (s->exec_count == 1) {
            s->exec_op = op;
            s->exec_cycles = 0;
            charged = gx_cyc_issue(c, GX_WAIT_VERTEX);
            s->cyc.charged = charged;
            s->exec_cycles += (uint64_t)charged;
            s->frame_cycles += (uint64_t)charged;
            *cost = (uint32_t)charged;
            return true;
        }
        /* the second entry (or any later one: a vertex entry between another command's
         * parameters completes with the count, as in the generic path) */
        s->exec_count = 0;
        gx_cmd_vtx16(gx, s->exec_params);
        charged = 1 + gx_cyc_vertex_work_after1(c, &gx->geom);
        s->cyc.charged = charged;
        s->exec_cycles += (uint64_t)charged;
        s->frame_cycles += (uint64_t)charged;
        command_done(gx, op, &gx_cmd_table[op], s->exec_params, s->exec_cycles);
        *cost = (uint32_t)charged;
        return true;
    default: return false;
    }
}

/** The executor for any opcode, reading everything from its table row (gx_exec_entry takes
 *  gx_exec_hot's shortcut first; test_gx_exec_diff compares the two on random entry streams).
 *  @return the cycles the entry costs. */
static GX_ALWAYS_INLINE uint32_t gx_exec_generic(gx_engine *gx, uint8_t op, uint32_t param)
{
    gx_cmd_state *s = &gx->cmd;
    const gx_cmd_info *info = &gx_cmd_table[op];
    if (GX_UNLIKELY(info->name == NULL)) gx_exec_unknown(gx, op);
    unsigned need = info->nparams;
    int64_t charged;

    if (need <= 1) {
        const uint32_t params[1] = {param};
        charged = gx_cyc_issue(&s->cyc, info->wait);
        charged = run_command(gx, info, params, charged);
        s->cyc.charged = charged;
        s->frame_cycles += (uint64_t)charged;
        command_done(gx, op, info, params, (uint64_t)charged);
        return (uint32_t)charged;
    }

    s->exec_params[s->exec_count++] = param;
    if (s->exec_count == 1) {
        s->exec_op = op;
        s->exec_cycles = 0;
        charged = gx_cyc_issue(&s->cyc, info->wait);
    } else {
        charged = gx_cyc_add(&s->cyc, 1);
        if (s->exec_count >= need) {
            s->exec_count = 0;
            charged = run_command(gx, info, s->exec_params, charged);
            s->cyc.charged = charged;
            s->exec_cycles += (uint64_t)charged;
            s->frame_cycles += (uint64_t)charged;
            command_done(gx, op, info, s->exec_params, s->exec_cycles);
            return (uint32_t)charged;
        }
    }
    s->cyc.charged = charged;
    s->exec_cycles += (uint64_t)charged;
    s->frame_cycles += (uint64_t)charged;
    return (uint32_t)charged;
}

/** Execute one FIFO entry now (melonDS ExecuteCommand): collect a parameter or run the command.
 *  The entry's opcode decides (melonDS counts parameter entries, not opcodes): an opcode with 0
 *  or 1 parameter runs at once, even between the parameters of another command.
 *  (Always inline: its callers are the few hot paths listed above; fifo.c routes the others
 *  through gx_fifo_run_entry.)
 *  @return the cycles it costs (the cycle model's charge). */
static GX_ALWAYS_INLINE uint32_t gx_exec_entry(gx_engine *gx, uint8_t op, uint32_t param)
{
    uint32_t cost;
    if (gx_exec_hot(gx, op, param, &cost)) return cost;
    return gx_exec_generic(gx, op, param);
}

/** Run to completion: an entry executes as it is written, unless a swap holds it. */
static inline void gx_push_untimed(gx_engine *gx, uint8_t op, uint32_t param)
{
    if (GX_UNLIKELY(gx->cmd.swap_pending || gx->cmd.deferred_head < gx->cmd.ndeferred))
        gx_fifo_defer(gx, op, param);
    else
        gx_exec_entry(gx, op, param);
}

#endif
