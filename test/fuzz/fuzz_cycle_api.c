/*
 * fuzz_cycle_api.c - arbitrary call sequences on the cycle-driven geometry engine and the
 * line-at-a-time rendering API (docs/cycle.md): bus writes of every width to the 3D range and
 * GXFIFO (packed words and command ports, so the FIFO fills, stalls and holds behind swaps),
 * gx_run of any length, VBlank, unstall, mode switches, GXSTAT IRQ modes, resets, line frames
 * begun/read/ended/resumed in any order, raster_render in between, and a line callback that
 * writes back into the engine. Nothing may crash, hang or trip the sanitizers.
 *
 * Input: a sequence of operations, each an opcode byte followed by its operand bytes (missing
 * bytes read as 0). Rendering calls are bounded per input to keep runs short.
 */
#include <stdint.h>
#include <string.h>

#include "gx/gx.h"
#include "raster/raster.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct cursor {
    const uint8_t *p;
    size_t n, at;
} cursor;

static uint32_t take(cursor *c, unsigned bytes)
{
    uint32_t v = 0;
    for (unsigned i = 0; i < bytes; i++)
        v |= (uint32_t)(c->at < c->n ? c->p[c->at++] : 0) << (8 * i);
    return v;
}

/* addresses worth hitting: GXFIFO, ports, GXSTAT, registers, VRAM control/LCDC, POWCNT1 */
static const uint32_t bases[] = {0x04000400, 0x04000440, 0x04000500, 0x04000540, 0x040005C0,
                                 0x04000600, 0x04000604, 0x04000610, 0x04000060, 0x04000304,
                                 0x04000320, 0x04000340, 0x04000350, 0x04000240, 0x06800000,
                                 0x04000630, 0x040005FC, 0x03FFFFFC};

typedef struct ctx {
    gx_engine *gx;
    unsigned callback_writes;
} ctx;

static void on_line(void *user, gx_engine *gx, enum gx_line line, bool level)
{
    ctx *c = user;
    (void)line;
    if (level && c->callback_writes < 64) { /* a DMA that answers at once */
        c->callback_writes++;
        gx_write32(gx, 0x04000454, 0); /* MTX_IDENTITY */
        gx_run(gx, 10);
        (void)gx_unstall(gx);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gx_engine *gx = gx_create();
    raster_engine *r = raster_create();
    if (!gx || !r) {
        gx_destroy(gx);
        raster_destroy(r);
        return 0;
    }
    ctx cb = {gx, 0};
    gx_set_line_callback(gx, on_line, &cb);
    gx_set_cycle_mode(gx, true);
    cursor c = {data, size, 0};
    unsigned renders = 0, ops = 0;
    static uint32_t line[256];
    while (c.at < c.n && ops++ < 4096) {
        uint8_t op = (uint8_t)take(&c, 1);
        switch (op % 16) {
        case 0:
        case 1: { /* a 32-bit bus write */
            uint32_t addr = bases[take(&c, 1) % (sizeof bases / sizeof bases[0])] + 4 * take(&c, 1);
            (void)gx_bus_write32(gx, addr, take(&c, 4));
            break;
        }
        case 2: /* a burst of command-port writes (fills the FIFO) */
            for (uint32_t k = 0, n = take(&c, 2) % 600, port = take(&c, 1); k < n; k++)
                gx_write32(gx, 0x04000440 + 4 * (port % 0x63), k);
            break;
        case 3: gx_run(gx, take(&c, 3)); break;
        case 4: (void)gx_vblank(gx); break;
        case 5: (void)gx_unstall(gx); break;
        case 6: (void)gx_set_cycle_mode(gx, take(&c, 1) & 1); break;
        case 7: gx_write32(gx, 0x04000600, take(&c, 1) << 24); break;
        case 8:
            if (renders++ < 6) raster_lines_begin(r, gx_render_frame(gx));
            break;
        case 9: (void)raster_lines_read(r, (int)(take(&c, 1) % 200) - 4, line); break;
        case 10: {
            raster_result res;
            raster_lines_end(r, &res);
            gx_report_render(gx, res.rdlines, res.underflow);
            break;
        }
        case 11:
            if (renders++ < 6) raster_lines_resume(r, gx_render_frame(gx));
            break;
        case 12: {
            uint32_t addr = bases[take(&c, 1) % (sizeof bases / sizeof bases[0])] + take(&c, 1);
            if (op & 0x10)
                gx_write16(gx, addr, (uint16_t)take(&c, 2));
            else
                gx_write8(gx, addr, (uint8_t)take(&c, 1));
            break;
        }
        case 13: {
            uint32_t addr = bases[take(&c, 1) % (sizeof bases / sizeof bases[0])] + take(&c, 1);
            (void)gx_read32(gx, addr);
            (void)gx_line_level(gx, (enum gx_line)(op >> 7));
            (void)gx_stalled(gx);
            (void)gx_clock(gx);
            break;
        }
        case 14:
            if (op & 0x80) gx_reset(gx);
            break;
        default: { /* a packed GXFIFO word */
            (void)gx_bus_write32(gx, 0x04000400, take(&c, 4));
            break;
        }
        }
    }
    raster_lines_end(r, NULL);
    raster_destroy(r);
    gx_destroy(gx);
    return 0;
}
