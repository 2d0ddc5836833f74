/*
 * system.c - trace replay through the geometry and rendering engines (see system.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "tools/core/system.h"

#include "gx/regs.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

uint64_t dsgx_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

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
    if (s->gx) gx_destroy(s->gx);
    if (s->raster) raster_destroy(s->raster);
    free(s);
}

void dsgx_system_set_log(dsgx_system *s, dsgx_log_fn fn, void *user)
{
    s->log = fn;
    s->log_user = user;
    gx_set_log(s->gx, fn, user);
}

/* POWCNT1 bit 2 (3D rendering engine) going from 0 to 1 restarts the rendering engine's
 * timing (raster_power_on). */
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
        for (uint32_t k = 0; k + 4 <= it->data_len; k += 4) {
            const uint8_t *b = t->data + it->data_off + k;
            uint32_t v =
                (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
            gx_write32(s->gx, it->addr + k, v);
        }
        break;
    case TRACE_VBLANK: gx_vblank(s->gx); break; /* latches, draws nothing (trace.h) */
    default: break;
    }
    if (pow_write && !was_on && render_power(s)) raster_power_on(s->raster);
}

bool dsgx_system_frame(dsgx_system *s)
{
    bool fresh = gx_vblank(s->gx);
    s->reemitted = !fresh;
    if (fresh || !s->have_frame) {
        uint64_t t0 = dsgx_now_ns();
        raster_render(s->raster, gx_render_frame(s->gx), &s->frame, &s->result);
        s->render_ns = dsgx_now_ns() - t0;
        gx_report_render(s->gx, s->result.rdlines, s->result.underflow);
        gx_last_frame_stats(s->gx, &s->stats);
        s->have_frame = true;
    }
    if (!fresh && s->log)
        s->log(s->log_user, DSGX_LOG_WARN, "frame without SWAP_BUFFERS: last frame re-emitted");
    return fresh;
}

unsigned dsgx_system_replay(dsgx_system *s, const dsgx_trace *t, dsgx_frame_cb cb, void *user)
{
    unsigned frames = 0;
    s->geometry_ns = 0;
    size_t i = 0;
    while (i < t->n) {
        /* one clock pair around each run of bus writes: reading the clock per write would cost
         * more than the geometry work itself (bench/README.md) */
        uint64_t t0 = dsgx_now_ns();
        for (; i < t->n && t->items[i].op != TRACE_FRAME; i++) dsgx_system_exec(s, t, &t->items[i]);
        s->geometry_ns += dsgx_now_ns() - t0;
        if (i == t->n) break;
        i++; /* the `frame` directive */
        dsgx_system_frame(s);
        if (cb) cb(user, frames, s);
        frames++;
        s->geometry_ns = 0;
    }
    return frames;
}
