/*
 * cycle_replay.c - trace replay in the cycle-driven mode (see cycle_replay.h).
 */
#include "tools/core/cycle_replay.h"

#include <string.h>

#include "gx/regs.h"

enum { GXSTAT_BUSY = 1u << 27, DRAIN_STEP = 4096, DRAIN_MAX_STEPS = 1024 };

static void bus_write(dsgx_system *s, uint32_t addr, uint32_t val, uint32_t slice,
                      dsgx_cycle_stats *st)
{
    uint32_t stall = gx_bus_write32(s->gx, addr, val);
    if (stall) st->stalls++, st->stall_cycles += stall;
    gx_run(s->gx, slice);
    st->run_cycles += slice;
}

/* The cycles before a frame: until the engine is idle or waits for VBlank. */
static void drain(dsgx_system *s, dsgx_cycle_stats *st)
{
    for (int i = 0; i < DRAIN_MAX_STEPS; i++) {
        if (gx_swap_pending(s->gx) || !(gx_read32(s->gx, REG_GXSTAT) & GXSTAT_BUSY)) return;
        gx_run(s->gx, DRAIN_STEP);
        st->run_cycles += DRAIN_STEP;
    }
}

/* A 32-bit write other than POWCNT1 (exec_item's first case). */
static inline bool is_plain_w32(const dsgx_trace_item *it)
{
    return it->op == TRACE_W32 && (it->addr & ~3u) != REG_POWCNT1;
}

static bool is_plain_w32_fn(const dsgx_trace_item *it)
{
    return is_plain_w32(it);
}

/* The run of @p m plain 32-bit writes @p w (prepared: dsgx_system_prepare_runs): each written,
 * then gx_run(slice) (gx_bus_write32_run). */
static void write_prepared(gx_engine *gx, const gx_bus_word *w, size_t m, uint32_t slice,
                           dsgx_cycle_stats *st)
{
    for (size_t j = 0; j < m;) {
        uint32_t stall;
        j += gx_bus_write32_run(gx, w + j, m - j, slice, &stall);
        if (stall) { /* the write at j stalled: as bus_write, then on with the next */
            st->stalls++, st->stall_cycles += stall;
            gx_run(gx, slice);
            j++;
        }
    }
    st->run_cycles += (uint64_t)slice * m;
}

/* The run of plain 32-bit writes from item i on: each written, then gx_run(slice), handed to
 * the engine in chunks (gx_bus_write32_run; when the runs could not be prepared). @return the
 * index of the first item after it. */
static size_t write_run(gx_engine *gx, const dsgx_trace_item *items, size_t i, size_t n,
                        uint32_t slice, dsgx_cycle_stats *st)
{
    enum { CHUNK = 128 };
    gx_bus_word w[CHUNK];
    for (;;) {
        size_t m = 0;
        for (; m < CHUNK && i + m < n && is_plain_w32(&items[i + m]); m++) {
            w[m].addr = items[i + m].addr;
            w[m].value = items[i + m].value;
        }
        write_prepared(gx, w, m, slice, st);
        i += m;
        if (m < CHUNK) return i;
    }
}

static void exec_item(dsgx_system *s, const dsgx_trace *t, const dsgx_trace_item *it,
                      uint32_t slice, dsgx_cycle_stats *st)
{
    if (is_plain_w32(it)) {
        bus_write(s, it->addr, it->value, slice, st);
    } else if (it->op == TRACE_DATA) {
        for (uint32_t k = 0; k + 4 <= it->data_len; k += 4) {
            const uint8_t *b = t->data + it->data_off + k;
            uint32_t v =
                (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            bus_write(s, it->addr + k, v, slice, st);
        }
    } else if (it->op == TRACE_VBLANK) { /* a dump's set-up VBlank: after its swap has run */
        drain(s, st);
        dsgx_system_exec(s, t, it);
    } else { /* narrow writes, and POWCNT1 (the system restarts the rendering timing) */
        dsgx_system_exec(s, t, it);
        gx_run(s->gx, slice);
        st->run_cycles += slice;
    }
}

unsigned dsgx_system_replay_cycles(dsgx_system *s, const dsgx_trace *t, uint32_t slice,
                                   dsgx_frame_cb cb, void *user, dsgx_cycle_stats *st)
{
    dsgx_cycle_stats local;
    if (!st) st = &local;
    memset(st, 0, sizeof(*st));
    gx_set_cycle_mode(s->gx, true);
    unsigned frames = 0;
    s->geometry_ns = 0;
    bool prepared = dsgx_system_prepare_runs(s, t, is_plain_w32_fn);
    const dsgx_trace_item *items = t->items; /* (locals: the per-write loop does not reload) */
    size_t n = t->n, i = 0;
    while (i < n) {
        uint64_t t0 = dsgx_now_ns();
        while (i < n && items[i].op != TRACE_FRAME) {
            /* a run of 32-bit writes (the bulk): write, run, in a tight loop */
            if (prepared && s->replay_runs[i]) {
                write_prepared(s->gx, &s->replay_words[i], s->replay_runs[i], slice, st);
                i += s->replay_runs[i];
                continue;
            }
            size_t k = write_run(s->gx, items, i, n, slice, st);
            if (k > i) {
                i = k;
                continue;
            }
            exec_item(s, t, &items[i], slice, st);
            i++;
        }
        drain(s, st);
        s->geometry_ns += dsgx_now_ns() - t0;
        if (i == n) break;
        i++; /* the `frame` directive */
        dsgx_system_frame(s);
        if (cb) cb(user, frames, s);
        frames++;
        s->geometry_ns = 0;
    }
    return frames;
}
