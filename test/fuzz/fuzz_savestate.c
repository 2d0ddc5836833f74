/*
 * fuzz_savestate.c - the save-state loader on arbitrary bytes.
 *
 * Each input is checked as it is; then, if it carries a checksum, once more with the checksum
 * recomputed, so that mutations get past it into the section checks. A blob that is accepted
 * is restored into an engine pair that then runs: a VBlank, a frame drawn, a save of the
 * restored state (which must be accepted in turn) and a few bus writes.
 * Corpus: blobs written by dsgx_state_save (test/fuzz/README.md).
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "tools/core/savestate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void run(const uint8_t *data, size_t size)
{
    char err[256];
    if (dsgx_state_check(data, size, err, sizeof err) != 0) return;
    gx_engine *gx = gx_create();
    raster_engine *r = raster_create();
    static dsgx_frame frame; /* (large; the fuzz target is single-threaded) */
    if (gx && r && dsgx_state_restore(gx, r, data, size, err, sizeof err) == 0) {
        gx_vblank(gx);
        raster_render(r, gx_render_frame(gx), &frame, NULL);
        size_t n = dsgx_state_size(gx, r);
        uint8_t *again = malloc(n);
        if (again && dsgx_state_save(gx, r, again, n, DSGX_STATE_CHECKSUM) == n &&
            dsgx_state_check(again, n, err, sizeof err) != 0)
            abort(); /* a state the engine reached must load */
        free(again);
        gx_write32(gx, 0x04000440, 0); /* MTX_MODE */
        gx_write32(gx, 0x04000500, 0); /* BEGIN_VTXS */
        gx_write32(gx, 0x04000540, 0); /* SWAP_BUFFERS */
        gx_vblank(gx);
        raster_render(r, gx_render_frame(gx), &frame, NULL);
    }
    gx_destroy(gx);
    raster_destroy(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    run(data, size);
    /* the same with a valid checksum (header: flags at 20, bit 0; trailer: XXH3-64) */
    if (size >= 36 && (data[20] & 1)) {
        uint8_t *copy = malloc(size);
        if (!copy) return 0;
        memcpy(copy, data, size);
        uint64_t h = XXH3_64bits(copy, size - 8);
        for (int i = 0; i < 8; i++) copy[size - 8 + i] = (uint8_t)(h >> (8 * i));
        run(copy, size);
        free(copy);
    }
    return 0;
}
