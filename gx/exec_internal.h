/*
 * exec_internal.h - the FIFO-entry executor (private to gx/), inline for its two callers: the
 * run-to-completion path (fifo.c) and the cycle-driven scheduler's idle-engine fast path
 * (sched.c), so that neither pays a call per entry. Hardware notes: fifo.c ("Executor").
 */
#ifndef DSGX_EXEC_INTERNAL_H
#define DSGX_EXEC_INTERNAL_H

#include <string.h>

#include "gx/gx_internal.h"

enum { GX_EXEC_OP_NOP = 0x00 };

static inline void command_done(gx_engine *gx, uint8_t op, const gx_cmd_info *info,
                                const uint32_t *params, uint64_t cycles)
{
    gx->cmd.frame_commands++;
    if (!gx->hooks.command) return;
    gx_cmd_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.opcode = op;
    ev.nparams = info ? info->nparams : 0;
    if (ev.nparams) memcpy(ev.params, params, ev.nparams * sizeof(uint32_t));
    ev.cycles = (uint32_t)cycles;
    gx->hooks.command(gx->hooks.user, gx, &ev);
}

static inline void run_command(gx_engine *gx, const gx_cmd_info *info, const uint32_t *params)
{
    if (info && info->fn) info->fn(gx, params);
    gx_cycles_work(gx, info);
}

/** Execute one FIFO entry now (melonDS ExecuteCommand): collect a parameter or run the command.
 *  @return the cycles it costs (the cycle model's charge). */
static inline uint32_t gx_exec_entry(gx_engine *gx, uint8_t op, uint32_t param)
{
    gx_cmd_state *s = &gx->cmd;
    const gx_cmd_info *info = gx_cmd_lookup(op);
    if (!info && op != GX_EXEC_OP_NOP)
        gx_log(gx, DSGX_LOG_GAME, "unknown geometry command %02Xh (runs as a 1-cycle no-op)", op);
    unsigned need = info ? info->nparams : 0;
    s->cyc.charged = 0;

    if (need <= 1) {
        gx_cycles_issue(gx, info);
        uint32_t params[1] = {param};
        run_command(gx, info, params);
        s->frame_cycles += (uint64_t)s->cyc.charged;
        command_done(gx, op, info, params, (uint64_t)s->cyc.charged);
        return (uint32_t)s->cyc.charged;
    }

    s->exec_params[s->exec_count++] = param;
    if (s->exec_count == 1) {
        s->exec_op = op;
        s->exec_cycles = 0;
        gx_cycles_issue(gx, info);
    } else {
        gx_cycles_add(gx, 1);
        if (s->exec_count >= need) {
            s->exec_count = 0;
            run_command(gx, info, s->exec_params);
            s->exec_cycles += (uint64_t)s->cyc.charged;
            s->frame_cycles += (uint64_t)s->cyc.charged;
            command_done(gx, op, info, s->exec_params, s->exec_cycles);
            return (uint32_t)s->cyc.charged;
        }
    }
    s->exec_cycles += (uint64_t)s->cyc.charged;
    s->frame_cycles += (uint64_t)s->cyc.charged;
    return (uint32_t)s->cyc.charged;
}

#endif
