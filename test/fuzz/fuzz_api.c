/*
 * fuzz_api.c - random sequences of API calls on two engine pairs: nothing may crash, hang,
 * read out of bounds or hit undefined behaviour (CI runs the fuzz label under ASan+UBSan).
 *
 * The input is a program: each operation is one byte (selector) and its operands. Bus accesses
 * go to raw addresses (anywhere, misaligned) or to the 3D register map plus a small offset;
 * the other operations are VBlank, render, reset, re-create, save/restore between the pairs
 * (also of damaged and truncated blobs), threads, log and hooks, feedback and the queries.
 * Rendering, thread changes and re-creations are capped per input so every input runs in
 * milliseconds. The two pairs are created once and brought back to the power-on state at the
 * start of every input by restoring a save state of a fresh pair (and resetting the host
 * settings): creating ~12 MB of engines per input made the test slow under ASan.
 * Corpus: small programs written by hand from the selector table below (test/fuzz/README.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/core/savestate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor {
    const uint8_t *p;
    size_t n;
} cursor;

static uint32_t take(cursor *c, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes && c->n; i++, c->p++, c->n--) v |= (uint32_t)*c->p << (8 * i);
    return v;
}

typedef struct pair {
    gx_engine *gx;
    raster_engine *r;
    unsigned calls; /* log and hook callbacks seen */
} pair;

/* addresses the engine decodes (and a few neighbours it must ignore) */
static const uint32_t regs[] = {
    0x04000000, 0x04000060, 0x04000240, 0x04000244, 0x04000248, 0x04000304, 0x04000320, 0x04000330,
    0x04000340, 0x04000350, 0x04000354, 0x04000358, 0x0400035C, 0x04000360, 0x04000380, 0x040003B8,
    0x040003C0, 0x040003F0, 0x04000400, 0x04000440, 0x04000444, 0x04000454, 0x04000480, 0x04000484,
    0x0400048C, 0x04000490, 0x04000494, 0x04000498, 0x040004A0, 0x040004A4, 0x040004A8, 0x040004C0,
    0x040004C4, 0x040004C8, 0x040004CC, 0x040004D0, 0x04000500, 0x04000504, 0x04000540, 0x04000580,
    0x040005C0, 0x040005C4, 0x040005C8, 0x040005CC, 0x04000600, 0x04000604, 0x04000610, 0x04000620,
    0x04000630, 0x04000640, 0x04000680, 0x040006A4, 0x06800000, 0x06820000, 0x06880000, 0x06890000,
    0x068A0000, 0x068A3FFC, 0x068A4000, 0x05000000, 0x07000000, 0xFFFFFFFC,
};
#define NREGS (sizeof regs / sizeof regs[0])

static void log_fn(void *user, enum dsgx_log_level level, const char *msg)
{
    pair *p = user;
    p->calls += (unsigned)level + (msg[0] != 0);
}
static void hook_cmd(void *user, gx_engine *gx, const gx_cmd_event *ev)
{
    pair *p = user;
    p->calls += ev->nparams <= 32;
    (void)gx;
}
static void hook_poly(void *user, gx_engine *gx, enum gx_poly_fate fate, const gx_polygon *poly,
                      const gx_vertex *verts)
{
    pair *p = user;
    if (fate == GX_POLY_STORED && poly && verts) p->calls += verts[poly->vtx[0]].sx >= 0;
    (void)gx;
}

static void make(pair *p)
{
    p->gx = gx_create();
    p->r = raster_create();
    if (!p->gx || !p->r) abort();
}
static void unmake(pair *p)
{
    gx_destroy(p->gx);
    raster_destroy(p->r);
}

static void save_restore(pair *from, pair *to, cursor *c)
{
    unsigned how = take(c, 1);
    size_t n = dsgx_state_size(from->gx, from->r);
    uint8_t *blob = malloc(n);
    if (!blob) return;
    size_t got = dsgx_state_save(from->gx, from->r, blob, n, how & 1 ? DSGX_STATE_CHECKSUM : 0);
    if (got != n) abort();
    char err[128];
    switch ((how >> 1) & 3) {
    case 0: /* intact: must load */
        if (dsgx_state_restore(to->gx, to->r, blob, n, err, sizeof err) != 0) {
            fprintf(stderr, "fuzz_api: a saved state was refused: %s\n", err);
            abort();
        }
        break;
    case 1: /* truncated: must be refused */
        if (dsgx_state_restore(to->gx, to->r, blob, take(c, 2) % n, err, sizeof err) == 0) abort();
        break;
    default: /* one byte damaged: loads or is refused, never crashes */
        blob[take(c, 3) % n] ^= (uint8_t)(take(c, 1) | 1);
        dsgx_state_restore(to->gx, to->r, blob, n, err, sizeof err);
        break;
    }
    free(blob);
}

/* (fuzz targets run on one thread; this state is the harness's, not the library's) */
static pair pairs[2];
static uint8_t *power_on;
static size_t power_on_size;

static void start_input(void)
{
    if (!power_on) {
        make(&pairs[0]);
        make(&pairs[1]);
        power_on_size = dsgx_state_size(pairs[0].gx, pairs[0].r);
        power_on = malloc(power_on_size);
        if (!power_on ||
            dsgx_state_save(pairs[0].gx, pairs[0].r, power_on, power_on_size, 0) != power_on_size)
            abort();
    }
    for (int i = 0; i < 2; i++) {
        pair *p = &pairs[i];
        if (dsgx_state_restore(p->gx, p->r, power_on, power_on_size, NULL, 0) != 0) abort();
        gx_set_log(p->gx, NULL, NULL);
        gx_set_hooks(p->gx, NULL);
        raster_set_threads(p->r, 1);
        raster_set_melonds_gaps(p->r, false);
        p->calls = 0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static dsgx_frame frame;
    start_input();
    cursor c = {data, size};
    unsigned renders = 0, thread_changes = 0, remakes = 0;
    while (c.n) {
        unsigned op = take(&c, 1);
        pair *p = &pairs[op >> 7], *other = &pairs[!(op >> 7)];
        switch (op & 31) {
        case 0: gx_write32(p->gx, take(&c, 4), take(&c, 4)); break;
        case 1: gx_write16(p->gx, take(&c, 4), (uint16_t)take(&c, 2)); break;
        case 2: gx_write8(p->gx, take(&c, 4), (uint8_t)take(&c, 1)); break;
        case 3:
        case 4:
        case 5: { /* a 3D register, maybe misaligned */
            unsigned k = take(&c, 1);
            uint32_t addr = regs[k % NREGS] + ((k >> 6) & 3u) * ((op & 31) == 3 ? 1u : 4u);
            uint32_t v = take(&c, 4);
            if ((op & 31) == 5)
                gx_write16(p->gx, addr, (uint16_t)v);
            else
                gx_write32(p->gx, addr, v);
            break;
        }
        case 6: { /* a run of GXFIFO words (packed commands) */
            unsigned n = take(&c, 1) % 16;
            for (unsigned i = 0; i < n; i++) gx_write32(p->gx, 0x04000400, take(&c, 4));
            break;
        }
        case 7: (void)gx_read32(p->gx, take(&c, 4)); break;
        case 8: (void)gx_read16(p->gx, take(&c, 4)); break;
        case 9: (void)gx_read8(p->gx, take(&c, 4)); break;
        case 10: (void)gx_read32(p->gx, regs[take(&c, 1) % NREGS] + take(&c, 1) % 64); break;
        case 11: gx_vblank(p->gx); break;
        case 12:
            if (renders++ < 6) {
                raster_result res;
                raster_render(p->r, gx_render_frame(p->gx), &frame, &res);
                gx_report_render(p->gx, res.rdlines, res.underflow);
            }
            break;
        case 13: gx_reset(p->gx); break;
        case 14:
            if (remakes++ < 2) {
                unmake(p);
                make(p);
            }
            break;
        case 15: save_restore(p, other, &c); break;
        case 16: save_restore(p, p, &c); break;
        case 17:
            if (thread_changes++ < 3) raster_set_threads(p->r, take(&c, 1) % 10);
            break;
        case 18: gx_set_log(p->gx, take(&c, 1) & 1 ? log_fn : NULL, p); break;
        case 19: {
            gx_hooks h = {.user = p, .command = hook_cmd, .polygon = hook_poly};
            gx_set_hooks(p->gx, take(&c, 1) & 1 ? &h : NULL);
            break;
        }
        case 20: gx_report_render(p->gx, (uint8_t)take(&c, 1), take(&c, 1) & 1); break;
        case 21: raster_power_on(p->r); break;
        case 22: raster_set_melonds_gaps(p->r, take(&c, 1) & 1); break;
        case 23: {
            int32_t m[16];
            gx_get_matrix(p->gx, (int)(int8_t)take(&c, 1), m);
            break;
        }
        case 24: {
            uint8_t opc = (uint8_t)take(&c, 1);
            const char *name = gx_opcode_name(opc);
            if (name && gx_opcode_params(opc) > 32) abort();
            break;
        }
        case 25: {
            gx_frame_stats st;
            gx_last_frame_stats(p->gx, &st);
            gx_current_frame_stats(p->gx, &st);
            (void)gx_swap_pending(p->gx);
            (void)raster_threads(p->r);
            break;
        }
        default: { /* a whole small polygon: the common path, so mutations reach deep state */
            static const uint32_t tri[][2] = {
                {0x04000440, 0},          {0x04000454, 0}, {0x040004A4, 0x1F00C0}, {0x04000500, 0},
                {0x0400048C, 0x00000000}, {0x0400048C, 0}, {0x0400048C, 0x1000},   {0x0400048C, 0},
                {0x0400048C, 0x10001000}, {0x0400048C, 0}, {0x04000504, 0},        {0x04000540, 0},
            };
            uint32_t tweak = take(&c, 4);
            for (size_t i = 0; i < sizeof tri / sizeof tri[0]; i++)
                gx_write32(p->gx, tri[i][0], tri[i][1] ^ (i == (tweak >> 28) ? tweak : 0));
            break;
        }
        }
    }
    return 0;
}
