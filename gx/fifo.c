/*
 * fifo.c - GXFIFO, command ports, packed command words, the FIFO-entry executor and GXSTAT.
 *
 * Hardware notes.
 * - Packed words (GBATEK "DS 3D Geometry Commands"; melonDS GPU3D.cpp WriteToGXFIFO): a word
 *   written to GXFIFO holds up to four opcodes, byte 0 first; the parameter words of each
 *   opcode follow in order. Each opcode with its parameters becomes FIFO entries (one per
 *   parameter word; a zero-parameter opcode becomes one entry carrying the packed word).
 *   Zero bytes (NOP) inside a packed word are skipped, except that an all-zero word queues
 *   exactly one NOP entry. Opcodes with no parameters may sit in any slot; a word whose
 *   opcodes all take no parameters is complete by itself.
 * - Command ports 04000440..040005CB (GBATEK; melonDS Write32): each 32-bit write queues one
 *   entry with opcode (addr & 1FCh) >> 2, so a zero-parameter port issues on any write and a
 *   command with N parameters issues on its Nth write. Port entries and packed entries share
 *   the FIFO and the executor; a port write between the parameters of a packed command is
 *   queued between them, exactly as melonDS does (its executor counts parameter entries, not
 *   opcodes). 040005CC..040005FF are unused. Only 32-bit writes reach GXFIFO and the ports.
 * - Executor (melonDS ExecuteCommand): a command with 0 or 1 parameter runs on its entry; a
 *   command with more collects entries: the first pays the issue cost, each further one costs
 *   1, and the command runs when the count is reached.
 *   (The executor itself is inline in exec_internal.h, shared with the scheduler's fast path.)
 * - FIFO (256 entries) and PIPE (4 entries): trace replay drains the FIFO between writes (specs
 *   /trace.md), so every entry executes as soon as it is written, except while a SWAP_BUFFERS
 *   waits for VBlank: then entries are held (melonDS: the engine is halted with FlushRequest)
 *   and run at gx_vblank(). GXSTAT reports the held entries: the first 4 fill the PIPE, the
 *   rest the FIFO (melonDS CmdFIFOWrite), capped at 256 (the hardware stalls the CPU there).
 *   Busy (bit 27) is set while a swap is pending or entries are held; the cycles a command
 *   keeps the engine busy after it was written are not observable in trace replay.
 * - Cycle-driven mode (gx_set_cycle_mode): push_entry hands every entry to the scheduler
 *   (sched.c), which owns the FIFO, the PIPE and time and calls back gx_fifo_run_entry; GXSTAT's
 *   level and busy bits then come from it.
 * Verified: geo_packed_zero_param and the starter traces. Guess: none (melonDS's behaviour).
 */
#include "gx/exec_internal.h"
#include "gx/gx_internal.h"

#include <stdlib.h>
#include <string.h>

enum {
    GXSTAT_TEST_BUSY = 1u << 0,
    GXSTAT_BOX_RESULT = 1u << 1,
    GXSTAT_POS_SP_SHIFT = 8, /* bits 8-12 */
    GXSTAT_PROJ_SP = 1u << 13,
    GXSTAT_PUSHPOP_BUSY = 1u << 14,
    GXSTAT_OVERFLOW = 1u << 15,
    GXSTAT_LEVEL_SHIFT = 16, /* bits 16-24 */
    GXSTAT_LESS_HALF = 1u << 25,
    GXSTAT_EMPTY = 1u << 26,
    GXSTAT_BUSY = 1u << 27,
    GXSTAT_IRQ_MASK = 3u << 30,
};

enum { OP_NOP = 0x00, OP_PUSH = 0x11, OP_POP = 0x12, OP_BOX = 0x70, OP_VEC = 0x72 };
enum { POWCNT1_GEOMETRY = 1u << 3 };

void gx_cmd_reset(gx_engine *gx)
{
    gx_cmd_state *s = &gx->cmd;
    gx_fifo_entry *deferred = s->deferred;
    size_t cap = s->deferred_cap;
    memset(s, 0, sizeof(*s));
    s->deferred = deferred;
    s->deferred_cap = cap;
    gx_cycles_reset(gx);
}

void gx_cmd_free(gx_engine *gx)
{
    free(gx->cmd.deferred);
    gx->cmd.deferred = NULL;
    gx->cmd.deferred_cap = gx->cmd.ndeferred = gx->cmd.deferred_head = 0;
}

uint32_t gx_fifo_run_entry(gx_engine *gx, uint8_t op, uint32_t param)
{
    return gx_exec_entry(gx, op, param);
}

void gx_exec_report(gx_engine *gx, uint8_t op, const gx_cmd_info *info, const uint32_t *params,
                    uint64_t cycles)
{
    gx_cmd_event ev;
    memset(&ev, 0, sizeof(ev));
    ev.opcode = op;
    ev.nparams = info->nparams;
    if (ev.nparams) memcpy(ev.params, params, ev.nparams * sizeof(uint32_t));
    ev.cycles = (uint32_t)cycles;
    gx->hooks.command(gx->hooks.user, gx, &ev);
}

void gx_exec_unknown(gx_engine *gx, uint8_t op)
{
    gx_log(gx, DSGX_LOG_GAME, "unknown geometry command %02Xh (runs as a 1-cycle no-op)", op);
}

GX_NOINLINE void gx_fifo_defer(gx_engine *gx, uint8_t op, uint32_t param)
{
    gx_cmd_state *s = &gx->cmd;
    if (s->ndeferred == s->deferred_cap) {
        size_t cap = s->deferred_cap ? s->deferred_cap * 2 : 256;
        gx_fifo_entry *n = realloc(s->deferred, cap * sizeof(*n));
        if (!n) {
            gx_log(gx, DSGX_LOG_BUG, "out of memory holding a geometry command; dropped");
            return;
        }
        s->deferred = n;
        s->deferred_cap = cap;
    }
    s->deferred[s->ndeferred].opcode = op;
    s->deferred[s->ndeferred].param = param;
    s->ndeferred++;
}

static void push_entry(gx_engine *gx, uint8_t op, uint32_t param)
{
    if (gx->sched.cycle_mode) { /* the scheduler owns time: sched.c */
        gx_sched_push(gx, op, param);
        return;
    }
    gx_push_untimed(gx, op, param);
}

void gx_fifo_run_deferred(gx_engine *gx)
{
    gx_cmd_state *s = &gx->cmd;
    while (s->deferred_head < s->ndeferred && !s->swap_pending) {
        gx_fifo_entry e = s->deferred[s->deferred_head++];
        gx_fifo_run_entry(gx, e.opcode, e.param);
    }
    /* compact what is still held behind a new swap */
    size_t left = s->ndeferred - s->deferred_head;
    if (left && s->deferred_head)
        memmove(s->deferred, s->deferred + s->deferred_head, left * sizeof(*s->deferred));
    s->ndeferred = left;
    s->deferred_head = 0;
}

void gx_fifo_write(gx_engine *gx, uint32_t val)
{
    gx_cmd_state *s = &gx->cmd;
    if (s->packed_left == 0) {
        s->packed_left = 4;
        s->packed = val;
        s->param_got = 0;
        s->param_need = (uint8_t)gx_opcode_params((uint8_t)val);
        if (s->param_need > 0) return; /* its parameters follow */
    } else {
        s->param_got++;
    }
    for (;;) {
        uint8_t op = (uint8_t)s->packed;
        /* NOP bytes are skipped, but an all-zero word is one NOP */
        if (op != OP_NOP || (s->packed_left == 4 && s->packed == 0)) push_entry(gx, op, val);
        if (s->param_got >= s->param_need) {
            s->packed >>= 8;
            if (--s->packed_left == 0) break;
            s->param_got = 0;
            s->param_need = (uint8_t)gx_opcode_params((uint8_t)s->packed);
        }
        if (s->param_got < s->param_need) break;
    }
}

/* 04000440..040005CB: the command ports; 5CC..5FF are unused. */
static inline bool is_port(uint32_t addr)
{
    return addr >= REG_CMD_PORTS && addr < REG_CMD_PORTS_END;
}

static inline uint8_t port_opcode(uint32_t addr)
{
    return (uint8_t)((addr & 0x1FCu) >> 2);
}

void gx_port_write(gx_engine *gx, uint32_t addr, uint32_t val)
{
    if (is_port(addr)) gx_port_run(gx, port_opcode(addr), val);
}

void gx_port_run(gx_engine *gx, uint8_t op, uint32_t val)
{
    gx_push_untimed(gx, op, val);
}

void gx_write32_run(gx_engine *gx, const gx_bus_word *w, size_t n)
{
    /* neither the power bits nor the mode change through GXFIFO or a command port, so both are
     * tested once; a write anywhere else takes the general path and the tests are redone */
    for (size_t i = 0; i < n;) {
        if (!(gx->powcnt1 & POWCNT1_GEOMETRY) || gx->sched.cycle_mode) {
            gx_write32(gx, w[i].addr, w[i].value);
            i++;
            continue;
        }
        for (; i < n; i++) {
            uint32_t addr = w[i].addr & ~3u;
            if (addr - REG_PORT_COLOR < REG_PORT_VERTEX_END - REG_PORT_COLOR) {
                /* COLOR, NORMAL, TEXCOORD, VTX_16: a batch when it applies (batch.c) */
                size_t taken = gx_batch_ports(gx, w + i, n - i, 0);
                if (taken) {
                    i += taken - 1;
                    continue;
                }
            }
            if (addr - REG_CMD_PORTS < REG_CMD_PORTS_END - REG_CMD_PORTS)
                gx_push_untimed(gx, port_opcode(addr), w[i].value);
            else if (addr - REG_GXFIFO < REG_CMD_PORTS - REG_GXFIFO) {
                /* a packed word of vertex commands at a word boundary: a batch (batch.c) */
                if (gx->cmd.packed_left == 0 && (w[i].value & 0xDCDCDCDCu) == 0) {
                    size_t taken = gx_batch_packed_run(gx, w + i, n - i);
                    if (taken) {
                        i += taken - 1;
                        continue;
                    }
                }
                gx_fifo_write(gx, w[i].value);
            } else
                break;
        }
        if (i < n) {
            gx_write32(gx, w[i].addr, w[i].value);
            i++;
        }
    }
}

void gx_port_push(gx_engine *gx, uint32_t addr, uint32_t val)
{
    if (is_port(addr)) gx_sched_push(gx, port_opcode(addr), val);
}

static bool held_matches(const gx_engine *gx, uint8_t lo, uint8_t hi)
{
    const gx_cmd_state *s = &gx->cmd;
    for (size_t i = s->deferred_head; i < s->ndeferred; i++)
        if (s->deferred[i].opcode >= lo && s->deferred[i].opcode <= hi) return true;
    return false;
}

/* The GXSTAT bits both modes compute alike: IRQ mode, box result, stack pointers, overflow. */
static uint32_t gxstat_static(const gx_engine *gx)
{
    uint32_t v = gx->cmd.irq_mode & GXSTAT_IRQ_MASK;
    if (gx->geom.box_result) v |= GXSTAT_BOX_RESULT;
    v |= (gx->mtx.pos_sp & 31u) << GXSTAT_POS_SP_SHIFT;
    if (gx->mtx.proj_sp & 1u) v |= GXSTAT_PROJ_SP;
    if (gx->mtx.overflow) v |= GXSTAT_OVERFLOW;
    return v;
}

uint32_t gx_gxstat(const gx_engine *gx)
{
    const gx_cmd_state *s = &gx->cmd;
    if (gx->sched.cycle_mode) return gxstat_static(gx) | gx_sched_gxstat(gx);
    size_t held = s->ndeferred - s->deferred_head;
    uint32_t level = held > GX_PIPE_SIZE ? (uint32_t)(held - GX_PIPE_SIZE) : 0;
    if (level > GX_FIFO_SIZE) level = GX_FIFO_SIZE;
    bool collecting_test = s->exec_count > 0 && s->exec_op >= OP_BOX && s->exec_op <= OP_VEC;

    uint32_t v = gxstat_static(gx);
    if (collecting_test || held_matches(gx, OP_BOX, OP_VEC)) v |= GXSTAT_TEST_BUSY;
    if (held_matches(gx, OP_PUSH, OP_POP)) v |= GXSTAT_PUSHPOP_BUSY;
    v |= level << GXSTAT_LEVEL_SHIFT;
    if (level < GX_FIFO_SIZE / 2) v |= GXSTAT_LESS_HALF;
    if (level == 0) v |= GXSTAT_EMPTY;
    if (s->swap_pending || held) v |= GXSTAT_BUSY;
    return v;
}

void gx_gxstat_write(gx_engine *gx, uint32_t val, uint32_t mask)
{
    val &= mask;
    if (val & GXSTAT_OVERFLOW) {
        /* GBATEK: writing 1 acknowledges the error and resets the projection stack pointer;
         * melonDS also resets the texture stack pointer (not the position pointer). */
        gx->mtx.overflow = false;
        gx->mtx.proj_sp = 0;
        gx->mtx.tex_sp = 0;
    }
    if (mask & GXSTAT_IRQ_MASK) {
        gx->cmd.irq_mode = (gx->cmd.irq_mode & ~(mask & GXSTAT_IRQ_MASK)) | (val & GXSTAT_IRQ_MASK);
        gx_sched_update_lines(gx);
    }
}
