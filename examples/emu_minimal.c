/*
 * emu_minimal.c - the smallest emulator-style use of libdsgx: an ARM9 bus that forwards the
 * 3D addresses to a geometry engine, a VBlank that latches the frame, a rendering engine that
 * draws it, and a frame hash printed per frame.
 *
 * The "CPU" here is a GX trace (dsgx-trace 1, e.g. the traces in golden/ref): each line is one bus
 * write the program made, `frame` marks where it waited for VBlank. A real emulator calls the
 * same functions from its memory handlers and its VBlank event (docs/embedding.md).
 *
 *   emu_minimal TRACE [--state-mid]
 *       prints `frame N HASH` for every frame (HASH: XXH3-64, as `dsgx replay TRACE` prints it);
 *       with --state-mid, halfway through the trace's bus writes the engines are saved,
 *       destroyed, and a new pair restored from the save state continues (same hashes)
 *
 * Built out of the dsgx tree against an installed libdsgx: see examples/README.md.
 */
#include <dsgx/dsgx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The emulator's side: the 3D engine pair and what it needs to remember between calls. */
typedef struct emu {
    gx_engine *gx;
    raster_engine *raster;
    dsgx_frame frame;
} emu;

static int render_powered(emu *e)
{
    return (gx_read16(e->gx, 0x04000304) & 4u) != 0; /* POWCNT1 bit 2: 3D rendering engine */
}

/* The ARM9 memory handler for a store: the 3D engine decodes its own addresses and ignores the
 * rest, so an emulator may forward all I/O and VRAM stores (or only 04000060, 04000240..49,
 * 04000304, 04000320..040006FF and 06800000..068A3FFF). */
static void bus_store(emu *e, unsigned width, uint32_t addr, uint32_t val)
{
    int power_write = (addr & ~3u) == 0x04000304 && !render_powered(e);
    switch (width) {
    case 32: gx_write32(e->gx, addr, val); break;
    case 16: gx_write16(e->gx, addr, (uint16_t)val); break;
    default: gx_write8(e->gx, addr, (uint8_t)val); break;
    }
    /* POWCNT1 bit 2 going 0 -> 1: the rendering engine restarts (its first frame is untimed) */
    if (power_write && render_powered(e)) raster_power_on(e->raster);
}

/* The VBlank event: latch the frame the program swapped (if any) and draw it. */
static void vblank(emu *e)
{
    raster_result res;
    gx_vblank(e->gx);
    raster_render(e->raster, gx_render_frame(e->gx), &e->frame, &res);
    gx_report_render(e->gx, res.rdlines, res.underflow); /* RDLINES_COUNT, underflow bit */
}

/* A save state round trip: what an emulator does for "save", quit, "load". */
static int save_and_reload(emu *e)
{
    size_t n = dsgx_state_size(e->gx, e->raster);
    uint8_t *blob = malloc(n);
    if (!blob || dsgx_state_save(e->gx, e->raster, blob, n, DSGX_STATE_CHECKSUM) != n) return -1;
    gx_destroy(e->gx);
    raster_destroy(e->raster);
    e->gx = gx_create();
    e->raster = raster_create();
    char err[256];
    int rc =
        e->gx && e->raster ? dsgx_state_restore(e->gx, e->raster, blob, n, err, sizeof err) : -1;
    if (rc) fprintf(stderr, "restore: %s\n", rc == -1 && e->gx ? err : "out of memory");
    free(blob);
    return rc;
}

int main(int argc, char **argv)
{
    int state_mid = argc == 3 && strcmp(argv[2], "--state-mid") == 0;
    if (argc != 2 && !state_mid) {
        fprintf(stderr, "usage: %s TRACE [--state-mid]\n", argv[0]);
        return 2;
    }
    if (strcmp(dsgx_version(), DSGX_VERSION_STRING) != 0) {
        fprintf(stderr, "libdsgx %s, headers %s\n", dsgx_version(), DSGX_VERSION_STRING);
        return 1;
    }
    dsgx_trace t = {0};
    char err[256];
    if (dsgx_trace_load(&t, argv[1], err, sizeof err) != 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    emu e = {gx_create(), raster_create(), {{0}}};
    if (!e.gx || !e.raster) return 1;

    unsigned frames = 0;
    for (size_t i = 0; i < t.n; i++) {
        if (state_mid && i == t.n / 2 && save_and_reload(&e) != 0) return 1;
        const dsgx_trace_item *it = &t.items[i];
        switch (it->op) {
        case TRACE_W32: bus_store(&e, 32, it->addr, it->value); break;
        case TRACE_W16: bus_store(&e, 16, it->addr, it->value); break;
        case TRACE_W8: bus_store(&e, 8, it->addr, it->value); break;
        case TRACE_DATA: /* a block copy: consecutive 32-bit little-endian stores */
            for (uint32_t k = 0; k + 4 <= it->data_len; k += 4) {
                const uint8_t *b = t.data + it->data_off + k;
                uint32_t v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                             (uint32_t)b[3] << 24;
                bus_store(&e, 32, it->addr + k, v);
            }
            break;
        case TRACE_FRAME: {
            vblank(&e);
            char hex[17];
            dsgx_frame_hash_hex(&e.frame, hex);
            printf("frame %u %s\n", frames++, hex);
            break;
        }
        default: break;
        }
    }
    raster_destroy(e.raster);
    gx_destroy(e.gx);
    dsgx_trace_free(&t);
    return 0;
}
